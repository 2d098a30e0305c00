# 05-more-work.gap: exercise 5's starting kernel, made from lesson 6's kernel
# (kernels/06-more-work.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 6: more work per work-item.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ with
/*
 * Exercise 5: lesson 6's kernel, more work per work-item, with its
 * multiply-adds and its stores left to write.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all column-major
@@ end

@@ replace
        for (int k = 0; k < TS; k++) {
            const float a = Atile[k][lr];   /* read once, used WPT times */
            /* The columns lc + w*RTS (rather than lc*WPT + w) keep the
               work-items of a warp that differ in lc on different banks. */
            for (int w = 0; w < WPT; w++)
                acc[w] += a * Btile[lc + w * RTS][k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    for (int w = 0; w < WPT; w++)
        C[(col0 + lc + w * RTS) * M + row] = acc[w];
}
@@ with
        for (int k = 0; k < TS; k++) {
            const float a = Atile[k][lr];   /* read once, used WPT times */
            /* TODO: WPT multiply-adds, one into each acc[w]: a times
               B(k0 + k, tile column lc + w*RTS), read from Btile. */
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* before the tiles are overwritten */
    }

    /* TODO: store the WPT results: acc[w] is C(row, col0 + lc + w*RTS). */
}
@@ end
