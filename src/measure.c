/* measure.c: the measuring and verifying runner.

   For every lesson and size: refuse what cannot run (limits, memory, an estimated launch
   time above the limit), launch once and verify the result, then time repeated launches
   whose number adapts to a time budget. Nothing is timed before it has been verified. */
#include "measure.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hostgemm.h"
#include "kernelargs.h"
#include "needs.h"
#include "roofline.h"
#include "str.h"
#include "xalloc.h"

/* A launch shorter than this is not worth estimating first. */
#define PROBE_MIN_FLOPS (2.0 * 256 * 256 * 256)
/* A probe launch must take at least this long for its time to predict a larger one. */
#define PROBE_MIN_SECONDS 0.02
#define PROBE_FIRST_SIZE 128

double now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void measure_config_defaults(struct measure_config *cfg)
{
    cfg->budget_s = 1.0;
    cfg->reps = 0;
    cfg->launch_limit_s = 10.0;
    cfg->force = false;
    cfg->check_timing = false;
    cfg->seed = 42;
    cfg->source = NULL;
    cfg->cancel = NULL;
    cfg->progress = NULL;
    cfg->progress_ctx = NULL;
}

/* True, with the result marked, when the caller asked to stop. */
static bool cancelled(const struct measure_config *cfg, struct run_result *r)
{
    if (!cfg->cancel || !atomic_load(cfg->cancel))
        return false;
    r->cancelled = true;
    r->status = RUN_ERROR;
    error_set(&r->error, "cancelled");
    return true;
}

void run_result_init(struct run_result *r)
{
    memset(r, 0, sizeof *r);
    error_init(&r->error);
}

void run_result_free(struct run_result *r)
{
    error_clear(&r->error);
}

const char *run_status_name(enum run_status s)
{
    switch (s) {
    case RUN_OK: return "ok";
    case RUN_WRONG: return "wrong result";
    case RUN_REFUSED: return "refused";
    case RUN_ERROR: return "error";
    }
    return "?";
}

/* ---- the workspace ---- */

/* The matrices may be more than the host has: a refusal, not the end of the program. */
static void *alloc_floats(size_t count, const char *what, struct error *e)
{
    void *p = malloc(count * sizeof(float));

    if (!p)
        error_set(e, "cannot allocate %zu MiB of host memory for %s", (count * sizeof(float)) >> 20, what);
    return p;
}

int workspace_init(struct workspace *w, struct ocl *cl, struct gemm_size size, uint64_t seed,
                   struct error *e)
{
    memset(w, 0, sizeof *w);
    w->cl = cl;
    w->size = size;
    w->seed = seed;
    /* Within these, each product of two sides fits a long long and its floats a size_t. */
    if (size.m <= 0 || size.n <= 0 || size.k <= 0 || size.m > GEOMETRY_MAX_SIDE || size.n > GEOMETRY_MAX_SIDE ||
        size.k > GEOMETRY_MAX_SIDE) {
        error_set(e, "size %lldx%lldx%lld refused: each side must be from 1 to %d", size.m, size.n, size.k,
                  GEOMETRY_MAX_SIDE);
        return -1;
    }
    if (cl) {
        /* Padding only adds to this: a size whose plain matrices do not fit the device is
           refused before any host memory is taken. */
        struct matrix_layout a = { size.m, size.k, false, false }, b = { size.k, size.n, false, false };
        struct matrix_layout c = { size.m, size.n, false, false };
        if (workspace_check_memory(w, &a, &b, &c, 0, e) < 0) {
            error_prefix(e, "size %lldx%lldx%lld refused", size.m, size.n, size.k);
            return -1;
        }
    }
    w->A = alloc_floats((size_t)(size.m * size.k), "A", e);
    w->B = w->A ? alloc_floats((size_t)(size.k * size.n), "B", e) : NULL;
    w->C = w->B ? alloc_floats((size_t)(size.m * size.n), "C", e) : NULL;
    if (!w->C) {
        workspace_free(w);
        return -1;
    }
    matrix_fill_random(w->A, (size_t)(size.m * size.k), seed);
    matrix_fill_random(w->B, (size_t)(size.k * size.n), seed + 1);
    return 0;
}

void workspace_free(struct workspace *w)
{
    free(w->A);
    free(w->B);
    free(w->C);
    free(w->stage);
    if (w->dA)
        clReleaseMemObject(w->dA);
    if (w->dB)
        clReleaseMemObject(w->dB);
    if (w->dC)
        clReleaseMemObject(w->dC);
    if (w->dW)
        clReleaseMemObject(w->dW);
    memset(w, 0, sizeof *w);
}

static int reserve_stage(struct workspace *w, size_t count, struct error *e)
{
    float *p;

    if (count <= w->stage_count)
        return 0;
    p = realloc(w->stage, count * sizeof *p);     /* as large as a matrix: may be refused */
    if (!p) {
        error_set(e, "cannot allocate %zu MiB of host memory for a device layout", (count * sizeof *p) >> 20);
        return -1;
    }
    w->stage = p;
    w->stage_count = count;
    return 0;
}

int workspace_check_memory(const struct workspace *w, const struct matrix_layout *a,
                           const struct matrix_layout *b, const struct matrix_layout *c, size_t scratch_bytes,
                           struct error *e)
{
    const struct matrix_layout *layouts[3] = { a, b, c };
    const struct device_info *d = w->cl->device;
    size_t largest = 0, total = scratch_bytes;

    for (int i = 0; i < 3; i++) {
        size_t bytes = matrix_layout_count(layouts[i]) * sizeof(float);
        if (bytes == 0) {
            error_set(e, "%c as %lldx%lld floats has more bytes than a size_t holds: choose a smaller size or "
                         "parameters that pad less", "ABC"[i], layouts[i]->rows, layouts[i]->cols);
            return -1;
        }
        largest = bytes > largest ? bytes : largest;
        if (__builtin_add_overflow(total, bytes, &total))
            total = SIZE_MAX;   /* more than any device has */
    }
    if (largest > d->max_alloc) {
        error_set(e, "a buffer of %.1f MiB exceeds the device's largest allocation of %.1f MiB",
                  (double)largest / (1 << 20), (double)d->max_alloc / (1 << 20));
        return -1;
    }
    if (scratch_bytes > d->max_alloc) {
        error_set(e, "the scratch buffer of %.1f MiB exceeds the device's largest allocation of %.1f MiB",
                  (double)scratch_bytes / (1 << 20), (double)d->max_alloc / (1 << 20));
        return -1;
    }
    if (total > d->global_mem) {
        error_set(e, "%s need %.1f MiB; the device has %.1f MiB of global memory",
                  scratch_bytes ? "A, B, C and the scratch buffer" : "A, B and C", (double)total / (1 << 20),
                  (double)d->global_mem / (1 << 20));
        return -1;
    }
    return 0;
}

/* What the guard after C holds: a NaN no arithmetic produces (its payload). */
#define GUARD_BITS 0x7fa0dea1u

static int write_buffer_at(struct workspace *w, cl_mem buf, size_t offset, size_t count, struct error *e)
{
    cl_int rc = clEnqueueWriteBuffer(w->cl->queue, buf, CL_TRUE, offset * sizeof(float), count * sizeof(float),
                                     w->stage, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueWriteBuffer", rc);
        return -1;
    }
    return 0;
}

static int write_buffer(struct workspace *w, cl_mem buf, size_t count, struct error *e)
{
    return write_buffer_at(w, buf, 0, count, e);
}

int workspace_upload(struct workspace *w, struct gemm_size s, const struct matrix_layout *a,
                     const struct matrix_layout *b, const struct matrix_layout *c, struct error *e)
{
    size_t na = matrix_layout_count(a), nb = matrix_layout_count(b), nc = matrix_layout_count(c);
    size_t most = na > nb ? na : nb;

    most = most > nc ? most : nc;
    most = most > w->guard ? most : w->guard;
    if (reserve_stage(w, most, e) < 0 ||
        ocl_reserve(w->cl, &w->dA, &w->capA, na * sizeof(float), e) < 0 ||
        ocl_reserve(w->cl, &w->dB, &w->capB, nb * sizeof(float), e) < 0 ||
        ocl_reserve(w->cl, &w->dC, &w->capC, (nc + w->guard) * sizeof(float), e) < 0)
        return -1;
    if (w->guard > 0) {
        uint32_t bits = GUARD_BITS;
        for (size_t i = 0; i < w->guard; i++)
            memcpy(&w->stage[i], &bits, sizeof bits);
        if (write_buffer_at(w, w->dC, nc, w->guard, e) < 0)
            return -1;
    }
    /* A probe reads the workspace's inputs as smaller matrices: any values will do. */
    matrix_pack(w->A, s.m, s.k, a, w->stage);
    if (write_buffer(w, w->dA, na, e) < 0)
        return -1;
    matrix_pack(w->B, s.k, s.n, b, w->stage);
    if (write_buffer(w, w->dB, nb, e) < 0)
        return -1;
    for (size_t i = 0; i < nc; i++)
        w->stage[i] = NAN;
    return write_buffer(w, w->dC, nc, e);
}

enum prepare_result workspace_load(struct workspace *w, struct gemm_size s, const struct matrix_layout *a,
                                   const struct matrix_layout *b, const struct matrix_layout *c,
                                   struct error *e)
{
    if (workspace_check_memory(w, a, b, c, 0, e) < 0)
        return REFUSED;
    return workspace_upload(w, s, a, b, c, e) < 0 ? FAILED : PREPARED;
}

/* The guard after C as uploaded: a kernel that stored past the end of C changed it. */
static int check_guard(struct workspace *w, size_t nc, struct error *e)
{
    size_t changed = 0, first = 0;
    cl_int rc;

    if (reserve_stage(w, w->guard, e) < 0)
        return -1;
    rc = clEnqueueReadBuffer(w->cl->queue, w->dC, CL_TRUE, nc * sizeof(float), w->guard * sizeof(float), w->stage,
                             0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueReadBuffer", rc);
        return -1;
    }
    for (size_t i = w->guard; i-- > 0;) {
        uint32_t bits;
        memcpy(&bits, &w->stage[i], sizeof bits);
        if (bits != GUARD_BITS) {
            changed++;
            first = i;
        }
    }
    if (changed == 0)
        return 0;
    if (first == 0)
        error_set(e, "the kernel wrote past the end of C: %zu of the %zu floats after its last element "
                     "changed, from the one right after it on; a store without a bounds test (row < M, "
                     "col < N)?", changed, w->guard);
    else
        error_set(e, "the kernel wrote past the end of C: %zu of the %zu floats after its last element "
                     "changed, the nearest %zu floats after it; a store without a bounds test (row < M, "
                     "col < N)?", changed, w->guard, first + 1);
    return -1;
}

int workspace_fetch(struct workspace *w, const struct matrix_layout *c, struct error *e)
{
    size_t nc = matrix_layout_count(c);
    cl_int rc;

    if (reserve_stage(w, nc, e) < 0)
        return -1;
    rc = clEnqueueReadBuffer(w->cl->queue, w->dC, CL_TRUE, 0, nc * sizeof(float), w->stage, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueReadBuffer", rc);
        return -1;
    }
    matrix_unpack(w->stage, c, w->size.m, w->size.n, w->C);
    return w->guard > 0 ? check_guard(w, nc, e) : 0;
}

/* ---- the generic measurement ---- */

static void progress(const struct measure_config *cfg, enum measure_phase phase, int index, int count,
                     double launch_s, double left_s)
{
    struct measure_progress p = { phase, index, count, launch_s, left_s };

    if (cfg->progress)
        cfg->progress(cfg->progress_ctx, &p);
}

bool measure_wall_shown(double kernel_s, double wall_s, double *shown_s, double *disagreement)
{
    if (wall_s >= kernel_s || kernel_s <= 0.0) {
        *shown_s = wall_s;
        *disagreement = 0.0;
        return false;
    }
    *shown_s = kernel_s;
    *disagreement = (kernel_s - wall_s) / kernel_s;
    return true;
}

/* Why a partial launch, and not a smaller size: the time of a kernel does not scale with its
   flops alone. In the row-per-item lessons (2 to 4) every work-item streams all of B; at
   128^3 to 512^3 B fits in the caches, at 2048 it does not, and the square probes once
   predicted a third of the measured time. A partial launch runs the same kernel on the
   same full-size buffers, so each work-group does exactly the work and the memory traffic
   it does in the whole launch; only the number of groups changes, and the time of a launch
   with at least as many groups as the device runs at once grows with the number of groups.
   The cut dimension is the last one that can be cut (the groups of a launch are commonly
   started in order of their ids, dimension 0 fastest, so the probe is the part of the
   launch that would start first): for the two-dimensional lessons a band of C across its
   full width, with the full K. A probe costs at most half a launch and usually much less;
   when even the first probe would be more than half, the launch is too small to cut and
   the caller falls back to smaller sizes. */
bool measure_probe_shape(const size_t *groups, size_t dims, size_t resident, int step,
                         struct probe_shape *p)
{
    size_t total = 1;

    if (dims == 0 || step < 0 || step > 40)
        return false;
    for (size_t d = 0; d < dims; d++) {
        if (groups[d] == 0)
            return false;
        total *= groups[d];
    }
    resident = resident > 0 ? resident : 1;
    for (size_t d = dims; d-- > 0;) {
        size_t others = total / groups[d];
        size_t first = (resident + others - 1) / others;    /* enough groups to fill the device */
        size_t g;
        if (first > groups[d] / 2)
            continue;
        g = first << step;
        if (g > groups[d] / 2)
            return false;
        p->dim = d;
        p->groups = g;
        p->full = groups[d];
        p->scale = (double)groups[d] / (double)g;
        return true;
    }
    return false;
}

/* Refuses the launch when its estimate is over the limit. The message states the estimate,
   where it came from and the limit; how to allow it is the front end's to say. */
static enum prepare_result judge(const struct measure_config *cfg, struct run_result *r,
                                 const char *from, double probe_s)
{
    if (r->estimate_s <= cfg->launch_limit_s)
        return PREPARED;
    r->refused_by_estimate = true;
    error_set(&r->error, "one launch would take about %.3g s (estimated from %s, which took %.3g s); "
                         "the limit is %g s", r->estimate_s, from, probe_s, cfg->launch_limit_s);
    return REFUSED;
}

static struct gemm_size shrink(struct gemm_size s, long long most)
{
    struct gemm_size p = { s.m < most ? s.m : most, s.n < most ? s.n : most, s.k < most ? s.k : most };
    return p;
}

/* Estimates the launch time at the full size from launches at growing smaller sizes: the
   first that lasts PROBE_MIN_SECONDS, or else the largest below half the full size. A
   probe size the lesson does not take (a require line, a multiple it will not pad to)
   ends the probing: the estimate comes from the probes before it, and without any, the
   full size is judged on its own. Used where a runner cannot launch part of the full size
   (CLBlast) or the launch has too few work-groups to be cut; it can be far off (see
   measure_probe_shape). */
static enum prepare_result estimate_by_size(struct runner *rn, const struct measure_config *cfg,
                                            struct run_result *r)
{
    struct gemm_size full = rn->w->size, probe, timed = { 0, 0, 0 };
    double t = 0.0, timed_t = 0.0, full_flops = gemm_flops(full);
    struct error probe_error;
    char from[96];
    int n = 0;

    error_init(&probe_error);
    for (long long side = PROBE_FIRST_SIZE;; side *= 2) {
        enum prepare_result pr;
        int rc;
        probe = shrink(full, side);
        if (gemm_flops(probe) * 2.0 > full_flops)
            break;
        if (cancelled(cfg, r)) {
            error_clear(&probe_error);
            return FAILED;
        }
        pr = rn->prepare(rn, probe, &probe_error);
        if (pr == REFUSED)
            break;
        if (pr == FAILED) {
            error_set(&r->error, "%s", probe_error.msg);
            error_set_detail(&r->error, probe_error.detail);
            return FAILED;
        }
        progress(cfg, MEASURE_PROBING, ++n, 0, timed_t, 0.0);
        /* The first launch may pay for one-time work; the second is the one to trust. */
        rc = rn->launch(rn, &t, &r->error);
        if (rc == 0)
            rc = rn->launch(rn, &t, &r->error);
        if (rc < 0) {
            error_clear(&probe_error);
            return rc == LAUNCH_REFUSED ? REFUSED : FAILED;
        }
        timed = probe;
        timed_t = t;
        if (t >= PROBE_MIN_SECONDS)
            break;
    }
    error_clear(&probe_error);
    if (timed.m == 0)
        return PREPARED;
    r->estimate_s = timed_t * full_flops / gemm_flops(timed);
    snprintf(from, sizeof from, "%lldx%lldx%lld", timed.m, timed.n, timed.k);
    return judge(cfg, r, from, timed_t);
}

/* Estimates the launch time of the prepared full size from partial launches (see
   measure_probe_shape): growing probes until one lasts PROBE_MIN_SECONDS or has half the
   groups along its dimension. A launch too small to be cut is estimated from smaller sizes
   instead, and prepared again at the full size. */
static enum prepare_result estimate_by_part(struct runner *rn, const struct measure_config *cfg,
                                            struct run_result *r)
{
    size_t groups[LESSON_MAX_DIMS], dims = 0, resident = 1, total = 1;
    const char *unit = "work-groups";
    struct probe_shape shape, timed = { 0, 0, 0, 0.0 };
    double t = 0.0, timed_t = 0.0;
    char from[160];
    enum prepare_result pr;

    if (rn->groups(rn, groups, &dims, &resident, &unit))
        for (int step = 0; measure_probe_shape(groups, dims, resident, step, &shape); step++) {
            int rc;
            if (cancelled(cfg, r))
                return FAILED;
            progress(cfg, MEASURE_PROBING, step + 1, 0, timed_t, 0.0);
            /* The first launch may pay for one-time work (POCL compiles the kernel for its
               work-group size then); the probes after it run the same kernel warm. */
            rc = rn->launch_part(rn, shape.dim, shape.groups, &t, &r->error);
            if (rc == 0 && step == 0)
                rc = rn->launch_part(rn, shape.dim, shape.groups, &t, &r->error);
            if (rc < 0)
                return rc == LAUNCH_REFUSED ? REFUSED : FAILED;
            timed = shape;
            timed_t = t;
            if (t >= PROBE_MIN_SECONDS)
                break;
        }
    if (timed.groups == 0) {
        pr = estimate_by_size(rn, cfg, r);
        if (pr == PREPARED && !cancelled(cfg, r))
            pr = rn->prepare(rn, rn->w->size, &r->error);
        return r->cancelled ? FAILED : pr;
    }
    r->estimate_s = timed_t * timed.scale;
    for (size_t d = 0; d < dims; d++)
        total *= groups[d];
    if (dims > 1)
        snprintf(from, sizeof from, "the first %zu of its %zu %s, %zu of %zu along dimension %zu",
                 total / timed.full * timed.groups, total, unit, timed.groups, timed.full, timed.dim);
    else
        snprintf(from, sizeof from, "the first %zu of its %zu %s", timed.groups, timed.full, unit);
    return judge(cfg, r, from, timed_t);
}

static int timed_reps(const struct measure_config *cfg, double one_launch)
{
    double n;

    if (cfg->reps > 0)
        return cfg->reps;
    n = one_launch > 0.0 ? cfg->budget_s / one_launch : MEASURE_MAX_REPS;
    if (n < MEASURE_MIN_REPS)
        return MEASURE_MIN_REPS;
    return n > MEASURE_MAX_REPS ? MEASURE_MAX_REPS : (int)n;
}

/* A launch of a batching runner is several calls; the others make one. */
static int calls_per_launch(const struct runner *rn)
{
    return rn->calls_per_launch > 1 ? rn->calls_per_launch : 1;
}

static uint64_t checksum_of(const float *x, size_t count)
{
    uint64_t h = 0xcbf29ce484222325ull;     /* FNV-1a over the bits of every element */

    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        h = (h ^ bits) * 0x100000001b3ull;
    }
    return h;
}

/* A wrong result: where it is wrong, when the product is small enough to compare whole. */
static void map_errors(struct runner *rn, struct run_result *r)
{
    struct workspace *w = rn->w;

    errmap_product(w->A, w->B, w->C, w->size.m, w->size.n, w->size.k, r->verify.tolerance, rn->tile_rows,
                   rn->tile_cols, rn->c_column_major, &r->errmap);
}

/* Fetches the last result; if it differs from the verified one, verifies it too. */
static int check_again(struct runner *rn, uint64_t verified, struct run_result *r)
{
    struct workspace *w = rn->w;

    if (rn->fetch(rn, &r->error) < 0) {
        r->status = RUN_ERROR;
        return -1;
    }
    if (checksum_of(w->C, (size_t)(w->size.m * w->size.n)) == verified)
        return 0;
    verify_product(w->A, w->B, w->C, w->size.m, w->size.n, w->size.k, rn->precision, w->seed, &r->verify);
    if (!r->verify.ok) {
        r->status = RUN_WRONG;
        error_set(&r->error, "after the timed launches: %s", r->verify.detail);
        map_errors(rn, r);
        return -1;
    }
    return 0;
}

/* One launch, with its time on the host clock from enqueueing it until the wait for it
   returns, per call. */
static int launch_timed(struct runner *rn, double *seconds, double *wall, struct error *e)
{
    double start = now_seconds();
    int rc = rn->launch(rn, seconds, e);

    *wall = (now_seconds() - start) / calls_per_launch(rn);
    return rc;
}

void measure_run(struct runner *rn, const struct measure_config *cfg, struct run_result *r)
{
    struct workspace *w = rn->w;
    double t, wall, spent = 0.0, shown, disagreement, flops = gemm_flops(w->size);
    double *seconds, *gflops, *walls;
    bool want_estimate = !cfg->force && flops > PROBE_MIN_FLOPS;
    enum prepare_result pr = PREPARED;
    struct stats wall_stats;
    uint64_t checksum;
    int rc, most;

    r->size = w->size;
    r->limit_s = cfg->launch_limit_s;
    /* Without partial launches the probes are smaller sizes, before the asked one is prepared;
       with them, the probes are parts of the asked one. */
    if (want_estimate && !(rn->groups && rn->launch_part))
        pr = estimate_by_size(rn, cfg, r);
    if (pr == PREPARED && !cancelled(cfg, r)) {
        progress(cfg, MEASURE_BUILDING, 0, 0, 0.0, 0.0);
        pr = rn->prepare(rn, w->size, &r->error);
    }
    if (pr == PREPARED && want_estimate && rn->groups && rn->launch_part && !r->cancelled)
        pr = estimate_by_part(rn, cfg, r);
    if (r->cancelled)
        return;
    if (pr != PREPARED) {
        r->status = pr == REFUSED ? RUN_REFUSED : RUN_ERROR;
        return;
    }
    /* The first launch warms up and gives the result to verify. */
    progress(cfg, MEASURE_WARMUP, 1, 1, r->estimate_s, r->estimate_s);
    rc = launch_timed(rn, &t, &wall, &r->error);
    if (rc < 0 || rn->fetch(rn, &r->error) < 0) {
        r->status = rc == LAUNCH_REFUSED ? RUN_REFUSED : RUN_ERROR;
        return;
    }
    verify_product(w->A, w->B, w->C, w->size.m, w->size.n, w->size.k, rn->precision, w->seed, &r->verify);
    if (!r->verify.ok) {
        r->status = RUN_WRONG;
        error_set(&r->error, "%s", r->verify.detail);
        map_errors(rn, r);
        return;
    }
    checksum = checksum_of(w->C, (size_t)(w->size.m * w->size.n));
    /* The count adapts to the first timed launch: the warm-up may have paid for one-time
       work. Until then the warm-up's time gives the count the progress shows. */
    r->reps = timed_reps(cfg, t);
    most = cfg->reps > 0 ? cfg->reps : MEASURE_MAX_REPS;
    seconds = xmalloc((size_t)most * sizeof *seconds);
    gflops = xmalloc((size_t)most * sizeof *gflops);
    walls = xmalloc((size_t)most * sizeof *walls);
    r->status = RUN_ERROR;  /* until every step below has passed */
    for (int i = 0; i < r->reps; i++) {
        double each = i > 0 ? spent / i : wall;
        progress(cfg, MEASURE_TIMED, i + 1, r->reps, each,
                 each * (r->reps - i + (cfg->check_timing ? r->reps : 0)));
        if (cancelled(cfg, r) || launch_timed(rn, &seconds[i], &walls[i], &r->error) < 0)
            goto done;
        if (i == 0)
            r->reps = timed_reps(cfg, seconds[0]);
        spent += walls[i];
        gflops[i] = seconds[i] > 0.0 ? flops / seconds[i] * 1e-9 : 0.0;
    }
    /* An independent look at the same kernel: wall clock over a batch of launches. */
    if (cfg->check_timing) {
        double per_launch;
        if (rn->batch(rn, r->reps, &per_launch, &r->error) < 0)
            goto done;
        r->batch_gflops = per_launch > 0.0 ? flops / per_launch * 1e-9 : 0.0;
        r->batch_count = r->reps * calls_per_launch(rn);
    }
    /* The timed launches computed the same product again: it must be the one verified, bit
       for bit, or pass verification again (a race can strike in any launch). */
    if (check_again(rn, checksum, r) < 0)
        goto done;
    stats_compute(seconds, (size_t)r->reps, &r->seconds);
    stats_compute(gflops, (size_t)r->reps, &r->gflops);
    stats_compute(walls, (size_t)r->reps, &wall_stats);
    r->wall_s = wall_stats.median;
    r->clocks_disagree = measure_wall_shown(r->seconds.median, r->wall_s, &shown, &disagreement);
    r->status = RUN_OK;
done:
    free(seconds);
    free(gflops);
    free(walls);
}

/* ---- lessons ---- */

struct lesson_runner {
    struct runner base;
    const struct lesson *lesson;
    const struct param_set *params;
    const char *source;         /* NULL: the lesson's kernel file */
    struct gemm_size size;      /* of the prepared launch */
    struct geometry g;
    struct matrix_layout a, b, c;
    struct lesson_kernels k;    /* k.count 0: not built yet */
    size_t kernel_max_group[LESSON_MAX_LAUNCHES];   /* CL_KERNEL_WORK_GROUP_SIZE of each */
    cl_mem ints[LESSON_MAX_LAUNCHES][LESSON_MAX_ARGS];  /* the buffers of the ints(...) arguments */
};

static enum prepare_result host_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;

    lr->size = s;
    return geometry_compute(lr->lesson, lr->params, s, &lr->g, e) < 0 ? REFUSED : PREPARED;
}

static int host_launch(struct runner *self, double *seconds, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    double start = now_seconds();

    (void)e;
    hostgemm_float(self->w->A, self->w->B, self->w->C, lr->size.m, lr->size.n, lr->size.k);
    *seconds = now_seconds() - start;
    return 0;
}

/* The host loop's "work-groups" are the rows of C: one core computes them one after the
   other, each reading all of B, as in the whole product. */
static bool host_groups(struct runner *self, size_t *groups, size_t *dims, size_t *resident,
                        const char **unit)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;

    groups[0] = (size_t)lr->size.m;
    *dims = 1;
    *resident = 1;
    *unit = "rows";
    return true;
}

static int host_launch_part(struct runner *self, size_t dim, size_t groups, double *seconds,
                            struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    double start = now_seconds();

    (void)dim;
    (void)e;
    hostgemm_float(self->w->A, self->w->B, self->w->C, (long long)groups, lr->size.n, lr->size.k);
    *seconds = now_seconds() - start;
    return 0;
}

static int host_batch(struct runner *self, int count, double *seconds, struct error *e)
{
    double start = now_seconds(), ignored;

    for (int i = 0; i < count; i++)
        host_launch(self, &ignored, e);
    *seconds = (now_seconds() - start) / count;
    return 0;
}

static int host_fetch(struct runner *self, struct error *e)
{
    (void)self;
    (void)e;
    return 0;   /* the host computed straight into w->C */
}

/* The lesson, its parameters and the size: what a result is about. */
static void describe(struct run_result *r, const struct lesson *l, const struct param_set *ps)
{
    r->lesson = l->number;
    snprintf(r->title, sizeof r->title, "%s", l->short_title);
    snprintf(r->branch, sizeof r->branch, "%s", l->branch ? l->branch : "");
    r->precision = l->precision;
    r->units = l->units;
    param_set_format(l, ps, r->params, sizeof r->params);
}

void measure_refused(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                     const struct error *why, struct run_result *r)
{
    describe(r, l, ps);
    r->size = size;
    r->status = RUN_REFUSED;
    error_set(&r->error, "%s", why->msg);
}

int measure_build(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *given,
                  struct lesson_kernels *k, struct error *e)
{
    return measure_build_extra(cl, l, ps, given, NULL, k, e);
}

void measure_kernels_release(struct lesson_kernels *k)
{
    for (size_t i = 0; i < k->count; i++)
        clReleaseKernel(k->kernel[i]);
    if (k->program)
        clReleaseProgram(k->program);
    memset(k, 0, sizeof *k);
}

int measure_options(const struct lesson *l, const struct param_set *ps, const char *extra, char *buf,
                    size_t len, struct error *e)
{
    struct str s;

    str_init(&s, buf, len);
    if (l->options)
        str_appendf(&s, " ", "%s", l->options);
    for (size_t i = 0; i < l->nparams; i++)
        str_appendf(&s, " ", "-D%s=%lld", l->params[i].name, ps->values[i]);
    str_appendf(&s, " ", "%s", MEASURE_ARG_INFO_OPTION);
    if (extra)
        str_appendf(&s, " ", "%s", extra);
    if (s.truncated) {
        error_set(e, "the compiler options of lesson %d are longer than %zu characters", l->number, len - 1);
        return -1;
    }
    return 0;
}

int measure_build_extra(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *given,
                        const char *extra, struct lesson_kernels *k, struct error *e)
{
    char options[MEASURE_OPTIONS_MAX];
    char *source = NULL;
    int rc;

    memset(k, 0, sizeof *k);
    /* A kernel written for one device (inline PTX) may not even compile on another: not tried,
       whoever builds it. */
    if (lesson_device_check(l, cl->device, e) < 0)
        return -1;
    if (measure_options(l, ps, extra, options, sizeof options, e) < 0)
        return -1;
    if (!given && !(given = source = lesson_kernel_source(l, e)))
        return -1;
    rc = ocl_build(cl, given, options, l->launch[0].entry, &k->program, &k->kernel[0], e);
    free(source);
    if (rc == 0)
        k->count = 1;
    /* The further launches' kernels, from the same program. */
    while (rc == 0 && k->count < l->nlaunches) {
        rc = ocl_kernel(k->program, l->launch[k->count].entry, &k->kernel[k->count], e);
        if (rc == 0)
            k->count++;
        else
            measure_kernels_release(k);
    }
    if (rc < 0) {
        error_prefix(e, "%s", l->kernel_file);
        return rc;
    }
    /* Each kernel's signature against the lesson's args: a mismatch named before any launch. */
    for (size_t i = 0; i < k->count; i++)
        if (kernelargs_check(l, i, k->kernel[i], e) < 0) {
            measure_kernels_release(k);
            return MEASURE_ARGS_DIFFER;
        }
    return 0;
}


/* Device limits of launch i: known from the geometry and, after the build, from its kernel. */
static enum prepare_result check_launch_limits(struct lesson_runner *lr, size_t i, struct error *e)
{
    const struct device_info *d = lr->base.w->cl->device;
    const struct launch_geometry *g = &lr->g.launch[i];
    size_t kernel_max = 0;
    cl_ulong kernel_local = 0;
    char which[96];
    cl_int rc;

    lesson_launch_which(lr->lesson, i, which, sizeof which);
    rc = clGetKernelWorkGroupInfo(lr->k.kernel[i], d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max,
                                  &kernel_max, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetKernelWorkGroupInfo(lr->k.kernel[i], d->id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                                      &kernel_local, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clGetKernelWorkGroupInfo", rc);
        return FAILED;
    }
    /* Some drivers report a conservative CL_KERNEL_WORK_GROUP_SIZE (NVIDIA's says 256 for
       kernels that run with 1024): a larger group is tried, and only refused if the launch
       fails (see device_enqueue). */
    lr->kernel_max_group[i] = kernel_max;
    /* CL_KERNEL_LOCAL_MEM_SIZE counts the __local arrays of the kernel and, on most
       implementations, the local arguments already set; take the larger reading. */
    if ((cl_ulong)g->local_bytes > kernel_local)
        kernel_local = g->local_bytes;
    if (kernel_local > d->local_mem) {
        error_set(e, "the kernel%s needs %lu bytes of local memory per work-group; the device has %lu", which,
                  (unsigned long)kernel_local, (unsigned long)d->local_mem);
        return REFUSED;
    }
    if (!g->has_local)
        return PREPARED;
    for (size_t dim = 0; dim < g->dims; dim++)
        if (g->local[dim] > d->max_item_sizes[dim]) {
            error_set(e, "a work-group%s of %zu work-items in dimension %zu exceeds the device's %zu", which,
                      g->local[dim], dim, d->max_item_sizes[dim]);
            return REFUSED;
        }
    if (g->group_items > d->max_group) {
        error_set(e, "a work-group%s of %zu work-items exceeds the device's maximum of %zu", which,
                  g->group_items, d->max_group);
        return REFUSED;
    }
    return PREPARED;
}

static enum prepare_result check_limits(struct lesson_runner *lr, struct error *e)
{
    enum prepare_result pr = PREPARED;

    for (size_t i = 0; i < lr->g.nlaunches && pr == PREPARED; i++)
        if (!lr->g.launch[i].skipped)
            pr = check_launch_limits(lr, i, e);
    return pr;
}

/* Argument i of launch k, an ints(...) (lessons/FORMAT): a small __global int buffer of its
   values at this size, made anew at each prepare (the one before released) and released with
   the runner (release_ints). Not timed: made before the first launch. */
static int ints_buffer(struct lesson_runner *lr, size_t k, size_t i, struct error *e)
{
    const struct launch_geometry *g = &lr->g.launch[k];
    const struct lesson_arg *a = &lr->lesson->launch[k].args[i];
    cl_mem *buf = &lr->ints[k][i];
    cl_int values[LESSON_MAX_INTS], rc;

    for (size_t v = 0; v < a->nvalues; v++)
        values[v] = g->ints[(size_t)g->arg_values[i] + v];
    if (*buf)
        clReleaseMemObject(*buf);
    *buf = clCreateBuffer(lr->base.w->cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          a->nvalues * sizeof *values, values, &rc);
    if (rc != CL_SUCCESS) {
        *buf = NULL;
        clerror_set(e, "clCreateBuffer", rc);
        return -1;
    }
    return 0;
}

static void release_ints(struct lesson_runner *lr)
{
    for (size_t k = 0; k < LESSON_MAX_LAUNCHES; k++)
        for (size_t i = 0; i < LESSON_MAX_ARGS; i++)
            if (lr->ints[k][i]) {
                clReleaseMemObject(lr->ints[k][i]);
                lr->ints[k][i] = NULL;
            }
}

/* The arguments of every launch that runs at this size. */
static int set_args(struct lesson_runner *lr, struct error *e)
{
    struct workspace *w = lr->base.w;

    for (size_t k = 0; k < lr->g.nlaunches; k++) {
        const struct lesson_launch *launch = &lr->lesson->launch[k];
        const struct launch_geometry *g = &lr->g.launch[k];
        cl_kernel kernel = lr->k.kernel[k];
        if (g->skipped)
            continue;
        for (size_t i = 0; i < launch->nargs; i++) {
            const struct lesson_arg *a = &launch->args[i];
            cl_int rc, value = 0;
            switch (a->kind) {
            case ARG_M: value = (cl_int)lr->g.run.m; break;
            case ARG_N: value = (cl_int)lr->g.run.n; break;
            case ARG_K: value = (cl_int)lr->g.run.k; break;
            case ARG_INT: value = (cl_int)g->arg_values[i]; break;
            default: break;
            }
            if (a->kind == ARG_A || a->kind == ARG_B || a->kind == ARG_C || a->kind == ARG_W) {
                cl_mem *m = a->kind == ARG_A ? &w->dA : a->kind == ARG_B ? &w->dB : a->kind == ARG_C ? &w->dC
                                                                                                      : &w->dW;
                rc = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), m);
            } else if (a->kind == ARG_LOCAL) {
                rc = clSetKernelArg(kernel, (cl_uint)i, (size_t)g->arg_values[i] * sizeof(float), NULL);
            } else if (a->kind == ARG_INTS) {
                if (ints_buffer(lr, k, i, e) < 0) {
                    error_prefix(e, "argument %zu of %s, ints(...)", i + 1, launch->entry);
                    return -1;
                }
                rc = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &lr->ints[k][i]);
            } else {
                rc = clSetKernelArg(kernel, (cl_uint)i, sizeof value, &value);
            }
            if (rc != CL_SUCCESS) {
                clerror_set(e, "clSetKernelArg", rc);
                error_prefix(e, "argument %zu of %s", i + 1, launch->entry);
                return -1;
            }
        }
    }
    return 0;
}

/* The first bytes of the scratch buffer filled with a 4-byte pattern, waited for; what names
   the part in an error. */
static int fill_scratch(struct workspace *w, const void *pattern, size_t bytes, const char *what, struct error *e)
{
    cl_int rc = clEnqueueFillBuffer(w->cl->queue, w->dW, pattern, 4, 0, bytes, 0, NULL, NULL);

    if (rc == CL_SUCCESS)
        rc = clFinish(w->cl->queue);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueFillBuffer", rc);
        error_prefix(e, "%s", what);
        return -1;
    }
    return 0;
}

/* The first floats of the scratch buffer that the lesson's scratch-zero line names, set to 0
   (all bits 0: an int 0 as well). Its kernels keep counters there and set each back to 0
   when they are done with it, so that the next run finds them at 0; a partial launch (a
   probe) leaves some counted and not set back, and is followed by this. */
static int zero_counters(struct lesson_runner *lr, struct error *e)
{
    const cl_uint zero = 0;

    if (lr->g.scratch_zero <= 0)
        return 0;
    return fill_scratch(lr->base.w, &zero, (size_t)lr->g.scratch_zero * sizeof zero,
                        "the scratch buffer's counters (scratch-zero)", e);
}

/* After a whole run, the counters are at 0 again: a kernel that leaves one counted would
   find it wrong in the next run, where the result could silently be the run before's.
   Checked with each fetch of C: after the verified first run and after the timed runs. */
static int check_counters(struct lesson_runner *lr, struct error *e)
{
    struct workspace *w = lr->base.w;
    size_t n = (size_t)lr->g.scratch_zero, left = 0, first = 0;
    cl_uint *v;
    cl_int rc;

    if (lr->g.scratch_zero <= 0)
        return 0;
    v = xcalloc(n, sizeof *v);
    rc = clEnqueueReadBuffer(w->cl->queue, w->dW, CL_TRUE, 0, n * sizeof *v, v, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueReadBuffer", rc);
        error_prefix(e, "the scratch buffer's counters (scratch-zero)");
    } else {
        for (size_t i = n; i-- > 0;)
            if (v[i] != 0) {
                left++;
                first = i;
            }
        if (left)
            error_set(e, "after a run, %zu of the %zu counters at the start of the scratch buffer (scratch-zero) %s "
                         "not 0, the first at float %zu (%u): a kernel that counts there must set each counter back "
                         "to 0 when it is done with it, so that the next run starts from 0 (lessons/FORMAT)",
                      left, n, left == 1 ? "is" : "are", first, v[first]);
    }
    free(v);
    return rc != CL_SUCCESS || left ? -1 : 0;
}

/* The scratch buffer of the lesson at this size (lessons/FORMAT: scratch), in the workspace,
   filled with NaN so that a part of it that a launch reads before any launch wrote it fails
   verification. Not timed: it is allocated and filled before the first launch. A scratch line
   of 0 floats gets a buffer of one, which the kernels must not use: OpenCL has no empty
   buffers. */
static enum prepare_result load_scratch(struct lesson_runner *lr, struct error *e)
{
    struct workspace *w = lr->base.w;
    size_t floats = lr->g.scratch > 0 ? (size_t)lr->g.scratch : 1, bytes = floats * sizeof(float);
    const float nan = NAN;

    if (!lr->lesson->scratch)
        return PREPARED;
    if (workspace_check_memory(w, &lr->a, &lr->b, &lr->c, bytes, e) < 0)
        return REFUSED;
    if (ocl_reserve(w->cl, &w->dW, &w->capW, bytes, e) < 0)
        return FAILED;
    if (fill_scratch(w, &nan, bytes, "the scratch buffer", e) < 0 || zero_counters(lr, e) < 0)
        return FAILED;
    return PREPARED;
}

int measure_check_indices(const struct geometry *g, struct error *e)
{
    struct gemm_size s = g->run;
    long long mk, kn, mn;

    if (!__builtin_mul_overflow(s.m, s.k, &mk) && mk <= INT_MAX && !__builtin_mul_overflow(s.k, s.n, &kn) &&
        kn <= INT_MAX && !__builtin_mul_overflow(s.m, s.n, &mn) && mn <= INT_MAX)
        return 0;
    error_set(e, "%lldx%lldx%lld has a matrix of more than %d elements, too many for the kernels' int "
                 "indices: choose a smaller size%s", s.m, s.n, s.k, INT_MAX,
              g->padded ? " or parameters that pad less" : "");
    return -1;
}

/* The lesson's tile at this size, for the error map; 0 x 0 without one. */
static void set_tile(struct lesson_runner *lr)
{
    const struct lesson *l = lr->lesson;
    long long rows, cols;
    struct error ignored;

    lr->base.tile_rows = lr->base.tile_cols = 0;
    lr->base.c_column_major = l->column_major;
    if (!l->layout.tile[0] || !l->layout.tile[1])
        return;
    error_init(&ignored);
    if (geometry_eval(l, lr->params, lr->g.run, l->layout.tile[0], &rows, &ignored) == 0 &&
        geometry_eval(l, lr->params, lr->g.run, l->layout.tile[1], &cols, &ignored) == 0 && rows > 0 && cols > 0) {
        lr->base.tile_rows = rows;
        lr->base.tile_cols = cols;
    }
    error_clear(&ignored);
}

static enum prepare_result device_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    const struct lesson *l = lr->lesson;
    enum prepare_result pr;

    lr->size = s;
    if (lesson_device_check(l, self->w->cl->device, e) < 0 || geometry_compute(l, lr->params, s, &lr->g, e) < 0)
        return REFUSED;
    set_tile(lr);
    if (measure_check_indices(&lr->g, e) < 0)
        return REFUSED;
    lr->a = (struct matrix_layout){ lr->g.run.m, lr->g.run.k, l->column_major, false };
    lr->b = l->b_transposed ? (struct matrix_layout){ lr->g.run.n, lr->g.run.k, l->column_major, true }
                            : (struct matrix_layout){ lr->g.run.k, lr->g.run.n, l->column_major, false };
    lr->c = (struct matrix_layout){ lr->g.run.m, lr->g.run.n, l->column_major, false };
    if (lr->k.count == 0 && measure_build(self->w->cl, l, lr->params, lr->source, &lr->k, e) < 0)
        return FAILED;
    pr = workspace_load(self->w, s, &lr->a, &lr->b, &lr->c, e);
    if (pr == PREPARED)
        pr = load_scratch(lr, e);
    if (pr != PREPARED)
        return pr;
    if (set_args(lr, e) < 0)
        return FAILED;
    pr = check_limits(lr, e);
    return pr;
}

/* Enqueues launch i, its NDRange global, with an event where ev is not NULL. Returns 0, -1, or
   LAUNCH_REFUSED where its work-groups are more than its kernel can run here. */
static int enqueue_one(struct lesson_runner *lr, size_t i, const size_t *global, cl_event *ev, struct error *e)
{
    const struct launch_geometry *g = &lr->g.launch[i];
    char which[96];
    cl_int rc;

    rc = clEnqueueNDRangeKernel(lr->base.w->cl->queue, lr->k.kernel[i], (cl_uint)g->dims, NULL, global,
                                g->has_local ? g->local : NULL, 0, NULL, ev);
    if (rc == CL_SUCCESS)
        return 0;
    clerror_set(e, "clEnqueueNDRangeKernel", rc);
    lesson_launch_which(lr->lesson, i, which, sizeof which);
    if ((rc == CL_INVALID_WORK_GROUP_SIZE || rc == CL_OUT_OF_RESOURCES) && g->group_items > lr->kernel_max_group[i]) {
        error_prefix(e, "work-groups%s of %zu work-items are more than this kernel can run on this "
                        "device (CL_KERNEL_WORK_GROUP_SIZE is %zu: its registers or local memory "
                        "limit it)", which, g->group_items, lr->kernel_max_group[i]);
        return LAUNCH_REFUSED;
    }
    if (i > 0)
        error_prefix(e, "launch %zu (then: %.60s)", i + 1, lr->lesson->launch[i].entry);
    return -1;
}

/* One run: every launch of the lesson that runs at this size, in order, the first with the
   NDRange global (its own, or a part of it for a probe), waited for. Its time from profiling
   events, from the start of the first launch to the end of the last: gaps between launches
   count, as they do for a user of the kernels. Without events (seconds NULL), queued only. */
static int enqueue_run(struct lesson_runner *lr, const size_t *global, double *seconds, struct error *e)
{
    cl_event first = NULL, last = NULL;
    int rc = 0;

    for (size_t i = 0; i < lr->g.nlaunches && rc == 0; i++) {
        cl_event ev = NULL;
        if (lr->g.launch[i].skipped)
            continue;
        rc = enqueue_one(lr, i, i == 0 ? global : lr->g.launch[i].global, &ev, e);
        if (rc < 0)
            break;
        if (!first)
            first = ev;
        else if (last)
            clReleaseEvent(last);
        if (ev != first)
            last = ev;
    }
    if (!last)
        last = first;
    if (rc == 0 && last) {
        cl_int wrc = clWaitForEvents(1, &last);
        if (wrc != CL_SUCCESS) {
            clerror_set(e, "clWaitForEvents", wrc);
            rc = -1;
        }
    } else if (rc < 0) {
        clFinish(lr->base.w->cl->queue);    /* the launches queued before the failing one */
    }
    if (rc == 0)
        rc = ocl_events_span(first, last, seconds, e);
    if (last && last != first)
        clReleaseEvent(last);
    if (first)
        clReleaseEvent(first);
    return rc;
}

static int device_launch(struct runner *self, double *seconds, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    return enqueue_run(lr, lr->g.launch[0].global, seconds, e);
}

/* The work-groups a device runs at once. A CPU device (POCL) runs one per compute unit, on
   one thread each. A GPU runs several per compute unit: at most as many as fit its largest
   work-group's work-items, taken here as the count, an upper bound (registers and local
   memory may allow fewer): a probe with more groups than needed is only a longer probe. */
static size_t resident_groups(const struct device_info *d, size_t group_items)
{
    size_t per_unit = 1;

    if (!(d->type & CL_DEVICE_TYPE_CPU) && group_items > 0 && d->max_group > group_items)
        per_unit = d->max_group / group_items;
    return (size_t)(d->compute_units > 0 ? d->compute_units : 1) * per_unit;
}

/* The groups of the main launch, the first: a probe cuts it alone (device_launch_part). */
static bool device_groups(struct runner *self, size_t *groups, size_t *dims, size_t *resident,
                          const char **unit)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    const struct launch_geometry *g = &lr->g.launch[0];

    /* Without a work-group size the implementation chooses one, which a cut NDRange could
       change: no partial launch. */
    if (!g->has_local)
        return false;
    for (size_t d = 0; d < g->dims; d++)
        groups[d] = g->global[d] / g->local[d];
    *dims = g->dims;
    *resident = resident_groups(self->w->cl->device, g->group_items);
    *unit = "work-groups";
    return true;
}

/* The same kernel and arguments on the full-size buffers, with fewer groups along dim: the
   kernels index C by their global ids and use no global size, so this computes a part of C
   exactly as the whole launch does. Only the first launch is cut; the further ones run
   whole, on whatever the cut one left, so that a probe of a lesson of several launches
   counts them all: its estimate errs long, never short. */
static int device_launch_part(struct runner *self, size_t dim, size_t groups, double *seconds,
                              struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    size_t global[LESSON_MAX_DIMS];
    int rc;

    memcpy(global, lr->g.launch[0].global, sizeof global);
    global[dim] = groups * lr->g.launch[0].local[dim];
    rc = enqueue_run(lr, global, seconds, e);
    if (rc == 0 && zero_counters(lr, e) < 0)
        rc = -1;
    return rc;
}

/* count runs back to back, every launch of each, waited for once at the end. */
static int device_batch(struct runner *self, int count, double *seconds, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    cl_command_queue q = self->w->cl->queue;
    double start = now_seconds();
    cl_int rc;
    int queued = 0;

    for (int i = 0; i < count && queued == 0; i++)
        for (size_t k = 0; k < lr->g.nlaunches && queued == 0; k++)
            if (!lr->g.launch[k].skipped)
                queued = enqueue_one(lr, k, lr->g.launch[k].global, NULL, e);
    if (queued < 0) {
        clFinish(q);
        return -1;
    }
    rc = clFinish(q);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clFinish", rc);
        return -1;
    }
    *seconds = (now_seconds() - start) / count;
    return 0;
}

static int device_fetch(struct runner *self, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    if (check_counters(lr, e) < 0)
        return -1;
    return workspace_fetch(self->w, &lr->c, e);
}

/* The lesson's intensity at size (roofline.h): 0 without a loads line, -1 when its layout
   lines give no figure at this size (run_result.intensity). */
static double lesson_intensity(const struct lesson *l, const struct param_set *ps, struct gemm_size size)
{
    struct figures f;
    struct error e;
    int rc;

    if (l->engine != ENGINE_OPENCL || !l->layout.loads)
        return 0.0;
    error_init(&e);
    rc = figures_compute(l, ps, size, NULL, &f, &e);
    error_clear(&e);
    return rc < 0 ? -1.0 : roofline_intensity(&f);
}

void measure_lesson(struct workspace *w, const struct lesson *l, const struct param_set *ps,
                    const struct measure_config *cfg, struct run_result *r)
{
    struct lesson_runner lr;
    struct param_set defaults;

    if (!ps) {
        param_set_defaults(l, &defaults);
        ps = &defaults;
    }
    memset(&lr, 0, sizeof lr);
    lr.base.w = w;
    lr.lesson = l;
    lr.params = ps;
    lr.source = cfg->source;
    lr.base.precision = l->precision;
    if (l->engine == ENGINE_HOST) {
        lr.base.prepare = host_prepare;
        lr.base.launch = host_launch;
        lr.base.batch = host_batch;
        lr.base.groups = host_groups;
        lr.base.launch_part = host_launch_part;
        lr.base.fetch = host_fetch;
    } else {
        lr.base.prepare = device_prepare;
        lr.base.launch = device_launch;
        lr.base.batch = device_batch;
        lr.base.groups = device_groups;
        lr.base.launch_part = device_launch_part;
        lr.base.fetch = device_fetch;
    }
    describe(r, l, ps);
    if (l->engine == ENGINE_OPENCL && !w->cl) {
        r->status = RUN_ERROR;
        error_set(&r->error, "no OpenCL device");
        return;
    }
    measure_run(&lr.base, cfg, r);
    r->intensity = lesson_intensity(l, ps, w->size);
    r->on_host = l->engine == ENGINE_HOST;
    /* What was launched at the size asked for; a refusal on a probe's estimate did not launch
       it whole. */
    if (!r->refused_by_estimate && memcmp(&lr.size, &w->size, sizeof w->size) == 0)
        r->run = lr.g.run;
    release_ints(&lr);
    measure_kernels_release(&lr.k);
}
