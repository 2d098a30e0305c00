# 19-row-major-float4.gap: exercise 19's starting kernel, made from lesson 13's kernel
# (kernels/13-row-major-fast.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 13: a fast kernel for a modern GPU, row-major, any size.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all ROW-major,
@@ with
/*
 * Exercise 19: the starting kernel. Lesson 13's kernel, with one gap,
 * marked below in stash: the store that transposes A's float4s into the A
 * tile. Lesson 13 explains it in "What changes" and "Transposing A, and a
 * padding that keeps alignment". Everything else is the lesson's, line for
 * line.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all ROW-major,
@@ end

@@ replace
        if (IN_A(id)) {
            const int r = a_row(id), k = a_col(id);
            at[(k + 0) * (4 * ALINE) + r] = anext[l].s0;
            at[(k + 1) * (4 * ALINE) + r] = anext[l].s1;
            at[(k + 2) * (4 * ALINE) + r] = anext[l].s2;
            at[(k + 3) * (4 * ALINE) + r] = anext[l].s3;
        }
    }
@@ with
        if (IN_A(id)) {
            const int r = a_row(id), k = a_col(id);
            /*
             * TODO: anext[l] holds A(row0 + r, k0 + k .. k0 + k + 3), four
             * floats of one row of A. Store them into the A tile (at: the
             * tile seen as floats) where the inner loop reads them: the
             * comment at the declaration of Atile, in gemm_row_major_fast,
             * says where A(row0 + r, k0 + k) lies. As given, the float4 is
             * stored as it lies in A, row after row, not transposed: the
             * inner loop reads the wrong floats, and C is wrong.
             */
            ((__local float4 *)at)[(r * TSK + k) / 4] = anext[l];
        }
    }
@@ end
