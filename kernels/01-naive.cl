/*
 * Lesson 1: the naive kernel -- one work-item per element of C.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all stored
 * column-major: element (r, c) of a matrix with R rows sits at index c*R + r,
 * so each column is contiguous and moving down a column moves by one float.
 *
 * Work-item (row, col) = (get_global_id(0), get_global_id(1)) computes the
 * single element C(row, col) as a dot product of length K: row `row` of A
 * with column `col` of B.
 *
 * Dimension 0 of the NDRange runs along M on purpose: work-items that are
 * neighbours in dimension 0 end up side by side in the same warp/wavefront,
 * and in column-major storage neighbouring rows are neighbouring addresses.
 *
 * SWAP=1 swaps the two dimensions: dimension 0 runs along N, so neighbours
 * in a warp own neighbouring columns of one row. They then read B a column
 * (K floats) apart and write C a column (M floats) apart, and share A's
 * float: the uncoalesced order, kept to measure what the right one buys.
 *
 * The engine pads M and N to multiples of TS (the work-group is TS x TS), so
 * the NDRange covers C exactly and no bounds test is needed. TS does not
 * appear below: it only shapes the work-groups.
 */

__kernel void gemm_naive(const int M, const int N, const int K,
                         const __global float *A,
                         const __global float *B,
                         __global float *C)
{
#if !SWAP
    const int row = get_global_id(0);   /* 0 .. M-1, the fast dimension */
    const int col = get_global_id(1);   /* 0 .. N-1 */
#else
    /* SWAP=1: the fast dimension runs along N. */
    const int row = get_global_id(1);
    const int col = get_global_id(0);
#endif

    /*
     * A(row, k) is at k*M + row: along k this work-item strides by M floats,
     * but at a given k the work-items row, row+1, ... of one warp read
     * consecutive floats -- one wide memory transaction serves them all.
     * B(k, col) is at col*K + k: every work-item of the warp that shares
     * `col` reads the same float, which the hardware broadcasts.
     */
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[k * M + row] * B[col * K + k];

    /* Neighbouring work-items write neighbouring floats: a coalesced store. */
    C[col * M + row] = acc;
}
