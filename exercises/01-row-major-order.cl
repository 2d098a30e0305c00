/*
 * Exercise 1: the naive kernel of lesson 1, for row-major matrices.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all stored
 * row-major: element (r, c) of a matrix with `cols` columns sits at index
 * r*cols + c, so each row is contiguous and moving along a row moves by one
 * float.
 *
 * The NDRange is one-dimensional: M*N work-items in groups of WG, one per
 * element of C. Work-item `id` computes the single element C(row, col) as a
 * dot product of length K; how `id` is split into row and col is the
 * exercise. Work-items with consecutive ids run side by side in one warp
 * (or wavefront), whose loads and stores are combined when their addresses
 * are neighbours.
 *
 * The engine pads M and N to multiples of 16, so M*N is a multiple of
 * WG = 256 and every work-item has an element of C.
 */

__kernel void gemm_row_major_naive(const int M, const int N, const int K,
                                   const __global float *A,
                                   const __global float *B,
                                   __global float *C)
{
    const int id = get_global_id(0);   /* 0 .. M*N-1 */

    /*
     * TODO: split id into a row (0 .. M-1) and a column (0 .. N-1) of C,
     * using id / N and id % N, or id % M and id / M. Both cover C once;
     * only one makes the store at the end coalesced.
     */
    const int row = 0;   /* TODO */
    const int col = 0;   /* TODO */

    /* A(row, k) is at row*K + k, B(k, col) at k*N + col. */
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];

    /* C(row, col) is at row*N + col. */
    C[row * N + col] = acc;
}
