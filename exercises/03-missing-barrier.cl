/*
 * Exercise 3: lesson 5's tiling in local memory, with a race.
 *
 * TODO: this kernel gives wrong results because one barrier is missing.
 * Find where, and put it back.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
 * (element (r, c) of a matrix with R rows at index c*R + r).
 *
 * A work-group of TS x TS work-items owns one TS x TS tile of C; work-item
 * (lr, lc) computes the element at row lr, column lc of that tile. The group
 * walks along K in steps of TS. At each step it copies a TS x TS tile of A
 * and one of B into local memory -- one element of each per work-item --
 * and then every work-item performs TS multiply-adds reading only local
 * memory. Every float fetched from global memory is therefore used TS
 * times instead of once.
 *
 * The engine pads M, N and K to multiples of TS: all tiles are full.
 */

#ifndef TS
#error "TS is set by the engine from the lesson's param line (-DTS=...)"
#endif

__kernel void gemm_local_tiles(const int M, const int N, const int K,
                               const __global float *A,
                               const __global float *B,
                               __global float *C)
{
    const int lr = get_local_id(0);              /* row inside the tile: the fast index */
    const int lc = get_local_id(1);              /* column inside the tile */
    const int row = get_group_id(0) * TS + lr;   /* this work-item's element of C */
    const int col = get_group_id(1) * TS + lc;

    /*
     * Both tiles are stored column by column, like the matrices:
     *   Atile[k][r] = A(tile row r, k0 + k)
     *   Btile[c][k] = B(k0 + k,     tile column c)
     * The last index is the one that follows lr, so work-items with
     * consecutive lr write consecutive words (different local-memory banks).
     */
    __local float Atile[TS][TS];
    __local float Btile[TS][TS];

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        /*
         * Work-item (lr, lc) fetches A(row, k0+lc) and B(k0+lr, col). In both
         * loads consecutive lr means consecutive addresses: coalesced, as the
         * A loads of lesson 1, but now B is read down its columns too.
         */
        Atile[lc][lr] = A[(k0 + lc) * M + row];
        Btile[lc][lr] = B[col * K + (k0 + lr)];

        /* Atile[k][lr]: consecutive words across the warp, no bank conflict.
           Btile[lc][k]: one word per tile column, broadcast to its readers.
           TS is a compile-time constant, so the loop is unrolled completely.
           Leave the pragma: on a CPU device (POCL), which runs the work-items
           of a group in turn, it is what lets this race show; the barrier is
           the fix, on every device. */
        #pragma unroll
        for (int k = 0; k < TS; k++)
            acc += Atile[k][lr] * Btile[lc][k];

        /* Everyone must be done with these tiles before the next step of the
           loop overwrites them; without this barrier a fast work-item could
           change a tile that a slow one is still reading. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    C[col * M + row] = acc;
}
