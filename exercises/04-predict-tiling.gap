# 04-predict-tiling.gap: exercise 4's starting kernel, made from lesson 5's kernel
# (kernels/05-local-tiles.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 5: tiling in local memory.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ with
/*
 * Exercise 4: lesson 5's tiling in local memory, with the multiply-adds
 * left to write.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ end

@@ replace
        barrier(CLK_LOCAL_MEM_FENCE);

        /* Atile[k][lr]: consecutive words across the warp, no bank conflict.
           Btile[lc][k]: one word per tile column, broadcast to its readers. */
        for (int k = 0; k < TS; k++)
            acc += Atile[k][lr] * Btile[lc][k];

        /* Everyone must be done with these tiles before the next step of the
@@ with
        barrier(CLK_LOCAL_MEM_FENCE);

        /*
         * TODO: this step's TS multiply-adds into acc, reading A and B only
         * from the tiles: A(row, k0 + k) times B(k0 + k, col) for k = 0 ..
         * TS-1. Index the tiles so that work-items with consecutive lr read
         * consecutive words (or one word that all of them share).
         */

        /* Everyone must be done with these tiles before the next step of the
@@ end
