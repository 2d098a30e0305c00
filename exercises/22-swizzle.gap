# 22-swizzle.gap: exercise 22's starting kernel, made from lesson 22's kernel
# (kernels/22-swizzle.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
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

@@ with
/*
 * Exercise 22: read the swizzled tile. This is lesson 22's kernel, with
 * one line of round8 left as lesson 21 had it: the address each work-item
 * gives ldmatrix.
 *
 * A's tile in local memory has no padding here: a row is TSK = 16 floats,
 * 4 pieces of 16 bytes (float4). stash stores piece c of row r at place
 * c ^ ((r / 2) % 4) of that row: A_AT(r, c) below, in float4s. Rows 0 and 1
 * keep the order 0 1 2 3, rows 2 and 3 have 1 0 3 2, rows 4 and 5 have
 * 2 3 0 1, rows 6 and 7 have 3 2 1 0, and so on every 8 rows. So the
 * stores and ldmatrix's reads both avoid bank conflicts.
 *
 * Fill the gap in round8: the address of the row this work-item gives, in
 * the swizzled tile. The reads must find each piece where stash put it.
 * Lesson 22 explains the rest; exercise 17 (lesson 21) is the same address
 * in a padded tile.
 */

@@ end

@@ replace
    for (int i = 0; i < FM; i++) {
        uint v[4];
        ldmatrix4(v, at + 4 * A_AT(wm0 + 16 * i + r + 8 * (q % 2), k8 / 4 + q / 2), swap);
        #pragma unroll
        for (int c = 0; c < 4; c++)
@@ with
    for (int i = 0; i < FM; i++) {
        uint v[4];
        /* TODO: the address of the row this work-item gives for fragment i,
           in the swizzled tile: row r of block q, its piece of k8 + 4 * (q / 2).
           As given, it is lesson 21's address, as if the tile were not
           swizzled: right for rows 0 and 1 of every 8, the wrong piece of
           the row for the other 6. */
        __local const float *row = at + (wm0 + 16 * i + r + 8 * (q % 2)) * SA + k8 + 4 * (q / 2);
        ldmatrix4(v, row, swap);
        #pragma unroll
        for (int c = 0; c < 4; c++)
@@ end
