/*
 * Lesson 3: one row of C per work-item, with the row of A in private memory.
 *
 * Computes C = A * B for square N x N matrices stored row-major (element
 * (r, c) at index r*N + c). As in lesson 2, work-item `row` of a 1D NDRange
 * of N work-items computes row `row` of C. The difference: it first copies
 * row `row` of A into a private array, then reads A only from that copy
 * during the N dot products.
 *
 * A private array must have a size known at compile time, so it is sized by
 * the parameter KMAX (-DKMAX=...); the lesson refuses N > KMAX. At KMAX=4096
 * the array is 16 KiB per work-item: far more than any register file gives
 * one work-item, so the compiler keeps it in "private" memory that really
 * lives off-chip (NVIDIA calls it local memory), reached through the caches.
 */

#ifndef KMAX
#error "KMAX is set by the engine from the lesson's param line (-DKMAX=...)"
#endif

__kernel void gemm_row_private_a(const int N,
                                 const __global float *A,
                                 const __global float *B,
                                 __global float *C)
{
    const int row = get_global_id(0);
    float arow[KMAX];   /* only the first N entries are used (N <= KMAX) */

    /* One pass over row `row` of A; from here on A is never read again. */
    for (int k = 0; k < N; k++)
        arow[k] = A[row * N + k];

    for (int col = 0; col < N; col++) {
        /* arow[k] is private, B(k, col) is shared by the whole warp. */
        float acc = 0.0f;
        for (int k = 0; k < N; k++)
            acc += arow[k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
