/*
 * Exercise 16: the fragments of mma.sync. This is lesson 20's kernel, with
 * the middle of round8 missing: the loads that give each work-item its
 * fragment of A (4 values) and of B (2 values) for one instruction
 *
 *   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
 *
 * Which element of A and B each of the warp's 32 work-items must hold is
 * fixed by the PTX ISA: lesson 20, "Fragments: who holds what", gives the
 * table. Fill the gap in round8. Everything else is given,
 * the stores of C too (c0 .. c3 as the same table says).
 *
 * On a device without tensor cores (POCL, a laptop's GPU) clmm-tutor runs
 * this kernel emulated (kernels/ptx-emulated.h): a wrong index gives wrong
 * elements at the same places of C as on an NVIDIA GPU.
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

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WM) || !defined(WN) || !defined(ROUND)
#error "TSM, TSN, TSK, WM, WN and ROUND are set by the engine (-DNAME=VALUE)"
#endif
#if WM % 16 != 0 || WN % 8 != 0 || TSM % WM != 0 || TSN % WN != 0
#error "a warp's block WM x WN is whole fragments of 16 x 8 and divides the tile TSM x TSN"
#endif
#if TSK % 16 != 0
#error "TSK must be a multiple of 16: with 8 floats of padding, rows of A's tile free of bank conflicts need it"
#endif

#define FM (WM / 16)                 /* fragments of A per warp, along M */
#define FN (WN / 8)                  /* fragments of B per warp, along N */
#define WTN (TSN / WN)               /* warps along N */
#define WGS (32 * (TSM / WM) * WTN)  /* work-items in a group */
#define SA (TSK + 8)                 /* floats per row of A's tile: 8 of padding */
#define SB (TSN + 4)                 /* floats per row of B's tile: 4 of padding */
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
        at[(A_ROW(id) * SA + A_COL(id)) / 4] = tf32x4(anext[l]);
    }
    #pragma unroll
    for (int l = 0; l < LOADS_B; l++) {
        const int id = l * WGS + tid;
        bt[(B_ROW(id) * SB + B_COL(id)) / 4] = tf32x4(bnext[l]);
    }
}

/*
 * One round of 8 values of k, from k8 of the step, for one warp: its FM
 * fragments of A, FN of B, then FM x FN mma. at holds A's tile by rows of
 * SA floats (row r, k at at[r * SA + k]); bt holds B's tile by rows of SB
 * floats (k, column n at bt[k * SB + n]). The warp's block starts at row
 * wm0 and column wn0 of the tile; fragment i of A is its rows 16i .. 16i+15,
 * fragment j of B its columns 8j .. 8j+7. g = lane / 4, t = lane % 4.
 */
void round8(__local const float *at, __local const float *bt, const int k8,
            const int wm0, const int wn0, const int g, const int t, float acc[FM][FN][4],
            __local float *swap)
{
    float a[FM][4], b[FN][2];

    /* TODO: this work-item's fragments for the round: for each i < FM,
       a[i][0] .. a[i][3] from A's tile, and for each j < FN, b[j][0] and
       b[j][1] from B's tile, as the PTX layout of m16n8k8 (.tf32) places
       them. As given, every value is 0 and C comes out all zero. */
    for (int i = 0; i < FM; i++)
        for (int c = 0; c < 4; c++)
            a[i][c] = 0.0f;
    for (int j = 0; j < FN; j++)
        for (int c = 0; c < 2; c++)
            b[j][c] = 0.0f;
    #pragma unroll
    for (int i = 0; i < FM; i++) {
        #pragma unroll
        for (int j = 0; j < FN; j++)
            mma(acc[i][j], a[i], b[j], swap);
    }
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void gemm_tf32(const int M, const int N, const int K,
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
