/* measure.c: the measurement common to every runner (runner.h): the workspace, the
   estimate, the verification and the timing.

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

#include "needs.h"
#include "roofline.h"
#include "runner.h"
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
        pr = rn->ops->prepare(rn, probe, &probe_error);
        if (pr == REFUSED)
            break;
        if (pr == FAILED) {
            error_set(&r->error, "%s", probe_error.msg);
            error_set_detail(&r->error, probe_error.detail);
            return FAILED;
        }
        progress(cfg, MEASURE_PROBING, ++n, 0, timed_t, 0.0);
        /* The first launch may pay for one-time work; the second is the one to trust. */
        rc = rn->ops->launch(rn, &t, &r->error);
        if (rc == 0)
            rc = rn->ops->launch(rn, &t, &r->error);
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

    if (rn->ops->groups(rn, groups, &dims, &resident, &unit))
        for (int step = 0; measure_probe_shape(groups, dims, resident, step, &shape); step++) {
            int rc;
            if (cancelled(cfg, r))
                return FAILED;
            progress(cfg, MEASURE_PROBING, step + 1, 0, timed_t, 0.0);
            /* The first launch may pay for one-time work (POCL compiles the kernel for its
               work-group size then); the probes after it run the same kernel warm. */
            rc = rn->ops->launch_part(rn, shape.dim, shape.groups, &t, &r->error);
            if (rc == 0 && step == 0)
                rc = rn->ops->launch_part(rn, shape.dim, shape.groups, &t, &r->error);
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
            pr = rn->ops->prepare(rn, rn->w->size, &r->error);
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
    r->errmap.uses = rn->uses;
}

/* Fetches the last result; if it differs from the verified one, verifies it too. */
static int check_again(struct runner *rn, uint64_t verified, struct run_result *r)
{
    struct workspace *w = rn->w;

    if (rn->ops->fetch(rn, &r->error) < 0) {
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
    int rc = rn->ops->launch(rn, seconds, e);

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
    if (want_estimate && !(rn->ops->groups && rn->ops->launch_part))
        pr = estimate_by_size(rn, cfg, r);
    if (pr == PREPARED && !cancelled(cfg, r)) {
        progress(cfg, MEASURE_BUILDING, 0, 0, 0.0, 0.0);
        pr = rn->ops->prepare(rn, w->size, &r->error);
    }
    if (pr == PREPARED && want_estimate && rn->ops->groups && rn->ops->launch_part && !r->cancelled)
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
    if (rc < 0 || rn->ops->fetch(rn, &r->error) < 0) {
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
        /* Before the first timed launch, the warm-up's kernel time, from which the count was
           sized: its wall time may hold one-time work (a first launch's), and times a count
           of hundreds it promised minutes for a run of a second. */
        double each = i > 0 ? spent / i : t > 0.0 ? t : wall;
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
        if (rn->ops->batch(rn, r->reps, &per_launch, &r->error) < 0)
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

/* ---- lessons, each by the runner of its engine (runner.h) ---- */

/* The lesson, its parameters and the size: what a result is about. */
void measure_describe(struct run_result *r, const struct lesson *l, const struct param_set *ps)
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
    measure_describe(r, l, ps);
    r->size = size;
    r->status = RUN_REFUSED;
    error_set(&r->error, "%s", why->msg);
}

/* The lesson's intensity at size (roofline.h): 0 without a loads line, -1 when its layout
   lines give no figure at this size (run_result.intensity). */
static double lesson_intensity(const struct lesson *l, const struct param_set *ps, struct gemm_size size)
{
    struct figures f;
    struct error e;
    int rc;

    if (!l->layout.loads)
        return 0.0;
    error_init(&e);
    rc = figures_compute(l, ps, size, NULL, &f, &e);
    error_clear(&e);
    return rc < 0 ? -1.0 : roofline_intensity(&f);
}

void measure_lesson(struct workspace *w, const struct lesson *l, const struct param_set *ps,
                    const struct measure_config *cfg, struct run_result *r)
{
    const struct engine_runner *kind = runner_for_engine(l->engine);
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
    lr.base.uses = USES_ALL;
    lr.base.ops = kind->ops;
    measure_describe(r, l, ps);
    r->emulated = w->cl && lesson_emulated(l, w->cl->device);
    if (kind->needs_device && !w->cl) {
        r->status = RUN_ERROR;
        error_set(&r->error, "no OpenCL device");
        return;
    }
    if (kind->needs_device && w->elsewhere) {
        r->size = w->size;
        w->elsewhere(w->elsewhere_ctx, w, l, ps, cfg, r);
        return;
    }
    measure_run(&lr.base, cfg, r);
    r->on_host = kind->on_host;
    r->intensity = kind->on_host ? 0.0 : lesson_intensity(l, ps, w->size);
    /* What was launched at the size asked for; a refusal on a probe's estimate did not launch
       it whole. */
    if (!r->refused_by_estimate && memcmp(&lr.size, &w->size, sizeof w->size) == 0)
        r->run = lr.g.run;
    if (lr.base.ops->release)
        lr.base.ops->release(&lr.base);
}
