/* ladder.c: the fixture of the ladder's test programs (ladder.h). */
#include "ladder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/build.h"
#include "engine/device.h"
#include "engine/needs.h"

struct lesson_set ladder_lessons;
struct ocl ladder_cl;
char ladder_top_srcdir[4096];

const struct gemm_size ladder_sizes[4] = {
    { 128, 128, 128 },  /* a multiple of every tile */
    { 256, 128, 64 },   /* non-square, still multiples */
    { 100, 70, 30 },    /* nothing divides: padding or edge handling */
    { 1, 1, 1 },
};

void ladder_run(const struct lesson *l, const struct param_set *ps, struct gemm_size s, struct run_result *r)
{
    struct workspace w;
    struct measure_config cfg;
    struct error e;

    error_init(&e);
    measure_config_defaults(&cfg);
    cfg.reps = 1;
    run_result_init(r);
    ck_assert_msg(workspace_init(&w, &ladder_cl, s, 7, &e) == 0, "workspace: %s", e.msg);
    measure_lesson(&w, l, ps, &cfg, r);
    workspace_free(&w);
}

bool ladder_runs_here(const struct lesson *l)
{
    struct error e;
    bool ok;

    error_init(&e);
    ok = lesson_device_check(l, ladder_cl.device, &e) == 0;
    error_clear(&e);
    return ok;
}

/* A lesson that needs an NVIDIA GPU, whose PTX it issues, and has no emulation line: on any
   other device its measurement, at any size and with any parameters, and its build are
   refused. (Lessons 20 to 24 run there emulated.) */
void ladder_check_refused_here(const struct lesson *l, const struct param_set *ps, const char *what)
{
    struct run_result r;
    struct lesson_kernels k;
    struct param_set defaults;
    struct error e;

    ladder_run(l, ps, ladder_sizes[0], &r);
    ck_assert_msg(r.status == RUN_REFUSED && strstr(r.error.msg, "needs an NVIDIA GPU") &&
                  strstr(r.error.msg, "--device"),
                  "lesson %d%s, which this device cannot run: %s: %s", l->number, what,
                  run_status_name(r.status), r.error.msg);
    run_result_free(&r);
    error_init(&e);
    param_set_defaults(l, &defaults);
    ck_assert_msg(measure_build(&ladder_cl, l, ps ? ps : &defaults, NULL, &k, &e) < 0 &&
                  strstr(e.msg, "needs an NVIDIA GPU"),
                  "lesson %d: built on a device it cannot run on (%s)", l->number, e.msg);
    error_clear(&e);
}

void ladder_check_sizes_with(const struct lesson *l, const struct param_set *ps, const char *what)
{
    if (!ladder_runs_here(l)) {
        ladder_check_refused_here(l, ps, what);
        return;
    }
    for (size_t s = 0; s < LADDER_NSIZES; s++) {
        struct run_result r;
        bool takes_it = l->pad || l->engine == ENGINE_HOST || (l->nmultiples == 0 && !l->square);
        ladder_run(l, ps, ladder_sizes[s], &r);
        if (!takes_it && r.status == RUN_REFUSED) {
            run_result_free(&r);
            continue;
        }
        ck_assert_msg(r.status == RUN_OK, "lesson %d%s at %lldx%lldx%lld: %s: %s", l->number, what,
                      ladder_sizes[s].m, ladder_sizes[s].n, ladder_sizes[s].k, run_status_name(r.status),
                      r.error.msg);
        ck_assert(r.verify.ok);
        ck_assert(r.verify.max_error <= r.verify.tolerance);
        ck_assert(r.gflops.median > 0.0);
        ck_assert_int_eq(r.reps, 1);
        run_result_free(&r);
    }
}

const struct lesson *ladder_find(struct lesson_set *set, int number, const char *dir)
{
    const struct lesson *l = lesson_set_find(set, number);

    ck_assert_msg(l != NULL, "%s has no lesson %d", dir, number);
    return l;
}

/* Why the sweeps build without POCL's optimizer: on POCL nearly all of their time is the
   compiler's, one build for each value of each parameter (lesson 12 at 64: 10.9 s with it,
   0.9 s without, on a 2-core machine with an empty kernel cache), and what they assert is
   what the kernel's source computes, which the optimizer must not change. The builds the
   tool makes, with the optimizer, are verified by check_ladder at every size and by the
   command-line and screen tests; the kernels' races and bounds by oclgrind. Only POCL reads
   the variable: on another device the sweeps build as the tool does. */
static void build_unoptimized(const char *name)
{
    const char *optimize = getenv("CLMM_TEST_OPTIMIZE");

    if (getenv("POCL_EXTRA_BUILD_FLAGS") || (optimize && strcmp(optimize, "1") == 0))
        return;
    setenv("POCL_EXTRA_BUILD_FLAGS", "-cl-opt-disable", 1);
    printf("%s: POCL builds without its optimizer here (CLMM_TEST_OPTIMIZE=1: with it)\n", name);
}

int ladder_main(const char *name, Suite *(*make_suite)(void), bool unoptimized)
{
    const char *top = getenv("top_srcdir");
    struct device_list devices;
    const struct device_info *d;
    struct error e;
    char dir[4200];
    SRunner *sr;
    int failed;

    error_init(&e);
    if (unoptimized)
        build_unoptimized(name);
    snprintf(ladder_top_srcdir, sizeof ladder_top_srcdir, "%s", top ? top : "..");
    snprintf(dir, sizeof dir, "%s/lessons", ladder_top_srcdir);
    if (lesson_set_load(dir, &ladder_lessons, &e) < 0) {
        fprintf(stderr, "%s: %s\n", name, e.msg);
        return 1;
    }
    if (device_list_load(&devices, &e) < 0) {
        printf("SKIP: no OpenCL device to run the lessons on: %s\n", e.msg);
        return 77;
    }
    d = device_select(&devices, getenv("CLMM_TUTOR_DEVICE"), &e);
    if (!d || ocl_open(&ladder_cl, d, &e) < 0) {
        fprintf(stderr, "%s: %s\n", name, e.msg);
        return 1;
    }
    printf("%s: lessons of %s on %s (%s)\n", name, dir, d->name, d->platform_name);
    /* No fork: one OpenCL context serves every test, and POCL keeps its compiled kernels. */
    sr = srunner_create(make_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_VERBOSE);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    ocl_close(&ladder_cl);
    device_list_free(&devices);
    lesson_set_free(&ladder_lessons);
    return failed == 0 ? 0 : 1;
}
