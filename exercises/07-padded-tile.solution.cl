/*
 * Exercise 7, a solution: lesson 7's kernel, with the B tile padded against
 * bank conflicts.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
 * (element (r, c) of a matrix with R rows at index c*R + r).
 *
 * As in lesson 7, the matrices are read and written as vectors of WIDTH
 * floats (floatW) down a column, a work-group of (TS/WIDTH) x TS work-items
 * owns a TS x TS tile of C, and work-item (lv, lc) computes the WIDTH
 * elements of rows lv*WIDTH .. lv*WIDTH+WIDTH-1 in tile column lc. The
 * exercise is built with TS = 32 and WIDTH = 4: groups of 8 x 32.
 *
 * What changes is the B tile. Lesson 7 keeps it as floatW Btile[TS][VTS]:
 * one line of TS words per tile column. A warp is 32 consecutive work-items
 * in the order lv + VTS*lc, so with VTS = 8 it holds four values of lc.
 * At each k its lanes read the words lc*TS + k of the four lines: with
 * TS = 32 those four words lie in the same one of the 32 banks, and the
 * warp waits for four passes of local memory where one would do. Here
 * Btile is a plain float array whose lines are TS + WIDTH words long: the
 * four words then fall in four different banks, one pass.
 *
 * The engine pads M, N and K to multiples of TS, and the exercise requires
 * TS % WIDTH == 0, so every column of A, B and C splits into whole,
 * aligned vectors and every tile is full.
 */

#ifndef TS
#error "TS is set by the engine from the exercise's param line (-DTS=...)"
#endif

/* floatW, and STORE_W(v, p): write v to p[0 .. WIDTH-1], where p need only
   be float-aligned. */
#if WIDTH == 1
typedef float floatW;
#define STORE_W(v, p) (*(p) = (v))
#elif WIDTH == 2
typedef float2 floatW;
#define STORE_W(v, p) vstore2((v), 0, (p))
#elif WIDTH == 4
typedef float4 floatW;
#define STORE_W(v, p) vstore4((v), 0, (p))
#elif WIDTH == 8
typedef float8 floatW;
#define STORE_W(v, p) vstore8((v), 0, (p))
#else
#error "WIDTH must be 1, 2, 4 or 8 (-DWIDTH=...)"
#endif

#define VTS (TS / WIDTH)   /* vectors in one column of a tile */

/*
 * Btile holds B(k0 + k, tile column c), for k and c in 0 .. TS-1, at word
 * BIDX(c, k): one line of BLINE words per tile column, k running along the
 * line. With TS = 32 and WIDTH = 4, BLINE = 36 and word c*36 + k lies in
 * bank (4c + k) mod 32: the lines of the warp's four columns start in
 * banks 0, 4, 8 and 12, and at any k their four words are in four
 * different banks.
 *
 * The padding is one whole vector, not one word: every line still starts
 * on a multiple of WIDTH words, so the copy's vector stores stay aligned
 * (vstoreN, which needs only float alignment, would accept a pad of one
 * word too, but a GPU may then split each vector store into WIDTH single
 * ones: measure both with the check).
 */
#define BLINE (TS + WIDTH)               /* one vector of padding per line */
#define BIDX(c, k) ((c) * BLINE + (k))

__kernel void gemm_padded_tile(const int M, const int N, const int K,
                               const __global floatW *A,
                               const __global floatW *B,
                               __global floatW *C)
{
    const int lv = get_local_id(0);               /* vector slot in a tile column: the fast index */
    const int lc = get_local_id(1);               /* column inside the tile, 0 .. TS-1 */
    const int vrow = get_group_id(0) * VTS + lv;  /* global index of this work-item's vector of rows */
    const int col = get_group_id(1) * TS + lc;

    const int Mv = M / WIDTH;   /* vectors per column of A and of C */
    const int Kv = K / WIDTH;   /* vectors per column of B */

    /* Atile[k][v] = A(rows v*WIDTH .., column k0 + k), as in lesson 7. */
    __local floatW Atile[TS][VTS];
    __local float Btile[TS * BLINE];

    floatW acc = (floatW)(0.0f);
    for (int k0 = 0; k0 < K; k0 += TS) {
        /* One vector of each tile per work-item. The vector of B holds
           B(k0 + lv*WIDTH .. k0 + lv*WIDTH + WIDTH-1, col): WIDTH
           consecutive k of tile column lc, stored from word
           BIDX(lc, lv*WIDTH) on. */
        Atile[lc][lv] = A[(k0 + lc) * Mv + vrow];
        STORE_W(B[col * Kv + (k0 / WIDTH + lv)], &Btile[BIDX(lc, lv * WIDTH)]);
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Atile[k][lv]: eight consecutive vectors across the warp.
           Btile: one word of each of the warp's four lines, in four
           different banks, each broadcast to its eight readers. */
        for (int k = 0; k < TS; k++)
            acc += Atile[k][lv] * Btile[BIDX(lc, k)];   /* WIDTH multiply-adds */

        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    C[col * Mv + vrow] = acc;   /* one vector store: WIDTH rows of column col */
}
