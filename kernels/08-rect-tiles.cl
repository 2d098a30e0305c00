/*
 * Lesson 8: B arrives transposed, tiles are rectangular, local memory is padded.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
 * of a matrix with R rows at index c*R + r). B is handed over as its transpose
 * BT (N x K), also column-major, so B(k, n) = BT[k*N + n]. Both inputs are now
 * contiguous along the dimension of C they feed: A along m, BT along n.
 *
 * A work-group owns a TSM x TSN tile of C and walks along K in steps of TSK,
 * which no longer has to equal the tile's sides. It has TSM x RTSN work-items
 * (RTSN = TSN/WPTN); work-item (lr, lc) computes WPTN elements of row lr of
 * the tile, in the columns lc, lc+RTSN, lc+2*RTSN, ... (as in lesson 6).
 *
 * The engine pads M, N and K to multiples of TSM, TSN and TSK; the lesson's
 * require lines make the tiles split evenly over the work-items.
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WPTN) || !defined(PAD)
#error "TSM, TSN, TSK, WPTN and PAD are set by the engine (-DNAME=VALUE)"
#endif

#define RTSN (TSN / WPTN)          /* work-items along N */
#define WGS (TSM * RTSN)           /* work-items in a group */
#define LOADS_A (TSK * TSM / WGS)  /* floats of the A tile each work-item copies */
#define LOADS_B (TSK * TSN / WGS)  /* floats of the B tile each work-item copies */

__kernel void gemm_rect_tiles(const int M, const int N, const int K,
                              const __global float *A,
                              const __global float *BT,
                              __global float *C)
{
    const int lr = get_local_id(0);             /* 0 .. TSM-1: the fast index */
    const int lc = get_local_id(1);             /* 0 .. RTSN-1 */
    const int tid = lc * TSM + lr;              /* the order in which the hardware packs warps */
    const int row0 = get_group_id(0) * TSM;     /* first row of the group's tile of C */
    const int col0 = get_group_id(1) * TSN;     /* first column */

    /*
     *   Atile[k][r] = A(row0 + r, k0 + k)
     *   Btile[c][k] = B(k0 + k, col0 + c)
     * Btile keeps the orientation of lessons 5-7 (one line per column of C),
     * so the compute loop below is unchanged. But BT is read along n, so the
     * copy into Btile walks down its first index: consecutive work-items
     * write words TSK+PAD apart. With PAD = 0 and TSK = 32 they all fall in
     * the same bank; one extra word per line spreads them over all banks.
     */
    __local float Atile[TSK][TSM];
    __local float Btile[TSN][TSK + PAD];

    float acc[WPTN];
    for (int w = 0; w < WPTN; w++)
        acc[w] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TSK) {
        /* Numbering the tile's elements with m (or n) fastest makes each
           round of the loop a run of consecutive addresses in global memory. */
        for (int l = 0; l < LOADS_A; l++) {
            const int id = l * WGS + tid;
            const int r = id % TSM;
            const int k = id / TSM;
            Atile[k][r] = A[(k0 + k) * M + row0 + r];
        }
        for (int l = 0; l < LOADS_B; l++) {
            const int id = l * WGS + tid;
            const int c = id % TSN;
            const int k = id / TSN;
            Btile[c][k] = BT[(k0 + k) * N + col0 + c];   /* the transposing store */
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* both tiles complete */

        for (int k = 0; k < TSK; k++) {
            const float a = Atile[k][lr];   /* consecutive words across a warp */
            /* A warp (32 consecutive lr) shares lc, so each Btile read is one
               word broadcast to all: no conflict, padded or not. */
            for (int w = 0; w < WPTN; w++)
                acc[w] += a * Btile[lc + w * RTSN][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* everyone done before the tiles are overwritten */
    }

    for (int w = 0; w < WPTN; w++)
        C[(col0 + lc + w * RTSN) * M + row0 + lr] = acc[w];
}
