/*
 * Exercise 1, a solution: the naive kernel of lesson 1, for row-major
 * matrices.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all stored
 * row-major: element (r, c) of a matrix with `cols` columns sits at index
 * r*cols + c, so each row is contiguous.
 *
 * The NDRange is one-dimensional: M*N work-items in groups of WG, one per
 * element of C. Consecutive ids take consecutive columns of one row: in
 * row-major storage the column index is the fast one, as the row index is
 * in lesson 1's column-major storage.
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
    const int row = id / N;            /* the same for runs of N work-items */
    const int col = id % N;            /* the fast index: +1 from one work-item to the next */

    /*
     * A(row, k) is at row*K + k: the same address for the lanes of a warp
     * that share a row, a broadcast. B(k, col) is at k*N + col: consecutive
     * floats across the warp, one wide transaction. (With row = id % M the
     * lanes would read A K floats apart and store C N floats apart.)
     */
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];

    /* Neighbouring work-items write neighbouring floats: a coalesced store. */
    C[row * N + col] = acc;
}
