# 16-fragments.gap: exercise 16's starting kernel, made from lesson 20's kernel
# (kernels/20-tensor-cores.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
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

@@ with
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

@@ end

@@ replace
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
@@ with
/*
 * One round of 8 values of k, from k8 of the step, for one warp: its FM
 * fragments of A, FN of B, then FM x FN mma. at holds A's tile by rows of
 * SA floats (row r, k at at[r * SA + k]); bt holds B's tile by rows of SB
 * floats (k, column n at bt[k * SB + n]). The warp's block starts at row
 * wm0 and column wn0 of the tile; fragment i of A is its rows 16i .. 16i+15,
 * fragment j of B its columns 8j .. 8j+7. g = lane / 4, t = lane % 4.
 */
void round8(__local const float *at, __local const float *bt, const int k8,
@@ end

@@ replace
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
@@ with
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
@@ end
