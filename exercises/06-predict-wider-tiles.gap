# 06-predict-wider-tiles.gap: exercise 6's starting kernel, made from lesson 6's kernel
# (kernels/06-more-work.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 6: more work per work-item.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ with
/*
 * Exercise 6: lesson 6's kernel, more work per work-item, built with
 * 64 x 64 tiles; its tile copy is left to write.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ end

@@ replace
    for (int k0 = 0; k0 < K; k0 += TS) {
        /*
         * TS*TS elements per tile, TS*RTS work-items: each copies WPT
         * elements of each tile. In round w the group fills tile columns
         * w*RTS .. w*RTS+RTS-1, with lr running down each column, so every
         * round is a set of coalesced column reads.
         */
        for (int w = 0; w < WPT; w++) {
            const int c = lc + w * RTS;
            Atile[c][lr] = A[(k0 + c) * M + row];
            Btile[c][lr] = B[(col0 + c) * K + (k0 + lr)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);

@@ with
    for (int k0 = 0; k0 < K; k0 += TS) {
        /*
         * TODO: copy this step's tiles. TS*TS elements per tile, TS*RTS
         * work-items: each copies WPT elements of each tile, in WPT rounds.
         * Let round w fill tile columns w*RTS .. w*RTS+RTS-1, with lr
         * running down each column, so that work-items with consecutive lr
         * read consecutive addresses of A and of B.
         */
        barrier(CLK_LOCAL_MEM_FENCE);

@@ end
