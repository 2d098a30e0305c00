/*
 * Exercise 19: the starting kernel. Lesson 13's kernel, with one gap,
 * marked below in stash: the store that transposes A's float4s into the A
 * tile. Lesson 13 explains it in "What changes" and "Transposing A, and a
 * padding that keeps alignment". Everything else is the lesson's, line for
 * line.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all ROW-major,
 * the way C programs store matrices: A(m, k) = A[m*K + k],
 * B(k, n) = B[k*N + n], C(m, n) = C[m*N + n]. M, N and K are the true
 * sizes: the kernel handles the edges itself.
 *
 * A work-group of RTSN x RTSM work-items (RTSN = TSN/WPTN, RTSM = TSM/WPTM)
 * owns a TSM x TSN tile of C. Dimension 0 runs along N, because in row-major
 * storage B and C are contiguous along n. Each work-item computes WPTM x WPTN
 * elements of the tile, held in registers as float4 along n:
 *   rows    4*(g*RTSM + tm) + i   for g < WPTM/4, i < 4
 *   columns 4*(h*RTSN + tn) + j   for h < WPTN/4, j < 4
 * i.e. groups of 4 neighbours, the groups of a work-item spread across the
 * tile so that neighbouring work-items own neighbouring float4s.
 *
 * Per step of TSK along K the group copies a TSM x TSK tile of A and a
 * TSK x TSN tile of B into local memory, A transposed so that both tiles
 * are k-major and every inner-loop read is a float4. The tiles are double
 * buffered, and the next step's global loads go to registers first so they
 * are in flight while the current step computes: one barrier per step.
 *
 * Switches (the lesson's `switch:` lines) take one of these ideas out, to
 * measure what it brings; at their defaults the kernel is the one above:
 *   VLOCAL=0    the inner loop reads local memory one float at a time
 *   VGLOBAL=0   global memory is read and written one float at a time
 *   PREFETCH=0  each step's tiles are loaded when they are stored, not ahead
 *   BLOCKED=1   each work-item owns one WPTM x WPTN block, not runs of 4
 *   PADA=0      the A tile's lines lose their 4 floats of padding
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WPTM) || !defined(WPTN)
#error "TSM, TSN, TSK, WPTM and WPTN are set by the engine (-DNAME=VALUE)"
#endif
#if !defined(VLOCAL) || !defined(VGLOBAL) || !defined(PREFETCH) || !defined(BLOCKED) || !defined(PADA)
#error "the switches VLOCAL, VGLOBAL, PREFETCH, BLOCKED and PADA are set by the engine"
#endif
#if WPTM % 4 != 0 || WPTN % 4 != 0 || TSK % 8 != 0 || PADA % 4 != 0
#error "WPTM, WPTN and PADA must be multiples of 4, TSK a multiple of 8"
#endif

#define RTSM (TSM / WPTM)                  /* work-items along M */
#define RTSN (TSN / WPTN)                  /* work-items along N */
#define WGS (RTSM * RTSN)                  /* work-items in a group */
#define GM (WPTM / 4)                      /* float4 groups of rows per work-item */
#define GN (WPTN / 4)                      /* float4 groups of columns per work-item */
#define VECS_A (TSM * TSK / 4)             /* float4 in a tile of A */
#define VECS_B (TSK * TSN / 4)             /* float4 in a tile of B */
#define LOADS_A ((VECS_A + WGS - 1) / WGS) /* rounds of copying, per tile */
#define LOADS_B ((VECS_B + WGS - 1) / WGS)
/* When a tile has fewer float4s than the group has work-items (or not a
   multiple of it), the last round is partial. The test is a compile-time
   constant otherwise, and disappears. No barrier lies inside a round. */
#define IN_A(id) (VECS_A % WGS == 0 || (id) < VECS_A)
#define IN_B(id) (VECS_B % WGS == 0 || (id) < VECS_B)
#define ALINE ((TSM + PADA) / 4)          /* float4 per line of the A tile: PADA floats of padding */

/* The float4s of a line of the tiles that work-item (tm, tn) reads and owns: its g-th group
   of 4 rows, its h-th group of 4 columns. Runs of 4 that take turns, so that neighbouring
   work-items read (and write) neighbouring float4s. */
#if !BLOCKED
#define ROWVEC(g) ((g) * RTSM + tm)
#define COLVEC(h) ((h) * RTSN + tn)
#else
/* Switch BLOCKED=1: one WPTM x WPTN block, rows tm*WPTM + i and columns tn*WPTN + j. */
#define ROWVEC(g) (tm * GM + (g))
#define COLVEC(h) (tn * GN + (h))
#endif

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
        if (VGLOBAL && cols % 4 == 0) {    /* VGLOBAL=0: always one by one */
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
        if (VGLOBAL && cols % 4 == 0) {    /* VGLOBAL=0: always one by one */
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
            /*
             * TODO: anext[l] holds A(row0 + r, k0 + k .. k0 + k + 3), four
             * floats of one row of A. Store them into the A tile (at: the
             * tile seen as floats) where the inner loop reads them: the
             * comment at the declaration of Atile, in gemm_row_major_fast,
             * says where A(row0 + r, k0 + k) lies. As given, the float4 is
             * stored as it lies in A, row after row, not transposed: the
             * inner loop reads the wrong floats, and C is wrong.
             */
            ((__local float4 *)at)[(r * TSK + k) / 4] = anext[l];
        }
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        if (IN_B(id))
            bt[b_row(id) * (TSN / 4) + b_vec(id)] = bnext[l];
    }
}

#if !VLOCAL
/* Switch VLOCAL=0: the float4s that the inner loop reads from line k of the tiles, each
   read as four floats from the same place. volatile, so that the compiler does not join
   the four reads into one again (it knows they are aligned). */
void read_scalars(float4 *a, float4 *b, const volatile __local float *aline,
                  const volatile __local float *bline, const int tm, const int tn)
{
    #pragma unroll
    for (int g = 0; g < GM; g++) {
        const int r = 4 * ROWVEC(g);
        a[g] = (float4)(aline[r], aline[r + 1], aline[r + 2], aline[r + 3]);
    }
    #pragma unroll
    for (int h = 0; h < GN; h++) {
        const int c = 4 * COLVEC(h);
        b[h] = (float4)(bline[c], bline[c + 1], bline[c + 2], bline[c + 3]);
    }
}
#endif

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void gemm_row_major_fast(const int M, const int N, const int K,
                         const __global float *A,
                         const __global float *B,
                         __global float *C)
{
    const int tn = get_local_id(0);            /* 0 .. RTSN-1: the fast index */
    const int tm = get_local_id(1);            /* 0 .. RTSM-1 */
    const int tid = tm * RTSN + tn;
    const int row0 = get_group_id(1) * TSM;    /* first row of the group's tile of C */
    const int col0 = get_group_id(0) * TSN;    /* first column */

    /*
     * Declared as float4 so that the float4 reads below are aligned.
     *   Atile[b][k][..] seen as floats: element r is A(row0 + r, k0 + k)
     *   Btile[b][k][v] = B(k0 + k, col0 + 4v .. 4v+3)
     * Why Atile's lines have 4 floats of padding: a load round writes,
     * for each of the 4 floats of its vectors, the words (k+j)*(TSM+4) + r
     * of 16 rows r and two values of k that differ by 4. TSM is a multiple
     * of 32, so (TSM+4)*4 = 16 modulo the 32 banks: the two values of k
     * (the even lanes', the odd lanes') land on banks r and r+16, all
     * different. Without the padding both would hit banks r: two-way
     * conflicts. (Padding by 1 would
     * break the 16-byte alignment of the lines.) PADA=0 takes it out.
     */
    __local float4 Atile[2][TSK][ALINE];
    __local float4 Btile[2][TSK][TSN / 4];

    float4 acc[WPTM][GN];          /* acc[4g+i][h]: row 4*ROWVEC(g)+i, columns of group h */
    float4 anext[LOADS_A];         /* the next step's tiles, on their way to local memory */
    float4 bnext[LOADS_B];

    #pragma unroll
    for (int i = 0; i < WPTM; i++) {
        #pragma unroll
        for (int h = 0; h < GN; h++)
            acc[i][h] = (float4)(0.0f);
    }

    const int steps = (K + TSK - 1) / TSK;   /* the last one may be partial: zeros */

#if PREFETCH
    fetch(anext, bnext, A, B, M, N, K, row0, col0, 0, tid);
#endif

    for (int t = 0; t < steps; t++) {
        const int cur = t % 2;

#if !PREFETCH
        /* Switch PREFETCH=0: this step's tiles leave global memory only now, and
           nothing is in flight while the step computes. */
        fetch(anext, bnext, A, B, M, N, K, row0, col0, t * TSK, tid);
#endif

        /* Buffer cur was last read in step t-2; the barrier of step t-1
           came after that, so it is free, while slower work-items may
           still be computing step t-1 from the other buffer. */
        stash((__local float *)Atile[cur], &Btile[cur][0][0], anext, bnext, tid);

        /* The one barrier of the step: buffer cur is complete. */
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Issue the next step's loads now. Nothing uses them before the
           stash at the top of the next step, so they are in flight while
           this work-item does its TSK*WPTM*WPTN multiply-adds. The
           condition is the same for the whole group. */
#if PREFETCH
        if (t + 1 < steps)
            fetch(anext, bnext, A, B, M, N, K, row0, col0, (t + 1) * TSK, tid);
#endif

        #pragma unroll
        for (int k = 0; k < TSK; k++) {
            float4 a[GM], b[GN];
            /* The warp's 32 work-items hold 32/RTSN values of tm and read
               as many float4s of Atile (broadcast); they read RTSN
               consecutive float4s of Btile: no bank conflicts. */
#if VLOCAL
            #pragma unroll
            for (int g = 0; g < GM; g++)
                a[g] = Atile[cur][k][ROWVEC(g)];
            #pragma unroll
            for (int h = 0; h < GN; h++)
                b[h] = Btile[cur][k][COLVEC(h)];
#else
            read_scalars(a, b, (__local float *)Atile[cur][k], (__local float *)Btile[cur][k], tm, tn);
#endif
            /* WPTM*WPTN multiply-adds from (WPTM+WPTN)/4 local reads. */
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

    /* Each row of the block is GN float4 stores; neighbouring tn write
       neighbouring 16-byte pieces of the row: coalesced. */
    #pragma unroll
    for (int g = 0; g < GM; g++) {
        #pragma unroll
        for (int i = 0; i < 4; i++) {
            #pragma unroll
            for (int h = 0; h < GN; h++)
                store4(C, M, N, row0 + 4 * ROWVEC(g) + i, col0 + 4 * COLVEC(h),
                       acc[4 * g + i][h]);
        }
    }
}
