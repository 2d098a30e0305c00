# 09-vector-loads.gap: exercise 9's starting kernel, made from lesson 10's kernel
# (kernels/10-wider-loads.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 10: wider loads into local memory, with 2D register blocking.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ with
/*
 * Exercise 9: lesson 10's wider loads into local memory, with the tile
 * copies left to write.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
@@ end

@@ replace

    for (int k0 = 0; k0 < K; k0 += TSK) {
        /* Vector v of a tile line holds rows (or columns) v*WIDTH ..
           v*WIDTH+WIDTH-1. Consecutive work-items take consecutive vectors:
           the same coalesced runs as before, in WIDTH times fewer loads. */
        for (int l = 0; l < VLOADS_A; l++) {
            const int id = l * WGS + tid;
            const int v = id % (TSM / WIDTH);
            const int k = id / (TSM / WIDTH);
            const floatW x = A[(k0 + k) * Mw + row0 / WIDTH + v];
            STORE_W(x, v, Atile[k]);
        }
        for (int l = 0; l < VLOADS_B; l++) {
            const int id = l * WGS + tid;
            const int v = id % (TSN / WIDTH);
            const int k = id / (TSN / WIDTH);
            const floatW x = BT[(k0 + k) * Nw + col0 / WIDTH + v];
            STORE_W(x, v, Btile[k]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

@@ with

    for (int k0 = 0; k0 < K; k0 += TSK) {
        /*
         * TODO: copy this step's tiles, WIDTH floats at a time. A line k of
         * a tile holds TSM/WIDTH vectors of A (TSN/WIDTH of BT); number the
         * vectors of a tile id = v + k*(TS/WIDTH), with v the vector in
         * its line, and let work-item tid copy the vectors id = l*WGS + tid
         * for l = 0 .. VLOADS_A-1 (VLOADS_B-1 for B). Vector v of line k
         * holds rows (or columns) v*WIDTH .. v*WIDTH+WIDTH-1 of the tile,
         * and is read from A (or BT) as one floatW; STORE_W writes it to
         * the tile line.
         */
        barrier(CLK_LOCAL_MEM_FENCE);

@@ end
