# 17-ldmatrix-rows.gap: exercise 17's starting kernel, made from lesson 21's kernel
# (kernels/21-ldmatrix.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 21: one instruction per fragment of A. Lesson 20's kernel, with
 * each work-item's fragment of A read by ldmatrix, a PTX instruction that
 * reads four 8 x 8 blocks of 16-bit values for a whole warp and hands each
 * work-item its share of each:
 *
 *   ldmatrix.sync.aligned.m8n8.x4.shared.b16  {r0, r1, r2, r3}, [address]
 *
 * Work-items 8q .. 8q+7 each give the address of one row of block q, 16
 * bytes; work-item l receives, of each block, the two 16-bit values of row
 * l / 4 at columns 2(l % 4) and 2(l % 4) + 1. Seen as floats (a row of 16
 * bytes is 4 floats), that is float l % 4 of row l / 4: with g = l / 4 and
 * t = l % 4, element (g, t) of an 8 x 4 block of floats, which is where the
 * mma layout wants a0 .. a3:
 *
 *   block 0: rows 0-7 of the fragment, k 0-3    ->  a0 = A(g, t)
@@ with
/*
 * Exercise 17: the addresses of ldmatrix. This is lesson 21's kernel, with
 * one line of round8 missing: the address each work-item gives ldmatrix.
 *
 *   ldmatrix.sync.aligned.m8n8.x4.shared.b16  {r0, r1, r2, r3}, [address]
 *
 * reads four 8 x 8 blocks of 16-bit values for a whole warp. Work-items
 * 8q .. 8q+7 each give the address of one row of block q, 16 bytes (4
 * floats); work-item l receives, of each block q, the two 16-bit values of
 * row l / 4 at columns 2(l % 4) and 2(l % 4) + 1: as floats, float l % 4
 * of row l / 4, element (g, t) of an 8 x 4 block of floats. The mma layout
 * wants a0 .. a3 of fragment i from these four blocks of A's tile:
 *
 *   block 0: rows 0-7 of the fragment, k 0-3    ->  a0 = A(g, t)
@@ end

@@ replace
 *   block 3: rows 8-15, k 4-7                   ->  a3 = A(g + 8, t + 4)
 *
 * One instruction where lesson 20 issues two float2 reads, and k in its
 * own order: lesson 20's exchange of k (2t and 2t + 1 for t and t + 4) is
 * gone, and B's values are B(t, g) and B(t + 4, g) again. The padding
 * changes with it: A's rows are TSK + 4 floats long (80 bytes: the 8 rows
 * of a block fall in 8 different 16-byte slots of the 32 banks), B's
 * TSN + 8 (the rows t = 0 .. 3 of a read start 8 banks apart).
 *
 * Everything else is lesson 20's.
 */

@@ with
 *   block 3: rows 8-15, k 4-7                   ->  a3 = A(g + 8, t + 4)
 *
 * Fill the gap in round8: the address of the row this work-item gives.
 * Lesson 21 explains the rest.
 */

@@ end

@@ replace
 * One round of 8 values of k, from k8 of the step, for one warp: its FM
 * fragments of A, one ldmatrix each, FN of B, two reads each, FM x FN mma.
 * Work-item l gives the address of row l % 8 of block l / 8: rows 8 apart
 * for blocks 1 and 3, k 4 further on for blocks 2 and 3.
 */
void round8(__local const float *at, __local const float *bt, const int k8,
@@ with
 * One round of 8 values of k, from k8 of the step, for one warp: its FM
 * fragments of A, one ldmatrix each, FN of B, two reads each, FM x FN mma.
 * Fragment i of A is rows wm0 + 16i .. wm0 + 16i + 15 of A's tile, at k8 ..
 * k8 + 7; the tile holds row r at at + r * SA, its k at at[r * SA + k].
 */
void round8(__local const float *at, __local const float *bt, const int k8,
@@ end

@@ replace
    for (int i = 0; i < FM; i++) {
        uint v[4];
        ldmatrix4(v, at + (wm0 + 16 * i + r + 8 * (q % 2)) * SA + k8 + 4 * (q / 2), swap);
        #pragma unroll
        for (int c = 0; c < 4; c++)
@@ with
    for (int i = 0; i < FM; i++) {
        uint v[4];
        /* TODO: the address of the row this work-item gives for fragment i:
           row r of block q, where block q of the fragment is the one of the
           table at the top. As given, every work-item gives the fragment's
           first row, and the warp reads one row 32 times. */
        __local const float *row = at + (wm0 + 16 * i) * SA + k8;
        ldmatrix4(v, row, swap);
        #pragma unroll
        for (int c = 0; c < 4; c++)
@@ end
