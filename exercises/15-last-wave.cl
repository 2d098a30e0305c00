/*
 * Exercise 15: the starting kernel. Lesson 19's last wave (lesson 18's
 * kernel, with the split kept for the tiles that do not fill a wave), with
 * the split of the tail (PIECES = 0) missing how a group's number becomes
 * its tile and its range of k.
 *
 * What is missing: in gemm_last_wave, in the gap marked below, after
 * "#else" (the PIECES = 0 path), a group of the tail (g >= full) must find its tile of
 * the tail, its range z of k (slot) and that range's steps ks0 .. ks1-1.
 * As given, every group of the tail computes the tail's first tile over all
 * of K, and the other tiles of the tail are never written, so C is wrong.
 * Everything else is the lesson's, line for line; the PIECES = 1 path is
 * given whole. Lesson 19, "Waves" and "The tail, split", explains it.
 *
 * Lesson 19: the last wave. Lesson 18's kernel (warp tiles, lean steps,
 * large blocks, a split of K whose parts the last group adds), with the
 * split kept for the tiles that do not fill a wave.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
 * A(m, k) = A[m*K + k], B(k, n) = B[k*N + n], C(m, n) = C[m*N + n]. M, N
 * and K are the true sizes: the kernels handle the edges themselves.
 *
 * A GPU runs WAVE work-groups at once (the lesson's rule: one per compute
 * unit with 256 x 128 tiles, whose 255 registers per work-item leave room
 * for no second, two with smaller tiles). C's tiles are taken in waves of
 * WAVE; when their number is not a multiple of WAVE, the last wave is
 * partly empty and compute units wait with nothing to do while it runs. At
 * 8192 with 256 x 128 tiles: 2048 tiles, 15 whole waves of 132 and 68
 * tiles left, a last wave half empty.
 *
 * Here the first tiles, as many as fill whole waves, are computed as in
 * lesson 17, one group each over all of K. The TAIL = tiles % WAVE tiles
 * left are split: SPLIT groups each, each over a SPLIT-th of K, whose parts
 * are added as in lesson 18 (LAST = 1: by the last of the tile's groups to
 * count itself in; LAST = 0: by a second launch, reduce_tail). SPLIT * TAIL
 * groups, each SPLIT times shorter, fill the compute units better than
 * TAIL whole tiles: at 8192, 68 x 15 = 1020 groups make 7.7 waves of
 * fifteenths of a tile, 8 fifteenths where a whole tile took 15.
 *
 * With fewer tiles than a wave every tile is in the tail, and the kernel is
 * lesson 18 with its groups numbered along one dimension. With SPLIT = 1
 * it is lesson 17's.
 *
 * The groups are numbered along dimension 0 only: group g < FULL (the
 * tiles of the whole waves) computes tile g, the tiles numbered row by
 * row; the groups after them take the tail's tiles in turn, SPLIT
 * consecutive groups per tile, the z-th over the z-th range of k.
 *
 * A large tail can also be shared out in pieces of equal work (PIECES = 1,
 * the idea of stream-K). Split into SPLIT ranges of k, the tail's tiles make
 * TAIL * SPLIT groups, about 8 waves of them; each group has its own start
 * and end (the first loads, the stores of its part, the count), eight rounds
 * of them, and the last group of each tile reads SPLIT parts. With PIECES =
 * 1 the TAIL tiles' steps (TAIL * spt, spt = the steps of K per tile) are
 * dealt out in G = min(WAVE, 2 * TAIL) equal shares, as CUTLASS's stream-K
 * deals them: share j is steps [j*S/G, (j+1)*S/G) of the tail's tiles laid
 * end to end. A share may end inside a tile and the next begin there: the
 * tile is then computed by two or three groups, whose parts its last group
 * adds, in the order of k. Stream-K lets one group run on into the next
 * tile, in a loop; here a loop around lesson 17's loop slowed every group
 * (doc/results.md), so a share that crosses a tile's end becomes two groups,
 * one piece each. The G first pieces run in the first round; the second
 * pieces after them, the longest first: the compute unit that finishes its
 * first piece soonest takes the longest second one (GPUs start the groups
 * of a launch in the order of their numbers, as each unit frees up, as is
 * commonly taken; NVIDIA does not document it). Each
 * unit then does about one share, S / G steps, in two pieces.
 *
 * W holds the TAIL counters first, then the parts: MAXC = 3 blocks of TSM x
 * TSN per tile of the tail (a share is at least half a tile long, so at most
 * three overlap a tile), or SPLIT blocks per tile with PIECES = 0, dense,
 * from the first multiple of 32 floats after the counters. Their offsets
 * are ints: the engine refuses a scratch buffer of more than INT_MAX floats.
 */

#if !defined(SPLIT) || !defined(LAST) || !defined(WAVE) || !defined(PIECES)
#error "SPLIT, LAST, WAVE and PIECES are set by the engine (-DNAME=VALUE)"
#endif
#if PIECES && !LAST
#error "balanced pieces are added by their last group: LAST must be 1 with PIECES = 1"
#endif
#if SPLIT < 1
#error "SPLIT must be at least 1"
#endif

/* A fence that orders this work-item's stores before what follows for the
   whole device, not only for its work-group. OpenCL 1.2 has none: its
   mem_fence orders a work-item's own accesses, and NVIDIA's compiler makes
   it PTX's membar.cta, a fence for the work-group. On NVIDIA's OpenCL
   (which defines cl_nv_pragma_unroll) PTX's own fence for the whole GPU is
   written inline; elsewhere mem_fence, which the CPU devices that run the
   tests order fully. */
#if defined(cl_nv_pragma_unroll) && !defined(NO_PTX)
#define DEVICE_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

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
 * ld floats apart (lesson 14's load4 with the row stride apart from the
 * width: a group's range of k is a matrix of KZ columns inside A's rows of
 * K), zeros outside it; c is a multiple of 4. A float4 load needs an address
 * that is a multiple of 16 bytes. When ld and cols are multiples of 4, every
 * row starts on such an address (P itself does: A moves by kbeg, a multiple
 * of TSK, B by kbeg*N, a multiple of 4 when N is) and so does every c, and
 * a vector that starts inside a row ends inside it. Otherwise the four floats are read one by one, each
 * checked. The test has the same outcome in the whole grid; work-items
 * differ only in the edge tests, and only at the edges.
 */
float4 load4(const __global float *P, const int rows, const int cols, const int ld, const int r, const int c)
{
    float4 v = (float4)(0.0f);
    if (r < rows) {
        const int i = r * ld + c;
        if (ld % 4 == 0 && cols % 4 == 0) {
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

/* A work-item's float4s of C, its runs, numbered q = 0 .. RUNS-1 in the
   order of the accumulators acc[4g+i][h]: row 4*(g*WIM) + i and column
   4*(h*WIN) of its warp grid, from (am, bn). The last group adds the parts
   BATCH runs at a time: at most 32 float4s read at once per work-item. */
#define RUNS (GM * 4 * GN)
/* The most parts of one tile: three pieces, or the SPLIT ranges of the split. */
#define MAXC 3
#define NPARTS (PIECES ? MAXC : SPLIT)
#define BATCH (NPARTS >= 32 ? 1 : 32 / NPARTS)
int run_row(const int row0, const int am, const int q) { return row0 + 4 * (am + (q / (4 * GN)) * WIM) + (q / GN) % 4; }
int run_col(const int col0, const int bn, const int q) { return col0 + 4 * (bn + (q % GN) * WIN); }

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
   step that starts at k0 of the group's range, KZ values of k from A and B
   (A's rows K floats apart). */
void fetch(float4 *anext, float4 *bnext,
           const __global float *A, const __global float *B,
           const int M, const int N, const int K, const int KZ,
           const int row0, const int col0, const int k0, const int tid)
{
    /* The group's tile and this step inside A and B, and every row of
       both starting on a multiple of 16 bytes: no edge tests. The index of
       a float4 is a part fixed for the whole loop (which the compiler may
       compute once) plus k0/4 or k0*N/4, in unsigned arithmetic: every
       value is at least 0, and a shift by 2 divides it by 4 (a signed
       division needs a correction for negative values). Lesson 15's
       (r*K + k0 + c)/4 divides a sum that changes at every step. The test
       is the same for the whole group: its warps do not diverge. */
    if (row0 + TSM <= M && col0 + TSN <= N && k0 + TSK <= KZ && K % 4 == 0 && N % 4 == 0) {
        const __global float4 *A4 = (const __global float4 *)A;
        const __global float4 *B4 = (const __global float4 *)B;
        #pragma unroll
        for (int l = 0; l < LOADS_A; l++) {
            const int id = l * WGS + tid;
            if (IN_A(id))
                anext[l] = A4[((uint)((row0 + a_row(id)) * K + a_col(id)) >> 2) + ((uint)k0 >> 2)];
        }
        #pragma unroll
        for (int l = 0; l < LOADS_B; l++) {
            const int id = l * WGS + tid;
            if (IN_B(id))
                bnext[l] = B4[((uint)(b_row(id) * N + col0) >> 2) + b_vec(id) + (uint)k0 * ((uint)N >> 2)];
        }
        return;
    }
    /* Otherwise lesson 15's loads, each tested. */
    #pragma unroll
    for (int l = 0; l < LOADS_A; l++) {
        const int id = l * WGS + tid;
        if (IN_A(id))
            anext[l] = load4(A, M, KZ, K, row0 + a_row(id), k0 + a_col(id));
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        if (IN_B(id))
            bnext[l] = load4(B, KZ, N, N, k0 + b_row(id), col0 + 4 * b_vec(id));
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

/*
 * One step: the tiles of step t, fetched the step before, go into buffer
 * cur; after the barrier the loads of step t+1 start, and the group
 * computes step t from buffer cur. The loop makes two steps per trip, as in
 * lesson 17: cur is a constant in each of its two calls, which the compiler
 * folds into the addresses.
 */
void step(const int cur, const int t, const int steps,
          __local float4 Atile[2][TSK][ALINE], __local float4 Btile[2][TSK][TSN / 4],
          float4 acc[WPTM][GN], float4 *anext, float4 *bnext,
          const __global float *A, const __global float *B,
          const int M, const int N, const int K, const int KZ,
          const int row0, const int col0, const int tid, const int am, const int bn)
{
    /* Buffer cur was last read in step t-2, before the barrier of step
       t-1: it is free. */
    stash((__local float *)Atile[cur], &Btile[cur][0][0], anext, bnext, tid);

    /* The one barrier of the step: buffer cur is complete. */
    barrier(CLK_LOCAL_MEM_FENCE);

    /* The next step's loads, in flight while this step computes. */
    if (t + 1 < steps)
        fetch(anext, bnext, A, B, M, N, K, KZ, row0, col0, (t + 1) * TSK, tid);

    #pragma unroll
    for (int k = 0; k < TSK; k++) {
        float4 a[GM], b[GN];
        /* Lanes 2j and 2j+1 read the same float4 of Btile, lanes 4j+i and
           4j+i+2 the same float4 of Atile, as in lesson 14. */
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

/* Share j of G starts at step j*S/G of the tail's steps; the share that holds
   step x is the last whose start is not above it. */
long share_start(const long j, const long S, const long G) { return j * S / G; }
int share_of(const long x, const long S, const long G) { return (int)(((x + 1) * G - 1) / S); }

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void gemm_last_wave(const int M, const int N, const int K,
                 const __global float *A,
                 const __global float *B,
                 __global float *C,
                 __global float *W,
                 __local int *second)   /* WAVE ints: the second pieces' lengths, by share */
{
    /* Work-items of consecutive linear id make a warp on NVIDIA GPUs. The
       copying below uses tid as lesson 13 does; only the computation and
       the stores use the warp arrangement. */
    const int tid = get_local_id(0) + RTSN * get_local_id(1);
    const int warp = tid / 32, lane = tid % 32;
    const int lr = lane % 2 + 2 * ((lane / 2) / WIN);   /* 0 .. WIM-1 */
    const int lc = (lane / 2) % WIN;                    /* 0 .. WIN-1 */
    const int am = (warp / WTN) * (WM / 4) + lr;
    const int bn = (warp % WTN) * (WN / 4) + lc;

    /* The tiles of the whole waves, one group each over all of K, as in
       lesson 17; then the tail. */
    const int tiles_n = (N + TSN - 1) / TSN;
    const int tiles = (M + TSM - 1) / TSM * tiles_n;
#if SPLIT == 1 && !PIECES
    const int tail = 0;
#else
    const int tail = tiles % WAVE;
#endif
    const int full = tiles - tail;
    const int g = get_group_id(0);
    const int spt = (K + TSK - 1) / TSK;       /* steps of K per tile */

    __local float4 Atile[2][TSK][ALINE];
    __local float4 Btile[2][TSK][TSN / 4];
#if LAST
    __local int last;                  /* whether this group counted last */
#endif
#if PIECES
    __local int chosen;                /* the share of this group's second piece */
#endif

    /* The group's tile, its steps ks0 .. ks1-1, and its part: slot of n. */
    int tile = g, ks0 = 0, ks1 = spt, slot = -1, n = 1;
#if PIECES
    const long S = (long)tail * spt;          /* the tail's steps */
    /* Its shares: each at least half a tile, and at least a step (K of one step). */
    const long G = min(min((long)WAVE, 2l * tail), S);
    int j = -1;                               /* this group's share */
    if (g >= full) {
        const int r = g - full;
        if (r < G) {
            /* The first round: the first piece of share r, to the end of
               the share or of its first tile. */
            j = r;
            const long b0 = share_start(j, S, G), b1 = share_start(j + 1, S, G);
            const int t = (int)(b0 / spt);
            tile = full + t;
            ks0 = (int)(b0 - (long)t * spt);
            ks1 = (int)min((long)spt, b1 - (long)t * spt);
        } else {
            /* The second round: the r2-th longest of the second pieces,
               those of the shares that cross a tile's end. Each work-item
               works out the second piece of a share or more, then ranks
               them: the share that ranks r2 is this group's. */
            const int r2 = r - (int)G;
            for (int i = tid; i < G; i += WGS) {
                const long b0 = share_start(i, S, G), b1 = share_start(i + 1, S, G);
                const long end = (b0 / spt + 1) * spt;     /* the end of its first tile */
                second[i] = b1 > end ? (int)(b1 - end) : -1;
            }
            if (tid == 0)
                chosen = -1;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int i = tid; i < G; i += WGS) {
                int rank = 0;
                if (second[i] < 0)
                    continue;
                for (int q = 0; q < G; q++)
                    rank += second[q] > second[i] || (second[q] == second[i] && q < i);
                if (rank == r2)
                    chosen = i;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            j = chosen;
            if (j < 0)
                return;     /* fewer shares cross a tile's end than launched for */
            const long b1 = share_start(j + 1, S, G);
            const int t = (int)((b1 - 1) / spt);
            tile = full + t;
            ks1 = (int)(b1 - (long)t * spt);
        }
        /* The shares that overlap this tile, from j0 (at most three: each
           is at least half a tile long), in the order of k: this piece's
           part is slot j - j0 of n. */
        const int tl = tile - full;
        const long end = (long)(tl + 1) * spt;     /* the tile's end in the tail's steps */
        const int j0 = share_of((long)tl * spt, S, G);
        slot = j - j0;
        n = 1 + (share_start(j0 + 1, S, G) < end) + (share_start(j0 + 2, S, G) < end);
    }
#else
    /* The tail split (PIECES = 0): SPLIT groups per tile, group z over range z. */
    if (SPLIT > 1 && g >= full) {
        const int KC = ((K + SPLIT - 1) / SPLIT + TSK - 1) / TSK * TSK;
        /* TODO: the groups from full on take the tail's tiles in turn,
           SPLIT consecutive groups per tile, the z-th over the z-th range
           of k. Range z is KC values of k long (KC / TSK steps, the last
           ranges shorter or empty). Set this group's tile (a tile of the
           tail: from full to tiles - 1), slot (its z: 0 .. SPLIT-1) and
           the range's steps ks0 .. ks1-1 (neither above spt).
           The lines below are only a placeholder: every group of the tail
           computes the tail's first tile over all of K and writes C itself
           (slot -1: no part), so the other tiles of the tail are never
           written. Replace them. */
        tile = full;
        slot = -1;
        n = SPLIT;
        ks0 = 0;
        ks1 = spt;
    }
#endif
    const int row0 = tile / tiles_n * TSM;     /* first row of the group's tile of C */
    const int col0 = tile % tiles_n * TSN;     /* first column */

    float4 acc[WPTM][GN];          /* acc[4g+i][h]: row 4*(g*WIM+lr)+i, columns of run h */
    float4 anext[LOADS_A];         /* the next step's tiles, on their way to local memory */
    float4 bnext[LOADS_B];

    #pragma unroll
    for (int i = 0; i < WPTM; i++) {
        #pragma unroll
        for (int h = 0; h < GN; h++)
            acc[i][h] = (float4)(0.0f);
    }

    /* The piece's range of k: KZ values from kbeg (lesson 15's loads test
       the edges against KZ). */
    int KZ = K;
    if (slot >= 0) {
        const int kbeg = ks0 * TSK;
        KZ = max(0, min(K, ks1 * TSK) - kbeg);
        A += kbeg;              /* A(m, kbeg + k) at A[m*K + k] */
        B += kbeg * N;          /* B(kbeg + k, n) at B[k*N + n] */
    }
    const int steps = (KZ + TSK - 1) / TSK;   /* the last one may be partial: zeros */

    fetch(anext, bnext, A, B, M, N, K, KZ, row0, col0, 0, tid);

    for (int t = 0; t < steps; t += 2) {
        step(0, t, steps, Atile, Btile, acc, anext, bnext, A, B, M, N, K, KZ, row0, col0, tid, am, bn);
        if (t + 1 < steps)
            step(1, t + 1, steps, Atile, Btile, acc, anext, bnext, A, B, M, N, K, KZ, row0, col0, tid, am, bn);
    }

    if (slot >= 0) {
        /* A piece of a tile of the tail: its part is block slot of the
           tile's NPARTS, TSM x TSN floats laid out as the tile. */
        const int tl = tile - full;
        __global float *parts = W + (tail + 31) / 32 * 32;
        __global float4 *P4 = (__global float4 *)(parts + (tl * NPARTS + slot) * (TSM * TSN));
        #pragma unroll
        for (int q = 0; q < RUNS; q++)
            P4[(run_row(0, am, q) * TSN + run_col(0, bn, q)) / 4] = acc[4 * (q / (4 * GN)) + (q / GN) % 4][q % GN];
#if LAST
        /* Lesson 18's count; n - 1 before it: the last. */
        volatile __global int *count = (volatile __global int *)W + tl;
        DEVICE_FENCE();
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (tid == 0)
            last = atomic_inc(count) == n - 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!last)
            return;               /* the whole group: last is the same for all */

        /* The last group adds the n parts in the order of k, BATCH of its
           float4s at a time, all parts of each read before any is added,
           through volatile pointers (lesson 18). */
        DEVICE_FENCE();
        volatile const __global float4 *mine = (volatile const __global float4 *)(parts + tl * NPARTS * (TSM * TSN));
        #pragma unroll
        for (int q0 = 0; q0 < RUNS; q0 += BATCH) {
            float4 part[BATCH][NPARTS];
            #pragma unroll
            for (int b = 0; b < BATCH; b++) {
                #pragma unroll
                for (int p = 0; p < NPARTS; p++)
                    if (q0 + b < RUNS && p < n)
                        part[b][p] = mine[p * (TSM * TSN / 4) + (run_row(0, am, q0 + b) * TSN + run_col(0, bn, q0 + b)) / 4];
            }
            #pragma unroll
            for (int b = 0; b < BATCH; b++) {
                if (q0 + b < RUNS) {
                    float4 sum = part[b][0];
                    #pragma unroll
                    for (int p = 1; p < NPARTS; p++)
                        if (p < n)
                            sum += part[b][p];
                    store4(C, M, N, run_row(row0, am, q0 + b), run_col(col0, bn, q0 + b), sum);
                }
            }
        }
        /* Back to 0 for the next run, atomically as the counting was. */
        if (tid == 0)
            atomic_xchg(count, 0);
#endif
        return;
    }

    /* A tile of the whole waves: C itself, as in lesson 17. */
    #pragma unroll
    for (int q = 0; q < RUNS; q++)
        store4(C, M, N, run_row(row0, am, q), run_col(col0, bn, q), acc[4 * (q / (4 * GN)) + (q / GN) % 4][q % GN]);
}

/*
 * With LAST = 0, the second launch: C = part 0 + part 1 + ... + part
 * SPLIT-1 over the tail's tiles, in that order, float4 by float4. Work-item
 * i takes float4 i of the tail's blocks laid end to end (TSM*TSN/4 per
 * tile): neighbouring work-items read neighbouring float4s of each part.
 * The lesson's then-global line counts TAIL*TSM*TSN/4 work-items, rounded
 * up to whole groups; those past the end do nothing.
 */
__kernel void reduce_tail(const int M, const int N, __global float *C, const __global float *W)
{
    const int tiles_n = (N + TSN - 1) / TSN;
    const int tiles = (M + TSM - 1) / TSM * tiles_n;
    const int tail = SPLIT == 1 ? 0 : tiles % WAVE;
    const int full = tiles - tail;
    const __global float4 *parts = (const __global float4 *)(W + (tail + 31) / 32 * 32);
    const int i = get_global_id(0);
    const int j = i / (TSM * TSN / 4);           /* the tail's tile */
    const int v = i % (TSM * TSN / 4);           /* its float4 */

    if (j >= tail)
        return;
    float4 sum = parts[j * SPLIT * (TSM * TSN / 4) + v];
    for (int z = 1; z < SPLIT; z++)
        sum += parts[(j * SPLIT + z) * (TSM * TSN / 4) + v];
    store4(C, M, N, (full + j) / tiles_n * TSM + v / (TSN / 4), (full + j) % tiles_n * TSN + 4 * (v % (TSN / 4)), sum);
}
