/*
 * Exercise 9: lesson 10's wider loads into local memory, with the tile
 * copies left to write.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
 * of a matrix with R rows at index c*R + r); B is given transposed, as BT
 * (N x K) column-major: B(k, n) = BT[k*N + n].
 *
 * The computation is that of lesson 9: a work-group of RTSM x RTSN
 * work-items owns a TSM x TSN tile of C, and each work-item a WPTM x WPTN
 * block of it (rows lr + wm*RTSM, columns lc + wn*RTSN). What changes is the
 * copy of the tiles: A and BT are read as vectors of WIDTH floats (floatW)
 * along m and n, and both tiles are stored k-major, so each vector lands in
 * local memory as WIDTH consecutive words.
 *
 * The engine pads M, N and K to multiples of TSM, TSN and TSK; the lesson
 * requires TSM and TSN to be multiples of WIDTH, so every line of A and BT
 * splits into whole, aligned vectors.
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WPTM) || !defined(WPTN) || !defined(WIDTH)
#error "TSM, TSN, TSK, WPTM, WPTN and WIDTH are set by the engine (-DNAME=VALUE)"
#endif

/* floatW, and STORE_W(v, i, p): write v to p[i*WIDTH .. i*WIDTH+WIDTH-1]. */
#if WIDTH == 1
typedef float floatW;
#define STORE_W(v, i, p) ((p)[i] = (v))
#elif WIDTH == 2
typedef float2 floatW;
#define STORE_W(v, i, p) vstore2((v), (i), (p))
#elif WIDTH == 4
typedef float4 floatW;
#define STORE_W(v, i, p) vstore4((v), (i), (p))
#elif WIDTH == 8
typedef float8 floatW;
#define STORE_W(v, i, p) vstore8((v), (i), (p))
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

#define RTSM (TSM / WPTM)                      /* work-items along M */
#define RTSN (TSN / WPTN)                      /* work-items along N */
#define WGS (RTSM * RTSN)                      /* work-items in a group */
#define VLOADS_A (TSK * TSM / WIDTH / WGS)     /* vectors of the A tile per work-item */
#define VLOADS_B (TSK * TSN / WIDTH / WGS)     /* vectors of the B tile per work-item */

/* The buffers are plain floats; seeing them as floatW lets one instruction
   move WIDTH of them. A line of A holds M/WIDTH vectors, one of BT N/WIDTH. */
__kernel void gemm_wider_loads(const int M, const int N, const int K,
                               const __global floatW *A,
                               const __global floatW *BT,
                               __global float *C)
{
    const int lr = get_local_id(0);             /* 0 .. RTSM-1: the fast index */
    const int lc = get_local_id(1);             /* 0 .. RTSN-1 */
    const int tid = lc * RTSM + lr;
    const int row0 = get_group_id(0) * TSM;
    const int col0 = get_group_id(1) * TSN;
    const int Mw = M / WIDTH;                   /* vectors in a column of A */
    const int Nw = N / WIDTH;                   /* vectors in a column of BT */

    /*
     *   Atile[k][r] = A(row0 + r, k0 + k)
     *   Btile[k][c] = B(k0 + k, col0 + c)
     * Lessons 8 and 9 stored B's tile as Btile[c][k] and padded it so that
     * single floats written down a column hit different banks. A vector of
     * WIDTH n-neighbours would be scattered over WIDTH lines there, and
     * work-items WIDTH*(TSK+1) words apart share banks again whatever the
     * padding. Stored k-major like A's tile, the vector is written in one
     * piece to consecutive words and no padding is needed.
     */
    __local float Atile[TSK][TSM];
    __local float Btile[TSK][TSN];

    float acc[WPTM][WPTN];
    float bval[WPTN];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TSK) {
        /*
         * TODO: copy this step's tiles, WIDTH floats at a time. A line k of
         * a tile holds TSM/WIDTH vectors of A (TSN/WIDTH of BT); number the
         * vectors of a tile id = v + k*(TS/WIDTH), with v the vector in
         * its line, and let work-item tid copy the vectors id = l*WGS + tid
         * for l = 0 .. VLOADS_A-1 (VLOADS_B-1 for B). Vector v of line k
         * holds rows (or columns) v*WIDTH .. v*WIDTH+WIDTH-1 of the tile,
         * and is read from A (or BT) as one floatW; STORE_W writes it to
         * the tile line.
         */
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Unchanged from lesson 9 except for Btile's orientation. A warp
           reads consecutive words of Atile, and of Btile one word per value
           of lc it holds, consecutive as well: no bank conflicts. */
        for (int k = 0; k < TSK; k++) {
            for (int wn = 0; wn < WPTN; wn++)
                bval[wn] = Btile[k][lc + wn * RTSN];
            for (int wm = 0; wm < WPTM; wm++) {
                const float a = Atile[k][lr + wm * RTSM];
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] += a * bval[wn];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            C[(col0 + lc + wn * RTSN) * M + row0 + lr + wm * RTSM] = acc[wm][wn];
}
