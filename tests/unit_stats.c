/* unit_stats.c: summary statistics of repeated measurements. */
#include <math.h>
#include <string.h>

#include "units.h"
#include "engine/stats.h"

#define TOLERANCE 1e-12

static struct stats summarise(const double *x, size_t n)
{
    struct stats s;

    memset(&s, 0xAB, sizeof s);     /* garbage, to see that every field is set */
    stats_compute(x, n, &s);
    return s;
}

START_TEST(test_stats_median_odd)
{
    const double x[] = { 5.0, 1.0, 3.0, 9.0, 7.0 };
    struct stats s = summarise(x, 5);

    ck_assert_uint_eq(s.n, 5);
    ck_assert_double_eq_tol(s.median, 5.0, TOLERANCE);
    ck_assert_double_eq_tol(s.min, 1.0, TOLERANCE);
    ck_assert_double_eq_tol(s.max, 9.0, TOLERANCE);
}
END_TEST

START_TEST(test_stats_median_even)
{
    const double x[] = { 4.0, 1.0, 3.0, 2.0 };
    struct stats s = summarise(x, 4);

    ck_assert_double_eq_tol(s.median, 2.5, TOLERANCE);
}
END_TEST

START_TEST(test_stats_quartiles)
{
    /* Linear interpolation at positions q (n - 1) of the sorted data. */
    const double four[] = { 4.0, 1.0, 3.0, 2.0 };
    const double five[] = { 50.0, 10.0, 40.0, 20.0, 30.0 };
    const double six[] = { 6.0, 5.0, 4.0, 3.0, 2.0, 1.0 };
    struct stats s = summarise(four, 4);

    ck_assert_double_eq_tol(s.q1, 1.75, TOLERANCE);     /* position 0.75 */
    ck_assert_double_eq_tol(s.q3, 3.25, TOLERANCE);     /* position 2.25 */
    s = summarise(five, 5);
    ck_assert_double_eq_tol(s.q1, 20.0, TOLERANCE);
    ck_assert_double_eq_tol(s.median, 30.0, TOLERANCE);
    ck_assert_double_eq_tol(s.q3, 40.0, TOLERANCE);
    s = summarise(six, 6);
    ck_assert_double_eq_tol(s.q1, 2.25, TOLERANCE);     /* position 1.25 */
    ck_assert_double_eq_tol(s.median, 3.5, TOLERANCE);
    ck_assert_double_eq_tol(s.q3, 4.75, TOLERANCE);     /* position 3.75 */
}
END_TEST

START_TEST(test_stats_min_max_negative)
{
    const double x[] = { -2.5, 7.25, -9.0, 0.0, 3.0 };
    struct stats s = summarise(x, 5);

    ck_assert_double_eq(s.min, -9.0);
    ck_assert_double_eq(s.max, 7.25);
    ck_assert_double_eq(s.median, 0.0);
}
END_TEST

START_TEST(test_stats_mean_stddev)
{
    const double x[] = { 2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0 };
    struct stats s = summarise(x, 8);

    ck_assert_double_eq_tol(s.mean, 5.0, TOLERANCE);
    /* The sample standard deviation: squares sum to 32, over n - 1 = 7. */
    ck_assert_double_eq_tol(s.stddev, sqrt(32.0 / 7.0), TOLERANCE);
}
END_TEST

START_TEST(test_stats_single)
{
    const double x[] = { 3.5 };
    struct stats s = summarise(x, 1);

    ck_assert_uint_eq(s.n, 1);
    ck_assert_double_eq(s.median, 3.5);
    ck_assert_double_eq(s.q1, 3.5);
    ck_assert_double_eq(s.q3, 3.5);
    ck_assert_double_eq(s.min, 3.5);
    ck_assert_double_eq(s.max, 3.5);
    ck_assert_double_eq(s.mean, 3.5);
    ck_assert_double_eq(s.stddev, 0.0);
}
END_TEST

START_TEST(test_stats_empty)
{
    struct stats s = summarise(NULL, 0);

    ck_assert_uint_eq(s.n, 0);
    ck_assert_double_eq(s.median, 0.0);
    ck_assert_double_eq(s.min, 0.0);
    ck_assert_double_eq(s.max, 0.0);
    ck_assert_double_eq(s.q1, 0.0);
    ck_assert_double_eq(s.q3, 0.0);
    ck_assert_double_eq(s.mean, 0.0);
    ck_assert_double_eq(s.stddev, 0.0);
    ck_assert_double_eq(stats_relative_spread(&s), 0.0);
}
END_TEST

START_TEST(test_stats_input_unchanged)
{
    const double original[] = { 9.0, 1.0, 8.0, 2.0, 7.0, 3.0 };
    double x[6];
    struct stats s;

    memcpy(x, original, sizeof x);
    s = summarise(x, 6);
    ck_assert_double_eq_tol(s.median, 5.0, TOLERANCE);
    ck_assert_mem_eq(x, original, sizeof x);
}
END_TEST

START_TEST(test_stats_relative_spread)
{
    const double x[] = { 4.0, 1.0, 3.0, 2.0 };
    const double zeros[] = { 0.0, 0.0, 0.0 };
    const double same[] = { 2.0, 2.0, 2.0, 2.0 };
    struct stats s = summarise(x, 4);

    ck_assert_double_eq_tol(stats_relative_spread(&s), (3.25 - 1.75) / 2.5, TOLERANCE);
    s = summarise(zeros, 3);
    ck_assert_double_eq(stats_relative_spread(&s), 0.0);
    s = summarise(same, 4);
    ck_assert_double_eq(stats_relative_spread(&s), 0.0);
}
END_TEST

Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("stats");

    tcase_add_test(tc, test_stats_median_odd);
    tcase_add_test(tc, test_stats_median_even);
    tcase_add_test(tc, test_stats_quartiles);
    tcase_add_test(tc, test_stats_min_max_negative);
    tcase_add_test(tc, test_stats_mean_stddev);
    tcase_add_test(tc, test_stats_single);
    tcase_add_test(tc, test_stats_empty);
    tcase_add_test(tc, test_stats_input_unchanged);
    tcase_add_test(tc, test_stats_relative_spread);
    suite_add_tcase(s, tc);
    return s;
}
