# 18-three-tf32.gap: exercise 18's starting kernel, made from lesson 24's kernel
# (kernels/24-three-tf32.cl) by the edits below (exercises/FORMAT, "Gap files").

@@ replace
/*
 * Lesson 24: FP32 accuracy on tensor cores, three TF32 products. Lesson
 * 23's kernel, with each input split in two TF32 numbers:
 *
 *   x = big + small,  big = tf32(x),  small = tf32(x - big)
 *
 * big keeps the 11 leading bits of x's significand (10 stored and the
 * implicit one), small the next 11 or so: together about 22 of FP32's 24.
 * Then
 *
 *   a b = a_big b_big + a_big b_small + a_small b_big + a_small b_small
 *
 * and the last term, about 2^-22 of the product, is left out: three mma
 * instructions where lesson 23 issues one, each a TF32 product with FP32
 * sums (the technique NVIDIA's CUTLASS calls 3xTF32). The small terms go
 * in first, as CUTLASS orders them.
 *
 * Local memory keeps the inputs as FP32; the split happens in registers,
 * on each value a warp reads: two conversions and a subtraction per value,
 * 4 FM + 2 FN values per work-item for 3 FM FN mma instructions.
 *
 * PROMOTE = P: the tensor cores sum the products of P steps (P TSK
 * values of k) from zero into a second set of sums, and the FP32 lanes
 * add that into the running sums, rounding to nearest, and clear it: the
 * tensor cores' own additions, which do not round to nearest, never touch
 * a sum larger than P steps' worth. PROMOTE = 0: the tensor cores keep the
 * running sums themselves, as in lesson 23 (faster, less accurate as K
 * grows).
 *
 * Everything else (tiles, fragments, copies, SWIZZLE, CVT,
 * EARLY and GM) is lesson 23's.
 */

@@ with
/*
 * Exercise 18: 3xTF32, FP32 accuracy from TF32 products. This is lesson
 * 24's kernel with two gaps.
 *
 * 1. split: cut x in two TF32 numbers, big and small, so that big + small
 *    keeps about 22 of x's 24 bits of significand. tf32() rounds a float
 *    to the nearest TF32 value (10 bits of mantissa).
 * 2. round8: the products. With each input split, a b is the sum of four
 *    TF32 products of the parts. Choose the three that matter and leave
 *    out the one too small to count. mma(d, a, b, swap) adds the product
 *    of one fragment of A and one of B to d.
 *
 * As shipped, big is x rounded to TF32 and small is 0, and only big times
 * big is summed: that is lesson 23's TF32 product, whose error is far
 * above FP32's tolerance, so the check fails. Lesson 24 explains the
 * split and the order of the terms.
 */

@@ end

@@ replace
void split(const float x, float *big, float *small)
{
    *big = tf32(x);
    *small = tf32(x - *big);
}

@@ with
void split(const float x, float *big, float *small)
{
    /* TODO: big, x to the nearest TF32, and small, the TF32 part of what
       big leaves out. As given, small is 0: the split keeps 11 bits. */
    *big = tf32(x);
    *small = 0.0f;
}

@@ end

@@ replace
        #pragma unroll
        for (int j = 0; j < FN; j++) {
            mma(acc[i][j], as[i], b[j], swap);    /* the small terms first */
            mma(acc[i][j], a[i], bs[j], swap);
            mma(acc[i][j], a[i], b[j], swap);
        }
@@ with
        #pragma unroll
        for (int j = 0; j < FN; j++) {
            /* TODO: the three products that FP32 accuracy needs, of the
               parts a[i] (big) and as[i] (small) of A, b[j] and bs[j] of
               B, the small ones first. As given, big times big alone. */
            mma(acc[i][j], a[i], b[j], swap);
        }
@@ end
