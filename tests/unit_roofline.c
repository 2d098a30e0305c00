/* unit_roofline.c: the no-cache model's intensity and bound for shipped lessons, worked out
   by hand from their loads lines, the verdicts, and the drawing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "engine/roofline.h"
#include "engine/str.h"

static struct lesson_set lessons;

static void setup(void)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_set_load(CLMM_SRCDIR "/lessons", &lessons, &e) == 0, "%s", e.msg);
}

static void teardown(void)
{
    lesson_set_free(&lessons);
}

/* The intensity of a shipped lesson with its defaults at size. */
static double intensity(int number, struct gemm_size size)
{
    const struct lesson *l = lesson_set_find(&lessons, number);
    struct param_set ps;
    struct figures f;
    struct error e;

    error_init(&e);
    ck_assert_msg(l != NULL, "no lesson %d", number);
    param_set_defaults(l, &ps);
    ck_assert_msg(figures_compute(l, &ps, size, NULL, &f, &e) == 0, "%s", e.msg);
    return roofline_intensity(&f);
}

/* H200-like ceilings for the bounds: a 64434 GFLOPS roof, a 3300 GB/s slope. */
#define PEAK 64434.0
#define GBPS 3300.0

START_TEST(test_roofline_intensity)
{
    const struct gemm_size cube = { 1024, 1024, 1024 }, big = { 4096, 4096, 4096 }, odd = { 1000, 700, 300 };

    /* Lesson 1, TS = 16: each of the (M/16)(N/16) groups reads 2 K 16 16 floats, 8 M N K bytes
       in all, and C is written once, 4 M N: 2 M N K / (8 M N K + 4 M N) = 2K / (8K + 4). */
    ck_assert_double_eq_tol(intensity(1, cube), 2048.0 / 8196.0, 1e-9);
    /* Lesson 5, TS = 16 tiles: each group reads (16 + 16) K floats: 8 M N K / 16 bytes, so
       2K / (8K/16 + 4) = 2048 / 516. */
    ck_assert_double_eq_tol(intensity(5, cube), 2048.0 / 516.0, 1e-9);
    /* Lesson 13, 128 x 128 tiles: A read once per column of groups, B once per row: 4 K (M N/128
       + N M/128) bytes; 2K / (8K/128 + 4) = 8192 / 260 at 4096. */
    ck_assert_double_eq_tol(intensity(13, big), 8192.0 / 260.0, 1e-9);
    /* At 1000x700x300 lesson 13 runs 8 x 6 groups of 128 x 128 (loads: K (M cdiv(N,128) +
       N cdiv(M,128)) / groups floats each): 4 x 300 x (1000 x 6 + 700 x 8) bytes read, 4 x 1000
       x 700 written (no padding), for 2 x 1000 x 700 x 300 useful flops. */
    ck_assert_double_eq_tol(intensity(13, odd), 2.0 * 1000 * 700 * 300 / (4.0 * 300 * (1000 * 6 + 700 * 8) + 4.0 * 1000 * 700),
                            1e-9);
    /* The host reference has no figures; a lesson without a loads line has no intensity. */
    {
        struct figures f;
        memset(&f, 0, sizeof f);
        ck_assert_double_eq(roofline_intensity(&f), 0.0);
    }
}
END_TEST

START_TEST(test_roofline_bound_and_verdict)
{
    struct roofline_verdict v;
    double i1 = 2048.0 / 8196.0;

    ck_assert_double_eq_tol(roofline_ridge(PEAK, GBPS), PEAK / GBPS, 1e-12);
    ck_assert_double_eq_tol(roofline_bound(i1, PEAK, GBPS), GBPS * i1, 1e-9);   /* 824.6: the slope */
    ck_assert_double_eq(roofline_bound(100.0, PEAK, GBPS), PEAK);                 /* past the ridge: the roof */
    ck_assert_double_eq(roofline_bound(0.0, PEAK, GBPS), 0.0);
    ck_assert_double_eq(roofline_bound(1.0, PEAK, 0.0), 0.0);

    /* The naive kernel at 6000 GFLOPS on a slope of 825: above it, the caches' doing. */
    roofline_judge(6000.0, i1, UNITS_FP32, PEAK, GBPS, &v);
    ck_assert(v.memory_bound);
    ck_assert(v.above);
    ck_assert_double_eq_tol(v.of_bound, 6000.0 / (GBPS * i1), 1e-9);
    ck_assert_double_eq_tol(v.of_peak, 6000.0 / PEAK, 1e-12);
    ck_assert_ptr_nonnull(strstr(roofline_verdict_words(&v), "caches"));
    /* Lesson 13 at 40700: compute-bound in the model, 63% of the roof. */
    roofline_judge(40700.0, 8192.0 / 260.0, UNITS_FP32, PEAK, GBPS, &v);
    ck_assert(!v.memory_bound);
    ck_assert(!v.above);
    ck_assert_double_eq_tol(v.of_bound, 40700.0 / PEAK, 1e-12);
    ck_assert_ptr_nonnull(strstr(roofline_verdict_words(&v), "compute-bound"));
    /* Within 5% above the bound is the noise of a measurement, not the caches. */
    roofline_judge(1.04 * GBPS * i1, i1, UNITS_FP32, PEAK, GBPS, &v);
    ck_assert(!v.above);
    ck_assert_ptr_nonnull(strstr(roofline_verdict_words(&v), "near the slope"));
    /* No loads line: no bound, but the share of the peak still. */
    roofline_judge(1000.0, 0.0, UNITS_FP32, PEAK, GBPS, &v);
    ck_assert_double_eq(v.bound, 0.0);
    ck_assert_double_eq_tol(v.of_peak, 1000.0 / PEAK, 1e-12);
    ck_assert_ptr_nonnull(strstr(roofline_verdict_words(&v), "no loads"));
    /* On the tensor cores, three times the FP32 peak is no verdict at all: the FP32 peak is not
       their ceiling. */
    roofline_judge(3.0 * PEAK, 100.0, UNITS_TENSOR, PEAK, GBPS, &v);
    ck_assert(v.no_ceiling);
    ck_assert_double_eq(v.of_peak, 0.0);
    ck_assert_double_eq(v.bound, 0.0);
    ck_assert(!v.above);
    ck_assert_double_eq(v.intensity, 100.0);
    ck_assert_str_eq(roofline_verdict_words(&v), "tensor cores: no FP32 ceiling");
}
END_TEST

static char lines[64][ROOFLINE_LINE_BYTES];

static bool ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s > 126)
            return false;
    return true;
}

static size_t draw(const struct roofline_point *p, size_t n, int width, size_t height, bool utf8,
                   struct roofline_mark *marks, size_t *nmarks)
{
    size_t rows = roofline_draw(PEAK, GBPS, p, n, width, height, utf8, lines, marks, nmarks);

    ck_assert_uint_le(rows, height);
    /* Labels never touch: "4" beside "9,10" would read as "49,10". */
    for (size_t i = 0; i < *nmarks; i++)
        for (size_t j = 0; j < *nmarks; j++)
            ck_assert_msg(i == j || marks[i].row != marks[j].row || marks[i].col + marks[i].len < marks[j].col ||
                              marks[j].col + marks[j].len < marks[i].col,
                          "%dx%zu: marks %zu and %zu touch", width, height, i, j);
    for (size_t i = 0; i < rows; i++) {
        ck_assert_msg(str_columns(lines[i], strlen(lines[i])) <= (size_t)width, "%dx%zu line %zu: %s", width,
                      height, i, lines[i]);
        ck_assert(utf8 || ascii(lines[i]));
    }
    return rows;
}

static bool drawn(size_t rows, const char *fragment)
{
    for (size_t i = 0; i < rows; i++)
        if (strstr(lines[i], fragment))
            return true;
    return false;
}

START_TEST(test_roofline_draw)
{
    const struct roofline_point pts[] = {
        { "1", 2048.0 / 8196.0, 6000.0, false },
        { "5", 2048.0 / 516.0, 6500.0, true },
        { "13", 8192.0 / 260.0, 40700.0, false },
        { "12", 8192.0 / 260.0, 38000.0, false },   /* meets 13's place: one mark */
        { "ref", 0.0, 30000.0, false },             /* no intensity: not drawn */
        { "4", 15.8, 6300.0, false },               /* near the right edge, as 9 and 10 */
        { "9", 31.5, 6400.0, false },
        { "10", 31.5, 6450.0, false },
    };
    struct roofline_mark marks[ROOFLINE_MAX_POINTS];
    size_t nmarks, rows;
    const int widths[] = { 24, 36, 60, 78, 120 };

    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (size_t h = 6; h <= 40; h += 7)
            for (int utf8 = 0; utf8 < 2; utf8++) {
                rows = draw(pts, 8, widths[w], h, utf8, marks, &nmarks);
                ck_assert_uint_eq(rows, h);
                ck_assert_uint_ge(nmarks, 2);
            }
    rows = draw(pts, 5, 60, 16, true, marks, &nmarks);
    ck_assert(drawn(rows, "100T"));         /* the decade above the roof */
    ck_assert(drawn(rows, "\xe2\x96\xb2")); /* the ridge */
    ck_assert(drawn(rows, "0.1"));
    ck_assert(drawn(rows, "100"));
    ck_assert(drawn(rows, "13,12") || drawn(rows, "12,13"));
    ck_assert(!drawn(rows, "ref"));
    ck_assert_uint_eq(nmarks, 3);
    /* The current lesson's mark says so, and lies on its label (ASCII: a column is a byte). */
    rows = draw(pts, 5, 60, 16, false, marks, &nmarks);
    for (size_t i = 0; i < nmarks; i++)
        if (marks[i].current) {
            ck_assert_uint_eq(marks[i].len, 1);
            ck_assert_int_eq(lines[marks[i].row][marks[i].col], '5');
        }
    rows = draw(pts, 5, 60, 16, true, marks, &nmarks);
    /* Higher GFLOPS, higher up: lesson 13's row above lesson 1's. */
    {
        int row1 = -1, row13 = -1;
        for (size_t i = 0; i < nmarks; i++) {
            if (marks[i].len == 1 && strstr(lines[marks[i].row], "1") && !marks[i].current && row1 < 0 &&
                marks[i].row > 2)
                row1 = marks[i].row;
            if (marks[i].len > 2)
                row13 = marks[i].row;
        }
        ck_assert_int_ge(row1, 0);
        ck_assert_int_lt(row13, row1);
    }
    /* Too small, or no ceilings: nothing. */
    ck_assert_uint_eq(roofline_draw(PEAK, GBPS, pts, 5, 23, 16, true, lines, marks, &nmarks), 0);
    ck_assert_uint_eq(roofline_draw(PEAK, GBPS, pts, 5, 60, 5, true, lines, marks, &nmarks), 0);
    ck_assert_uint_eq(roofline_draw(0.0, GBPS, pts, 5, 60, 16, true, lines, marks, &nmarks), 0);
    ck_assert_uint_eq(roofline_draw(PEAK, NAN, pts, 5, 60, 16, true, lines, marks, &nmarks), 0);
}
END_TEST

Suite *roofline_suite(void)
{
    Suite *s = suite_create("roofline");
    TCase *tc = tcase_create("roofline");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_roofline_intensity);
    tcase_add_test(tc, test_roofline_bound_and_verdict);
    tcase_add_test(tc, test_roofline_draw);
    suite_add_tcase(s, tc);
    return s;
}
