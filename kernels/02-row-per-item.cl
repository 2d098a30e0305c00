/*
 * Lesson 2: one row of C per work-item.
 *
 * Computes C = A * B for square N x N matrices stored row-major: element
 * (r, c) sits at index r*N + c, so each row is contiguous.
 *
 * The NDRange is one-dimensional with N work-items (in groups of WG).
 * Work-item `row` computes the whole row `row` of C: N dot products of
 * length N, one after the other. There is N times less parallelism than in
 * lesson 1, and N times more serial work in each work-item.
 *
 * The engine pads N to a multiple of WG, so every work-item has a row.
 */

__kernel void gemm_row_per_item(const int N,
                                const __global float *A,
                                const __global float *B,
                                __global float *C)
{
    const int row = get_global_id(0);   /* the row of A and of C owned here */

    for (int col = 0; col < N; col++) {
        /*
         * A(row, k) is at row*N + k: this work-item walks along its own row
         * (contiguous), but its neighbours in the warp walk along *other*
         * rows, N floats away -- at a given k the warp touches 32 different
         * cache lines. B(k, col) is at k*N + col: the same address for the
         * whole warp (a broadcast), one new row of B per step of k.
         */
        float acc = 0.0f;
        for (int k = 0; k < N; k++)
            acc += A[row * N + k] * B[k * N + col];

        /* Again N floats between neighbouring work-items: not coalesced. */
        C[row * N + col] = acc;
    }
}
