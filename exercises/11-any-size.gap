# 11-any-size.gap: exercise 11's starting kernel, made from lesson 12's kernel
# (kernels/12-any-size.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 12: incomplete tiles -- any M, N and K.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ with
/*
 * Exercise 11: lesson 12's incomplete tiles -- any M, N and K -- with the
 * edges left to handle.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ end

@@ replace
        }
    } else {
        /* An edge tile: each element is tested before its address is
           used, since a load outside the buffer is an error even when its
           value would be thrown away. */
        for (int l = 0; l < TSK * TS / WGS; l++) {
            const int id = l * WGS + tid;
            const int i = id % TS;
            const int k = id / TS;
            const bool inside = off + i < len && k0 + k < lines;
            tile[k * TS + i] = inside ? src[(k0 + k) * len + off + i] : 0.0f;
        }
    }
@@ with
        }
    } else {
        /*
         * An edge tile: part of it lies outside the matrix, past the end
         * of its lines (off + i >= len) or past the last line
         * (k0 + k >= lines).
         *
         * TODO: copy the elements that lie inside the matrix, and store 0
         * for the others. Test each element before its address is used: a
         * load outside the buffer is an error even when its value would be
         * thrown away. (As shipped, an edge tile is all zeros.)
         */
        for (int l = 0; l < TSK * TS / WGS; l++) {
            const int id = l * WGS + tid;
            const int i = id % TS;
            const int k = id / TS;
            tile[k * TS + i] = 0.0f;   /* TODO */
        }
    }
@@ end

@@ replace
        for (int wn = 0; wn < WPTN; wn++) {
            const int col = col0 + lc + wn * RTSN;
            if (row < M && col < N)
                C[col * M + row] = acc[wm][wn];
        }
@@ with
        for (int wn = 0; wn < WPTN; wn++) {
            const int col = col0 + lc + wn * RTSN;
            /* TODO: store every element of the block that lies inside C,
               and none outside it. (As shipped, only groups whose whole
               tile lies inside C store anything.) */
            if (row0 + TSM <= M && col0 + TSN <= N)
                C[col * M + row] = acc[wm][wn];
        }
@@ end
