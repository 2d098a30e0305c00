/* verify.c: checks a product against a double-precision reference.

   An element's error is judged relative to S = |A||B| (the sum of the magnitudes of its
   products), the natural scale of rounding error in a dot product. Rounding in a float
   dot product of random data grows like sqrt(K) times the unit roundoff; the tolerance
   leaves a wide margin above that, while a wrong index or a missing tile gives errors
   of order 1/sqrt(K), thousands of times larger.

   A TF32 kernel (lessons/FORMAT: precision) multiplies inputs rounded, or truncated by the
   hardware, to 10 bits of mantissa: each off by at most u = 2^-10 of itself (2^-11 when
   rounded to nearest), so each product a b by at most about 2u |a||b|, and their sum by at
   most 2u S whatever the data. That bound is too loose to see a bug at large K: a step of
   16 values of k left out at K = 16384 is off by about 3e-4 of S, below 2u. The errors of
   the products of random inputs of both signs, the tool's, are independent and add like a
   random walk: about u sqrt(sum (ab)^2), which for inputs uniform in [-1, 1) is
   (4/3) u S / sqrt(K). Measured on an H200 with inputs cut (the worse case), the largest
   over up to a million elements was 4 u / sqrt(K) at K = 256 to 16384 (doc/results.md).
   The tolerance keeps three times that, 12 u / sqrt(K) (never more than the bound 2u),
   plus the FP32 tolerance for the float accumulation.

   Small products are compared element by element. Large ones would cost O(n^3) on the
   host, so they get O(n^2) checks instead: every element must be finite (the device
   buffer is filled with NaN before the launch, so an element never written is caught),
   random elements plus the whole last row and column (where edge bugs live) are compared
   directly, and Freivalds' test compares C x with A (B x) for random sign vectors x.
   The projections see errors spread over many elements (a wrong index, a missing or
   misplaced tile) far below the tolerance of single elements; one wrong element that no
   direct check sampled is seen once it exceeds about 10 sqrt(N) times the tolerance of its
   scale (1e-2 of it at 600x600x400), well under the error of a wrong index, about 1/sqrt(K).

   For the projections: if every element is within tolerance, |(C x - A B x)_i| is a sum
   of independent random-signed terms |d_ij| <= tol S_ij, so by Hoeffding's inequality it
   stays below 7 sqrt(sum_j (tol S_ij)^2) except with probability 5e-11, and by
   Cauchy-Schwarz sum_j S_ij^2 <= |A_i|^2 |B|_F^2. Beyond that bound C is wrong. */
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostgemm.h"
#include "matrix.h"
#include "xalloc.h"

#define UNIT_ROUNDOFF 5.9604644775390625e-8    /* 2^-24 */
#define TF32_INPUT_ERROR 9.765625e-4            /* 2^-10: an input truncated to TF32 */
#define TF32_SPREAD 12.0                        /* the TF32 tolerance: 12 u / sqrt(K) */
#define HOEFFDING_BOUND 7.0

double verify_tolerance(long long k)
{
    return 8.0 * sqrt((double)(k > 0 ? k : 1)) * UNIT_ROUNDOFF;
}

double verify_tolerance_for(enum precision p, long long k)
{
    double kk = (double)(k > 0 ? k : 1);

    if (p != PRECISION_TF32)
        return verify_tolerance(k);
    return TF32_INPUT_ERROR * fmin(2.0, TF32_SPREAD / sqrt(kk)) + verify_tolerance(k);
}

double verify_element_error(double value, double ref, double scale)
{
    double err = fabs(value - ref);

    if (!isfinite(value))
        return INFINITY;
    return scale > 0.0 ? err / scale : (err > 0.0 ? INFINITY : 0.0);
}

/* Records one element's error: the worst so far, and the first that fails. */
static void record(struct verify_result *v, long long i, long long j, double value, double ref,
                   double scale)
{
    double err = verify_element_error(value, ref, scale);

    v->checked++;
    if (err > v->max_error || isnan(err))
        v->max_error = err;
    if (!(err <= v->tolerance) && v->ok) {
        v->ok = false;
        snprintf(v->detail, sizeof v->detail, "C[%lld][%lld] = %g, expected %g%s", i, j, value, ref,
                 isfinite(value) ? "" : " (never written, or overflow)");
    }
}

/* Compares C[i][j] with its reference sum. */
static void check_element(const float *A, const float *B, const float *C,
                          long long n, long long k, long long i, long long j, struct verify_result *v)
{
    double ref = 0.0, scale = 0.0;

    for (long long p = 0; p < k; p++) {
        double t = (double)A[i * k + p] * (double)B[p * n + j];
        ref += t;
        scale += fabs(t);
    }
    record(v, i, j, C[i * n + j], ref, scale);
}

static void verify_full(const float *A, const float *B, const float *C,
                        long long m, long long n, long long k, struct verify_result *v)
{
    /* Row by row, so the reference needs memory for one row, not for all of C. */
    double *ref = xmalloc((size_t)n * sizeof *ref), *scale = xmalloc((size_t)n * sizeof *scale);

    v->exhaustive = true;
    for (long long i = 0; i < m; i++) {
        hostgemm_double(A + i * k, B, ref, scale, 1, n, k);
        for (long long j = 0; j < n; j++)
            record(v, i, j, C[i * n + j], ref[j], scale[j]);
    }
    free(ref);
    free(scale);
}

static void verify_finite(const float *C, long long m, long long n, struct verify_result *v)
{
    for (long long i = 0; i < m * n; i++)
        if (!isfinite(C[i])) {
            v->ok = false;
            v->max_error = INFINITY;
            snprintf(v->detail, sizeof v->detail, "C[%lld][%lld] = %g (never written, or overflow)",
                     i / n, i % n, (double)C[i]);
            return;
        }
}

static void verify_projections(const float *A, const float *B, const float *C,
                               long long m, long long n, long long k, uint64_t seed,
                               struct verify_result *v)
{
    double *x = xmalloc((size_t)n * sizeof *x), *bx = xmalloc((size_t)k * sizeof *bx);
    double *row_norm = xmalloc((size_t)m * sizeof *row_norm), b_frobenius = 0.0;
    struct rng r;

    for (long long i = 0; i < k * n; i++)
        b_frobenius += (double)B[i] * (double)B[i];
    b_frobenius = sqrt(b_frobenius);
    for (long long i = 0; i < m; i++) {
        double s = 0.0;
        for (long long p = 0; p < k; p++)
            s += (double)A[i * k + p] * (double)A[i * k + p];
        row_norm[i] = sqrt(s);
    }
    rng_seed(&r, seed ^ 0xF5EE1DA5ull);
    for (int t = 0; t < VERIFY_VECTORS && v->ok; t++) {
        for (long long j = 0; j < n; j++)
            x[j] = (rng_next(&r) >> 63) ? 1.0 : -1.0;
        for (long long p = 0; p < k; p++) {
            double s = 0.0;
            for (long long j = 0; j < n; j++)
                s += (double)B[p * n + j] * x[j];
            bx[p] = s;
        }
        for (long long i = 0; i < m && v->ok; i++) {
            double want = 0.0, got = 0.0, bound;
            for (long long p = 0; p < k; p++)
                want += (double)A[i * k + p] * bx[p];
            for (long long j = 0; j < n; j++)
                got += (double)C[i * n + j] * x[j];
            bound = HOEFFDING_BOUND * v->tolerance * row_norm[i] * b_frobenius;
            if (!(fabs(got - want) <= bound)) {
                v->ok = false;
                snprintf(v->detail, sizeof v->detail,
                         "row %lld of C fails random projection %d: off by %.3g, allowed %.3g",
                         i, t + 1, fabs(got - want), bound);
            }
        }
        v->vectors = t + 1;
    }
    free(x);
    free(bx);
    free(row_norm);
}

void verify_product(const float *A, const float *B, const float *C, long long m, long long n, long long k,
                    enum precision p, uint64_t seed, struct verify_result *v)
{
    struct rng r;

    memset(v, 0, sizeof *v);
    v->ok = true;
    v->tolerance = verify_tolerance_for(p, k);
    if (m * n * k <= VERIFY_FULL_LIMIT) {
        verify_full(A, B, C, m, n, k, v);
        return;
    }
    verify_finite(C, m, n, v);
    if (!v->ok)
        return;
    for (long long j = 0; j < n; j++)
        check_element(A, B, C, n, k, m - 1, j, v);
    for (long long i = 0; i < m; i++)
        check_element(A, B, C, n, k, i, n - 1, v);
    rng_seed(&r, seed ^ VERIFY_SAMPLE_SALT);
    for (int s = 0; s < VERIFY_SAMPLES; s++) {
        /* The column first, then the row (the order gcc gave the two draws when they were
           the arguments of one call; the figures measured since depend on it). */
        long long j = (long long)(rng_next(&r) % (uint64_t)n);
        long long i = (long long)(rng_next(&r) % (uint64_t)m);
        check_element(A, B, C, n, k, i, j, v);
    }
    if (v->ok)
        verify_projections(A, B, C, m, n, k, seed, v);
}
