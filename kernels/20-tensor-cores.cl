/*
 * Lesson 20: tensor cores, in TF32. The multiply-adds leave the FP32 lanes
 * for the tensor cores, reached through inline PTX: one instruction,
 *
 *   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
 *
 * multiplies a 16 x 8 block of A by an 8 x 8 block of B and adds the
 * product to a 16 x 8 block of C, 2048 flops, for the 32 work-items of a
 * warp together. Each of them holds a fragment of each block in registers:
 * 4 values of A, 2 of B, 4 of C. With g = lane / 4 and t = lane % 4 (PTX
 * ISA, "Matrix fragments for mma.m16n8k8" with .tf32):
 *
 *   A (16 x 8, row):  a0 = A(g, t)    a1 = A(g + 8, t)
 *                     a2 = A(g, t + 4)   a3 = A(g + 8, t + 4)
 *   B (8 x 8, col):   b0 = B(t, g)    b1 = B(t + 4, g)
 *   C (16 x 8):       c0 = C(g, 2t)   c1 = C(g, 2t + 1)
 *                     c2 = C(g + 8, 2t)   c3 = C(g + 8, 2t + 1)
 *
 * The inputs are TF32: 1 sign bit, 8 of exponent, 10 of mantissa (FP32
 * has 23). The tensor core reads a float's upper 19 bits; with ROUND = 1
 * each input is rounded to the nearest TF32 value (cvt.rna.tf32.f32) once,
 * on its way into local memory, so that each product is off by at most
 * about 2^-10 of its size; with ROUND = 0 the low bits are cut off, twice
 * the error. The sums are FP32.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major.
 * M, N and K are multiples of the tiles (the lesson pads other sizes): the
 * kernel has no edge tests.
 *
 * A group of WGS = 32 * (TSM / WM) * (TSN / WN) work-items computes a TSM x
 * TSN tile of C; each warp a WM x WN block of it, FM x FN fragments of
 * 16 x 8. Every step of TSK values of k: the group copies both tiles into
 * local memory (double buffered, the next step's tiles in registers on the
 * way, as in lesson 13), then each warp runs TSK / 8 rounds of FM x FN
 * mma instructions.
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
 * fragments of A, FN of B, FM x FN mma.
 *
 * Which value of k a work-item supplies does not matter to the sum, as
 * long as A's and B's agree: the work-item that the PTX layout gives k = t
 * and k = t + 4 takes k = 2t and 2t + 1 of the round instead. Its two
 * values of a row of A then lie side by side, one float2 read; its values
 * of B are two reads, rows 2t and 2t + 1. With the padding, SA = TSK + 8
 * and SB = TSN + 4 floats per row, the 32 work-items of a warp read 32
 * different banks of local memory in each of these reads.
 */
void round8(__local const float *at, __local const float *bt, const int k8,
            const int wm0, const int wn0, const int g, const int t, float acc[FM][FN][4],
            __local float *swap)
{
    float a[FM][4], b[FN][2];

    #pragma unroll
    for (int i = 0; i < FM; i++) {
        /* Whole float2s: the index is even (SA, k8 and 2t are). */
        const float2 top = ((__local const float2 *)at)[((wm0 + 16 * i + g) * SA + k8 + 2 * t) / 2];
        const float2 bottom = ((__local const float2 *)at)[((wm0 + 16 * i + g + 8) * SA + k8 + 2 * t) / 2];
        a[i][0] = top.x;        /* A(g, t) of the PTX layout: here k = 2t */
        a[i][1] = bottom.x;     /* A(g + 8, t) */
        a[i][2] = top.y;        /* A(g, t + 4): here k = 2t + 1 */
        a[i][3] = bottom.y;     /* A(g + 8, t + 4) */
    }
    #pragma unroll
    for (int j = 0; j < FN; j++) {
        b[j][0] = bt[(k8 + 2 * t) * SB + wn0 + 8 * j + g];         /* B(t, g): k = 2t */
        b[j][1] = bt[(k8 + 2 * t + 1) * SB + wn0 + 8 * j + g];     /* B(t + 4, g): k = 2t + 1 */
    }
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
