/* check_ladder.c: every lesson runs and verifies on an OpenCL device (POCL in CI), built as
   the tool builds it, with its default parameters, at a multiple size, a non-square size,
   an odd size and 1 x 1 x 1; the local memory its diagram counts is the kernel's; broken
   kernels are reported as wrong or failing, never as fast. Each allowed value of each
   parameter is check_params' business, the parts of a split and the tails of waves
   check_launches'. Exits 77 (skipped) when there is no OpenCL device. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/build.h"
#include "tui/diagram.h"
#include "ladder.h"
#include "engine/needs.h"

static void quick(struct measure_config *cfg)
{
    measure_config_defaults(cfg);
    cfg->reps = 1;
}

static void check_sizes(const struct lesson *l)
{
    ladder_check_sizes_with(l, NULL, "");
}

START_TEST(test_lesson_sizes)
{
    check_sizes(&ladder_lessons.items[_i]);
}
END_TEST

/* Kernels with the documents' signatures, (C, A, B, wA, wB) and (N, A, B, C), run
   unchanged: their lesson files declare the arguments and the storage. */
START_TEST(test_document_styles)
{
    struct lesson_set set;
    struct error e;
    char dir[4200];

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/tests/styles", ladder_top_srcdir);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(set.count, 2);
    for (size_t i = 0; i < set.count; i++)
        check_sizes(&set.items[i]);
    lesson_set_free(&set);
}
END_TEST

/* The local memory per work-group that the diagram works out from the lesson file is what the
   kernel has: CL_KERNEL_LOCAL_MEM_SIZE, with its local(...) arguments set, counts its __local
   arrays and those arguments. POCL reports exactly that; NVIDIA's OpenCL on an H200 reports 4
   bytes more, 16 for the kernels with float4 arrays (what its compiler reserves, aligned). The
   slack stays below the 256 bytes of the smallest padding a shipped lesson declares. */
#define LOCAL_MEM_SLACK 64

START_TEST(test_local_memory)
{
    const struct lesson *l = &ladder_lessons.items[_i];
    const struct gemm_size s = { 256, 256, 256 };
    struct param_set ps;
    struct figures d;
    struct error e;
    struct lesson_kernels k;
    cl_ulong reported = 0;

    if (l->engine != ENGINE_OPENCL || !ladder_runs_here(l))
        return;     /* test_lesson_sizes covers a lesson it cannot run: refused */
    error_init(&e);
    param_set_defaults(l, &ps);
    ck_assert_msg(figures_compute(l, &ps, s, NULL, &d, &e) == 0, "lesson %d: %s", l->number, e.msg);
    ck_assert_msg(measure_build(&ladder_cl, l, &ps, NULL, &k, &e) == 0, "lesson %d: %s", l->number, e.msg);
    for (size_t i = 0; i < l->launch[0].nargs; i++) {
        size_t bytes = (size_t)d.g.launch[0].arg_values[i] * sizeof(float);
        if (l->launch[0].args[i].kind == ARG_LOCAL)
            ck_assert_int_eq(clSetKernelArg(k.kernel[0], (cl_uint)i, bytes, NULL), CL_SUCCESS);
    }
    /* The main launch's kernel, the first: the diagram describes it. */
    ck_assert_int_eq(clGetKernelWorkGroupInfo(k.kernel[0], ladder_cl.device->id, CL_KERNEL_LOCAL_MEM_SIZE,
                                              sizeof reported, &reported, NULL), CL_SUCCESS);
    /* Emulated, the tensor-core lessons' warps swap their fragments through local memory of
       their own: 192 floats a warp (kernels/ptx-emulated.h, PTX_SWAP_FLOATS), which the
       lesson's diagram, that of the kernel on tensor cores, does not count. */
    if (lesson_emulated(l, ladder_cl.device))
        d.local_bytes += d.g.launch[0].group_items / 32 * 192 * sizeof(float);
    ck_assert_msg(d.local_bytes <= reported && reported - d.local_bytes <= LOCAL_MEM_SLACK,
                  "lesson %d: the diagram counts %llu bytes of local memory, the kernel %lu", l->number,
                  d.local_bytes, (unsigned long)reported);
    measure_kernels_release(&k);
}
END_TEST

/* A lesson of tensor cores (an emulation line) on a device without them runs emulated: at a
   small size and an odd one it verifies to its tolerance, and its result says it was
   emulated, so that every output labels its speed. On a device with them it is not. */
START_TEST(test_emulated)
{
    const struct gemm_size sizes[2] = { { 64, 64, 32 }, { 72, 40, 24 } };
    size_t emulated = 0;

    for (size_t i = 0; i < ladder_lessons.count; i++) {
        const struct lesson *l = &ladder_lessons.items[i];
        if (!l->emulation)
            continue;
        for (size_t s = 0; s < 2; s++) {
            struct run_result r;
            ladder_run(l, NULL, sizes[s], &r);
            ck_assert_msg(r.status == RUN_OK && r.verify.ok, "lesson %d at %lldx%lldx%lld: %s: %s", l->number,
                          sizes[s].m, sizes[s].n, sizes[s].k, run_status_name(r.status), r.error.msg);
            ck_assert_int_eq(r.emulated, lesson_emulated(l, ladder_cl.device));
            ck_assert(r.emulated == (ladder_cl.device->nv_cc_major < l->needs.major));
            emulated += r.emulated;
            run_result_free(&r);
        }
    }
    printf("check_ladder: %zu runs of tensor-core lessons emulated\n", emulated);
}
END_TEST

static const struct lesson *broken(struct lesson_set *set, int number)
{
    return ladder_find(set, number, "tests/broken");
}

/* Verification can fail: deliberately wrong kernels are reported as wrong, with where. */
START_TEST(test_broken_kernels)
{
    struct lesson_set set;
    struct error e;
    struct run_result r;
    char dir[4200];
    const struct gemm_size small = { 64, 48, 40 }, large = { 640, 512, 480 };

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/tests/broken", ladder_top_srcdir);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);

    /* Lesson 91 sums one term too few; 92 never writes C's last column. Both are caught by
       the exhaustive check at a small size and the sampled check at a large one. */
    for (int number = 91; number <= 92; number++) {
        ladder_run(broken(&set, number), NULL, small, &r);
        ck_assert_msg(r.status == RUN_WRONG, "lesson %d small: %s", number, run_status_name(r.status));
        ck_assert(r.verify.exhaustive);
        ck_assert(strstr(r.error.msg, "C[") != NULL);
        ck_assert(r.gflops.median == 0.0);
        run_result_free(&r);
        ladder_run(broken(&set, number), NULL, large, &r);
        ck_assert_msg(r.status == RUN_WRONG, "lesson %d large: %s", number, run_status_name(r.status));
        ck_assert(!r.verify.exhaustive);
        run_result_free(&r);
    }
    /* Lesson 93 does not compile: an error with the build log, not a crash. */
    ladder_run(broken(&set, 93), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_ERROR);
    ck_assert(strstr(r.error.msg, "CL_BUILD_PROGRAM_FAILURE") != NULL);
    ck_assert(r.error.detail != NULL && r.error.detail[0] != '\0');
    run_result_free(&r);
    /* Lesson 95 takes M from 512 only: refused below, verified above, although the probes
       that estimate the launch time are smaller than 512. */
    ladder_run(broken(&set, 95), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_REFUSED);
    ck_assert(strstr(r.error.msg, "M from 512") != NULL);
    run_result_free(&r);
    {
        struct workspace w;
        struct measure_config cfg;
        const struct gemm_size s = { 768, 256, 256 };
        quick(&cfg);
        ck_assert(workspace_init(&w, &ladder_cl, s, 3, &e) == 0);
        run_result_init(&r);
        measure_lesson(&w, broken(&set, 95), NULL, &cfg, &r);
        /* 2*768*256*256 flops call for an estimate, whose first probe (128^3) is refused. */
        ck_assert_msg(r.status == RUN_OK, "%s: %s", run_status_name(r.status), r.error.msg);
        run_result_free(&r);
        workspace_free(&w);
    }
    /* Lesson 99 computes C right but leaves its counters in the scratch buffer counted: an
       error that names them, not a result that the next run would silently keep. */
    ladder_run(broken(&set, 99), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_ERROR);
    ck_assert_msg(strstr(r.error.msg, "counters at the start of the scratch buffer (scratch-zero) are not 0") != NULL,
                  "%s", r.error.msg);
    run_result_free(&r);
    /* Lesson 94 asks for a work-group larger than any device allows: refused with figures. */
    ladder_run(broken(&set, 94), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_REFUSED);
    ck_assert(strstr(r.error.msg, "work-group") != NULL);
    run_result_free(&r);
    lesson_set_free(&set);
}
END_TEST

/* A launch estimated to exceed the limit is refused with the estimate, what it came from and
   the limit, and no command-line advice (each front end adds its own); unless forced. */
START_TEST(test_launch_limit)
{
    const struct lesson *l = lesson_set_find(&ladder_lessons, 1);
    const struct gemm_size s = { 1024, 1024, 1024 };
    struct workspace w;
    struct measure_config cfg;
    struct run_result r;
    struct error e;

    error_init(&e);
    quick(&cfg);
    cfg.launch_limit_s = 1e-6;
    ck_assert(workspace_init(&w, &ladder_cl, s, 1, &e) == 0);
    run_result_init(&r);
    measure_lesson(&w, l, NULL, &cfg, &r);
    ck_assert_int_eq(r.status, RUN_REFUSED);
    ck_assert(r.refused_by_estimate);
    ck_assert(r.limit_s == cfg.launch_limit_s);
    ck_assert(r.estimate_s > cfg.launch_limit_s);
    /* Estimated from a part of the launch itself, not from a smaller size. */
    ck_assert_msg(strstr(r.error.msg, "estimated from the first ") != NULL &&
                  strstr(r.error.msg, " work-groups") != NULL, "%s", r.error.msg);
    ck_assert_msg(strstr(r.error.msg, "the limit is 1e-06 s") != NULL, "%s", r.error.msg);
    ck_assert_msg(strstr(r.error.msg, "--") == NULL, "%s", r.error.msg);
    ck_assert(r.run.m == 0);
    run_result_free(&r);
    /* Forced: no estimate, measured. */
    cfg.force = true;
    run_result_init(&r);
    measure_lesson(&w, l, NULL, &cfg, &r);
    ck_assert_msg(r.status == RUN_OK, "%s", r.error.msg);
    ck_assert(!r.refused_by_estimate);
    ck_assert(r.estimate_s == 0.0);
    run_result_free(&r);
    workspace_free(&w);
}
END_TEST

/* A refusal for another reason is not one by the estimate. */
START_TEST(test_refused_not_by_estimate)
{
    struct lesson_set set;
    struct run_result r;
    struct error e;
    char dir[4200];

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/tests/broken", ladder_top_srcdir);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
    ladder_run(broken(&set, 94), NULL, (struct gemm_size){ 64, 48, 40 }, &r);
    ck_assert_int_eq(r.status, RUN_REFUSED);
    ck_assert(!r.refused_by_estimate);
    run_result_free(&r);
    lesson_set_free(&set);
}
END_TEST

/* Lessons whose sizes wrapped once (tests/hostile/sizes): refused with what did not fit,
   never launched or packed beyond their buffers; and the workspace's own checks. */
START_TEST(test_hostile_sizes)
{
    static const struct {
        const char *dir;
        int number;
        const char *fragment;
    } cases[] = {
        { "multiple-2p60", 60, "padding K from 64 to a multiple of 1152921504606846977" },
        { "multiple-2p32", 61, "to a multiple of 4294967296" },
        { "ndrange-2p64", 62, "more work-items than a size_t holds" },
    };
    const struct matrix_layout small = { 64, 64, false, false }, wraps = { 1LL << 62, 4, false, false };
    const struct matrix_layout largest = { 2147483647, 2147483647, false, false };
    struct workspace w;
    struct error e;
    char dir[4200];

    error_init(&e);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lesson_set set;
        struct run_result r;
        const struct lesson *l;
        snprintf(dir, sizeof dir, "%s/tests/hostile/sizes/%s", ladder_top_srcdir, cases[i].dir);
        ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
        l = lesson_set_find(&set, cases[i].number);
        ck_assert_msg(l != NULL, "%s has no lesson %d", dir, cases[i].number);
        ladder_run(l, NULL, (struct gemm_size){ 64, 64, 64 }, &r);
        ck_assert_msg(r.status == RUN_REFUSED, "%s: %s", cases[i].dir, run_status_name(r.status));
        ck_assert_msg(strstr(r.error.msg, cases[i].fragment) != NULL, "%s: %s", cases[i].dir, r.error.msg);
        run_result_free(&r);
        lesson_set_free(&set);
    }
    ck_assert_int_lt(workspace_init(&w, &ladder_cl, (struct gemm_size){ 64, 2147483648LL, 64 }, 7, &e), 0);
    ck_assert_msg(strstr(e.msg, "each side must be from 1 to 2147483647") != NULL, "%s", e.msg);
    ck_assert_int_eq(workspace_init(&w, &ladder_cl, (struct gemm_size){ 64, 64, 64 }, 7, &e), 0);
    ck_assert_int_lt(workspace_check_memory(&w, &small, &wraps, &small, 0, &e), 0);
    ck_assert_msg(strstr(e.msg, "B as 4611686018427387904x4 floats has more bytes than a size_t holds") != NULL,
                  "%s", e.msg);
    /* The largest matrices whose sides are ints: refused with the figures, not wrapped. */
    ck_assert_int_lt(workspace_check_memory(&w, &largest, &largest, &largest, 0, &e), 0);
    ck_assert_msg(strstr(e.msg, "exceeds the device's largest allocation") != NULL, "%s", e.msg);
    /* A scratch buffer beside small matrices: refused by its own size, named. */
    ck_assert_int_eq(workspace_check_memory(&w, &small, &small, &small, 0, &e), 0);
    ck_assert_int_lt(workspace_check_memory(&w, &small, &small, &small, SIZE_MAX / 2, &e), 0);
    ck_assert_msg(strstr(e.msg, "the scratch buffer of") != NULL, "%s", e.msg);
    workspace_free(&w);
}
END_TEST

#define MAX_CALLS 64

struct calls {
    struct measure_progress p[MAX_CALLS];
    int n;
};

static void record(void *ctx, const struct measure_progress *p)
{
    struct calls *c = ctx;

    if (c->n < MAX_CALLS)
        c->p[c->n] = *p;
    c->n++;
}

/* The progress callback: building, probes with growing numbers (lesson 2 at 512 is large
   enough to be estimated first), the warm-up, then each timed launch in order, counted out
   of the number of timed launches. */
START_TEST(test_progress)
{
    const struct lesson *l = lesson_set_find(&ladder_lessons, 2);
    const struct gemm_size s = { 512, 512, 512 };
    struct workspace w;
    struct measure_config cfg;
    struct run_result r;
    struct calls c;
    struct error e;
    int i = 0, probes = 0;

    error_init(&e);
    memset(&c, 0, sizeof c);
    measure_config_defaults(&cfg);
    cfg.reps = 3;
    cfg.progress = record;
    cfg.progress_ctx = &c;
    ck_assert(workspace_init(&w, &ladder_cl, s, 1, &e) == 0);
    run_result_init(&r);
    measure_lesson(&w, l, NULL, &cfg, &r);
    ck_assert_msg(r.status == RUN_OK, "%s", r.error.msg);
    ck_assert(r.estimate_s > 0.0);
    ck_assert(c.n <= MAX_CALLS);
    ck_assert_int_eq(c.p[i].phase, MEASURE_BUILDING);
    for (i = 1; i < c.n && c.p[i].phase == MEASURE_PROBING; i++) {
        ck_assert_int_eq(c.p[i].index, ++probes);
        ck_assert_int_eq(c.p[i].count, 0);
    }
    ck_assert_int_ge(probes, 1);
    ck_assert_int_eq(c.p[i].phase, MEASURE_WARMUP);
    ck_assert_int_eq(c.p[i].index, 1);
    ck_assert_int_eq(c.p[i].count, 1);
    ck_assert(c.p[i].launch_s == r.estimate_s);
    i++;
    ck_assert_int_eq(c.n - i, r.reps);
    for (int k = 0; k < r.reps; k++, i++) {
        ck_assert_int_eq(c.p[i].phase, MEASURE_TIMED);
        ck_assert_int_eq(c.p[i].index, k + 1);
        ck_assert_int_eq(c.p[i].count, r.reps);
        ck_assert(c.p[i].launch_s > 0.0);
        ck_assert(c.p[i].left_s >= c.p[i].launch_s * (r.reps - k) * 0.999);
    }
    /* The wall time is the median of the timed launches' host-clock times. */
    ck_assert(r.wall_s > 0.0);
    ck_assert(r.clocks_disagree == (r.wall_s < r.seconds.median));
    run_result_free(&r);
    workspace_free(&w);
}
END_TEST

static Suite *ladder_suite(void)
{
    Suite *s = suite_create("ladder");
    TCase *tc = tcase_create("lessons");

    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, test_lesson_sizes, 0, (int)ladder_lessons.count);
    tcase_add_loop_test(tc, test_local_memory, 0, (int)ladder_lessons.count);
    tcase_add_test(tc, test_document_styles);
    tcase_add_test(tc, test_emulated);
    suite_add_tcase(s, tc);
    tc = tcase_create("failures");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_broken_kernels);
    tcase_add_test(tc, test_launch_limit);
    tcase_add_test(tc, test_refused_not_by_estimate);
    tcase_add_test(tc, test_hostile_sizes);
    tcase_add_test(tc, test_progress);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return ladder_main("check_ladder", ladder_suite, false);
}
