/*
 * Lesson 22: A's tile swizzled. Lesson 21's kernel, with A's tile in local
 * memory stored without padding and its 16-byte pieces exchanged within
 * each row (an XOR swizzle), so that both its stores and ldmatrix's reads
 * take one pass (SWIZZLE = 0: lesson 21's padded rows):
 *
 * SWIZZLE  A's tile without padding, rows of TSK floats, each row's 16-byte
 *          pieces exchanged in an order that depends on the row (XOR).
 *          Lesson 21's padded rows of 20 floats let ldmatrix read without
 *          conflicts, but not the stores: the 8 work-items of a quarter warp
 *          store two rows of 64 bytes, 80 bytes apart: the second row's last
 *          4 floats wrap round onto the first row's first 4 banks, and the
 *          store takes two passes. Here each piece moves: piece c of row r
 *          sits at place c ^ ((r / 2) % 4) (for TSK = 16). Two rows side by side fill the
 *          32 banks once (stores), and the 8 rows of an ldmatrix block land
 *          in 8 different 16-byte slots (reads).
 *
 * Everything else is lesson 21's.
 */

#if !defined(PTX_EMULATED) && (!defined(cl_nv_pragma_unroll) || defined(NO_PTX))
#error "this kernel issues NVIDIA PTX (mma.sync with TF32): it builds with NVIDIA's OpenCL for a GPU of compute capability 8.0 or later, or elsewhere with ptx-emulated.h in front of it (the lesson's emulation line)"
#endif

/* On a device without such tensor cores, clmm-tutor puts ptx-emulated.h
   in front of this file (PTX_EMULATED): each instruction below then runs
   as plain OpenCL C, the warp's 32 work-items swapping their values in
   local memory, the warp's part of swap. On tensor cores swap is unused. */
#ifndef PTX_EMULATED
#define PTX_SWAP_FLOATS 1
#endif

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WM) || !defined(WN) || !defined(ROUND) \
    || !defined(SWIZZLE)
#error "TSM, TSN, TSK, WM, WN, ROUND and SWIZZLE are set by the engine (-DNAME=VALUE)"
#endif
#if WM % 16 != 0 || WN % 8 != 0 || TSM % WM != 0 || TSN % WN != 0
#error "a warp's block WM x WN is whole fragments of 16 x 8 and divides the tile TSM x TSN"
#endif

#define FM (WM / 16)                 /* fragments of A per warp, along M */
#define FN (WN / 8)                  /* fragments of B per warp, along N */
#define WTN (TSN / WN)               /* warps along N */
#define WGS (32 * (TSM / WM) * WTN)  /* work-items in a group */
#if SWIZZLE
#define SA TSK                       /* floats per row of A's tile: no padding */
#else
#define SA (TSK + 4)                 /* lesson 21's: 4 of padding */
#endif
#define PIECES (TSK / 4)             /* 16-byte pieces per row of A's tile */
#define SB (TSN + 8)                 /* floats per row of B's tile: 8 of padding */
#define VECS_A (TSM * TSK / 4)       /* float4 in a tile of A */
#define VECS_B (TSK * TSN / 4)       /* float4 in a tile of B */
#define LOADS_A (VECS_A / WGS)       /* float4 per work-item and step */
#define LOADS_B (VECS_B / WGS)
#if VECS_A % WGS != 0 || VECS_B % WGS != 0
#error "the group's work-items must copy whole tiles: TSM*TSK/4 and TSK*TSN/4 multiples of WGS"
#endif

/*
 * The float4 that copy slot id (l*WGS + tid in round l) moves: A's tile row
 * by row (TSK/4 float4s per row), B's tile row by row (TSN/4 per row).
 * Neighbouring work-items read neighbouring float4s of global memory.
 */
#define A_ROW(id) ((id) / (TSK / 4))
#define A_COL(id) (4 * ((id) % (TSK / 4)))
#define B_ROW(id) ((id) / (TSN / 4))
#define B_COL(id) (4 * ((id) % (TSN / 4)))

/*
 * Where piece c (4 floats) of row r of A's tile sits, in float4s. Swizzled:
 * the rows of one 128-byte line of banks (8 / PIECES of them) keep their
 * order, and the lines are told apart by an exchange of pieces, c XOR line.
 */
#if SWIZZLE
#define A_AT(r, c) ((r) * PIECES + ((c) ^ (((r) / (8 / PIECES)) % PIECES)))
#else
#define A_AT(r, c) ((r) * SA / 4 + (c))
#endif

/* x as TF32: rounded to the nearest value with 10 bits of mantissa (ties
   away from zero), or as it is, for the tensor core to cut. */
float tf32(const float x)
{
#if ROUND && defined(PTX_EMULATED)
    return emulated_cvt_rna_tf32(x);
#elif ROUND
    uint r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return as_float(r);
#else
    return x;
#endif
}

float4 tf32x4(const float4 v)
{
    return (float4)(tf32(v.x), tf32(v.y), tf32(v.z), tf32(v.w));
}

/* d += a * b for one 16 x 8 x 8 block, the warp's 32 work-items together. */
void mma(float d[4], const float a[4], const float b[2], __local float *swap)
{
#ifdef PTX_EMULATED
    emulated_mma_m16n8k8_tf32(d, a, b, swap);
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(as_uint(a[0])), "r"(as_uint(a[1])), "r"(as_uint(a[2])), "r"(as_uint(a[3])),
                   "r"(as_uint(b[0])), "r"(as_uint(b[1])));
#endif
}

/* Global memory -> registers: this work-item's float4s of the step at k0. */
void fetch(float4 *anext, float4 *bnext, const __global float4 *A4, const __global float4 *B4,
           const int N, const int K, const int row0, const int col0, const int k0, const int tid)
{
    #pragma unroll
    for (int l = 0; l < LOADS_A; l++) {
        const int id = l * WGS + tid;
        anext[l] = A4[((row0 + A_ROW(id)) * K + k0 + A_COL(id)) / 4];
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        bnext[l] = B4[((k0 + B_ROW(id)) * N + col0 + B_COL(id)) / 4];
    }
}

/* Registers -> local memory, as TF32. Both tiles keep the layout they
   have in global memory: A's rows along k, B's rows along n. */
void stash(__local float4 *at, __local float4 *bt, const float4 *anext, const float4 *bnext,
           const int tid)
{
    #pragma unroll
    for (int l = 0; l < LOADS_A; l++) {
        const int id = l * WGS + tid;
        at[A_AT(A_ROW(id), A_COL(id) / 4)] = tf32x4(anext[l]);
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        bt[(B_ROW(id) * SB + B_COL(id)) / 4] = tf32x4(bnext[l]);
    }
}

/* Four 8 x 4 blocks of floats for the warp (ldmatrix sees 8 x 8 of 16 bits),
   row by row from the addresses its work-items give: r[q] is this
   work-item's value of block q. */
void ldmatrix4(uint r[4], __local const float *row, __local float *swap)
{
#ifdef PTX_EMULATED
    emulated_ldmatrix_x4(r, row, swap);
#else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"((uint)(size_t)row));
#endif
}

/*
 * One round of 8 values of k, from k8 of the step, for one warp: its FM
 * fragments of A, one ldmatrix each, FN of B, two reads each, FM x FN mma.
 * Work-item l gives the address of row l % 8 of block l / 8: rows 8 apart
 * for blocks 1 and 3, k 4 further on for blocks 2 and 3.
 */
void round8(__local const float *at, __local const float *bt, const int k8,
            const int wm0, const int wn0, const int g, const int t, float acc[FM][FN][4],
            __local float *swap)
{
    float a[FM][4], b[FN][2];
    const int lane = 4 * g + t, r = lane % 8, q = lane / 8;

    #pragma unroll
    for (int i = 0; i < FM; i++) {
        uint v[4];
        ldmatrix4(v, at + 4 * A_AT(wm0 + 16 * i + r + 8 * (q % 2), k8 / 4 + q / 2), swap);
        #pragma unroll
        for (int c = 0; c < 4; c++)
            a[i][c] = as_float(v[c]);
    }
    #pragma unroll
    for (int j = 0; j < FN; j++) {
        b[j][0] = bt[(k8 + t) * SB + wn0 + 8 * j + g];         /* B(t, g) */
        b[j][1] = bt[(k8 + t + 4) * SB + wn0 + 8 * j + g];     /* B(t + 4, g) */
    }
    #pragma unroll
    for (int i = 0; i < FM; i++) {
        #pragma unroll
        for (int j = 0; j < FN; j++)
            mma(acc[i][j], a[i], b[j], swap);
    }
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void gemm_swizzle(const int M, const int N, const int K,
               const __global float *A, const __global float *B, __global float *C)
{
    const int tid = get_local_id(0);
    const int warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int wm0 = (warp / WTN) * WM;              /* the warp's block in the tile */
    const int wn0 = (warp % WTN) * WN;
    const int row0 = get_group_id(1) * TSM;         /* the group's tile in C */
    const int col0 = get_group_id(0) * TSN;
    const int steps = K / TSK;

    /* Declared as float4 for 16-byte alignment; read as floats. */
    __local float4 Atile[2][TSM * SA / 4];
    __local float4 Btile[2][TSK * SB / 4];
    __local float swap[WGS / 32 * PTX_SWAP_FLOATS];

    float acc[FM][FN][4];
    float4 anext[LOADS_A], bnext[LOADS_B];

    #pragma unroll
    for (int i = 0; i < FM; i++) {
        #pragma unroll
        for (int j = 0; j < FN; j++) {
            #pragma unroll
            for (int c = 0; c < 4; c++)
                acc[i][j][c] = 0.0f;
        }
    }

    fetch(anext, bnext, (const __global float4 *)A, (const __global float4 *)B, N, K, row0, col0, 0, tid);
    for (int s = 0; s < steps; s++) {
        const int cur = s % 2;
        /* Buffer cur was last read in step s-2, before the barrier of
           step s-1: it is free. */
        stash(Atile[cur], Btile[cur], anext, bnext, tid);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (s + 1 < steps)
            fetch(anext, bnext, (const __global float4 *)A, (const __global float4 *)B, N, K, row0, col0,
                  (s + 1) * TSK, tid);
        #pragma unroll
        for (int k8 = 0; k8 < TSK; k8 += 8)
            round8((__local const float *)Atile[cur], (__local const float *)Btile[cur], k8, wm0, wn0, g, t, acc,
                   swap + warp * PTX_SWAP_FLOATS);
    }

    /* c0, c1 are C(g, 2t .. 2t+1) of the fragment, c2, c3 the same 8 rows
       lower: two float2 stores per fragment; the warp writes 32 bytes of
       each of 8 rows at once. */
    #pragma unroll
    for (int i = 0; i < FM; i++) {
        #pragma unroll
        for (int j = 0; j < FN; j++) {
            const int r = row0 + wm0 + 16 * i + g, c = col0 + wn0 + 8 * j + 2 * t;
            /* Whole float2s: N and c are even. */
            ((__global float2 *)C)[(r * N + c) / 2] = (float2)(acc[i][j][0], acc[i][j][1]);
            ((__global float2 *)C)[((r + 8) * N + c) / 2] = (float2)(acc[i][j][2], acc[i][j][3]);
        }
    }
}
