/*
 * Lesson 7: wider data types -- vector loads and vector arithmetic.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
 * (element (r, c) of a matrix with R rows at index c*R + r).
 *
 * Tiling as in lesson 5, but the matrices are read and written as vectors of
 * WIDTH floats (floatW) taken down a column: one floatW of A or C holds
 * WIDTH consecutive rows, one floatW of B holds WIDTH consecutive k. A
 * work-group of (TS/WIDTH) x TS work-items owns a TS x TS tile of C, and
 * work-item (lv, lc) computes the WIDTH elements of rows lv*WIDTH ..
 * lv*WIDTH+WIDTH-1 in tile column lc, with one floatW accumulator.
 *
 * The engine pads M, N and K to multiples of TS, and the lesson requires
 * TS % WIDTH == 0, so every column of A, B and C splits into whole,
 * aligned vectors and every tile is full.
 */

#ifndef TS
#error "TS is set by the engine from the lesson's param line (-DTS=...)"
#endif

#if WIDTH == 1
typedef float floatW;
#elif WIDTH == 2
typedef float2 floatW;
#elif WIDTH == 4
typedef float4 floatW;
#elif WIDTH == 8
typedef float8 floatW;
#else
#error "WIDTH must be 1, 2, 4 or 8 (-DWIDTH=...)"
#endif

#define VTS (TS / WIDTH)   /* vectors in one column of a tile */

/* The buffers are the same float arrays as in the other lessons; declaring
   them floatW only changes how the kernel reads and writes them. */
__kernel void gemm_wider_types(const int M, const int N, const int K,
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

    /* Column by column, as in lesson 5, but each entry is a vector:
         Atile[k][v] = A(rows v*WIDTH .., column k0 + k)
         Btile[c][v] = B(k0 + v*WIDTH .., tile column c)          */
    __local floatW Atile[TS][VTS];
    __local floatW Btile[TS][VTS];

    floatW acc = (floatW)(0.0f);
    for (int k0 = 0; k0 < K; k0 += TS) {
        /* One vector of each tile per work-item: the group's TS*VTS
           work-items match the TS*VTS vectors of a tile exactly. Consecutive
           lv read consecutive vectors: coalesced, and WIDTH times fewer
           load instructions than with single floats. */
        Atile[lc][lv] = A[(k0 + lc) * Mv + vrow];
        Btile[lc][lv] = B[col * Kv + (k0 / WIDTH + lv)];
        barrier(CLK_LOCAL_MEM_FENCE);

        /* The B tile column is read one float at a time: seen as floats it
           is simply B(k0 .. k0+TS-1, col). */
        const __local float *bcol = (const __local float *)Btile[lc];
        for (int k = 0; k < TS; k++)
            acc += Atile[k][lv] * bcol[k];   /* WIDTH multiply-adds: vector times scalar */

        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    C[col * Mv + vrow] = acc;   /* one vector store: WIDTH rows of column col */
}
