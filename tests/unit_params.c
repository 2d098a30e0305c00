/* unit_params.c: choosing a lesson's parameters: defaults, the tuner's near the size, --param. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "units.h"
#include "engine/lesson.h"
#include "engine/params.h"
#include "engine/tune.h"

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

/* A lesson whose TS and SPLIT come by rule from the shape and the compute units. */
static const char rules_lesson[] =
    "lesson: 7\ntitle: Rules\nsources: 003\nengine: host\n"
    "param: TS = 32 in 16, 32, 64\nrule: TS = 16 + 48 * (M * N >= 4096 * CU)\n"
    "param: SPLIT = 1 in 1, 2, 4, 8\nrule: SPLIT = max(1, 2 * CU / (cdiv(M, TS) * cdiv(N, TS)))\n---\n";

/* The rules at two shapes: values made allowed ones (the largest not above, else the
   smallest), in the order of the param lines (SPLIT sees the TS its rule chose); the
   origin says so, and --param or the tuner's values take their place. */
START_TEST(test_params_rules)
{
    struct param_override o1[] = { { "TS", 64 } };
    struct params_request req = { NULL, 0, false, NULL };
    struct lesson l;
    struct param_set ps;
    struct param_origin o;
    struct error e;
    char text[160];
    long long v;

    error_init(&e);
    ck_assert_msg(lesson_parse("r.lesson", rules_lesson, NULL, &l, &e) == 0, "%s", e.msg);
    gpu.compute_units = 10;
    /* 64 x 64: 4096 < 40960, TS = 16: 16 tiles, SPLIT = 20 / 16 = 1. */
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 64, 64, 4096 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[0], 16);
    ck_assert_int_eq(ps.values[1], 1);
    ck_assert_uint_eq(o.by_rule, 1u);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "by the lesson's rules at 64x64x4096");
    /* 32 x 32 on 40 units: TS 16, 4 tiles, SPLIT 80 / 4 = 20, not allowed: 8, the largest
       allowed below it. */
    gpu.compute_units = 40;
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 32, 32, 9999 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[0], 16);
    ck_assert_int_eq(ps.values[1], 8);
    ck_assert_uint_eq(o.by_rule, 3u);
    /* A rule's value below every allowed one: the smallest. */
    ck_assert_int_eq(params_rule_value(&l, 0, &ps, (struct gemm_size){ 1, 1, 1 }, 0, &v, &e), 0);
    ck_assert_int_eq(v, 64);    /* 16 + 48 * (1 >= 0) */
    gpu.compute_units = 1;
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 4096, 4096, 64 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[0], 64);
    ck_assert_int_eq(ps.values[1], 1);
    ck_assert_uint_eq(o.by_rule, 1u); /* TS by rule; SPLIT's rule gave its default */
    /* --param over the rules: the rest still by rule. */
    req.overrides = o1;
    req.noverrides = 1;
    gpu.compute_units = 40;
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 32, 32, 9999 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[0], 64);
    ck_assert_int_eq(ps.values[1], 8);  /* its rule saw TS = 16, not the --param */
    ck_assert_int_eq(o.source, PARAMS_OVERRIDDEN);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "--param, the rest by the lesson's rules at 32x32x9999");
    /* Without a device: the defaults, and the origin says why. */
    req.noverrides = 0;
    ck_assert_int_eq(params_choose(&req, &l, NULL, (struct gemm_size){ 32, 32, 9999 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[0], 32);
    ck_assert_int_eq(ps.values[1], 1);
    params_origin_describe(&o, text, sizeof text);
    ck_assert_str_eq(text, "defaults: the lesson's rules need a device's compute units");
    lesson_free(&l);
}
END_TEST

/* A range parameter takes its rule's value as it is, brought inside the range, and any
   --param inside it; the tuner keeps it at its default. */
START_TEST(test_params_range_rule)
{
    static const char text[] =
        "lesson: 7\ntitle: Range\nsources: 003\nengine: host\n"
        "param: TS = 32 in 16, 32\n"
        "param: WAVE = 100 in 1 to 500\nrule: WAVE = (1 + (TS < 32)) * CU\n---\n";
    struct param_override o1[] = { { "WAVE", 77 } }, o2[] = { { "WAVE", 501 } };
    struct params_request req = { NULL, 0, false, NULL };
    struct lesson l;
    struct param_set ps;
    struct param_origin o;
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_parse("r.lesson", text, NULL, &l, &e) == 0, "%s", e.msg);
    gpu.compute_units = 132;
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 64, 64, 64 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[1], 132);
    gpu.compute_units = 300;   /* any value of the range, not only listed ones */
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 64, 64, 64 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[1], 300);
    gpu.compute_units = 600;   /* above the range: its top */
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 64, 64, 64 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[1], 500);
    req.overrides = o1;
    req.noverrides = 1;
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 64, 64, 64 }, &ps, &o, &e), 0);
    ck_assert_int_eq(ps.values[1], 77);
    req.overrides = o2;
    ck_assert_int_eq(params_choose(&req, &l, &gpu, (struct gemm_size){ 64, 64, 64 }, &ps, &o, &e), -1);
    ck_assert_msg(strstr(e.msg, "1 to 500") != NULL, "%s", e.msg);
    /* A tuned entry's TS, with WAVE by its rule on this device (TS = 16: two per unit), not
       the entry's: the wave is the device's, whatever the tuner measured with. */
    {
        char tuned[160];
        FILE *f;
        struct params_request tq = { NULL, 0, false, tuned };
        snprintf(tuned, sizeof tuned, "%s/tuned-range", dir);
        ck_assert_ptr_nonnull(f = fopen(tuned, "w"));
        fputs("7\tUnit (Test, GPU)\tTS=16 WAVE=100\t10\t64x64x64\t2026-01-01\tcomplete\n", f);
        fclose(f);
        gpu.compute_units = 132;
        ck_assert_int_eq(params_choose(&tq, &l, &gpu, (struct gemm_size){ 64, 64, 64 }, &ps, &o, &e), 0);
        ck_assert_int_eq(o.source, PARAMS_TUNED);
        ck_assert_int_eq(ps.values[0], 16);
        ck_assert_int_eq(ps.values[1], 264);
        ck_assert_uint_eq(o.by_rule, 2u);
    }
    /* The tuner's space: TS's two values only. */
    ck_assert_uint_eq(tune_space_size(&l), 2);
    tune_space_get(&l, 1, &ps);
    ck_assert_int_eq(ps.values[0], 32);
    ck_assert_int_eq(ps.values[1], 100);
    lesson_free(&l);
}
END_TEST

/* Rule lines that cannot be: each refused with its line. */
START_TEST(test_params_bad_rules)
{
    static const struct {
        const char *lines, *message;
    } cases[] = {
        { "rule: TS = 8\nparam: TS = 32 in 16, 32\n",
          "b.lesson:5: rule for TS: no param line before it declares TS (put the rule after its param line)" },
        { "switch: TS = 32 in 16, 32\nrule: TS = 8\n",
          "b.lesson:6: rule for TS: TS is a switch, kept at its default; a rule chooses a param" },
        { "param: TS = 32 in 16, 32\nrule: TS = 8\nrule: TS = 16\n",
          "b.lesson:7: rule for TS: TS has a rule already (line 6)" },
        { "param: TS = 32 in 16, 32\nrule: TS 8\n", "b.lesson:6: expected \"NAME = EXPR\"" },
        { "param: TS = 32 in 16, 32\nrule: TS = \n", "b.lesson:6: rule for TS: no expression after \"=\"" },
        { "param: TS = 32 in 16, 32\nrule: TS = CU + NOPE\n", "b.lesson:6: rule for TS: unknown name at column 6 of \"CU + NOPE\"" },
        { "param: CU = 32 in 16, 32\n", "b.lesson:5: parameter CU is declared twice or shadows a size or CU" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        struct lesson l;
        struct error e;
        error_init(&e);
        snprintf(text, sizeof text, "lesson: 7\ntitle: Bad\nsources: 003\nengine: host\n%s---\n", cases[i].lines);
        ck_assert_int_eq(lesson_parse("b.lesson", text, NULL, &l, &e), -1);
        ck_assert_str_eq(e.msg, cases[i].message);
        lesson_free(&l);
    }
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
    tcase_add_test(tc, test_params_rules);
    tcase_add_test(tc, test_params_range_rule);
    tcase_add_test(tc, test_params_bad_rules);
    suite_add_tcase(s, tc);
    return s;
}
