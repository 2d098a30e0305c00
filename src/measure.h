/* measure.h: runs a lesson at one size, verifies its result, then times it. */
#ifndef CLMM_MEASURE_H
#define CLMM_MEASURE_H

#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>

#include "errmap.h"
#include "error.h"
#include "geometry.h"
#include "lesson.h"
#include "matrix.h"
#include "ocl.h"
#include "params.h"
#include "stats.h"
#include "verify.h"

/* What measure_run is about to do, for a progress display (see measure_config.progress). */
enum measure_phase {
    MEASURE_PROBING,            /* a probe launch that estimates the launch time */
    MEASURE_BUILDING,           /* building the kernel and uploading A and B at the asked size */
    MEASURE_WARMUP,             /* the launch whose result is verified */
    MEASURE_TIMED,              /* the timed launches */
};

struct measure_progress {
    enum measure_phase phase;
    int index;                  /* the launch about to start, from 1 (a probe's number while
                                   probing); 0 while building */
    int count;                  /* the launches of this phase; 0 when not known (probing,
                                   building). Timed: adapts to the budget, so it may change
                                   once, after the first timed launch */
    double launch_s;            /* seconds per launch: the estimate before the warm-up, then
                                   the mean host-clock time of the launches so far; while
                                   probing, the previous probe's time; 0 when not known */
    double left_s;              /* seconds left in this phase, this launch included (with
                                   check_timing, the batch too); 0 when not known */
};

struct measure_config {
    double budget_s;            /* time for the timed launches; their count adapts to it */
    int reps;                   /* a fixed number of timed launches instead, when > 0 */
    double launch_limit_s;      /* refuse a launch estimated to take longer */
    bool force;                 /* run even then */
    bool check_timing;          /* time the launches again on the host clock, as a batch */
    uint64_t seed;
    const char *source;         /* the kernel's text instead of the lesson's file (the screen
                                   keeps the last copy that built); NULL: read the file */
    const atomic_int *cancel;   /* when given and set, stop between launches (r->cancelled) */
    /* When given: called on the measuring thread before each launch (probes, the warm-up,
       each timed launch) and before building, with no lock of measure.c's held; the first
       timed call comes after the warm-up launch has been verified. ctx is progress_ctx. */
    void (*progress)(void *ctx, const struct measure_progress *p);
    void *progress_ctx;
};

void measure_config_defaults(struct measure_config *cfg);

#define MEASURE_MIN_REPS 3
#define MEASURE_MAX_REPS 1000

enum run_status { RUN_OK, RUN_WRONG, RUN_REFUSED, RUN_ERROR };

struct run_result {
    int lesson;                 /* -1 for a reference library */
    char title[128];            /* the lesson's short title */
    char branch[LESSON_BRANCH_MAX * 4 + 1]; /* the side branch it is on (lessons/FORMAT, UTF-8), "" on the main line */
    char params[256];           /* "TS=16 WPT=8", empty without parameters */
    struct param_origin origin; /* where the parameters came from: defaults, tuner, --param */
    struct gemm_size size;      /* as asked */
    struct gemm_size run;       /* as launched, after padding */
    enum run_status status;
    struct error error;         /* why it was refused or failed; detail: a build log */
    struct verify_result verify;
    struct errmap errmap;       /* RUN_WRONG: where C is wrong; ERRMAP_NONE when not mapped */
    int reps;
    struct stats gflops;        /* 2*M*N*K of the asked size over each launch's time */
    struct stats seconds;       /* each launch's time */
    double wall_s;              /* median over the timed launches of each one's time on the host
                                   clock, from enqueueing it until its wait returns */
    bool clocks_disagree;       /* wall_s < seconds.median: the host clock measured less than the
                                   device's profiling clock (see measure_wall_shown) */
    double batch_gflops;        /* with check_timing: over a batch of back-to-back launches,
                                   host clock to clFinish; 0 otherwise */
    int batch_count;            /* the launches (or calls) in that batch */
    double estimate_s;          /* estimated launch time from a probe; 0 if none */
    bool refused_by_estimate;   /* RUN_REFUSED because estimate_s > limit_s; error.msg gives the
                                   estimate, what it came from and the limit, with no advice:
                                   each front end adds how to allow it (report.c: --max-launch,
                                   --force) */
    double limit_s;             /* the launch_limit_s it was judged by */
    bool cancelled;             /* stopped by cfg->cancel: status RUN_ERROR, nothing measured */
    double intensity;           /* flops per byte of global traffic under the no-cache model
                                   (roofline.h), from the lesson's loads line; 0: the lesson
                                   has no loads line (or runs on the host); -1: its layout
                                   lines give no figure at this size */
    bool on_host;               /* the host reference: not on the device's ceilings */
    enum precision precision;   /* the lesson's (lessons/FORMAT): a TF32 speed is labelled so */
    enum units units;           /* those that did its multiply-adds: the tensor cores have no
                                   ceiling the tool knows */
};

void run_result_init(struct run_result *r);
void run_result_free(struct run_result *r);
const char *run_status_name(enum run_status s);

/* Inputs and buffers for one size, shared by every lesson measured at it. */
struct workspace {
    struct ocl *cl;             /* NULL when only the host is used */
    struct gemm_size size;
    uint64_t seed;
    float *A, *B;               /* row-major, seeded random in [-1, 1) */
    float *C;                   /* the last result, row-major m x n */
    float *stage;               /* a device layout on the host */
    size_t guard;               /* floats after C that no kernel may write, checked by each
                                   fetch (a kernel that did fails with the count); 0: none */
    size_t stage_count;
    cl_mem dA, dB, dC;
    size_t capA, capB, capC;
    cl_mem dW;                  /* a lesson's scratch buffer (lessons/FORMAT: scratch), for the
                                   lessons of this size that have one */
    size_t capW;
};

int workspace_init(struct workspace *w, struct ocl *cl, struct gemm_size size, uint64_t seed,
                   struct error *e);
void workspace_free(struct workspace *w);

/* The wall time to show beside a kernel time. A launch cannot take less than its kernel, so a
   wall time below the kernel time means the host clock and the device's profiling clock
   disagree: then *shown_s is the kernel time and *disagreement the shortfall as a fraction
   of the kernel time (0.01: 1%), and it returns true. Otherwise *shown_s is wall_s,
   *disagreement 0, and it returns false. */
bool measure_wall_shown(double kernel_s, double wall_s, double *shown_s, double *disagreement);

/* A probe that estimates a launch: the same kernel on the same full-size buffers, with only
   some of the work-groups along one NDRange dimension. */
struct probe_shape {
    size_t dim;                 /* the dimension cut */
    size_t groups;              /* work-groups kept along it */
    size_t full;                /* of this many */
    double scale;               /* the whole launch's time over the probe's */
};

/* The probe of step 0, 1, 2, ... (each doubles the groups of the one before) for a launch of
   groups[d] work-groups along each of dims dimensions on a device that runs `resident`
   work-groups at once. Returns false when there is no such step: its probe would have more
   than half the groups along the dimension (at step 0: the launch is too small to be cut). */
bool measure_probe_shape(const size_t *groups, size_t dims, size_t resident, int step,
                         struct probe_shape *p);

void measure_lesson(struct workspace *w, const struct lesson *l, const struct param_set *ps,
                    const struct measure_config *cfg, struct run_result *r);

/* The compiler options a lesson's kernel is built with: its options line, each parameter as
   -DNAME=VALUE, MEASURE_ARG_INFO_OPTION, then extra (NULL: none), separated by blanks, into
   buf (len bytes). Returns 0, or -1 with a message in e when they do not fit. */
#define MEASURE_OPTIONS_MAX 4096
/* Keeps the kernel arguments' names and types for clGetKernelArgInfo, which the build checks
   against the lesson's args (kernelargs.h); a reflection option of OpenCL 1.2 that changes no
   code. */
#define MEASURE_ARG_INFO_OPTION "-cl-kernel-arg-info"
int measure_options(const struct lesson *l, const struct param_set *ps, const char *extra, char *buf,
                    size_t len, struct error *e);

/* A lesson's program and the kernel of each of its launches, in the lesson's order:
   kernel[0] is the main launch's. */
struct lesson_kernels {
    cl_program program;
    cl_kernel kernel[LESSON_MAX_LAUNCHES];
    size_t count;
};

/* Builds the lesson's program from source (NULL: its file) with its options and the
   parameters as -DNAME=VALUE, and creates the kernel of every launch (its entry and then
   lines). On a build failure, e's detail holds the build log; a missing kernel is named.
   Once built, each kernel's signature is checked against its launch's args (kernelargs_check):
   a mismatch returns MEASURE_ARGS_DIFFER. Nothing is left to release after a failure. */
#define MEASURE_ARGS_DIFFER (-2)
int measure_build(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *source,
                  struct lesson_kernels *k, struct error *e);
/* The same with extra compiler options after those (NULL: none). */
int measure_build_extra(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *source,
                        const char *extra, struct lesson_kernels *k, struct error *e);
void measure_kernels_release(struct lesson_kernels *k);

/* Refuses, with a message in e, a launch of geometry g whose matrices (after padding) have
   more elements than the kernels' int indices reach. Returns 0 when they fit. */
int measure_check_indices(const struct geometry *g, struct error *e);

/* The result of a lesson at a size refused for every lesson (see workspace_init). */
void measure_refused(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                     const struct error *why, struct run_result *r);

/* A way to compute C = A B, driven by measure_run. */
enum prepare_result { PREPARED, REFUSED, FAILED };

#define LAUNCH_REFUSED (-2)

struct runner {
    /* Gets ready to compute the product of size s from the workspace's inputs (for a probe,
       smaller than the workspace: any data will do). */
    enum prepare_result (*prepare)(struct runner *self, struct gemm_size s, struct error *e);
    /* One launch, waited for; its duration (device time from profiling, or host time).
       Returns 0, -1 on an error, or LAUNCH_REFUSED when the device cannot run it. */
    int (*launch)(struct runner *self, double *seconds, struct error *e);
    /* count launches back to back, waited for once at the end; the host-clock time per
       launch. */
    int (*batch)(struct runner *self, int count, double *seconds, struct error *e);
    /* Optional (NULL: the launch time is estimated from smaller sizes): after prepare at the
       full size, the work-groups per NDRange dimension, how many the device runs at once
       and what a group is called; false when that is not known. */
    bool (*groups)(struct runner *self, size_t *groups, size_t *dims, size_t *resident,
                   const char **unit);
    /* Optional, with groups: one launch of the prepared product with only the first `groups`
       work-groups along dimension dim, waited for; its duration as for launch. */
    int (*launch_part)(struct runner *self, size_t dim, size_t groups, double *seconds, struct error *e);
    /* Copies the result of the last launch at the full size into w->C. */
    int (*fetch)(struct runner *self, struct error *e);
    struct workspace *w;
    long long tile_rows, tile_cols; /* the block of C a work-group computes, for the error map
                                       of a wrong result; 0 when not known */
    bool c_column_major;        /* the kernel stores C column by column (for the error map) */
    enum precision precision;   /* what the result is verified to (verify_tolerance_for) */
    int calls_per_launch;       /* a launch that is a batch of calls reports time per call */
};

void measure_run(struct runner *runner, const struct measure_config *cfg, struct run_result *r);

/* For device runners: upload A and B in the given layouts (C is filled with NaN so that an
   element the kernel never writes fails verification), and read C back. Call
   workspace_check_memory first: it refuses, with the figures, buffers beyond the device. */
int workspace_upload(struct workspace *w, struct gemm_size s, const struct matrix_layout *a,
                     const struct matrix_layout *b, const struct matrix_layout *c, struct error *e);
int workspace_fetch(struct workspace *w, const struct matrix_layout *c, struct error *e);

/* Refuses, with the figures, buffers beyond the device: each of A, B and C and a scratch
   buffer of scratch_bytes (0: none) within its largest allocation, all of them within its
   global memory. */
int workspace_check_memory(const struct workspace *w, const struct matrix_layout *a,
                           const struct matrix_layout *b, const struct matrix_layout *c, size_t scratch_bytes,
                           struct error *e);
/* Both: REFUSED beyond the device's memory, FAILED when the upload fails. */
enum prepare_result workspace_load(struct workspace *w, struct gemm_size s, const struct matrix_layout *a,
                                   const struct matrix_layout *b, const struct matrix_layout *c,
                                   struct error *e);

double now_seconds(void);

#endif
