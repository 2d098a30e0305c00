# 14-last-group-adds.gap: exercise 14's starting kernel, made from lesson 18's kernel
# (kernels/18-last-group-adds.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 18: the last group adds. Lesson 17's kernel (warp tiles, the K loop
 * split among SPLIT groups per tile, lean steps, large blocks), with the
 * split's partial products added inside the same launch: no second kernel.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ with
/*
 * Exercise 14: the starting kernel. Lesson 18's kernel, the last group adds
 * (lesson 17's kernel: warp tiles, the K loop split among SPLIT groups per
 * tile, lean steps, large blocks; with the split's partial products added
 * inside the same launch: no second kernel), with the adding left to write.
 *
 * What is missing: the end of gemm_last_adds, after each group has written
 * its part (the block #if SPLIT > 1 && LAST). The fence and the count, the
 * test for the last group, the last group's sum of the parts in the order
 * of k, and the counter's reset to 0. As given, no group adds anything, so
 * C is never written. Everything else is the lesson's, line for line.
 * Lesson 18 explains it: "Counting the groups in", "Order between
 * work-groups" and "Reading the parts".
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ end

@@ replace

#if SPLIT > 1 && LAST
    /* Every work-item's stores reach the memory the whole device shares
       before it goes on (the fence), and every work-item of the group has
       got there (the barrier) before one of them counts the group in.
       atomic_inc returns the count before its own: SPLIT - 1 for the last
       of the tile's groups. */
    volatile __global int *count = (volatile __global int *)W + (row0 / TSM) * tiles_n + col0 / TSN;
    __local int last;
    DEVICE_FENCE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (tid == 0)
        last = atomic_inc(count) == SPLIT - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last)
        return;               /* the whole group: last is the same for all */

    /* The last group: every part is in W, its own too. It adds them in the
       order of z, as lesson 17's second kernel does, whichever group came
       last. It reads them all back from memory, its own too, so that its
       accumulators are free to hold the reads: BATCH of its float4s of C
       at a time, all SPLIT parts of each, read before any is added, so
       that many reads are on their way at once (each waits for memory, not
       for the one before). The reads go through a volatile pointer: to the
       device's L2 cache, past the compute unit's own L1, which could hold
       older data. */
    DEVICE_FENCE();
    #pragma unroll
    for (int q0 = 0; q0 < RUNS; q0 += BATCH) {
        float4 part[BATCH][SPLIT];
        #pragma unroll
        for (int b = 0; b < BATCH; b++) {
            #pragma unroll
            for (int p = 0; p < SPLIT; p++)
                if (q0 + b < RUNS)
                    part[b][p] = part4(parts + p * M * N, M, N, run_row(row0, am, q0 + b), run_col(col0, bn, q0 + b));
        }
        #pragma unroll
        for (int b = 0; b < BATCH; b++) {
            if (q0 + b < RUNS) {
                float4 sum = part[b][0];
                #pragma unroll
                for (int p = 1; p < SPLIT; p++)
                    sum += part[b][p];
                store4(C, M, N, run_row(row0, am, q0 + b), run_col(col0, bn, q0 + b), sum);
            }
        }
    }

    /* Set back to 0 for the next run: every group of the tile has counted.
       An atomic, as the counting was: a plain store beside other groups'
       atomics is a race in the language's terms, if not on the GPU. */
    if (tid == 0)
        atomic_xchg(count, 0);
#endif
}
@@ with

#if SPLIT > 1 && LAST
    /* This tile's counter: one int per tile at the start of W, before the
       parts. The engine starts it at 0 (the lesson's scratch-zero line). */
    volatile __global int *count = (volatile __global int *)W + (row0 / TSM) * tiles_n + col0 / TSN;

    /* TODO: the group has written its part, at P. Now:
       1. Make every work-item's stores of the part reach the memory the
          whole device shares (DEVICE_FENCE(), defined at the top of this
          file), and wait for the whole group (a barrier). Then one
          work-item (tid == 0) counts the group in with atomic_inc(count),
          which returns the count before its own. The group is the last of
          the tile's SPLIT groups when it reads SPLIT - 1. Share that
          answer with the group through a __local int and a barrier.
       2. Every group that is not the last returns. The last group reads
          all SPLIT parts, its own too, part 0 first (the order of k), adds
          them and writes its tile of C. Part p starts at parts + p*M*N;
          part4(), run_row(), run_col(), RUNS and BATCH above help.
       3. The last group sets the counter back to 0 (an atomic, as the
          count), for the next run of the kernel.
       As given, nothing counts and nothing adds: C is never written. */
#endif
}
@@ end
