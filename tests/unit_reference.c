/* unit_reference.c: the table of runners: each lesson engine's runner, the reference rows of
   this build with numbers of their own, and the CPU's BLAS measured and verified on the
   host, where no OpenCL device is needed. */
#include <string.h>

#include "units.h"
#include "engine/reference.h"
#include "engine/runner.h"
#include "engine/runner_cblas.h"

/* The table's 28 columns of a title (report.c). */
#define TITLE_COLUMNS 28

START_TEST(test_engine_runners)
{
    const struct engine_runner *host = runner_for_engine(ENGINE_HOST), *cl = runner_for_engine(ENGINE_OPENCL);

    ck_assert_ptr_eq(host, &runner_host);
    ck_assert_ptr_eq(cl, &runner_opencl);
    ck_assert(host->on_host && !host->needs_device);
    ck_assert(!cl->on_host && cl->needs_device);
    ck_assert_ptr_nonnull(cl->ops->release);
    ck_assert_ptr_nonnull(host->ops->groups);
}
END_TEST

/* Each row of the build, CLBlast first: a number below 0 of its own, found by it. */
START_TEST(test_reference_table)
{
    size_t expected = 0;

#ifdef HAVE_CLBLAST
    ck_assert_int_eq(reference_at(expected)->lesson, -1);
    expected++;
#endif
#ifdef HAVE_CBLAS
    ck_assert_int_eq(reference_at(expected)->lesson, -2);
    expected++;
#endif
    ck_assert_uint_eq(reference_count(), expected);
    ck_assert_ptr_null(reference_at(expected));
    for (size_t i = 0; i < reference_count(); i++) {
        const struct reference_kind *k = reference_at(i);
        ck_assert_int_lt(k->lesson, 0);
        ck_assert_ptr_eq(reference_find(k->lesson), k);
    }
    ck_assert_ptr_null(reference_find(0));
    ck_assert_ptr_null(reference_find(-3));
}
END_TEST

START_TEST(test_cblas_titles)
{
    char buf[128];

    cblas_title_for(1, buf, sizeof buf);
    ck_assert_str_eq(buf, "CPU BLAS (1 thread)");
    cblas_title_for(16, buf, sizeof buf);
    ck_assert_str_eq(buf, "CPU BLAS (16 threads)");
    cblas_title_for(0, buf, sizeof buf);
    ck_assert_str_eq(buf, "CPU BLAS (CBLAS)");
    cblas_title_for(256, buf, sizeof buf);
    ck_assert_uint_le(strlen(buf), TITLE_COLUMNS);
}
END_TEST

#ifdef HAVE_CBLAS
/* The CPU's BLAS on the lessons' inputs, with no device: measured, verified, on the host. */
START_TEST(test_cblas_measured)
{
    const struct reference_kind *k = reference_find(-2);
    struct reference_settings rs = { NULL };
    struct measure_config cfg;
    struct workspace w;
    struct run_result r;
    struct error e;
    char title[128];

    ck_assert_ptr_nonnull(k);
    error_init(&e);
    ck_assert_int_eq(workspace_init(&w, NULL, (struct gemm_size){ 67, 45, 33 }, 7, &e), 0);
    measure_config_defaults(&cfg);
    cfg.reps = 3;
    run_result_init(&r);
    reference_measure(k, &w, &rs, &cfg, &r);
    ck_assert_msg(r.status == RUN_OK, "%s", r.error.msg);
    ck_assert(r.verify.ok);
    ck_assert_double_le(r.verify.max_error, r.verify.tolerance);
    ck_assert_int_eq(r.lesson, -2);
    ck_assert(r.on_host);
    ck_assert_int_eq(r.reps, 3);
    ck_assert_double_gt(r.gflops.median, 0.0);
    ck_assert_int_ge(r.batch_count, 0);
    k->title(&rs, title, sizeof title);
    ck_assert_str_eq(r.title, title);
    ck_assert_msg(strncmp(r.title, "CPU BLAS (", 10) == 0, "%s", r.title);
    ck_assert_str_eq(r.params, "");
    run_result_free(&r);
    workspace_free(&w);
    error_clear(&e);
}
END_TEST
#endif

Suite *reference_suite(void)
{
    Suite *s = suite_create("reference");
    TCase *tc = tcase_create("runners");

    tcase_add_test(tc, test_engine_runners);
    tcase_add_test(tc, test_reference_table);
    tcase_add_test(tc, test_cblas_titles);
#ifdef HAVE_CBLAS
    tcase_add_test(tc, test_cblas_measured);
#endif
    suite_add_tcase(s, tc);
    return s;
}
