/*
 * Exercise 12: lesson 14's warp tiles, with the place of each lane in its
 * warp tile left to write. Lesson 14 explains it in "Counting the passes
 * again" and "The warp tile, drawn".
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
 * A(m, k) = A[m*K + k], B(k, n) = B[k*N + n], C(m, n) = C[m*N + n]. M, N
 * and K are the true sizes: the kernel handles the edges itself.
 *
 * A work-group owns a TSM x TSN tile of C, as in lesson 13, and copies its
 * tiles of A and B into local memory in exactly lesson 13's way. What is
 * new is who computes what. The tile is cut into warp tiles of WM x WN, one
 * per 32 work-items of consecutive linear id (a warp on NVIDIA GPUs):
 *   tid  = get_local_id(0) + RTSN * get_local_id(1)
 *   warp = tid / 32 owns the warp tile (warp / WTN, warp % WTN)
 * Inside a warp tile the 32 work-items stand as a grid of WIM rows by
 * WIN = 32/WIM columns, lane (lane = tid % 32) at row lr and column lc.
 * Missing here: lr and lc (the gap marked below, in gemm_warp_tiles). The
 * lanes must stand so that lanes 2j and 2j+1 are one above the other (same column)
 * and lanes 4j..4j+1 and 4j+2..4j+3 side by side (same rows). Each work-item
 * computes WPTM x WPTN = (WM/WIM) x (WN/WIN) elements of its warp tile in
 * runs of 4 neighbours, held in registers as float4 along n:
 *   rows    4*(g*WIM + lr) + i   for g < WPTM/4, i < 4
 *   columns 4*(h*WIN + lc) + j   for h < WPTN/4, j < 4
 * counted from the warp tile's corner. Only the speed depends on the
 * warps: a device whose subgroups are not 32 wide (a CPU) computes the
 * same products with the same work-items.
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WM) || !defined(WN) || !defined(WIM)
#error "TSM, TSN, TSK, WM, WN and WIM are set by the engine (-DNAME=VALUE)"
#endif
#if WIM < 2 || WIM > 16 || 32 % WIM != 0
#error "WIM must be 2, 4, 8 or 16: WIM rows of 32/WIM work-items make a warp"
#endif
#if TSM % WM != 0 || TSN % WN != 0
#error "the warp tile WM x WN must divide the group's tile TSM x TSN"
#endif
#if WM % (4 * WIM) != 0 || WN % (4 * (32 / WIM)) != 0 || TSK % 8 != 0
#error "WM must be a multiple of 4*WIM, WN of 4*(32/WIM), TSK of 8"
#endif

#define WIN (32 / WIM)                     /* work-items along N in a warp tile */
#define WPTM (WM / WIM)                    /* rows of C per work-item */
#define WPTN (WN / WIN)                    /* columns of C per work-item */
#define WTN (TSN / WN)                     /* warp tiles along N */
#define RTSM (TSM / WPTM)                  /* work-items along M: local size 1 */
#define RTSN (TSN / WPTN)                  /* work-items along N: local size 0 */
#define WGS (RTSM * RTSN)                  /* work-items in a group: 32 per warp tile */
#define GM (WPTM / 4)                      /* float4 runs of rows per work-item */
#define GN (WPTN / 4)                      /* float4 runs of columns per work-item */
#define VECS_A (TSM * TSK / 4)             /* float4 in a tile of A */
#define VECS_B (TSK * TSN / 4)             /* float4 in a tile of B */
#define LOADS_A ((VECS_A + WGS - 1) / WGS) /* rounds of copying, per tile */
#define LOADS_B ((VECS_B + WGS - 1) / WGS)
/* When a tile has fewer float4s than the group has work-items (or not a
   multiple of it), the last round is partial. The test is a compile-time
   constant otherwise, and disappears. No barrier lies inside a round. */
#define IN_A(id) (VECS_A % WGS == 0 || (id) < VECS_A)
#define IN_B(id) (VECS_B % WGS == 0 || (id) < VECS_B)
#define ALINE (TSM / 4 + 1)                /* float4 per line of the A tile: 4 floats of padding */

/*
 * P(r, c .. c+3) of a row-major matrix P with `rows` rows of `cols` floats,
 * zeros outside it; c is a multiple of 4. A float4 load needs an address
 * that is a multiple of 16 bytes. When cols is a multiple of 4, every row
 * starts on such an address and so does every c, and a vector that starts
 * inside a row ends inside it. Otherwise the four floats are read one by
 * one, each checked. The test on cols has the same outcome in the whole
 * grid; work-items differ only in the edge tests, and only at the edges.
 */
float4 load4(const __global float *P, const int rows, const int cols, const int r, const int c)
{
    float4 v = (float4)(0.0f);
    if (r < rows) {
        const int i = r * cols + c;
        if (cols % 4 == 0) {
            if (c < cols)
                v = ((const __global float4 *)P)[i / 4];
        } else {
            if (c < cols)     v.s0 = P[i];
            if (c + 1 < cols) v.s1 = P[i + 1];
            if (c + 2 < cols) v.s2 = P[i + 2];
            if (c + 3 < cols) v.s3 = P[i + 3];
        }
    }
    return v;
}

/* The other direction, for C: writes only the elements inside the matrix. */
void store4(__global float *P, const int rows, const int cols, const int r, const int c,
            const float4 v)
{
    if (r < rows) {
        const int i = r * cols + c;
        if (cols % 4 == 0) {
            if (c < cols)
                ((__global float4 *)P)[i / 4] = v;
        } else {
            if (c < cols)     P[i] = v.s0;
            if (c + 1 < cols) P[i + 1] = v.s1;
            if (c + 2 < cols) P[i + 2] = v.s2;
            if (c + 3 < cols) P[i + 3] = v.s3;
        }
    }
}

/*
 * The float4 of the A tile that copy slot id (l*WGS + tid in round l)
 * moves: row a_row(id) of the tile, floats a_col(id) .. a_col(id)+3 of the
 * step. Two neighbouring work-items take the two halves of 8 consecutive
 * floats of one row (one 32-byte sector of global memory); a warp covers
 * 16 rows that way.
 */
int a_row(const int id) { return (id / 2) % TSM; }
int a_col(const int id) { return 8 * ((id / 2) / TSM) + 4 * (id % 2); }

/* B's tile is copied as it lies: float4 v of line k, v running fastest. */
int b_vec(const int id) { return id % (TSN / 4); }
int b_row(const int id) { return id / (TSN / 4); }

/* Global memory -> registers: this work-item's share of the tiles of the
   step that starts at k0. */
void fetch(float4 *anext, float4 *bnext,
           const __global float *A, const __global float *B,
           const int M, const int N, const int K,
           const int row0, const int col0, const int k0, const int tid)
{
    #pragma unroll
    for (int l = 0; l < LOADS_A; l++) {
        const int id = l * WGS + tid;
        if (IN_A(id))
            anext[l] = load4(A, M, K, row0 + a_row(id), k0 + a_col(id));
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        if (IN_B(id))
            bnext[l] = load4(B, K, N, k0 + b_row(id), col0 + 4 * b_vec(id));
    }
}

/* Registers -> one local buffer. This is where A gets transposed: the four
   floats of a row of A go to four lines of the tile. */
void stash(__local float *at, __local float4 *bt,
           const float4 *anext, const float4 *bnext, const int tid)
{
    #pragma unroll
    for (int l = 0; l < LOADS_A; l++) {
        const int id = l * WGS + tid;
        if (IN_A(id)) {
            const int r = a_row(id), k = a_col(id);
            at[(k + 0) * (4 * ALINE) + r] = anext[l].s0;
            at[(k + 1) * (4 * ALINE) + r] = anext[l].s1;
            at[(k + 2) * (4 * ALINE) + r] = anext[l].s2;
            at[(k + 3) * (4 * ALINE) + r] = anext[l].s3;
        }
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        if (IN_B(id))
            bt[b_row(id) * (TSN / 4) + b_vec(id)] = bnext[l];
    }
}

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void gemm_warp_tiles(const int M, const int N, const int K,
                     const __global float *A,
                     const __global float *B,
                     __global float *C)
{
    /* Work-items of consecutive linear id make a warp on NVIDIA GPUs. The
       copying below uses tid as lesson 13 does; only the computation and
       the stores use the warp arrangement. */
    const int tid = get_local_id(0) + RTSN * get_local_id(1);
    const int warp = tid / 32, lane = tid % 32;
    /*
     * TODO: the lane's place in its warp's grid of WIM rows by WIN columns:
     * row lr (0 .. WIM-1) and column lc (0 .. WIN-1). Every place must get
     * exactly one lane. Lanes 2j and 2j+1 must have the same lc (they read
     * the same float4 of Btile), and lanes 4j+i and 4j+i+2 (i = 0, 1) the
     * same lr (they read the same float4 of Atile). As shipped, all 32
     * lanes stand at row 0 and column 0: they all compute the same
     * elements, and most of C is never written.
     */
    const int lr = 0;                                   /* 0 .. WIM-1 */
    const int lc = 0;                                   /* 0 .. WIN-1 */
    /* The float4 of a line of each tile where this work-item's first run
       starts: its warp tile's corner, then its place in the warp's grid. */
    const int am = (warp / WTN) * (WM / 4) + lr;
    const int bn = (warp % WTN) * (WN / 4) + lc;
    const int row0 = get_group_id(1) * TSM;    /* first row of the group's tile of C */
    const int col0 = get_group_id(0) * TSN;    /* first column */

    /*
     * As in lesson 13, declared as float4 so that the float4 reads below
     * are aligned:
     *   Atile[b][k][..] seen as floats: element r is A(row0 + r, k0 + k)
     *   Btile[b][k][v] = B(k0 + k, col0 + 4v .. 4v+3)
     * and Atile's lines have 4 floats of padding, so that the transposing
     * stores of a warp hit 32 different banks.
     */
    __local float4 Atile[2][TSK][ALINE];
    __local float4 Btile[2][TSK][TSN / 4];

    float4 acc[WPTM][GN];          /* acc[4g+i][h]: row 4*(g*WIM+lr)+i, columns of run h */
    float4 anext[LOADS_A];         /* the next step's tiles, on their way to local memory */
    float4 bnext[LOADS_B];

    #pragma unroll
    for (int i = 0; i < WPTM; i++) {
        #pragma unroll
        for (int h = 0; h < GN; h++)
            acc[i][h] = (float4)(0.0f);
    }

    const int steps = (K + TSK - 1) / TSK;   /* the last one may be partial: zeros */

    fetch(anext, bnext, A, B, M, N, K, row0, col0, 0, tid);

    for (int t = 0; t < steps; t++) {
        const int cur = t % 2;

        /* Buffer cur was last read in step t-2, before the barrier of step
           t-1: it is free. */
        stash((__local float *)Atile[cur], &Btile[cur][0][0], anext, bnext, tid);

        /* The one barrier of the step: buffer cur is complete. */
        barrier(CLK_LOCAL_MEM_FENCE);

        /* The next step's loads, in flight while this step computes. */
        if (t + 1 < steps)
            fetch(anext, bnext, A, B, M, N, K, row0, col0, (t + 1) * TSK, tid);

        #pragma unroll
        for (int k = 0; k < TSK; k++) {
            float4 a[GM], b[GN];
            /* A warp reads WIM float4s of Atile per g and WIN of Btile
               per h. Lanes 2j and 2j+1 read the same float4 of Btile,
               lanes 4j+i and 4j+i+2 the same float4 of Atile: the pairs
               that let NVIDIA's local memory serve a float4 read in 2
               passes instead of 4. */
            #pragma unroll
            for (int g = 0; g < GM; g++)
                a[g] = Atile[cur][k][am + g * WIM];
            #pragma unroll
            for (int h = 0; h < GN; h++)
                b[h] = Btile[cur][k][bn + h * WIN];
            #pragma unroll
            for (int g = 0; g < GM; g++) {
                #pragma unroll
                for (int h = 0; h < GN; h++) {
                    acc[4 * g + 0][h] += a[g].s0 * b[h];
                    acc[4 * g + 1][h] += a[g].s1 * b[h];
                    acc[4 * g + 2][h] += a[g].s2 * b[h];
                    acc[4 * g + 3][h] += a[g].s3 * b[h];
                }
            }
        }
    }

    /* A warp's store writes WIM rows of WIN neighbouring float4s each:
       with the default 4 x 8, four whole 128-byte pieces of rows. */
    #pragma unroll
    for (int g = 0; g < GM; g++) {
        #pragma unroll
        for (int i = 0; i < 4; i++) {
            #pragma unroll
            for (int h = 0; h < GN; h++)
                store4(C, M, N, row0 + 4 * (am + g * WIM) + i,
                       col0 + 4 * (bn + h * WIN), acc[4 * g + i][h]);
        }
    }
}
