/* check_ladder.c: every lesson runs and verifies on an OpenCL device (POCL in CI), at a
   multiple size, a non-square size and an odd size, and with each allowed value of each
   parameter; broken kernels are reported as wrong or failing, never as fast.
   Exits 77 (skipped) when there is no OpenCL device. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "diagram.h"
#include "lesson.h"
#include "measure.h"
#include "needs.h"
#include "ocl.h"
#include "runner_opencl.h"

static struct lesson_set lessons;
static struct device_list devices;
static struct ocl cl;
static char top_srcdir[4096];

static const struct gemm_size sizes[] = {
    { 128, 128, 128 },  /* a multiple of every tile */
    { 256, 128, 64 },   /* non-square, still multiples */
    { 100, 70, 30 },    /* nothing divides: padding or edge handling */
    { 1, 1, 1 },
};

static void quick(struct measure_config *cfg)
{
    measure_config_defaults(cfg);
    cfg->reps = 1;
}

static void run(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                struct run_result *r)
{
    struct workspace w;
    struct measure_config cfg;
    struct error e;

    error_init(&e);
    quick(&cfg);
    run_result_init(r);
    ck_assert_msg(workspace_init(&w, &cl, s, 7, &e) == 0, "workspace: %s", e.msg);
    measure_lesson(&w, l, ps, &cfg, r);
    workspace_free(&w);
}

/* Whether this device can run the lesson (its needs line). A lesson that needs another device
   (lessons 21 to 24: an NVIDIA GPU, whose PTX they issue) is refused with the reason, and never
   built: its measurement, at any size and with any parameters, and its build. */
static bool runs_here(const struct lesson *l)
{
    struct error e;
    bool ok;

    error_init(&e);
    ok = lesson_device_check(l, cl.device, &e) == 0;
    error_clear(&e);
    return ok;
}

static void check_refused_here(const struct lesson *l, const struct param_set *ps, const char *what)
{
    struct run_result r;
    struct lesson_kernels k;
    struct param_set defaults;
    struct error e;

    run(l, ps, sizes[0], &r);
    ck_assert_msg(r.status == RUN_REFUSED && strstr(r.error.msg, "needs an NVIDIA GPU") &&
                  strstr(r.error.msg, "--device"),
                  "lesson %d%s, which this device cannot run: %s: %s", l->number, what,
                  run_status_name(r.status), r.error.msg);
    run_result_free(&r);
    error_init(&e);
    param_set_defaults(l, &defaults);
    ck_assert_msg(measure_build(&cl, l, ps ? ps : &defaults, NULL, &k, &e) < 0 && strstr(e.msg, "needs an NVIDIA GPU"),
                  "lesson %d: built on a device it cannot run on (%s)", l->number, e.msg);
    error_clear(&e);
}

/* The lesson is verified at every size it claims, with the parameters ps (NULL: its
   defaults); what names them in a failure. */
static void check_sizes_with(const struct lesson *l, const struct param_set *ps, const char *what)
{
    if (!runs_here(l)) {
        check_refused_here(l, ps, what);
        return;
    }
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        struct run_result r;
        bool takes_it = l->pad || l->engine == ENGINE_HOST || (l->nmultiples == 0 && !l->square);
        run(l, ps, sizes[s], &r);
        if (!takes_it && r.status == RUN_REFUSED) {
            run_result_free(&r);
            continue;
        }
        ck_assert_msg(r.status == RUN_OK, "lesson %d%s at %lldx%lldx%lld: %s: %s", l->number, what,
                      sizes[s].m, sizes[s].n, sizes[s].k, run_status_name(r.status), r.error.msg);
        ck_assert(r.verify.ok);
        ck_assert(r.verify.max_error <= r.verify.tolerance);
        ck_assert(r.gflops.median > 0.0);
        ck_assert_int_eq(r.reps, 1);
        run_result_free(&r);
    }
}

static void check_sizes(const struct lesson *l)
{
    check_sizes_with(l, NULL, "");
}

START_TEST(test_lesson_sizes)
{
    check_sizes(&lessons.items[_i]);
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
    snprintf(dir, sizeof dir, "%s/tests/styles", top_srcdir);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(set.count, 2);
    for (size_t i = 0; i < set.count; i++)
        check_sizes(&set.items[i]);
    lesson_set_free(&set);
}
END_TEST

/* Each allowed value of each parameter, the others at their defaults: verified, or refused
   with a reason by one of the lesson's require lines or a device limit. A switch's values
   take out a part of the kernel, the edge code included: each is verified at every size. */
START_TEST(test_lesson_params)
{
    const struct lesson *l = &lessons.items[_i];
    const struct gemm_size s = { 96, 160, 48 };

    if (!runs_here(l)) {
        check_refused_here(l, NULL, "");
        return;
    }
    for (size_t p = 0; p < l->nparams; p++)
        for (size_t v = 0; v < l->params[p].nvalues; v++) {
            struct param_set ps;
            struct run_result r;
            param_set_defaults(l, &ps);
            ps.values[p] = l->params[p].values[v];
            run(l, &ps, s, &r);
            ck_assert_msg(r.status == RUN_OK || (r.status == RUN_REFUSED && r.error.msg[0]),
                          "lesson %d with %s=%lld: %s: %s", l->number, l->params[p].name,
                          l->params[p].values[v], run_status_name(r.status), r.error.msg);
            run_result_free(&r);
            if (l->params[p].is_switch && ps.values[p] != l->params[p].def) {
                char what[128];
                snprintf(what, sizeof what, " with %s=%lld", l->params[p].name, ps.values[p]);
                check_sizes_with(l, &ps, what);
            }
        }
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
    const struct lesson *l = &lessons.items[_i];
    const struct gemm_size s = { 256, 256, 256 };
    struct param_set ps;
    struct figures d;
    struct error e;
    struct lesson_kernels k;
    cl_ulong reported = 0;

    if (l->engine != ENGINE_OPENCL || !runs_here(l))
        return;     /* check_refused_here, in the tests above, covers a lesson it cannot run */
    error_init(&e);
    param_set_defaults(l, &ps);
    ck_assert_msg(figures_compute(l, &ps, s, NULL, &d, &e) == 0, "lesson %d: %s", l->number, e.msg);
    ck_assert_msg(measure_build(&cl, l, &ps, NULL, &k, &e) == 0, "lesson %d: %s", l->number, e.msg);
    for (size_t i = 0; i < l->launch[0].nargs; i++) {
        size_t bytes = (size_t)d.g.launch[0].arg_values[i] * sizeof(float);
        if (l->launch[0].args[i].kind == ARG_LOCAL)
            ck_assert_int_eq(clSetKernelArg(k.kernel[0], (cl_uint)i, bytes, NULL), CL_SUCCESS);
    }
    /* The main launch's kernel, the first: the diagram describes it. */
    ck_assert_int_eq(clGetKernelWorkGroupInfo(k.kernel[0], cl.device->id, CL_KERNEL_LOCAL_MEM_SIZE,
                                              sizeof reported, &reported, NULL), CL_SUCCESS);
    ck_assert_msg(d.local_bytes <= reported && reported - d.local_bytes <= LOCAL_MEM_SLACK,
                  "lesson %d: the diagram counts %llu bytes of local memory, the kernel %lu", l->number,
                  d.local_bytes, (unsigned long)reported);
    measure_kernels_release(&k);
}
END_TEST

/* A lesson of several launches (lessons 15 and 18, split-K), or of one launch with a scratch
   buffer, at sizes where its parts fall unevenly: nothing divides (100x70x300), M*N not a
   multiple of 4 (97x61x35: a reduction of plain floats), a deep K (64x64x10000) and
   256x256x4096 (large enough to be estimated first, by partial launches that may cut the
   split: lesson 18's counters must be set to 0 again after them); with every allowed value
   of each parameter that its then-when lines or its scratch line name (SPLIT; lesson 18's
   LAST), the others at their defaults. Ranges of K that are empty (K = 35 or 300 with SPLIT
   = 16) included. */
START_TEST(test_several_launches)
{
    const struct lesson *l = &lessons.items[_i];
    static const struct gemm_size odd[] = {
        { 100, 70, 300 }, { 97, 61, 35 }, { 64, 64, 10000 }, { 256, 256, 4096 },
    };

    if (l->nlaunches < 2 && !l->scratch)
        return;
    for (size_t p = 0; p < l->nparams; p++) {
        bool named = l->scratch && strstr(l->scratch, l->params[p].name);
        for (size_t k = 1; k < l->nlaunches; k++)
            named = named || (l->launch[k].when && strstr(l->launch[k].when, l->params[p].name));
        for (size_t v = 0; named && v < l->params[p].nvalues; v++)
            for (size_t s = 0; s < sizeof odd / sizeof odd[0]; s++) {
                struct param_set ps;
                struct run_result r;
                param_set_defaults(l, &ps);
                ps.values[p] = l->params[p].values[v];
                run(l, &ps, odd[s], &r);
                ck_assert_msg(r.status == RUN_OK, "lesson %d with %s=%lld at %lldx%lldx%lld: %s: %s", l->number,
                              l->params[p].name, ps.values[p], odd[s].m, odd[s].n, odd[s].k,
                              run_status_name(r.status), r.error.msg);
                run_result_free(&r);
            }
    }
}
END_TEST

/* A lesson that can deal its work-groups out in bands of BAND rows of tiles (lesson 17), with
   BAND at its largest allowed value and 64 x 64 tiles: at sizes of 11 and 17 rows of tiles, a
   full band and a partial one, and two full bands and a partial one, and at 10 rows of whole
   tiles with K = 44, whole steps then a partial one (K % 8 = 4): every tile of C computed
   once, with and without a split. */
START_TEST(test_bands)
{
    const struct lesson *l = &lessons.items[_i];
    static const struct gemm_size tall[] = { { 700, 300, 40 }, { 1050, 200, 72 }, { 640, 128, 44 } };
    static const struct { const char *name; long long value; } fixed[] = {
        { "TSM", 64 }, { "TSN", 64 }, { "WM", 32 }, { "WIM", 4 },
    };
    int band = lesson_param_index(l, "BAND"), split = lesson_param_index(l, "SPLIT");
    struct param_set base;

    if (band < 0)
        return;
    param_set_defaults(l, &base);
    for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++) {
        int i = lesson_param_index(l, fixed[f].name);
        ck_assert_msg(i >= 0, "lesson %d has BAND but no %s", l->number, fixed[f].name);
        base.values[i] = fixed[f].value;
    }
    for (size_t v = 0; v < l->params[band].nvalues; v++)
        if (l->params[band].values[v] > base.values[band])
            base.values[band] = l->params[band].values[v];
    ck_assert_int_gt(base.values[band], 0);
    for (int sp = 1; sp <= 2; sp++)
        for (size_t s = 0; s < sizeof tall / sizeof tall[0]; s++) {
            struct param_set ps = base;
            struct run_result r;
            if (split >= 0)
                ps.values[split] = sp;
            run(l, &ps, tall[s], &r);
            ck_assert_msg(r.status == RUN_OK, "lesson %d in bands of %lld at %lldx%lldx%lld, SPLIT=%d: %s: %s",
                          l->number, ps.values[band], tall[s].m, tall[s].n, tall[s].k, sp,
                          run_status_name(r.status), r.error.msg);
            ck_assert(r.verify.ok);
            run_result_free(&r);
        }
}
END_TEST

/* A lesson that splits only the tiles left after whole waves of WAVE groups (lesson 19), with
   64 x 64 tiles and waves far smaller than the device's, so that the sizes below have whole
   waves and a tail: 700x300 (11 x 5 = 55 tiles; WAVE = 4 leaves 3, 7 leaves 6) with K = 40,
   a partial last step; 257x515x130 (5 x 9 = 45 tiles: 1 and 3 left), every edge uneven.
   SPLIT = 16 makes ranges of K that are empty. Each with the last group adding (LAST = 1)
   and with the second launch (LAST = 0). */
START_TEST(test_tail)
{
    const struct lesson *l = &lessons.items[_i];
    static const struct gemm_size shapes[] = { { 700, 300, 40 }, { 257, 515, 130 } };
    static const struct { const char *name; long long value; } fixed[] = {
        { "TSM", 64 }, { "TSN", 64 }, { "WM", 32 }, { "WIM", 4 },
    };
    static const long long waves[] = { 4, 7 }, splits[] = { 3, 16 };
    int wave = lesson_param_index(l, "WAVE"), split = lesson_param_index(l, "SPLIT"),
        last = lesson_param_index(l, "LAST"), pieces = lesson_param_index(l, "PIECES");
    struct param_set base;

    if (wave < 0)
        return;
    ck_assert_msg(split >= 0 && last >= 0, "lesson %d has WAVE but no SPLIT or LAST", l->number);
    param_set_defaults(l, &base);
    for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++) {
        int i = lesson_param_index(l, fixed[f].name);
        ck_assert_msg(i >= 0, "lesson %d has WAVE but no %s", l->number, fixed[f].name);
        base.values[i] = fixed[f].value;
    }
    /* With pieces (lesson 20), the tail in shares of equal work instead of the split; their
       parts are added by the last group only. */
    for (int pc = 0; pc <= (pieces >= 0); pc++)
    for (size_t w = 0; w < 2; w++)
        for (size_t sp = 0; sp < 2; sp++)
            for (int la = pc; la <= 1; la++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                    struct param_set ps = base;
                    struct run_result r;
                    if (pieces >= 0)
                        ps.values[pieces] = pc;
                    ps.values[wave] = waves[w];
                    ps.values[split] = splits[sp];
                    ps.values[last] = la;
                    run(l, &ps, shapes[s], &r);
                    ck_assert_msg(r.status == RUN_OK && r.verify.ok,
                                  "lesson %d, PIECES=%d WAVE=%lld SPLIT=%lld LAST=%d at %lldx%lldx%lld: %s: %s",
                                  l->number, pc, waves[w], splits[sp], la, shapes[s].m, shapes[s].n, shapes[s].k,
                                  run_status_name(r.status), r.error.msg);
                    run_result_free(&r);
                }
}
END_TEST

static const struct lesson *broken(struct lesson_set *set, int number)
{
    const struct lesson *l = lesson_set_find(set, number);
    ck_assert_msg(l != NULL, "tests/broken has no lesson %d", number);
    return l;
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
    snprintf(dir, sizeof dir, "%s/tests/broken", top_srcdir);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);

    /* Lesson 91 sums one term too few; 92 never writes C's last column. Both are caught by
       the exhaustive check at a small size and the sampled check at a large one. */
    for (int number = 91; number <= 92; number++) {
        run(broken(&set, number), NULL, small, &r);
        ck_assert_msg(r.status == RUN_WRONG, "lesson %d small: %s", number, run_status_name(r.status));
        ck_assert(r.verify.exhaustive);
        ck_assert(strstr(r.error.msg, "C[") != NULL);
        ck_assert(r.gflops.median == 0.0);
        run_result_free(&r);
        run(broken(&set, number), NULL, large, &r);
        ck_assert_msg(r.status == RUN_WRONG, "lesson %d large: %s", number, run_status_name(r.status));
        ck_assert(!r.verify.exhaustive);
        run_result_free(&r);
    }
    /* Lesson 93 does not compile: an error with the build log, not a crash. */
    run(broken(&set, 93), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_ERROR);
    ck_assert(strstr(r.error.msg, "CL_BUILD_PROGRAM_FAILURE") != NULL);
    ck_assert(r.error.detail != NULL && r.error.detail[0] != '\0');
    run_result_free(&r);
    /* Lesson 95 takes M from 512 only: refused below, verified above, although the probes
       that estimate the launch time are smaller than 512. */
    run(broken(&set, 95), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_REFUSED);
    ck_assert(strstr(r.error.msg, "M from 512") != NULL);
    run_result_free(&r);
    {
        struct workspace w;
        struct measure_config cfg;
        const struct gemm_size s = { 768, 256, 256 };
        quick(&cfg);
        ck_assert(workspace_init(&w, &cl, s, 3, &e) == 0);
        run_result_init(&r);
        measure_lesson(&w, broken(&set, 95), NULL, &cfg, &r);
        /* 2*768*256*256 flops call for an estimate, whose first probe (128^3) is refused. */
        ck_assert_msg(r.status == RUN_OK, "%s: %s", run_status_name(r.status), r.error.msg);
        run_result_free(&r);
        workspace_free(&w);
    }
    /* Lesson 99 computes C right but leaves its counters in the scratch buffer counted: an
       error that names them, not a result that the next run would silently keep. */
    run(broken(&set, 99), NULL, small, &r);
    ck_assert_int_eq(r.status, RUN_ERROR);
    ck_assert_msg(strstr(r.error.msg, "counters at the start of the scratch buffer (scratch-zero) are not 0") != NULL,
                  "%s", r.error.msg);
    run_result_free(&r);
    /* Lesson 94 asks for a work-group larger than any device allows: refused with figures. */
    run(broken(&set, 94), NULL, small, &r);
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
    const struct lesson *l = lesson_set_find(&lessons, 1);
    const struct gemm_size s = { 1024, 1024, 1024 };
    struct workspace w;
    struct measure_config cfg;
    struct run_result r;
    struct error e;

    error_init(&e);
    quick(&cfg);
    cfg.launch_limit_s = 1e-6;
    ck_assert(workspace_init(&w, &cl, s, 1, &e) == 0);
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
    snprintf(dir, sizeof dir, "%s/tests/broken", top_srcdir);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
    run(broken(&set, 94), NULL, (struct gemm_size){ 64, 48, 40 }, &r);
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
        snprintf(dir, sizeof dir, "%s/tests/hostile/sizes/%s", top_srcdir, cases[i].dir);
        ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
        l = lesson_set_find(&set, cases[i].number);
        ck_assert_msg(l != NULL, "%s has no lesson %d", dir, cases[i].number);
        run(l, NULL, (struct gemm_size){ 64, 64, 64 }, &r);
        ck_assert_msg(r.status == RUN_REFUSED, "%s: %s", cases[i].dir, run_status_name(r.status));
        ck_assert_msg(strstr(r.error.msg, cases[i].fragment) != NULL, "%s: %s", cases[i].dir, r.error.msg);
        run_result_free(&r);
        lesson_set_free(&set);
    }
    ck_assert_int_lt(workspace_init(&w, &cl, (struct gemm_size){ 64, 2147483648LL, 64 }, 7, &e), 0);
    ck_assert_msg(strstr(e.msg, "each side must be from 1 to 2147483647") != NULL, "%s", e.msg);
    ck_assert_int_eq(workspace_init(&w, &cl, (struct gemm_size){ 64, 64, 64 }, 7, &e), 0);
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
    const struct lesson *l = lesson_set_find(&lessons, 2);
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
    ck_assert(workspace_init(&w, &cl, s, 1, &e) == 0);
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
    tcase_add_loop_test(tc, test_lesson_sizes, 0, (int)lessons.count);
    tcase_add_loop_test(tc, test_lesson_params, 0, (int)lessons.count);
    tcase_add_loop_test(tc, test_local_memory, 0, (int)lessons.count);
    tcase_add_loop_test(tc, test_several_launches, 0, (int)lessons.count);
    tcase_add_loop_test(tc, test_bands, 0, (int)lessons.count);
    tcase_add_loop_test(tc, test_tail, 0, (int)lessons.count);
    tcase_add_test(tc, test_document_styles);
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
    const char *top = getenv("top_srcdir");
    const struct device_info *d;
    struct error e;
    char dir[4200];
    SRunner *sr;
    int failed;

    error_init(&e);
    snprintf(top_srcdir, sizeof top_srcdir, "%s", top ? top : "..");
    snprintf(dir, sizeof dir, "%s/lessons", top_srcdir);
    if (lesson_set_load(dir, &lessons, &e) < 0) {
        fprintf(stderr, "check_ladder: %s\n", e.msg);
        return 1;
    }
    if (device_list_load(&devices, &e) < 0) {
        printf("SKIP: no OpenCL device to run the lessons on: %s\n", e.msg);
        return 77;
    }
    d = device_select(&devices, getenv("CLMM_TUTOR_DEVICE"), &e);
    if (!d || ocl_open(&cl, d, &e) < 0) {
        fprintf(stderr, "check_ladder: %s\n", e.msg);
        return 1;
    }
    printf("check_ladder: lessons of %s on %s (%s)\n", dir, d->name, d->platform_name);
    /* No fork: one OpenCL context serves every test, and POCL keeps its compiled kernels. */
    sr = srunner_create(ladder_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_VERBOSE);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    ocl_close(&cl);
    device_list_free(&devices);
    lesson_set_free(&lessons);
    return failed == 0 ? 0 : 1;
}
