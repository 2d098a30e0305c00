# 12-warp-lanes.gap: exercise 12's starting kernel, made from lesson 14's kernel
# (kernels/14-warp-tiles.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 14: warp tiles. Lesson 13 with its work-items arranged by warps.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ with
/*
 * Exercise 12: lesson 14's warp tiles, with the place of each lane in its
 * warp tile left to write. Lesson 14 explains it in "Counting the passes
 * again" and "The warp tile, drawn".
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ end

@@ replace
 *   warp = tid / 32 owns the warp tile (warp / WTN, warp % WTN)
 * Inside a warp tile the 32 work-items stand as a grid of WIM rows by
 * WIN = 32/WIM columns, lane (lane = tid % 32) at
 *   lr = lane % 2 + 2 * ((lane / 2) / WIN),   lc = (lane / 2) % WIN
 * so that lanes 2j and 2j+1 stand one above the other (same column) and
 * lanes 4j..4j+1 and 4j+2..4j+3 side by side (same rows). Each work-item
 * computes WPTM x WPTN = (WM/WIM) x (WN/WIN) elements of its warp tile in
 * runs of 4 neighbours, held in registers as float4 along n:
@@ with
 *   warp = tid / 32 owns the warp tile (warp / WTN, warp % WTN)
 * Inside a warp tile the 32 work-items stand as a grid of WIM rows by
 * WIN = 32/WIM columns, lane (lane = tid % 32) at row lr and column lc.
 * Missing here: lr and lc (the gap marked below, in gemm_warp_tiles). The
 * lanes must stand so that lanes 2j and 2j+1 are one above the other (same column)
 * and lanes 4j..4j+1 and 4j+2..4j+3 side by side (same rows). Each work-item
 * computes WPTM x WPTN = (WM/WIM) x (WN/WIN) elements of its warp tile in
 * runs of 4 neighbours, held in registers as float4 along n:
@@ end

@@ replace
    const int tid = get_local_id(0) + RTSN * get_local_id(1);
    const int warp = tid / 32, lane = tid % 32;
    const int lr = lane % 2 + 2 * ((lane / 2) / WIN);   /* 0 .. WIM-1 */
    const int lc = (lane / 2) % WIN;                    /* 0 .. WIN-1 */
    /* The float4 of a line of each tile where this work-item's first run
       starts: its warp tile's corner, then its place in the warp's grid. */
@@ with
    const int tid = get_local_id(0) + RTSN * get_local_id(1);
    const int warp = tid / 32, lane = tid % 32;
    /*
     * TODO: the lane's place in its warp's grid of WIM rows by WIN columns:
     * row lr (0 .. WIM-1) and column lc (0 .. WIN-1). Every place must get
     * exactly one lane. Lanes 2j and 2j+1 must have the same lc (they read
     * the same float4 of Btile), and lanes 4j+i and 4j+i+2 (i = 0, 1) the
     * same lr (they read the same float4 of Atile). As shipped, all 32
     * lanes stand at row 0 and column 0: they all compute the same
     * elements, and most of C is never written.
     */
    const int lr = 0;                                   /* 0 .. WIM-1 */
    const int lc = 0;                                   /* 0 .. WIN-1 */
    /* The float4 of a line of each tile where this work-item's first run
       starts: its warp tile's corner, then its place in the warp's grid. */
@@ end
