# 15-last-wave.gap: exercise 15's starting kernel, made from lesson 19's kernel
# (kernels/19-last-wave.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 19: the last wave. Lesson 18's kernel (warp tiles, lean steps,
 * large blocks, a split of K whose parts the last group adds), with the
@@ with
/*
 * Exercise 15: the starting kernel. Lesson 19's last wave (lesson 18's
 * kernel, with the split kept for the tiles that do not fill a wave), with
 * the split of the tail (PIECES = 0) missing how a group's number becomes
 * its tile and its range of k.
 *
 * What is missing: in gemm_last_wave, in the gap marked below, after
 * "#else" (the PIECES = 0 path), a group of the tail (g >= full) must find its tile of
 * the tail, its range z of k (slot) and that range's steps ks0 .. ks1-1.
 * As given, every group of the tail computes the tail's first tile over all
 * of K, and the other tiles of the tail are never written, so C is wrong.
 * Everything else is the lesson's, line for line; the PIECES = 1 path is
 * given whole. Lesson 19, "Waves" and "The tail, split", explains it.
 *
 * Lesson 19: the last wave. Lesson 18's kernel (warp tiles, lean steps,
 * large blocks, a split of K whose parts the last group adds), with the
@@ end

@@ replace
    if (SPLIT > 1 && g >= full) {
        const int KC = ((K + SPLIT - 1) / SPLIT + TSK - 1) / TSK * TSK;
        tile = full + (g - full) / SPLIT;
        slot = (g - full) % SPLIT;
        n = SPLIT;
        ks0 = min(spt, slot * (KC / TSK));
        ks1 = min(spt, ks0 + KC / TSK);
    }
#endif
@@ with
    if (SPLIT > 1 && g >= full) {
        const int KC = ((K + SPLIT - 1) / SPLIT + TSK - 1) / TSK * TSK;
        /* TODO: the groups from full on take the tail's tiles in turn,
           SPLIT consecutive groups per tile, the z-th over the z-th range
           of k. Range z is KC values of k long (KC / TSK steps, the last
           ranges shorter or empty). Set this group's tile (a tile of the
           tail: from full to tiles - 1), slot (its z: 0 .. SPLIT-1) and
           the range's steps ks0 .. ks1-1 (neither above spt).
           The lines below are only a placeholder: every group of the tail
           computes the tail's first tile over all of K and writes C itself
           (slot -1: no part), so the other tiles of the tail are never
           written. Replace them. */
        tile = full;
        slot = -1;
        n = SPLIT;
        ks0 = 0;
        ks1 = spt;
    }
#endif
@@ end
