# 02-local-tiles.gap: exercise 2's starting kernel, made from lesson 5's kernel
# (kernels/05-local-tiles.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 5: tiling in local memory.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ with
/*
 * Exercise 2: lesson 5's tiling in local memory, with the tile copy and the
 * barriers left to write.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ end

@@ replace
    for (int k0 = 0; k0 < K; k0 += TS) {
        /*
         * Work-item (lr, lc) fetches A(row, k0+lc) and B(k0+lr, col). In both
         * loads consecutive lr means consecutive addresses: coalesced, as the
         * A loads of lesson 1, but now B is read down its columns too.
         */
        Atile[lc][lr] = A[(k0 + lc) * M + row];
        Btile[lc][lr] = B[col * K + (k0 + lr)];

        /* The tiles must be complete before anyone computes with them. */
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Atile[k][lr]: consecutive words across the warp, no bank conflict.
@@ with
    for (int k0 = 0; k0 < K; k0 += TS) {
        /*
         * TODO: copy this step's tiles. Work-item (lr, lc) fills one element
         * of each: Atile[lc][lr] and Btile[lc][lr] (see above for what they
         * hold), reading A and B so that work-items with consecutive lr read
         * consecutive addresses.
         */

        /* TODO: may the multiply-adds start yet? */

        /* Atile[k][lr]: consecutive words across the warp, no bank conflict.
@@ end

@@ replace
            acc += Atile[k][lr] * Btile[lc][k];

        /* Everyone must be done with these tiles before the next step of the
           loop overwrites them; without this barrier a fast work-item could
           change a tile that a slow one is still reading. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }

@@ with
            acc += Atile[k][lr] * Btile[lc][k];

        /* TODO: may the next step's copy start yet? */
    }

@@ end
