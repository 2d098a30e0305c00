/* unit_results.c: the session's measurements by device, size, lesson and parameters. */
#include <string.h>

#include "units.h"
#include "engine/results.h"

static const struct gemm_size S256 = { 256, 256, 256 }, S512 = { 512, 512, 512 };

/* A run of the given status whose launches had the given median. */
static void add(struct results *rs, int device, struct gemm_size size, int lesson, const char *params,
                enum run_status status, double median)
{
    struct run_result r;

    run_result_init(&r);
    snprintf(r.params, sizeof r.params, "%s", params);
    r.status = status;
    r.gflops.median = median;
    r.gflops.q1 = median * 0.9;
    r.gflops.q3 = median * 1.2;
    r.reps = 7;
    if (status != RUN_OK)
        error_set(&r.error, "element (3, 4) is 9, expected 2");
    results_add(rs, device, size, lesson, false, false, &r);
    run_result_free(&r);
}

/* The bar is the median of every run, not the newest one: the "median" line above it and
   the bar read the same summary. */
START_TEST(test_results_median_of_runs)
{
    struct results rs;
    struct summary f;
    double history[RESULTS_RUNS];
    size_t n;

    results_init(&rs);
    add(&rs, 0, S256, 5, "TS=16", RUN_OK, 15.6);
    add(&rs, 0, S256, 5, "TS=16", RUN_OK, 16.0);
    add(&rs, 0, S256, 5, "TS=16", RUN_OK, 15.0);
    add(&rs, 0, S256, 5, "TS=16", RUN_OK, 14.0);
    add(&rs, 0, S256, 5, "TS=16", RUN_OK, 5.9);     /* a short, slow run last */
    results_summary(&rs, 0, S256, 5, "TS=16", &f, history, &n);
    ck_assert(f.have && !f.stale);
    ck_assert_int_eq(f.status, RUN_OK);
    ck_assert_double_eq_tol(f.median, 15.0, 1e-12);
    ck_assert(f.q1 < f.median && f.median < f.q3);
    ck_assert_double_eq_tol(f.latest, 5.9, 1e-12);
    ck_assert_uint_eq(f.runs, 5);
    ck_assert_int_eq(f.launches, 7);
    ck_assert_str_eq(f.params, "TS=16");
    ck_assert_uint_eq(n, 5);
    ck_assert_double_eq(history[0], 15.6);
    ck_assert_double_eq(history[4], 5.9);
    results_free(&rs);
}
END_TEST

/* Another size, another device or another lesson is another key: going back finds the
   first one again. */
START_TEST(test_results_kept_by_size_and_device)
{
    struct results rs;
    struct summary f;

    results_init(&rs);
    add(&rs, 0, S256, 3, "", RUN_OK, 100.0);
    add(&rs, 0, S512, 3, "", RUN_OK, 200.0);
    add(&rs, 1, S256, 3, "", RUN_OK, 300.0);
    add(&rs, 0, S256, 4, "", RUN_OK, 400.0);
    results_summary(&rs, 0, S256, 3, "", &f, NULL, NULL);
    ck_assert_double_eq(f.median, 100.0);
    /* One run: its launches' quartiles. */
    ck_assert_double_eq_tol(f.q1, 90.0, 1e-9);
    ck_assert_double_eq_tol(f.q3, 120.0, 1e-9);
    results_summary(&rs, 0, S512, 3, "", &f, NULL, NULL);
    ck_assert_double_eq(f.median, 200.0);
    results_summary(&rs, 1, S256, 3, "", &f, NULL, NULL);
    ck_assert_double_eq(f.median, 300.0);
    results_summary(&rs, 1, S512, 4, "", &f, NULL, NULL);
    ck_assert(!f.have);
    results_free(&rs);
}
END_TEST

/* Measured with other parameters only: stale, with no speed, naming those parameters. */
START_TEST(test_results_other_params_are_stale)
{
    struct results rs;
    struct summary f;
    double history[RESULTS_RUNS];
    size_t n = 99;

    results_init(&rs);
    add(&rs, 0, S256, 5, "TS=16", RUN_OK, 100.0);
    add(&rs, 0, S256, 5, "TS=8", RUN_OK, 50.0);
    results_summary(&rs, 0, S256, 5, "TS=32", &f, history, &n);
    ck_assert(f.have && f.stale);
    ck_assert_double_eq(f.median, 0.0);
    ck_assert_str_eq(f.params, "TS=8");     /* the newest of the others */
    ck_assert_uint_eq(n, 0);
    results_summary(&rs, 0, S256, 5, "TS=16", &f, NULL, NULL);
    ck_assert(!f.stale);
    ck_assert_double_eq(f.median, 100.0);
    results_free(&rs);
}
END_TEST

/* One wrong run and the key never shows a speed again; a refusal alone shows its reason; a
   cancelled run counts for nothing. */
START_TEST(test_results_wrong_and_refused)
{
    struct results rs;
    struct summary f;
    struct run_result r;

    results_init(&rs);
    add(&rs, 0, S256, 2, "", RUN_OK, 10.0);
    add(&rs, 0, S256, 2, "", RUN_WRONG, 0.0);
    add(&rs, 0, S256, 2, "", RUN_OK, 10.0);
    results_summary(&rs, 0, S256, 2, "", &f, NULL, NULL);
    ck_assert_int_eq(f.status, RUN_WRONG);
    ck_assert_str_eq(f.message, "element (3, 4) is 9, expected 2");
    add(&rs, 0, S256, 3, "", RUN_REFUSED, 0.0);
    results_summary(&rs, 0, S256, 3, "", &f, NULL, NULL);
    ck_assert(f.have);
    ck_assert_int_eq(f.status, RUN_REFUSED);
    ck_assert_double_eq(f.estimate_s, 0.0);
    /* Refused for its estimated time: the estimate is kept, for the key that runs it. */
    run_result_init(&r);
    r.status = RUN_REFUSED;
    r.refused_by_estimate = true;
    r.estimate_s = 35.0;
    results_add(&rs, 0, S256, 3, false, false, &r);
    run_result_free(&r);
    results_summary(&rs, 0, S256, 3, "", &f, NULL, NULL);
    ck_assert_double_eq(f.estimate_s, 35.0);
    run_result_init(&r);
    r.cancelled = true;
    r.status = RUN_ERROR;
    results_add(&rs, 0, S256, 4, false, false, &r);
    run_result_free(&r);
    results_summary(&rs, 0, S256, 4, "", &f, NULL, NULL);
    ck_assert(!f.have);
    results_free(&rs);
}
END_TEST

/* The newest RESULTS_RUNS runs are kept, oldest first; a reload forgets the lesson. */
START_TEST(test_results_ring_and_forget)
{
    struct results rs;
    struct summary f;
    static double history[RESULTS_RUNS];
    size_t n;

    results_init(&rs);
    for (int i = 0; i < RESULTS_RUNS + 10; i++)
        add(&rs, 0, S256, 9, "", RUN_OK, (double)i);
    add(&rs, 0, S256, RESULTS_REFERENCE, "", RUN_OK, 77.0);
    results_summary(&rs, 0, S256, 9, "", &f, history, &n);
    ck_assert_uint_eq(n, RESULTS_RUNS);
    ck_assert_double_eq(history[0], 10.0);
    ck_assert_double_eq(history[RESULTS_RUNS - 1], (double)(RESULTS_RUNS + 9));
    ck_assert_uint_eq(f.runs, RESULTS_RUNS);
    results_forget_lesson(&rs, 9);
    results_summary(&rs, 0, S256, 9, "", &f, NULL, NULL);
    ck_assert(!f.have);
    results_summary(&rs, 0, S256, RESULTS_REFERENCE, "", &f, NULL, NULL);
    ck_assert_double_eq(f.median, 77.0);
    results_free(&rs);
}
END_TEST

/* CLBlast with its defaults and CLBlast with tuned parameters (their key, as
   reference_measure writes it in params) are two rows: a figure of the defaults is never
   summed up as the tuned one's, nor the other way round. */
START_TEST(test_results_clblast_tuned_apart)
{
    struct results rs;
    struct summary f;

    results_init(&rs);
    add(&rs, 0, S256, RESULTS_REFERENCE, "", RUN_OK, 10.0);
    add(&rs, 0, S256, RESULTS_REFERENCE, "tuned:21954196842b3976", RUN_OK, 20.0);
    add(&rs, 0, S256, RESULTS_REFERENCE, "tuned:21954196842b3976", RUN_OK, 22.0);
    results_summary(&rs, 0, S256, RESULTS_REFERENCE, "tuned:21954196842b3976", &f, NULL, NULL);
    ck_assert(f.have && !f.stale);
    ck_assert_uint_eq(f.runs, 2);
    ck_assert_double_eq_tol(f.median, 21.0, 1e-12);
    results_summary(&rs, 0, S256, RESULTS_REFERENCE, "", &f, NULL, NULL);
    ck_assert_uint_eq(f.runs, 1);
    ck_assert_double_eq_tol(f.median, 10.0, 1e-12);
    results_summary(&rs, 0, S256, RESULTS_REFERENCE, "tuned:0000000000000000", &f, NULL, NULL);
    ck_assert(f.stale);         /* other tuned parameters: nothing current */
    results_free(&rs);
}
END_TEST

Suite *results_suite(void)
{
    Suite *s = suite_create("results");
    TCase *tc = tcase_create("results");

    tcase_add_test(tc, test_results_median_of_runs);
    tcase_add_test(tc, test_results_kept_by_size_and_device);
    tcase_add_test(tc, test_results_other_params_are_stale);
    tcase_add_test(tc, test_results_wrong_and_refused);
    tcase_add_test(tc, test_results_ring_and_forget);
    tcase_add_test(tc, test_results_clblast_tuned_apart);
    suite_add_tcase(s, tc);
    return s;
}
