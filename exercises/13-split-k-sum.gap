# 13-split-k-sum.gap: exercise 13's starting kernel, made from lesson 15's kernel
# (kernels/15-split-k.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 15: split-K. Lesson 14's kernel with its K loop divided among SPLIT
 * work-groups per tile of C, and a second kernel that adds up their parts.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ with
/*
 * Exercise 13: the starting kernel. Lesson 15's split-K (lesson 14's kernel
 * with its K loop divided among SPLIT work-groups per tile of C, and a second
 * kernel that adds up their parts), with the sum of the second kernel left to
 * write.
 *
 * What is missing: the body of reduce_split_k, at the end of this file. It
 * must add the SPLIT parts into C, slice 0 first: C = W[0] + ... + W[SPLIT-1].
 * As given, it copies slice 0 alone, so C is wrong. The first kernel,
 * gemm_split_k, is given whole: it is the lesson's, line for line. Lesson 15,
 * "Splitting the sum", explains the slices of W and the float4 rule.
 *
 * Computes C = A * B for A (M x K), B (K x N) and C (M x N), all row-major:
@@ end

@@ replace
    const int i = get_global_id(0);

    if (MN % 4 == 0) {
        const __global float4 *W4 = (const __global float4 *)W;
        if (i < MN / 4) {
            float4 sum = W4[i];
            for (int z = 1; z < SPLIT; z++)
                sum += W4[z * (MN / 4) + i];
            ((__global float4 *)C)[i] = sum;
        }
    } else if (i < MN) {
        float sum = W[i];
        for (int z = 1; z < SPLIT; z++)
            sum += W[z * MN + i];
        C[i] = sum;
    }
}
@@ with
    const int i = get_global_id(0);

    /* TODO: add the SPLIT slices into C in the order of z: slice 0 first,
       then 1, 2, ..., SPLIT-1. Slice z starts at W + z*MN. When MN is a
       multiple of 4, work-item i adds float4 number i of each slice and
       writes float4 number i of C; otherwise it adds element i of each
       slice and writes C[i]. Work-items past the end do nothing.
       The two lines below are only a placeholder: they copy slice 0 alone,
       so C is wrong. Replace them. */
    if (i < MN)
        C[i] = W[i];
}
@@ end
