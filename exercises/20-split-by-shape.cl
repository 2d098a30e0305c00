/*
 * Exercise 20: the starting kernel. Lesson 16's kernel (lesson 15's split-K)
 * with the parameters that lesson 16's rules choose at 1024 on an H200: 128 x
 * 128 tiles, SPLIT = 4, warps of 8 x 4 work-items (WIM = 8).
 *
 * What is missing: the range of k of a group, in gemm_split_k (marked). As
 * given, every group takes the whole of K, so each of the SPLIT slices of W
 * holds the whole product and their sum is SPLIT times too large. Lesson 15,
 * "Splitting the sum", and the comment below say what each group computes.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
 * A(m, k) = A[m*K + k], B(k, n) = B[k*N + n], C(m, n) = C[m*N + n]. M, N
 * and K are the true sizes: the kernels handle the edges themselves.
 *
 * The first launch, gemm_split_k, has a third NDRange dimension of SPLIT
 * groups: the group (x, y, z) computes lesson 14's TSM x TSN tile (x, y)
 * over the z-th of SPLIT ranges of k, each KC = roundup(cdiv(K, SPLIT), TSK)
 * long, the last ones shorter or empty:
 *   k from z*KC to min(K, (z+1)*KC)
 * The group moves A and B to its range's start and runs lesson 14's loop
 * over a product of depth KZ, the values of its range inside K: the loads
 * give zeros beyond KZ, as lesson 14's beyond K, so a short range needs
 * nothing more, and a group whose range is empty still writes its part:
 * zeros.
 *
 * With SPLIT = 1 the one range is the whole of K and the group writes C,
 * exactly as lesson 14. Otherwise it writes its part to slice z of the
 * scratch buffer W, an M x N matrix laid out as C at W + z*M*N, and the
 * second launch, reduce_split_k (its then-when line: SPLIT > 1), sums the
 * SPLIT slices into C, slice 0 first.
 *
 * Everything else, the warp tiles, the copies into local memory, the float4
 * reads and stores, is lesson 14's, line for line, but for load4's row
 * stride, given apart from the width of the range it reads.
 */

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

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1)))
void gemm_split_k(const int M, const int N, const int K,
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

    /* This group's range of k: the z-th of SPLIT, KC long, a multiple of TSK,
       from kbeg; KZ of its values lie inside K (the last ranges are short or
       empty). A and B move to the range's start, so that the loop below is
       lesson 14's over a product of depth KZ. With SPLIT = 1 the range is all
       of K, written as constants: computed as for the other values, it took
       this kernel to 146 registers on an H200 (lesson 14: 124), over the 128
       that let an SM hold two groups; as constants, 124. With SPLIT > 1 the
       kernel has 129 (doc/results.md). */
#if SPLIT == 1
    const int KZ = K;
#else
    /* TODO: the range of group z = get_group_id(2). KC is cdiv(K, SPLIT)
       rounded up to a multiple of TSK; the range starts at kbeg = z * KC,
       clipped to K; KZ is the number of its values inside K (KC, or fewer
       for the last ranges, or 0). Then move A and B to the range's start:
       A(m, kbeg + k) must be at A[m*K + k], B(kbeg + k, n) at B[k*N + n].
       The lines below are only a placeholder: every group takes all of K,
       so C comes out SPLIT times too large. Replace them. */
    const int KC = K;
    const int kbeg = 0;
    const int KZ = K;
#endif
    const int steps = (KZ + TSK - 1) / TSK;   /* the last one may be partial: zeros */

    /* Unguarded: for an empty range (KZ = 0) every load is outside and gives
       zeros. A test of steps here cost 2 registers and 4%: 41.4 TFLOPS
       against 43.0 at 4096 on an H200 with SPLIT = 1 (doc/results.md). */
    fetch(anext, bnext, A, B, M, N, K, KZ, row0, col0, 0, tid);

    for (int t = 0; t < steps; t++) {
        const int cur = t % 2;

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
