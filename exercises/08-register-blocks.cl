/*
 * Exercise 8: lesson 9's 2D register blocking, with the multiply-adds of
 * the block left to write.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
 * of a matrix with R rows at index c*R + r); B is given transposed, as BT
 * (N x K) column-major: B(k, n) = BT[k*N + n].
 *
 * A work-group owns a TSM x TSN tile of C and walks along K in steps of TSK,
 * with tiles of A and B in local memory as in lesson 8. It has RTSM x RTSN
 * work-items (RTSM = TSM/WPTM, RTSN = TSN/WPTN), and each computes a WPTM x
 * WPTN block of the tile: rows lr + wm*RTSM, columns lc + wn*RTSN, for
 * wm < WPTM, wn < WPTN. The block's sums live in registers; at every k the
 * work-item reads WPTM values of A and WPTN of B from local memory and does
 * WPTM*WPTN multiply-adds with them.
 *
 * The engine pads M, N and K to multiples of TSM, TSN and TSK; the lesson's
 * require lines make the tiles split evenly over the work-items.
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WPTM) || !defined(WPTN)
#error "TSM, TSN, TSK, WPTM and WPTN are set by the engine (-DNAME=VALUE)"
#endif

#define RTSM (TSM / WPTM)          /* work-items along M */
#define RTSN (TSN / WPTN)          /* work-items along N */
#define WGS (RTSM * RTSN)          /* work-items in a group */
#define LOADS_A (TSK * TSM / WGS)  /* floats of the A tile each work-item copies */
#define LOADS_B (TSK * TSN / WGS)  /* floats of the B tile each work-item copies */

__kernel void gemm_register_blocks(const int M, const int N, const int K,
                                   const __global float *A,
                                   const __global float *BT,
                                   __global float *C)
{
    const int lr = get_local_id(0);             /* 0 .. RTSM-1: the fast index */
    const int lc = get_local_id(1);             /* 0 .. RTSN-1 */
    const int tid = lc * RTSM + lr;             /* warps are cut from this order */
    const int row0 = get_group_id(0) * TSM;
    const int col0 = get_group_id(1) * TSN;

    /* The tiles of lesson 8, with its padding:
         Atile[k][r] = A(row0 + r, k0 + k)
         Btile[c][k] = B(k0 + k, col0 + c)                                  */
    __local float Atile[TSK][TSM];
    __local float Btile[TSN][TSK + 1];

    /* All indices into these arrays are compile-time constants once the
       loops are unrolled, so they become registers: WPTM*WPTN + WPTN floats. */
    float acc[WPTM][WPTN];
    float bval[WPTN];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TSK) {
        /* The group is smaller than a tile now: each work-item copies
           LOADS_A + LOADS_B floats, in rounds of WGS consecutive elements. */
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
            Btile[c][k] = BT[(k0 + k) * N + col0 + c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TSK; k++) {
            /*
             * TODO: this work-item's WPTM*WPTN multiply-adds for this k.
             * acc[wm][wn] is C(row0 + lr + wm*RTSM, col0 + lc + wn*RTSN).
             * Read each value of B it needs from Btile once, into bval[wn];
             * then for each wm read one value of A from Atile and use it
             * WPTN times.
             */
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    /* Consecutive lr write consecutive rows of a column: coalesced. */
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            C[(col0 + lc + wn * RTSN) * M + row0 + lr + wm * RTSM] = acc[wm][wn];
}
