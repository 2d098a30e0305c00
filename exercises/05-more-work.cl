/*
 * Exercise 5: lesson 6's kernel, more work per work-item, with its
 * multiply-adds and its stores left to write.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
 * (element (r, c) of a matrix with R rows at index c*R + r).
 *
 * Tiling as in lesson 5: a work-group owns a TS x TS tile of C and walks
 * along K in TS x TS tiles of A and B held in local memory. But the group
 * now has only TS x RTS work-items (RTS = TS/WPT), and each of them computes
 * WPT elements of one row of the tile: the columns lc, lc+RTS, lc+2*RTS, ...
 * It keeps the WPT partial sums in registers, and every value it reads from
 * the A tile serves WPT multiply-adds instead of one.
 *
 * The engine pads M, N and K to multiples of TS; the lesson requires
 * TS % WPT == 0.
 */

#ifndef TS
#error "TS is set by the engine from the lesson's param line (-DTS=...)"
#endif
#ifndef WPT
#error "WPT is set by the engine from the lesson's param line (-DWPT=...)"
#endif

#define RTS (TS / WPT)   /* work-items per work-group along N: the reduced tile size */

__kernel void gemm_more_work(const int M, const int N, const int K,
                             const __global float *A,
                             const __global float *B,
                             __global float *C)
{
    const int lr = get_local_id(0);              /* row inside the tile, 0 .. TS-1 */
    const int lc = get_local_id(1);              /* 0 .. RTS-1 */
    const int row = get_group_id(0) * TS + lr;   /* the row of C this work-item serves */
    const int col0 = get_group_id(1) * TS;       /* first column of the group's tile */

    __local float Atile[TS][TS];   /* Atile[k][r] = A(tile row r, k0 + k) */
    __local float Btile[TS][TS];   /* Btile[c][k] = B(k0 + k, tile column c) */

    /* WPT is a compile-time constant, so these loops can be unrolled and acc[]
       kept in registers (an array indexed at run time would not be). */
    float acc[WPT];
    for (int w = 0; w < WPT; w++)
        acc[w] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TS) {
        /*
         * TS*TS elements per tile, TS*RTS work-items: each copies WPT
         * elements of each tile. In round w the group fills tile columns
         * w*RTS .. w*RTS+RTS-1, with lr running down each column, so every
         * round is a set of coalesced column reads.
         */
        for (int w = 0; w < WPT; w++) {
            const int c = lc + w * RTS;
            Atile[c][lr] = A[(k0 + c) * M + row];
            Btile[c][lr] = B[(col0 + c) * K + (k0 + lr)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++) {
            const float a = Atile[k][lr];   /* read once, used WPT times */
            /* TODO: WPT multiply-adds, one into each acc[w]: a times
               B(k0 + k, tile column lc + w*RTS), read from Btile. */
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    /* TODO: store the WPT results: acc[w] is C(row, col0 + lc + w*RTS). */
}
