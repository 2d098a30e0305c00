/*
 * Exercise 2: lesson 5's tiling in local memory, with the tile copy and the
 * barriers left to write.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
 * (element (r, c) of a matrix with R rows at index c*R + r).
 *
 * A work-group of TS x TS work-items owns one TS x TS tile of C; work-item
 * (lr, lc) computes the element at row lr, column lc of that tile. The group
 * walks along K in steps of TS. At each step it copies a TS x TS tile of A
 * and one of B into local memory -- one element of each per work-item --
 * waits at a barrier, and then every work-item performs TS multiply-adds
 * reading only local memory. Every float fetched from global memory is
 * therefore used TS times instead of once.
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
         * TODO: copy this step's tiles. Work-item (lr, lc) fills one element
         * of each: Atile[lc][lr] and Btile[lc][lr] (see above for what they
         * hold), reading A and B so that work-items with consecutive lr read
         * consecutive addresses.
         */

        /* TODO: may the multiply-adds start yet? */

        /* Atile[k][lr]: consecutive words across the warp, no bank conflict.
           Btile[lc][k]: one word per tile column, broadcast to its readers. */
        for (int k = 0; k < TS; k++)
            acc += Atile[k][lr] * Btile[lc][k];

        /* TODO: may the next step's copy start yet? */
    }

    C[col * M + row] = acc;
}
