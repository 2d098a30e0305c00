/* unit_check.c: checking a student's kernel: build logs that name the student's file, and
   check_run on an OpenCL device (POCL in CI) with the test exercises of tests/exercises:
   wrong, verified, not built, and "predict, then measure". The device tests do nothing
   (and say so once) where there is no OpenCL device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "engine/check.h"
#include "engine/device.h"

/* ---- check_rewrite_log ---- */

START_TEST(test_log_pocl_temporary_file)
{
    int line = -1;
    char *out = check_rewrite_log("error: /root/.cache/pocl/kcache/tempfile_Xy12.cl:38:16: use of undeclared "
                                  "identifier 'acc2'\n"
                                  "        C[col * M + row] = acc2;\n"
                                  "               ^\n",
                                  "01-store.cl", &line);

    ck_assert_str_eq(out, "error: 01-store.cl:38:16: use of undeclared identifier 'acc2'\n"
                          "        C[col * M + row] = acc2;\n"
                          "               ^\n");
    ck_assert_int_eq(line, 38);
    free(out);
}
END_TEST

/* The first error's line, not a warning's before it; lines without a location unchanged. */
START_TEST(test_log_nvidia_kernel_name)
{
    int line = -1;
    char *out = check_rewrite_log("<kernel>:3:1: warning: unused variable 'x'\n"
                                  "<kernel>:12:5: error: expected ';' after expression\n"
                                  "<kernel>:20:1: error: expected '}'\n"
                                  "2 errors generated.\n",
                                  "my kernel.cl", &line);

    ck_assert_str_eq(out, "my kernel.cl:3:1: warning: unused variable 'x'\n"
                          "my kernel.cl:12:5: error: expected ';' after expression\n"
                          "my kernel.cl:20:1: error: expected '}'\n"
                          "2 errors generated.\n");
    ck_assert_int_eq(line, 12);
    free(out);
}
END_TEST

/* Other names a compiler gives its input, and the shown name itself (from #line). */
START_TEST(test_log_other_names)
{
    int line = -1;
    char *out = check_rewrite_log("<stdin>:4:2: error: a\ninput.cl:5:2: error: b\nmine.cl:6:2: error: c",
                                  "mine.cl", &line);

    ck_assert_str_eq(out, "mine.cl:4:2: error: a\nmine.cl:5:2: error: b\nmine.cl:6:2: error: c");
    ck_assert_int_eq(line, 4);
    free(out);
}
END_TEST

/* A header of its own is not the student's file: its name and line are left alone. */
START_TEST(test_log_included_file)
{
    int line = -1;
    char *out = check_rewrite_log("helpers.h:9:3: error: unknown type name 'flaot'\n", "mine.cl", &line);

    ck_assert_str_eq(out, "helpers.h:9:3: error: unknown type name 'flaot'\n");
    ck_assert_int_eq(line, 0);
    free(out);
}
END_TEST

START_TEST(test_log_without_location)
{
    int line = -1;
    char *out = check_rewrite_log("Build failed: error: 2 errors at 10:30:00\nout of resources\n", "mine.cl", &line);

    ck_assert_str_eq(out, "Build failed: error: 2 errors at 10:30:00\nout of resources\n");
    ck_assert_int_eq(line, 0);
    free(out);
    out = check_rewrite_log("", "mine.cl", &line);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(line, 0);
    free(out);
}
END_TEST

/* ---- check_passed and check_progress ---- */

START_TEST(test_passed_and_progress)
{
    static const struct {
        enum check_verdict verdict;
        enum check_speed speed;
        bool passed;
        enum progress_status status;
    } cases[] = {
        { CHECK_VERIFIED, CHECK_SPEED_NONE, true, PROGRESS_DONE },
        { CHECK_VERIFIED, CHECK_SPEED_MET, true, PROGRESS_DONE },
        { CHECK_VERIFIED, CHECK_SPEED_NOT_JUDGED, true, PROGRESS_VERIFIED },   /* passes; not done */
        { CHECK_VERIFIED, CHECK_SPEED_PREDICTED, true, PROGRESS_DONE },
        { CHECK_VERIFIED, CHECK_SPEED_MISSED, false, PROGRESS_VERIFIED },
        { CHECK_VERIFIED, CHECK_SPEED_PREDICT_FIRST, false, PROGRESS_VERIFIED },
        { CHECK_VERIFIED, CHECK_SPEED_FAILED, false, PROGRESS_VERIFIED },
        { CHECK_NOT_BUILT, CHECK_SPEED_NONE, false, PROGRESS_NOT_BUILT },
        { CHECK_WRONG, CHECK_SPEED_NONE, false, PROGRESS_BUILDS },
        { CHECK_UNSTABLE, CHECK_SPEED_NONE, false, PROGRESS_BUILDS },
        { CHECK_REFUSED, CHECK_SPEED_NONE, false, PROGRESS_BUILDS },
        { CHECK_FAILED, CHECK_SPEED_NONE, false, PROGRESS_BUILDS },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct check_report r;
        struct progress_check c;
        memset(&r, 0, sizeof r);
        r.exercise = 4;
        r.verdict = cases[i].verdict;
        r.speed = cases[i].speed;
        r.gflops = 12.5;
        r.ratio = 1.5;
        r.prediction = 2.0;
        snprintf(r.device, sizeof r.device, "Test device");
        ck_assert_msg(check_passed(&r) == cases[i].passed, "case %zu", i);
        check_progress(&r, &c);
        ck_assert_msg(c.status == cases[i].status, "case %zu: status %d", i, (int)c.status);
        ck_assert_int_eq(c.exercise, 4);
        ck_assert_str_eq(c.verdict, check_verdict_name(cases[i].verdict));
        ck_assert_str_eq(c.device, "Test device");
        ck_assert_double_eq(c.gflops, 12.5);
        /* The prediction counts only where it was measured beside the speed. */
        ck_assert_double_eq(c.prediction, cases[i].speed == CHECK_SPEED_PREDICTED ? 2.0 : 0.0);
    }
    ck_assert_str_eq(check_verdict_name(CHECK_NOT_BUILT), "not-built");
    ck_assert_str_eq(check_verdict_name(CHECK_WRONG), "wrong");
}
END_TEST

/* ---- check_run on a device ---- */

static struct device_list devices;
static struct ocl cl;
static struct lesson_set lessons;
static struct exercise_set exercises;
static bool have_device;
static char top[4096];
static char scratch[64];

/* Runs in each test's process: OpenCL is not carried across fork(). */
static void device_setup(void)
{
    const struct device_info *d;
    struct error e;
    char dir[4200];
    const char *t = getenv("top_srcdir");

    error_init(&e);
    snprintf(top, sizeof top, "%s", t ? t : CLMM_SRCDIR);
    snprintf(dir, sizeof dir, "%s/lessons", top);
    ck_assert_msg(lesson_set_load(dir, &lessons, &e) == 0, "%s", e.msg);
    snprintf(dir, sizeof dir, "%s/tests/exercises", top);
    ck_assert_msg(exercise_set_load(dir, &lessons, &exercises, &e) == 0, "%s", e.msg);
    strcpy(scratch, "/tmp/clmm-unit-check-XXXXXX");
    ck_assert(mkdtemp(scratch) != NULL);
    have_device = false;
    if (device_list_load(&devices, &e) < 0)
        return;
    d = device_select(&devices, getenv("CLMM_TUTOR_DEVICE"), &e);
    ck_assert_msg(d != NULL, "%s", e.msg);
    ck_assert_msg(ocl_open(&cl, d, &e) == 0, "%s", e.msg);
    have_device = true;
}

static void device_teardown(void)
{
    char command[128];

    if (have_device) {
        ocl_close(&cl);
        device_list_free(&devices);
    }
    exercise_set_free(&exercises);
    lesson_set_free(&lessons);
    snprintf(command, sizeof command, "rm -rf '%s'", scratch);
    if (system(command) != 0)
        fprintf(stderr, "check: cannot remove %s\n", scratch);
}

static void options_for(const char *file, struct check_options *o)
{
    memset(o, 0, sizeof *o);
    o->file = file;
    measure_config_defaults(&o->measure);
    o->measure.reps = MEASURE_MIN_REPS;
}

static void run_check(int number, const struct check_options *o, struct check_report *r)
{
    const struct exercise *x = exercise_set_find(&exercises, number);
    struct error e;

    ck_assert(x != NULL);
    error_init(&e);
    ck_assert_msg(check_run(&cl, x, &lessons, o, r, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(r->exercise, number);
    ck_assert_uint_eq(r->sizes_total, x->nsizes);
}

/* The fixture's file name in tests/exercises. */
static void fixture(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/tests/exercises/%s", top, name);
}

#define NEEDS_DEVICE()                                                                       \
    do {                                                                                     \
        if (!have_device) {                                                                  \
            fprintf(stderr, "check: no OpenCL device: %s not run\n", __func__);              \
            return;                                                                          \
        }                                                                                    \
    } while (0)

/* Exercise 1's start stores C row-major: wrong at the first size, mapped, and the second
   size is not checked. */
START_TEST(test_run_start_is_wrong)
{
    struct check_options o;
    struct check_report r;
    char file[4200];

    NEEDS_DEVICE();
    fixture("01-store.cl", file, sizeof file);
    options_for(file, &o);
    run_check(1, &o, &r);
    ck_assert_int_eq(r.verdict, CHECK_WRONG);
    ck_assert_uint_eq(r.nsizes, 1);
    ck_assert_int_eq(r.sizes[0].verdict, CHECK_WRONG);
    ck_assert_int_eq(r.sizes[0].size.m, 48);
    ck_assert_int_eq(r.sizes[0].size.n, 32);
    ck_assert_int_eq(r.sizes[0].size.k, 40);
    ck_assert_int_eq(r.sizes[0].launches, 0);
    ck_assert_int_ne(r.sizes[0].map.pattern, ERRMAP_NONE);
    ck_assert_int_ne(r.sizes[0].map.pattern, ERRMAP_RIGHT);
    ck_assert(r.sizes[0].map.wrong > 0);
    ck_assert_msg(strstr(r.message, "launch 1 of 2") != NULL, "%s", r.message);
    ck_assert_int_eq(r.speed, CHECK_SPEED_NONE);
    ck_assert_ptr_null(r.build_log);
    ck_assert(!check_passed(&r));
    check_report_free(&r);
}
END_TEST

START_TEST(test_run_solution_is_verified)
{
    struct check_options o;
    struct check_report r;
    char file[4200];

    NEEDS_DEVICE();
    fixture("01-store.solution.cl", file, sizeof file);
    options_for(file, &o);
    run_check(1, &o, &r);
    ck_assert_msg(r.verdict == CHECK_VERIFIED, "%s: %s", check_verdict_name(r.verdict), r.message);
    ck_assert_uint_eq(r.nsizes, 2);
    for (size_t i = 0; i < r.nsizes; i++) {
        ck_assert_int_eq(r.sizes[i].verdict, CHECK_VERIFIED);
        ck_assert_int_eq(r.sizes[i].launches, 2);      /* repeat: 2 */
        ck_assert(r.sizes[i].max_error <= r.sizes[i].tolerance);
        ck_assert_str_eq(r.sizes[i].message, "");
    }
    ck_assert_int_eq(r.sizes[1].size.m, 64);
    ck_assert_int_eq(r.sizes[1].size.k, 64);
    ck_assert_str_eq(r.message, "");
    ck_assert_int_eq(r.speed, CHECK_SPEED_NONE);
    ck_assert(check_passed(&r));
    check_report_free(&r);
}
END_TEST

/* A kernel that does not build: the log names the shown name, and the first error's line is
   the line of the student's file. */
START_TEST(test_run_not_built)
{
    struct check_options o;
    struct check_report r;
    char file[4200], broken[128], line[256];
    char shown_at[64];
    FILE *in, *out;
    int n = 0;

    NEEDS_DEVICE();
    fixture("01-store.solution.cl", file, sizeof file);
    snprintf(broken, sizeof broken, "%s/broken.cl", scratch);
    in = fopen(file, "r");
    out = fopen(broken, "w");
    ck_assert(in && out);
    while (fgets(line, sizeof line, in)) {
        /* Line 14 is the store. */
        if (++n == 14)
            fputs("    C[col * M + row] = acc + no_such_variable;\n", out);
        else
            fputs(line, out);
    }
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
    ck_assert_int_ge(n, 14);

    options_for(broken, &o);
    o.shown_name = "my-store.cl";
    run_check(1, &o, &r);
    ck_assert_int_eq(r.verdict, CHECK_NOT_BUILT);
    ck_assert_uint_eq(r.nsizes, 0);
    ck_assert_ptr_nonnull(r.build_log);
    snprintf(shown_at, sizeof shown_at, "my-store.cl:14:");
    ck_assert_msg(strstr(r.build_log, shown_at) != NULL, "log lacks %s:\n%s", shown_at, r.build_log);
    ck_assert_msg(strstr(r.build_log, "no_such_variable") != NULL, "%s", r.build_log);
    ck_assert_int_eq(r.build_line, 14);
    ck_assert_msg(strstr(r.message, "my-store.cl does not build") != NULL, "%s", r.message);
    ck_assert(!check_passed(&r));
    check_report_free(&r);
    ck_assert_ptr_null(r.build_log);
}
END_TEST

START_TEST(test_run_unreadable_file)
{
    struct check_options o;
    struct check_report r;
    char missing[128];

    NEEDS_DEVICE();
    snprintf(missing, sizeof missing, "%s/none.cl", scratch);
    options_for(missing, &o);
    run_check(1, &o, &r);
    ck_assert_int_eq(r.verdict, CHECK_FAILED);
    ck_assert_uint_eq(r.nsizes, 0);
    ck_assert_msg(strstr(r.message, "none.cl") != NULL, "%s", r.message);
    check_report_free(&r);
}
END_TEST

/* "Predict, then measure": without a prediction nothing is measured; with one, both kernels
   are, at the exercise's first size on a CPU device. */
START_TEST(test_run_predict)
{
    struct check_options o;
    struct check_report r;
    struct progress_check c;
    char file[4200];

    NEEDS_DEVICE();
    fixture("02-predict.solution.cl", file, sizeof file);
    options_for(file, &o);
    run_check(2, &o, &r);
    ck_assert_msg(r.verdict == CHECK_VERIFIED, "%s: %s", check_verdict_name(r.verdict), r.message);
    ck_assert_int_eq(r.speed, CHECK_SPEED_PREDICT_FIRST);
    ck_assert_double_eq(r.gflops, 0.0);
    ck_assert_double_eq(r.ratio, 0.0);
    ck_assert_msg(strstr(r.speed_message, "predict first") != NULL, "%s", r.speed_message);
    ck_assert(!check_passed(&r));
    check_progress(&r, &c);
    ck_assert_int_eq(c.status, PROGRESS_VERIFIED);
    check_report_free(&r);

    o.has_prediction = true;
    o.prediction = 2.5;
    run_check(2, &o, &r);
    ck_assert_msg(r.verdict == CHECK_VERIFIED, "%s: %s", check_verdict_name(r.verdict), r.message);
    ck_assert_msg(r.speed == CHECK_SPEED_PREDICTED, "speed %d: %s", (int)r.speed, r.speed_message);
    ck_assert_int_eq(r.versus, 1);
    ck_assert(r.gflops > 0);
    ck_assert(r.versus_gflops > 0);
    ck_assert(r.ratio > 0);
    ck_assert_double_eq_tol(r.ratio, r.gflops / r.versus_gflops, 1e-9);
    ck_assert_double_eq(r.prediction, 2.5);
    if (!r.device_is_gpu) {
        ck_assert_int_eq(r.speed_size.m, 32);
        ck_assert_int_eq(r.speed_size.n, 48);
        ck_assert_int_eq(r.speed_size.k, 16);
    }
    ck_assert(check_passed(&r));
    check_progress(&r, &c);
    ck_assert_int_eq(c.status, PROGRESS_DONE);
    ck_assert_double_eq(c.prediction, 2.5);
    ck_assert_double_eq(c.ratio, r.ratio);
    check_report_free(&r);
}
END_TEST

/* The start of exercise 2 doubles the sum: wrong, with the constant factor found. */
START_TEST(test_run_factor)
{
    struct check_options o;
    struct check_report r;
    char file[4200];

    NEEDS_DEVICE();
    fixture("02-predict.cl", file, sizeof file);
    options_for(file, &o);
    o.has_prediction = true;
    o.prediction = 2.0;
    run_check(2, &o, &r);
    ck_assert_int_eq(r.verdict, CHECK_WRONG);
    ck_assert_int_eq(r.sizes[0].map.pattern, ERRMAP_FACTOR);
    ck_assert_double_eq_tol(r.sizes[0].map.factor, 2.0, 1e-3);
    /* Nothing measured for a wrong kernel, even with a prediction. */
    ck_assert_int_eq(r.speed, CHECK_SPEED_NONE);
    ck_assert_double_eq(r.gflops, 0.0);
    check_report_free(&r);
}
END_TEST

Suite *check_suite(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("check_rewrite_log");

    tcase_add_test(tc, test_log_pocl_temporary_file);
    tcase_add_test(tc, test_log_nvidia_kernel_name);
    tcase_add_test(tc, test_log_other_names);
    tcase_add_test(tc, test_log_included_file);
    tcase_add_test(tc, test_log_without_location);
    tcase_add_test(tc, test_passed_and_progress);
    suite_add_tcase(s, tc);
    tc = tcase_create("check_run");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, device_setup, device_teardown);
    tcase_add_test(tc, test_run_start_is_wrong);
    tcase_add_test(tc, test_run_solution_is_verified);
    tcase_add_test(tc, test_run_not_built);
    tcase_add_test(tc, test_run_unreadable_file);
    tcase_add_test(tc, test_run_predict);
    tcase_add_test(tc, test_run_factor);
    suite_add_tcase(s, tc);
    return s;
}
