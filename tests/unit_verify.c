/* unit_verify.c: is C really A B? Correct products pass and wrong ones fail, at a size
   checked element by element and at one above VERIFY_FULL_LIMIT, which is sampled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/hostgemm.h"
#include "engine/matrix.h"
#include "engine/verify.h"

#define SEED 42

/* One product's inputs, its reference and two correct results. */
struct product {
    long long m, n, k;
    float *A, *B;
    double *ref, *scale;        /* hostgemm_double: the sums and the sums of magnitudes */
    float *rounded;             /* ref rounded to float */
    float *single;              /* hostgemm_float */
};

/* Square in m and n, so that the transpose of C has C's shape. */
static struct product small = { 48, 48, 40, NULL, NULL, NULL, NULL, NULL, NULL };
static struct product large = { 600, 600, 400, NULL, NULL, NULL, NULL, NULL, NULL };

static void *alloc(size_t count, size_t size)
{
    void *p = calloc(count, size);

    if (!p)
        abort();
    return p;
}

static void product_make(struct product *p)
{
    size_t mn = (size_t)(p->m * p->n);

    p->A = alloc((size_t)(p->m * p->k), sizeof *p->A);
    p->B = alloc((size_t)(p->k * p->n), sizeof *p->B);
    p->ref = alloc(mn, sizeof *p->ref);
    p->scale = alloc(mn, sizeof *p->scale);
    p->rounded = alloc(mn, sizeof *p->rounded);
    p->single = alloc(mn, sizeof *p->single);
    matrix_fill_random(p->A, (size_t)(p->m * p->k), 1);
    matrix_fill_random(p->B, (size_t)(p->k * p->n), 2);
    hostgemm_double(p->A, p->B, p->ref, p->scale, p->m, p->n, p->k);
    for (size_t i = 0; i < mn; i++)
        p->rounded[i] = (float)p->ref[i];
    hostgemm_float(p->A, p->B, p->single, p->m, p->n, p->k);
}

static void product_free(struct product *p)
{
    free(p->A);
    free(p->B);
    free(p->ref);
    free(p->scale);
    free(p->rounded);
    free(p->single);
}

/* Unchecked fixtures: made once, before the tests fork, so each large test stays fast. */
static void small_setup(void) { product_make(&small); }
static void small_teardown(void) { product_free(&small); }
static void large_setup(void) { product_make(&large); }
static void large_teardown(void) { product_free(&large); }

/* A copy of the correct (rounded) C, to be spoiled by a test. */
static float *copy_of_c(const struct product *p)
{
    size_t mn = (size_t)(p->m * p->n);
    float *c = alloc(mn, sizeof *c);

    memcpy(c, p->rounded, mn * sizeof *c);
    return c;
}

static void verify(const struct product *p, const float *C, struct verify_result *v)
{
    memset(v, 0x5A, sizeof *v);
    verify_product(p->A, p->B, C, p->m, p->n, p->k, PRECISION_FP32, SEED, v);
}

static void expect_pass(const struct product *p, const float *C)
{
    struct verify_result v;
    bool full = p->m * p->n * p->k <= VERIFY_FULL_LIMIT;

    verify(p, C, &v);
    ck_assert_msg(v.ok, "a correct product failed: %s (max error %g, tolerance %g)", v.detail,
                  v.max_error, v.tolerance);
    ck_assert_str_eq(v.detail, "");
    ck_assert_double_eq(v.tolerance, verify_tolerance(p->k));
    ck_assert_double_le(v.max_error, v.tolerance);
    ck_assert_double_gt(v.max_error, 0.0);     /* float results do have rounding errors */
    ck_assert(v.exhaustive == full);
    if (full) {
        ck_assert_int_eq(v.checked, p->m * p->n);
        ck_assert_int_eq(v.vectors, 0);
    } else {
        /* The whole last row and column, and the random samples. */
        ck_assert_int_ge(v.checked, p->m + p->n + VERIFY_SAMPLES);
        ck_assert_int_lt(v.checked, p->m * p->n);
        ck_assert_int_eq(v.vectors, VERIFY_VECTORS);
    }
}

/* Checks that C fails, with a detail naming an element "C[i][j]" or a "row i" of C. Unless i is
   negative (wrong anywhere), the detail must name the element (i, j), or, when it names a row
   (the random projections found it) and element_required is false, row i. */
static void expect_failure(const struct product *p, const float *C, long long i, long long j,
                           bool element_required)
{
    struct verify_result v;
    char element[64], row[64];
    long long di, dj;

    verify(p, C, &v);
    ck_assert_msg(!v.ok, "a wrong product passed (max error %g, tolerance %g, %lld checked, %d vectors)",
                  v.max_error, v.tolerance, v.checked, v.vectors);
    ck_assert_msg(v.max_error > v.tolerance || v.vectors > 0, "failed with max error %g <= %g: %s",
                  v.max_error, v.tolerance, v.detail);
    if (sscanf(v.detail, "C[%lld][%lld]", &di, &dj) == 2) {
        ck_assert_msg(di >= 0 && di < p->m && dj >= 0 && dj < p->n, "detail: %s", v.detail);
    } else {
        ck_assert_msg(sscanf(v.detail, "row %lld of C", &di) == 1, "detail \"%s\" names no element or row",
                      v.detail);
        ck_assert_msg(di >= 0 && di < p->m, "detail: %s", v.detail);
        dj = -1;
    }
    if (i < 0)
        return;
    snprintf(element, sizeof element, "C[%lld][%lld]", i, j);
    snprintf(row, sizeof row, "row %lld ", i);
    if (dj >= 0 || element_required)
        ck_assert_msg(strncmp(v.detail, element, strlen(element)) == 0, "detail \"%s\" is not about %s",
                      v.detail, element);
    else
        ck_assert_msg(strncmp(v.detail, row, strlen(row)) == 0, "detail \"%s\" is not about row %lld",
                      v.detail, i);
}

START_TEST(test_verify_tolerance)
{
    double previous = 0.0;

    for (long long k = 1; k <= (1LL << 20); k *= 2) {
        double t = verify_tolerance(k);
        ck_assert_msg(t > previous, "tolerance(%lld) = %g is not above %g", k, t, previous);
        previous = t;
    }
    ck_assert_double_gt(verify_tolerance(1), 0.0);
    ck_assert_double_lt(verify_tolerance(1 << 16), 1e-3);
    ck_assert_double_le(verify_tolerance(0), verify_tolerance(1));
    ck_assert_double_gt(verify_tolerance(0), 0.0);
    /* Like sqrt(k): four times the terms, twice the tolerance. */
    ck_assert_double_eq_tol(verify_tolerance(4096) / verify_tolerance(1024), 2.0, 1e-9);
    ck_assert_double_eq_tol(verify_tolerance(400) / verify_tolerance(4), 10.0, 1e-9);
}
END_TEST

/* TF32: the FP32 tolerance plus min(2, 12 / sqrt(K)) 2^-10 for inputs truncated to 10 bits of
   mantissa: the bound 2 * 2^-10 up to K = 36, then the spread of random errors. */
START_TEST(test_verify_tolerance_tf32)
{
    static const long long ks[] = { 1, 36, 400, 4096, 1 << 20 };

    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        long long k = ks[i];
        double extra = fmin(2.0, 12.0 / sqrt((double)k)) / 1024;
        ck_assert_double_eq(verify_tolerance_for(PRECISION_FP32, k), verify_tolerance(k));
        ck_assert_double_eq_tol(verify_tolerance_for(PRECISION_TF32, k), extra + 8.0 * sqrt((double)k) / (1 << 24),
                                1e-15);
        ck_assert_double_gt(verify_tolerance_for(PRECISION_TF32, k), verify_tolerance(k));
    }
    ck_assert_double_eq_tol(verify_tolerance_for(PRECISION_TF32, 1), 1.953125e-3 + 8.0 / (1 << 24), 1e-15);
    ck_assert_double_eq_tol(verify_tolerance_for(PRECISION_TF32, 4096), 12.0 / 64 / 1024 + 3.0517578125e-5, 1e-15);
}
END_TEST

/* x truncated to TF32, as the tensor cores may take it: the low 13 of 23 mantissa bits cleared. */
static float to_tf32(float x)
{
    uint32_t bits;

    memcpy(&bits, &x, sizeof bits);
    bits &= 0xffffe000u;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* The product computed in float from inputs truncated to TF32 is right as TF32 and wrong as
   FP32, checked in full or by samples and projections. */
static void tf32_product(struct product *p)
{
    size_t ak = (size_t)(p->m * p->k), bk = (size_t)(p->k * p->n);
    float *A = alloc(ak, sizeof *A), *B = alloc(bk, sizeof *B), *C = alloc((size_t)(p->m * p->n), sizeof *C);
    struct verify_result v;

    for (size_t i = 0; i < ak; i++)
        A[i] = to_tf32(p->A[i]);
    for (size_t i = 0; i < bk; i++)
        B[i] = to_tf32(p->B[i]);
    hostgemm_float(A, B, C, p->m, p->n, p->k);
    verify_product(p->A, p->B, C, p->m, p->n, p->k, PRECISION_TF32, SEED, &v);
    ck_assert_msg(v.ok, "TF32 inputs fail the TF32 tolerance: %s", v.detail);
    ck_assert_double_eq(v.tolerance, verify_tolerance_for(PRECISION_TF32, p->k));
    verify_product(p->A, p->B, C, p->m, p->n, p->k, PRECISION_FP32, SEED, &v);
    ck_assert_msg(!v.ok, "TF32 inputs pass the FP32 tolerance (max error %g)", v.max_error);
    free(A);
    free(B);
    free(C);
}

START_TEST(test_verify_tf32_inputs)
{
    struct product p = { 300, 200, 500, NULL, NULL, NULL, NULL, NULL, NULL };

    product_make(&p);
    ck_assert_int_le(p.m * p.n * p.k, VERIFY_FULL_LIMIT);
    tf32_product(&p);
    product_free(&p);
}
END_TEST

START_TEST(test_verify_large_tf32_inputs)
{
    tf32_product(&large);
}
END_TEST

/* A TF32 product with a step of 16 values of k left out, the error of a kernel that skips its
   last step, at 64x64x16384 (checked in full): off by about 3e-4 of |A||B| per element, under
   the bound 2 * 2^-10 that a tolerance for any data would allow, and caught. */
START_TEST(test_verify_tf32_missing_step)
{
    struct product p = { 64, 64, 16384, NULL, NULL, NULL, NULL, NULL, NULL };
    float *C;
    struct verify_result v;

    product_make(&p);
    ck_assert_int_le(p.m * p.n * p.k, VERIFY_FULL_LIMIT);
    C = alloc((size_t)(p.m * p.n), sizeof *C);
    for (long long i = 0; i < p.m; i++)
        for (long long j = 0; j < p.n; j++) {
            double sum = 0.0;
            for (long long q = 0; q < p.k - 16; q++)
                sum += (double)to_tf32(p.A[i * p.k + q]) * (double)to_tf32(p.B[q * p.n + j]);
            C[i * p.n + j] = (float)sum;
        }
    verify_product(p.A, p.B, C, p.m, p.n, p.k, PRECISION_TF32, SEED, &v);
    ck_assert_msg(!v.ok, "a TF32 product missing 16 values of k passes (max error %g, tolerance %g)", v.max_error,
                  v.tolerance);
    ck_assert_double_lt(v.max_error, 2.0 / 1024);
    free(C);
    product_free(&p);
}
END_TEST

START_TEST(test_verify_small_correct)
{
    expect_pass(&small, small.rounded);
    expect_pass(&small, small.single);
}
END_TEST

START_TEST(test_verify_odd_shape_correct)
{
    struct product odd = { 37, 53, 29, NULL, NULL, NULL, NULL, NULL, NULL };

    product_make(&odd);
    expect_pass(&odd, odd.rounded);
    expect_pass(&odd, odd.single);
    product_free(&odd);
}
END_TEST

START_TEST(test_verify_large_correct)
{
    ck_assert_int_gt(large.m * large.n * large.k, VERIFY_FULL_LIMIT);
    expect_pass(&large, large.rounded);
    expect_pass(&large, large.single);
}
END_TEST

/* One element off by `relative` times its scale |A||B|. */
static void perturbed_by(const struct product *p, long long i, long long j, double relative)
{
    float *c = copy_of_c(p);

    c[i * p->n + j] += (float)(relative * p->scale[i * p->n + j]);
    expect_failure(p, c, i, j, false);
    free(c);
}

/* One element off by 1e-3 of its scale: a hundred times the tolerance. */
static void perturbed_element(const struct product *p, long long i, long long j)
{
    ck_assert_double_gt(1e-3, 50 * verify_tolerance(p->k));
    perturbed_by(p, i, j, 1e-3);
}

/* The last column holds the column before it, as with an edge bug. */
static void wrong_last_column(const struct product *p)
{
    float *c = copy_of_c(p);

    for (long long i = 0; i < p->m; i++)
        c[i * p->n + p->n - 1] = c[i * p->n + p->n - 2];
    expect_failure(p, c, -1, -1, false);
    free(c);
}

static void transposed(const struct product *p)
{
    float *c = copy_of_c(p);

    for (long long i = 0; i < p->m; i++)
        for (long long j = 0; j < p->n; j++)
            c[i * p->n + j] = p->rounded[j * p->n + i];
    expect_failure(p, c, -1, -1, false);
    free(c);
}

static void nan_element(const struct product *p, long long i, long long j)
{
    float *c = copy_of_c(p);

    c[i * p->n + j] = NAN;
    expect_failure(p, c, i, j, true);   /* every element is checked to be finite */
    free(c);
}

/* Every element holds its successor's value, as with an offset of one in the index. */
static void shifted(const struct product *p)
{
    float *c = copy_of_c(p);

    memmove(c, c + 1, (size_t)(p->m * p->n - 1) * sizeof *c);
    expect_failure(p, c, -1, -1, false);
    free(c);
}

/* Sums of K - 1 products, as with a loop that stops one early. */
static void missing_last_term(const struct product *p)
{
    float *c = copy_of_c(p);
    long long k = p->k;

    for (long long i = 0; i < p->m; i++)
        for (long long j = 0; j < p->n; j++)
            c[i * p->n + j] = (float)(p->ref[i * p->n + j] -
                                      (double)p->A[i * k + k - 1] * (double)p->B[(k - 1) * p->n + j]);
    expect_failure(p, c, -1, -1, false);
    free(c);
}

START_TEST(test_verify_small_perturbed)
{
    perturbed_element(&small, 17, 23);
    perturbed_element(&small, 0, 0);
    perturbed_element(&small, small.m - 1, small.n - 1);
}
END_TEST

START_TEST(test_verify_small_last_column)
{
    wrong_last_column(&small);
}
END_TEST

START_TEST(test_verify_small_transposed)
{
    transposed(&small);
}
END_TEST

START_TEST(test_verify_small_nan)
{
    nan_element(&small, 20, 31);
}
END_TEST

START_TEST(test_verify_small_shifted)
{
    shifted(&small);
}
END_TEST

START_TEST(test_verify_small_missing_term)
{
    missing_last_term(&small);
}
END_TEST

/* Off by 1e-2 of its scale: the random projections see it even where no sample falls. */
START_TEST(test_verify_large_interior_element)
{
    perturbed_by(&large, 301, 257, 1e-2);
    perturbed_by(&large, 17, 411, 1e-2);
}
END_TEST

START_TEST(test_verify_large_perturbed_edge)
{
    perturbed_element(&large, large.m - 1, 100);
    perturbed_element(&large, 100, large.n - 1);
}
END_TEST

START_TEST(test_verify_large_last_column)
{
    wrong_last_column(&large);
}
END_TEST

START_TEST(test_verify_large_transposed)
{
    transposed(&large);
}
END_TEST

START_TEST(test_verify_large_nan)
{
    nan_element(&large, 333, 222);
}
END_TEST

START_TEST(test_verify_large_shifted)
{
    shifted(&large);
}
END_TEST

START_TEST(test_verify_large_missing_term)
{
    missing_last_term(&large);
}
END_TEST

Suite *verify_suite(void)
{
    Suite *s = suite_create("verify");
    TCase *small_tc = tcase_create("verify_small");
    TCase *large_tc = tcase_create("verify_large");

    tcase_add_unchecked_fixture(small_tc, small_setup, small_teardown);
    tcase_add_test(small_tc, test_verify_tolerance);
    tcase_add_test(small_tc, test_verify_tolerance_tf32);
    tcase_add_test(small_tc, test_verify_tf32_inputs);
    tcase_add_test(small_tc, test_verify_tf32_missing_step);
    tcase_add_test(small_tc, test_verify_small_correct);
    tcase_add_test(small_tc, test_verify_odd_shape_correct);
    tcase_add_test(small_tc, test_verify_small_perturbed);
    tcase_add_test(small_tc, test_verify_small_last_column);
    tcase_add_test(small_tc, test_verify_small_transposed);
    tcase_add_test(small_tc, test_verify_small_nan);
    tcase_add_test(small_tc, test_verify_small_shifted);
    tcase_add_test(small_tc, test_verify_small_missing_term);
    suite_add_tcase(s, small_tc);

    tcase_add_unchecked_fixture(large_tc, large_setup, large_teardown);
    tcase_add_test(large_tc, test_verify_large_correct);
    tcase_add_test(large_tc, test_verify_large_tf32_inputs);
    tcase_add_test(large_tc, test_verify_large_interior_element);
    tcase_add_test(large_tc, test_verify_large_perturbed_edge);
    tcase_add_test(large_tc, test_verify_large_last_column);
    tcase_add_test(large_tc, test_verify_large_transposed);
    tcase_add_test(large_tc, test_verify_large_nan);
    tcase_add_test(large_tc, test_verify_large_shifted);
    tcase_add_test(large_tc, test_verify_large_missing_term);
    suite_add_tcase(s, large_tc);
    return s;
}
