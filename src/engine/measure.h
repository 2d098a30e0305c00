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
#include "runner.h"
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
    bool emulated;              /* its PTX ran emulated (needs.h: lesson_emulated): right or wrong
                                   as on NVIDIA, but its speed is not the tensor cores' */
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
    /* When set, measure_lesson gives a lesson of the OpenCL engine to this instead of running
       it in this process (isolate.h: the kernels of files the tool did not ship run in a
       child; isolate_attach sets it after workspace_init). */
    void (*elsewhere)(void *ctx, const struct workspace *w, const struct lesson *l, const struct param_set *ps,
                      const struct measure_config *cfg, struct run_result *r);
    void *elsewhere_ctx;
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

/* What r says of the lesson before it is measured: its number, titles, branch, precision,
   units and parameters (ps, not NULL). */
void measure_describe(struct run_result *r, const struct lesson *l, const struct param_set *ps);

/* The result of a lesson at a size refused for every lesson (see workspace_init). */
void measure_refused(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                     const struct error *why, struct run_result *r);

/* Times and verifies the runner's product (runner.h) as measure_lesson does, into r. */
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
