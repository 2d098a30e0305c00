# 23-early-loads.gap: exercise 23's starting kernel, made from lesson 23's kernel
# (kernels/23-feeding.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 23: feeding the tensor cores. Lesson 22's kernel, with three
 * changes to the way the tiles reach local memory, each of which can be
 * set back to lesson 22's way (CVT=1, EARLY=0, GM=1):
 *
 * CVT      0: each input rounded to TF32 with two integer operations, add
 *          half of the last kept bit and clear the 13 bits below it, which
 *          is cvt.rna's rounding (to nearest, ties away from zero) for every
 *          finite float; 1: with cvt.rna, as lesson 22, which costs more.
 *          (NaNs differ: the addition can carry a NaN's bits into an
 *          infinity or a zero. The tool's inputs are finite.)
 * EARLY    1: the next step's loads from global memory are issued before the
 *          barrier, not after it, so that they travel while the work-items
 *          wait.
 * GM       the order of the tiles: GM rows of tiles walked column by column
 *          (1: lesson 22's order, row by row). The groups that run at the same
 *          time then share more of A's and B's tiles in the L2 cache.
 *
 * SWIZZLE is lesson 22's (SWIZZLE=0: lesson 21's padded rows).
 *
 * Everything else is lesson 22's.
 */

@@ with
/*
 * Exercise 23: loads before the barrier, lesson 23's software pipelining.
 * This is lesson 23's kernel (CVT=0, EARLY=1, GM=8), with the three lines
 * that feed local memory in each step put in a wrong order.
 *
 * A step's values travel in two stages. fetch loads this work-item's
 * float4s of A and B from global memory into registers (anext, bnext);
 * stash stores those registers into local memory, rounded to TF32. There
 * are two buffers of each tile: step s reads buffer s % 2. With EARLY=1
 * the loads of step s+1 are issued before the barrier, so they travel
 * while the work-items wait there and while the tensor cores compute
 * step s; their values are stored at the start of step s+1, into the
 * other buffer.
 *
 * EARLY is 1 here, fixed: lesson 23's lines for EARLY=0 (the next loads
 * after the barrier, as lesson 22) are left out, and so is the test of
 * EARLY. Everything else is lesson 23's, which lesson 23 explains.
 */

@@ end

@@ replace
    for (int s = 0; s < steps; s++) {
        const int cur = s % 2;
        /* Buffer cur was last read in step s-2, before the barrier of
           step s-1: it is free. */
        stash(Atile[cur], Btile[cur], anext, bnext, tid);
        /* The registers are free once stored: the next step's loads can
           start before the barrier (EARLY) or after it (lesson 22). */
        if (EARLY && s + 1 < steps)
            fetch(anext, bnext, (const __global float4 *)A, (const __global float4 *)B, N, K, row0, col0,
                  (s + 1) * TSK, tid);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!EARLY && s + 1 < steps)
            fetch(anext, bnext, (const __global float4 *)A, (const __global float4 *)B, N, K, row0, col0,
                  (s + 1) * TSK, tid);
        #pragma unroll
        for (int k8 = 0; k8 < TSK; k8 += 8)
@@ with
    for (int s = 0; s < steps; s++) {
        const int cur = s % 2;
        /*
         * TODO: the pipeline. Put the three lines below in the right
         * order. When the step starts, anext and bnext hold step s's
         * values: they must reach buffer cur, and the barrier must lie
         * between those stores and round8's reads. The loads of step s+1
         * go into the same registers, and they start before the barrier.
         * As shipped, round8 reads the wrong tiles.
         */
        if (s + 1 < steps)
            fetch(anext, bnext, (const __global float4 *)A, (const __global float4 *)B, N, K, row0, col0,
                  (s + 1) * TSK, tid);
        stash(Atile[cur], Btile[cur], anext, bnext, tid);
        barrier(CLK_LOCAL_MEM_FENCE);
        #pragma unroll
        for (int k8 = 0; k8 < TSK; k8 += 8)
@@ end
