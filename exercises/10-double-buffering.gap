# 10-double-buffering.gap: exercise 10's starting kernel, made from lesson 11's kernel
# (kernels/11-prefetch.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 11: prefetching with double-buffered local memory.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ with
/*
 * Exercise 10: lesson 11's prefetching with double-buffered local memory,
 * with the choice of buffers and the prefetch left to write.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ end

@@ replace

    for (int t = 0; t < steps; t++) {
        const int cur = t % 2;

        /*
@@ with

    for (int t = 0; t < steps; t++) {
        /* TODO: the buffer that holds step t's tiles. (As shipped, every
           step computes with buffer 0, which only ever holds step 0's.) */
        const int cur = 0;

        /*
@@ end

@@ replace
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Start the next step's copy. Nothing below depends on it, so while
           a warp waits for these global loads the SM runs warps that
           compute, and no barrier separates the two any more. The
           condition is the same for every work-item of the group. */
        if (t + 1 < steps) {
            copy_tile(&Atile[1 - cur][0][0], A, M / WIDTH, (t + 1) * TSK, row0, TSM, tid);
            copy_tile(&Btile[1 - cur][0][0], BT, N / WIDTH, (t + 1) * TSK, col0, TSN, tid);
        }

        for (int k = 0; k < TSK; k++) {
@@ with
        barrier(CLK_LOCAL_MEM_FENCE);

        /*
         * TODO: start the next step's copy, into the other buffer, so that
         * its global loads are in flight while this step computes. Use
         * copy_tile as the copy of step 0 above does. After the last step
         * there is nothing to fetch: a copy of step `steps` would read past
         * the end of A and BT. (That test has the same outcome for every
         * work-item of the group.)
         */

        for (int k = 0; k < TSK; k++) {
@@ end
