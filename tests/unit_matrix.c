/* unit_matrix.c: the seeded generator, random fills and the layouts kernels expect. */
#include <math.h>
#include <string.h>

#include "units.h"
#include "engine/matrix.h"

/* A 3 x 2 source: element (i, j) is 10 i + j + 1, so that no element is 0. */
static const float src[3 * 2] = { 1, 2, 11, 12, 21, 22 };

#define GARBAGE 99.0f

static void fill_garbage(float *x, size_t count)
{
    for (size_t i = 0; i < count; i++)
        x[i] = GARBAGE;
}

START_TEST(test_matrix_rng_deterministic)
{
    struct rng a, b, c;

    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a);
        ck_assert_uint_eq(x, rng_next(&b));
        differ += x != rng_next(&c);
    }
    ck_assert_int_ge(differ, 999);
}
END_TEST

START_TEST(test_matrix_rng_seed_zero)
{
    /* xorshift is stuck at a state of 0: seed 0 must still give a working generator. */
    struct rng r;
    uint64_t first;

    rng_seed(&r, 0);
    first = rng_next(&r);
    ck_assert_uint_ne(first, 0);
    ck_assert_uint_ne(rng_next(&r), first);
}
END_TEST

START_TEST(test_matrix_rng_uniform_range)
{
    struct rng r;
    float lo = 1.0f, hi = -1.0f;
    double sum = 0.0;
    const int count = 200000;

    rng_seed(&r, 7);
    for (int i = 0; i < count; i++) {
        float x = rng_uniform(&r);
        ck_assert_msg(x >= -1.0f && x < 1.0f, "sample %d is %.9g", i, (double)x);
        /* 24 random bits: a multiple of 2^-23, so exact in a float. */
        ck_assert_double_eq(ldexp(x, 23), floor(ldexp(x, 23)));
        lo = fminf(lo, x);
        hi = fmaxf(hi, x);
        sum += x;
    }
    ck_assert_float_lt(lo, -0.999f);
    ck_assert_float_gt(hi, 0.999f);
    ck_assert_double_lt(fabs(sum / count), 0.01);
}
END_TEST

START_TEST(test_matrix_fill_random)
{
    float x[100], y[100], z[100];
    struct rng r;

    matrix_fill_random(x, 100, 5);
    matrix_fill_random(y, 100, 5);
    matrix_fill_random(z, 100, 6);
    ck_assert_mem_eq(x, y, sizeof x);
    ck_assert(memcmp(x, z, sizeof x) != 0);
    rng_seed(&r, 5);
    for (int i = 0; i < 100; i++)
        ck_assert_float_eq(x[i], rng_uniform(&r));
}
END_TEST

START_TEST(test_matrix_layout_count)
{
    const struct matrix_layout lay = { 112, 80, true, false };

    ck_assert_uint_eq(matrix_layout_count(&lay), 112 * 80);
}
END_TEST

/* A layout whose bytes do not fit a size_t counts 0, and packing or unpacking it touches
   nothing: sizes from a lesson file once wrapped here to a buffer of a few floats. */
START_TEST(test_matrix_layout_count_overflow)
{
    const struct matrix_layout huge[] = {
        { 1LL << 62, 4, false, false },                 /* 2^64 floats */
        { 1LL << 31, 1LL << 31, true, false },          /* 2^62 floats, 2^64 bytes */
        { 9223372036854775807LL, 9223372036854775807LL, false, false },
        { 1152921504606846977LL, 64, false, false },    /* wrapped to 64 floats */
        { 0, 5, false, false },
        { 5, -1, false, false },
    };
    const struct matrix_layout largest = { (1LL << 31) - 1, (1LL << 31) - 1, false, false };
    const float values[6] = { 1, 2, 3, 4, 5, 6 };
    float dst[6] = { 7, 7, 7, 7, 7, 7 };

    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        ck_assert_uint_eq(matrix_layout_count(&huge[i]), 0);
        matrix_pack(values, 3, 2, &huge[i], dst);
        matrix_unpack(values, &huge[i], 3, 2, dst);
        for (int j = 0; j < 6; j++)
            ck_assert(dst[j] == 7);
    }
    ck_assert_uint_eq(matrix_layout_count(&largest), 4611686014132420609ull);   /* (2^31 - 1)^2 */
}
END_TEST

START_TEST(test_matrix_pack_row_major)
{
    const struct matrix_layout lay = { 4, 3, false, false };
    float dst[12];

    fill_garbage(dst, 12);
    matrix_pack(src, 3, 2, &lay, dst);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq(dst[i * 3 + j], i < 3 && j < 2 ? src[i * 2 + j] : 0.0f);
}
END_TEST

START_TEST(test_matrix_pack_column_major)
{
    const struct matrix_layout lay = { 4, 3, true, false };
    float dst[12];

    fill_garbage(dst, 12);
    matrix_pack(src, 3, 2, &lay, dst);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq(dst[j * 4 + i], i < 3 && j < 2 ? src[i * 2 + j] : 0.0f);
}
END_TEST

START_TEST(test_matrix_pack_transposed)
{
    /* The kernel gets the 2 x 3 transpose, padded to 4 x 5. */
    const struct matrix_layout row = { 4, 5, false, true }, col = { 4, 5, true, true };
    float dst[20];

    fill_garbage(dst, 20);
    matrix_pack(src, 3, 2, &row, dst);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            ck_assert_float_eq(dst[i * 5 + j], i < 2 && j < 3 ? src[j * 2 + i] : 0.0f);
    fill_garbage(dst, 20);
    matrix_pack(src, 3, 2, &col, dst);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            ck_assert_float_eq(dst[j * 4 + i], i < 2 && j < 3 ? src[j * 2 + i] : 0.0f);
}
END_TEST

START_TEST(test_matrix_unpack)
{
    /* The 3 x 2 top-left part of a 4 x 3 column-major result. */
    const struct matrix_layout lay = { 4, 3, true, false };
    const float stored[12] = { 1, 11, 21, -1, 2, 12, 22, -1, -1, -1, -1, -1 };
    float dst[6];

    matrix_unpack(stored, &lay, 3, 2, dst);
    ck_assert_mem_eq(dst, src, sizeof dst);
}
END_TEST

START_TEST(test_matrix_round_trip)
{
    enum { ROWS = 37, COLS = 29 };
    float a[ROWS * COLS], back[ROWS * COLS], packed[48 * 32];

    matrix_fill_random(a, ROWS * COLS, 11);
    for (int column_major = 0; column_major < 2; column_major++) {
        const struct matrix_layout lay = { 48, 32, column_major, false };
        fill_garbage(back, ROWS * COLS);
        matrix_pack(a, ROWS, COLS, &lay, packed);
        matrix_unpack(packed, &lay, ROWS, COLS, back);
        ck_assert_mem_eq(back, a, sizeof a);
    }
}
END_TEST

Suite *matrix_suite(void)
{
    Suite *s = suite_create("matrix");
    TCase *rng = tcase_create("rng");
    TCase *layout = tcase_create("layout");

    tcase_add_test(rng, test_matrix_rng_deterministic);
    tcase_add_test(rng, test_matrix_rng_seed_zero);
    tcase_add_test(rng, test_matrix_rng_uniform_range);
    tcase_add_test(rng, test_matrix_fill_random);
    suite_add_tcase(s, rng);
    tcase_add_test(layout, test_matrix_layout_count);
    tcase_add_test(layout, test_matrix_layout_count_overflow);
    tcase_add_test(layout, test_matrix_pack_row_major);
    tcase_add_test(layout, test_matrix_pack_column_major);
    tcase_add_test(layout, test_matrix_pack_transposed);
    tcase_add_test(layout, test_matrix_unpack);
    tcase_add_test(layout, test_matrix_round_trip);
    suite_add_tcase(s, layout);
    return s;
}
