# 21-whole-tiles.gap: exercise 21's starting kernel, made from lesson 17's kernel
# (kernels/17-larger-blocks.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 17: larger blocks, lean steps. Lesson 15's kernels (lesson 14's warp tiles, with
 * the K loop split among SPLIT groups per tile) with less work around the
@@ with
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
@@ end

@@ replace
 *
 *   WHOLE = 1  a group whose tile, and the step's TSK values of k, lie
 *              wholly inside A and B (when K and N are multiples of 4:
 *              every group but those at the edges, every step but a
 *              partial last one) loads its float4s without testing each
 *              against the edges, at addresses written so that the part
 *              that does not change from step to step can be computed
@@ with
 *
 *   WHOLE = 1  a group whose tile, and the step's TSK values of k, lie
 *              wholly inside A and B (at most sizes: every group but those
 *              at the edges, every step but a partial last one; the test
 *              in fetch says exactly when) loads its float4s without testing each
 *              against the edges, at addresses written so that the part
 *              that does not change from step to step can be computed
@@ end

@@ replace
{
#if WHOLE
    /* The group's tile and this step inside A and B, and every row of
       both starting on a multiple of 16 bytes: no edge tests. The index of
       a float4 is a part fixed for the whole loop (which the compiler may
       compute once) plus k0/4 or k0*N/4, in unsigned arithmetic: every
@@ with
{
#if WHOLE
    /* The lean path, for the groups and steps that pass the test below:
       no edge tests. The index of
       a float4 is a part fixed for the whole loop (which the compiler may
       compute once) plus k0/4 or k0*N/4, in unsigned arithmetic: every
@@ end

@@ replace
       (r*K + k0 + c)/4 divides a sum that changes at every step. The test
       is the same for the whole group: its warps do not diverge. */
    if (row0 + TSM <= M && col0 + TSN <= N && k0 + TSK <= KZ && K % 4 == 0 && N % 4 == 0) {
        const __global float4 *A4 = (const __global float4 *)A;
        const __global float4 *B4 = (const __global float4 *)B;
@@ with
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
@@ end
