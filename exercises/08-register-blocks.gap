# 08-register-blocks.gap: exercise 8's starting kernel, made from lesson 9's kernel
# (kernels/09-register-blocks.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 9: 2D register blocking.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ with
/*
 * Exercise 8: lesson 9's 2D register blocking, with the multiply-adds of
 * the block left to write.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ end

@@ replace

        for (int k = 0; k < TSK; k++) {
            /* WPTN values of B, each used WPTM times below. A warp holds
               32/RTSM values of lc; their lines are TSK+1 words apart, which
               puts them in different banks. */
            for (int wn = 0; wn < WPTN; wn++)
                bval[wn] = Btile[lc + wn * RTSN][k];
            for (int wm = 0; wm < WPTM; wm++) {
                /* Rows lr + wm*RTSM rather than lr*WPTM + wm: the warp
                   reads consecutive words of Atile, one per bank. */
                const float a = Atile[k][lr + wm * RTSM];
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] += a * bval[wn];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
@@ with

        for (int k = 0; k < TSK; k++) {
            /*
             * TODO: this work-item's WPTM*WPTN multiply-adds for this k.
             * acc[wm][wn] is C(row0 + lr + wm*RTSM, col0 + lc + wn*RTSN).
             * Read each value of B it needs from Btile once, into bval[wn];
             * then for each wm read one value of A from Atile and use it
             * WPTN times.
             */
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
@@ end
