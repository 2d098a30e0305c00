/*
 * Exercise 21: the starting kernel. Lesson 17's kernel, with one gap,
 * marked below in fetch: the test that lets a group load a step's tiles
 * without edge tests (WHOLE). Lesson 17 explains it in "Whole tiles
 * (WHOLE)"; lesson 13's "Float4 at any size" says when a float4 may be
 * read. Apart from the test, and two comments that gave it away, this is
 * the lesson's kernel line for line.
 *
 * Lesson 17: larger blocks, lean steps. Lesson 15's kernels (lesson 14's warp tiles, with
 * the K loop split among SPLIT groups per tile) with less work around the
 * FMAs of each step, larger blocks per work-item for large outputs, and
 * the work-groups ordered for the L2 cache as an option (BAND, off by default).
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
 * A(m, k) = A[m*K + k], B(k, n) = B[k*N + n], C(m, n) = C[m*N + n]. M, N
 * and K are the true sizes: the kernels handle the edges themselves.
 *
 * A step of lesson 15 is TSK values of k: per work-item WPTM*WPTN*TSK FMAs,
 * and around them the loads of the next step's tiles (each tested against
 * the edges of A and B), the stores into local memory, a barrier, and the
 * buffer's index, t % 2, in the address arithmetic of local memory. Two
 * changes, each behind a switch (0 takes it out, for comparison), and a
 * third, tried and left off:
 *
 *   WHOLE = 1  a group whose tile, and the step's TSK values of k, lie
 *              wholly inside A and B (at most sizes: every group but those
 *              at the edges, every step but a partial last one; the test
 *              in fetch says exactly when) loads its float4s without testing each
 *              against the edges, at addresses written so that the part
 *              that does not change from step to step can be computed
 *              once;
 *   TWO = 1    the loop makes two steps per trip, one on each buffer, so
 *              that the buffer of each is a constant the compiler can fold
 *              into the addresses;
 *   BAND = 8   (0 by default) the groups are numbered in bands of BAND
 *              rows of tiles, so that the groups running at once share
 *              rows of A and columns of B in the L2 cache; measured on
 *              an H200, it made no difference with 256 x 128 tiles and
 *              cost 1.5% to 2.6% with 128 x 128 (doc/results.md).
 *
 * The lesson's rules choose tiles of 256 x 128 with blocks of 16 x 8 per
 * work-item wherever the output has enough of them: 128 FMAs for 6 float4
 * reads of local memory per k where lesson 15's 8 x 8 blocks make 64 for
 * 4, at the price of one group per compute unit.
 *
 * Everything else, the split and its second kernel, the warp tiles, the
 * copies into local memory, the float4 reads and stores, is lesson 15's.
 */

#if !defined(WHOLE) || !defined(TWO) || !defined(BAND)
#error "WHOLE, TWO and BAND are set by the engine (-DNAME=VALUE)"
#endif
#if BAND < 0
#error "BAND must be 0 (row by row) or a number of rows of tiles"
#endif

#ifndef SPLIT
#error "SPLIT is set by the engine (-DSPLIT=VALUE)"
#endif
#if SPLIT < 1
#error "SPLIT must be at least 1"
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
#if WHOLE
    /* The lean path, for the groups and steps that pass the test below:
       no edge tests. The index of
       a float4 is a part fixed for the whole loop (which the compiler may
       compute once) plus k0/4 or k0*N/4, in unsigned arithmetic: every
       value is at least 0, and a shift by 2 divides it by 4 (a signed
       division needs a correction for negative values). Lesson 15's
       (r*K + k0 + c)/4 divides a sum that changes at every step. The test
       is the same for the whole group: its warps do not diverge. */
    /*
     * TODO: the test. The loads below read A and B as arrays of float4
     * (A4 and B4), with no test at all. Which groups and steps may take
     * them? As given, the test asks only whether the group's tile and the
     * step's TSK values of k lie inside A and B. That is not all: at some
     * sizes it lets groups through whose loads read the wrong floats.
     */
    if (row0 + TSM <= M && col0 + TSN <= N && k0 + TSK <= KZ) {
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
#endif
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
 * computes step t from buffer cur. With TWO, cur is a constant in each of
 * the two calls of a trip and the compiler folds it into the addresses.
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

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void gemm_lean(const int M, const int N, const int K,
                  const __global float *A,
                  const __global float *B,
                  __global float *C,
                  __global float *W)
{
    /* Work-items of consecutive linear id make a warp on NVIDIA GPUs. The
       copying below uses tid as lesson 13 does; only the computation and
       the stores use the warp arrangement. */
    const int tid = get_local_id(0) + RTSN * get_local_id(1);
    const int warp = tid / 32, lane = tid % 32;
    const int lr = lane % 2 + 2 * ((lane / 2) / WIN);   /* 0 .. WIM-1 */
    const int lc = (lane / 2) % WIN;                    /* 0 .. WIN-1 */
    /* The float4 of a line of each tile where this work-item's first run
       starts: its warp tile's corner, then its place in the warp's grid. */
    const int am = (warp / WTN) * (WM / 4) + lr;
    const int bn = (warp % WTN) * (WN / 4) + lc;
#if BAND > 0
    /* The groups of the first two dimensions taken in the order of their
       numbers (x fastest, then y), the order in which NVIDIA's GPUs are
       commonly taken to start them, and dealt out band by band: a band is
       BAND rows of tiles (the last one fewer), walked column by column, so
       that the groups running at once cover a few columns of tiles over
       BAND rows rather than whole rows of tiles. */
    const int nx = get_num_groups(0), ny = get_num_groups(1);
    const int g = get_group_id(0) + nx * get_group_id(1);
    const int band = g / (BAND * nx);
    const int first = band * BAND;                      /* its first row of tiles */
    const int rows = min(ny - first, BAND);             /* its rows of tiles */
    const int in = g - band * BAND * nx;                /* the group's place in it */
    const int row0 = (first + in % rows) * TSM;         /* first row of the group's tile of C */
    const int col0 = (in / rows) * TSN;                 /* first column */
#else
    const int row0 = get_group_id(1) * TSM;    /* first row of the group's tile of C */
    const int col0 = get_group_id(0) * TSN;    /* first column */
#endif

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

    /* This group's range of k, as in lesson 15: the z-th of SPLIT, KC long,
       a multiple of TSK, from kbeg; KZ of its values lie inside K. A and B
       move to the range's start. With SPLIT = 1, the whole of K, as
       constants (lesson 15 says what computing it costs). */
#if SPLIT == 1
    const int KZ = K;
#else
    const int KC = ((K + SPLIT - 1) / SPLIT + TSK - 1) / TSK * TSK;
    const int kbeg = min(K, (int)get_group_id(2) * KC);
    const int KZ = min(KC, K - kbeg);
    A += kbeg;              /* A(m, kbeg + k) at A[m*K + k] */
    B += kbeg * N;          /* B(kbeg + k, n) at B[k*N + n] */
#endif
    const int steps = (KZ + TSK - 1) / TSK;   /* the last one may be partial: zeros */

    /* Unguarded, as in lesson 15: for an empty range (KZ = 0) every load
       is outside and gives zeros. */
    fetch(anext, bnext, A, B, M, N, K, KZ, row0, col0, 0, tid);

#if TWO
    for (int t = 0; t < steps; t += 2) {
        step(0, t, steps, Atile, Btile, acc, anext, bnext, A, B, M, N, K, KZ, row0, col0, tid, am, bn);
        if (t + 1 < steps)
            step(1, t + 1, steps, Atile, Btile, acc, anext, bnext, A, B, M, N, K, KZ, row0, col0, tid, am, bn);
    }
#else
    for (int t = 0; t < steps; t++)
        step(t % 2, t, steps, Atile, Btile, acc, anext, bnext, A, B, M, N, K, KZ, row0, col0, tid, am, bn);
#endif

    /* C itself with one range; otherwise slice z of W, laid out as C. The
       slices are M*N floats apart, within an int: the engine refuses a
       scratch buffer of more than INT_MAX floats. When N is a multiple of 4,
       so is M*N, and a slice's float4s stay aligned. */
    __global float *P = SPLIT == 1 ? C : W + (int)get_group_id(2) * M * N;

    /* A warp's store writes WIM rows of WIN neighbouring float4s each:
       with the default 4 x 8, four whole 128-byte pieces of rows. */
    #pragma unroll
    for (int g = 0; g < GM; g++) {
        #pragma unroll
        for (int i = 0; i < 4; i++) {
            #pragma unroll
            for (int h = 0; h < GN; h++)
                store4(P, M, N, row0 + 4 * (am + g * WIM) + i,
                       col0 + 4 * (bn + h * WIN), acc[4 * g + i][h]);
        }
    }
}

/*
 * The second launch: C = W[0] + W[1] + ... + W[SPLIT-1], slice by slice,
 * element by element, in that order. The work-items of a group read
 * neighbouring elements of each slice: every read and the write are
 * coalesced. When M*N is a multiple of 4 every slice starts on a multiple
 * of 16 bytes and a work-item adds float4s, elements 4i .. 4i+3; otherwise
 * plain floats, element i. The lesson's then-global line counts the
 * work-items by the same rule: cdiv(M*N, 4) or M*N, rounded up to whole
 * groups; the work-items past the end do nothing.
 */
__kernel void reduce_split_k(const int M, const int N, __global float *C, const __global float *W)
{
    const int MN = M * N;
    const int i = get_global_id(0);

    if (MN % 4 == 0) {
        const __global float4 *W4 = (const __global float4 *)W;
        if (i < MN / 4) {
            float4 sum = W4[i];
            for (int z = 1; z < SPLIT; z++)
                sum += W4[z * (MN / 4) + i];
            ((__global float4 *)C)[i] = sum;
        }
    } else if (i < MN) {
        float sum = W[i];
        for (int z = 1; z < SPLIT; z++)
            sum += W[z * MN + i];
        C[i] = sum;
    }
}
