/*
 * Lesson 4: one row of C per work-item, row of A in private memory, and the
 * column of B shared in local memory by the work-group.
 *
 * Computes C = A * B for square N x N matrices stored row-major (element
 * (r, c) at index r*N + c). Work-item `row` of a 1D NDRange of N work-items,
 * in groups of WG, computes row `row` of C, as in lesson 3. For each column
 * `col` of C the WG work-items of a group first copy column `col` of B into
 * the local buffer bcol (N floats, passed by the engine as local(N)), wait
 * at a barrier, and then all of them read B only from that shared copy.
 * Each element of B is fetched from global memory once per work-group
 * instead of once per work-item.
 *
 * KMAX sizes the private row of A, as in lesson 3 (the lesson refuses
 * N > KMAX). The engine pads N to a multiple of WG, so every work-item of
 * every group exists and reaches every barrier.
 */

#ifndef KMAX
#error "KMAX is set by the engine from the lesson's param line (-DKMAX=...)"
#endif
#ifndef WG
#error "WG is set by the engine from the lesson's param line (-DWG=...)"
#endif

__kernel void gemm_row_local_b(const int N,
                               const __global float *A,
                               const __global float *B,
                               __global float *C,
                               __local float *bcol)
{
    const int row = get_global_id(0);
    const int lid = get_local_id(0);    /* 0 .. WG-1: this work-item's share of the copy */
    float arow[KMAX];

    for (int k = 0; k < N; k++)
        arow[k] = A[row * N + k];

    for (int col = 0; col < N; col++) {
        /*
         * Cooperative copy: work-item lid fetches entries lid, lid+WG,
         * lid+2*WG, ... of column `col` of B. The WG loads of one round are
         * independent, so the memory system works on many at once.
         */
        for (int k = lid; k < N; k += WG)
            bcol[k] = B[k * N + col];

        /* Nobody may read bcol until every part of the column has arrived. */
        barrier(CLK_LOCAL_MEM_FENCE);

        float acc = 0.0f;
        for (int k = 0; k < N; k++)
            acc += arow[k] * bcol[k];   /* same bcol[k] for all: a broadcast */
        C[row * N + col] = acc;

        /* Nobody may overwrite bcol with the next column while a slower
           work-item of the group is still reading this one. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
