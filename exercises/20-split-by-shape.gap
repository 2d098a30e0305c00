# 20-split-by-shape.gap: exercise 20's starting kernel, made from lesson 16's kernel
# (kernels/15-split-k.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 15: split-K. Lesson 14's kernel with its K loop divided among SPLIT
 * work-groups per tile of C, and a second kernel that adds up their parts.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ with
/*
 * Exercise 20: the starting kernel. Lesson 16's kernel (lesson 15's split-K)
 * with the parameters that lesson 16's rules choose at 1024 on an H200: 128 x
 * 128 tiles, SPLIT = 4, warps of 8 x 4 work-items (WIM = 8).
 *
 * What is missing: the range of k of a group, in gemm_split_k (marked). As
 * given, every group takes the whole of K, so each of the SPLIT slices of W
 * holds the whole product and their sum is SPLIT times too large. Lesson 15,
 * "Splitting the sum", and the comment below say what each group computes.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ end

@@ replace
    const int KZ = K;
#else
    const int KC = ((K + SPLIT - 1) / SPLIT + TSK - 1) / TSK * TSK;
    const int kbeg = min(K, (int)get_group_id(2) * KC);
    const int KZ = min(KC, K - kbeg);
    A += kbeg;              /* A(m, kbeg + k) at A[m*K + k] */
    B += kbeg * N;          /* B(kbeg + k, n) at B[k*N + n] */
#endif
    const int steps = (KZ + TSK - 1) / TSK;   /* the last one may be partial: zeros */
@@ with
    const int KZ = K;
#else
    /* TODO: the range of group z = get_group_id(2). KC is cdiv(K, SPLIT)
       rounded up to a multiple of TSK; the range starts at kbeg = z * KC,
       clipped to K; KZ is the number of its values inside K (KC, or fewer
       for the last ranges, or 0). Then move A and B to the range's start:
       A(m, kbeg + k) must be at A[m*K + k], B(kbeg + k, n) at B[k*N + n].
       The lines below are only a placeholder: every group takes all of K,
       so C comes out SPLIT times too large. Replace them. */
    const int KC = K;
    const int kbeg = 0;
    const int KZ = K;
#endif
    const int steps = (KZ + TSK - 1) / TSK;   /* the last one may be partial: zeros */
@@ end
