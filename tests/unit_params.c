/* unit_params.c: choosing a lesson's parameters: defaults, the tuner's near the size, --param. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "units.h"
#include "../src/lesson.h"
#include "../src/params.h"

static const char tiles_lesson[] =
    "lesson: 6\ntitle: Tiles\nsources: 003\nengine: host\n"
    "param: TS = 16 in 8, 16, 32\nparam: WPT = 4 in 1, 2, 4, 8\n---\n";

static struct lesson tiles;
static struct device_info gpu;
static char dir[64], path[128];

static void setup(void)
{
    struct error e;
    FILE *f;

    error_init(&e);
    ck_assert_msg(lesson_parse("t.lesson", tiles_lesson, NULL, &tiles, &e) == 0, "%s", e.msg);
    memset(&gpu, 0, sizeof gpu);
    snprintf(gpu.name, sizeof gpu.name, "Unit");
    snprintf(gpu.platform_name, sizeof gpu.platform_name, "Test");
    gpu.type = CL_DEVICE_TYPE_GPU;
    snprintf(dir, sizeof dir, "/tmp/clmm-unit-params-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/tuned", dir);
    /* Lesson 6 on this device, tuned at 256 by a partial search. */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("6\tUnit (Test, GPU)\tTS=32 WPT=8\t321.5\t256x256x256\t2026-01-01\tpartial\n", f);
    fclose(f);
}

static void teardown(void)
{
    char command[128];

    lesson_free(&tiles);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}

static const struct gemm_size at256 = { 256, 256, 256 }, at1024 = { 1024, 1024, 1024 };

/* Without a device, or with --no-tuned, or without a file: the defaults. */
START_TEST(test_params_defaults)
{
    struct params_request req = { NULL, 0, false, path };
    struct param_set ps;
    struct param_origin o;
    struct error e;
    char text[128];

    error_init(&e);
    ck_assert_int_eq(params_choose(&req, &tiles, NULL, at256, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_DEFAULTS);
    ck_assert_int_eq(ps.values[0], 16);
    ck_assert_int_eq(ps.values[1], 4);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "");
    req.no_tuned = true;
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, at256, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_DEFAULTS);
    ck_assert_int_eq(ps.values[0], 16);
    req.no_tuned = false;
    req.tuned_path = NULL;
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, at256, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_DEFAULTS);
}
END_TEST

/* Near the size it was tuned at, the tuner's entry, with its size and search. */
START_TEST(test_params_tuned)
{
    const struct params_request req = { NULL, 0, false, path };
    struct param_set ps;
    struct param_origin o;
    struct error e;
    char text[128];

    error_init(&e);
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, (struct gemm_size){ 300, 200, 500 }, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_TUNED);
    ck_assert_int_eq(ps.values[0], 32);
    ck_assert_int_eq(ps.values[1], 8);
    ck_assert(o.tuned.size.m == 256 && o.tuned.size.n == 256 && o.tuned.size.k == 256);
    ck_assert(!o.tuned.complete);
    ck_assert(o.tuned.gflops == 321.5);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "tuned at 256x256x256, partial search");
    o.tuned.complete = true;
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "tuned at 256x256x256");
}
END_TEST

/* Far from the size it was tuned at: the defaults, and the entry that was not applied. */
START_TEST(test_params_far)
{
    const struct params_request req = { NULL, 0, false, path };
    struct param_set ps;
    struct param_origin o;
    struct error e;
    char text[128];

    error_init(&e);
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, at1024, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_TUNED_NOT_APPLIED);
    ck_assert_int_eq(ps.values[0], 16);
    ck_assert_int_eq(ps.values[1], 4);
    ck_assert(o.tuned.size.m == 256);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "defaults; tuned at 256x256x256, not applied at 1024x1024x1024");
}
END_TEST

/* --param for the lesson: the defaults with it over them, the tuner's not read; one
   naming another lesson's parameter leaves this lesson alone. */
START_TEST(test_params_override)
{
    struct param_override o1[] = { { "WPT", 2 } }, o2[] = { { "NOPE", 3 } };
    struct params_request req = { o1, 1, false, path };
    struct param_set ps;
    struct param_origin o;
    struct error e;
    char text[128];

    error_init(&e);
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, at256, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_OVERRIDDEN);
    ck_assert_int_eq(ps.values[0], 16);
    ck_assert_int_eq(ps.values[1], 2);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "");
    req.overrides = o2;
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, at256, &ps, &o, &e), 0);
    ck_assert_int_eq(o.source, PARAMS_TUNED);
    ck_assert_int_eq(ps.values[0], 32);
}
END_TEST

/* A value the lesson does not allow: an error that says which are, and nothing printed. */
START_TEST(test_params_bad_override)
{
    struct param_override o1[] = { { "TS", 3 } };
    const struct params_request req = { o1, 1, false, path };
    struct param_set ps;
    struct param_origin o;
    struct error e;
    char err_path[160];
    struct stat st;
    int saved, fd;

    error_init(&e);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    fflush(stderr);
    saved = dup(STDERR_FILENO);
    fd = open(err_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ck_assert(saved >= 0 && fd >= 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
    ck_assert_int_eq(params_choose(&req, &tiles, &gpu, at256, &ps, &o, &e), -1);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    ck_assert_str_eq(e.msg, "--param TS=3: lesson 6 allows TS = 8, 16, 32");
    ck_assert_int_eq(stat(err_path, &st), 0);
    ck_assert_int_eq(st.st_size, 0);
}
END_TEST

Suite *params_suite(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("params");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_params_defaults);
    tcase_add_test(tc, test_params_tuned);
    tcase_add_test(tc, test_params_far);
    tcase_add_test(tc, test_params_override);
    tcase_add_test(tc, test_params_bad_override);
    suite_add_tcase(s, tc);
    return s;
}
