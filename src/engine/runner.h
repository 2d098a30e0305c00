/* runner.h: the ways of computing C = A B that measure_run times and verifies, each kind in
   a file of its own behind a table of operations (struct runner_ops):
     runner_host.c     the host lesson: lesson 0's loop on one core of the CPU
     runner_opencl.c   a lesson's kernels on the OpenCL device
     runner_clblast.c  CLBlast's SGEMM on the device, a reference row
     runner_cblas.c    the CPU's BLAS (OpenBLAS) on the host, a reference row
   A lesson's runner is the one of its engine (runner_for_engine, in runner.c); the reference
   rows are listed in reference.c. Adding a kind of runner: its file, and its line in one of
   those tables. */
#ifndef CLMM_RUNNER_H
#define CLMM_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "build.h"
#include "geometry.h"
#include "lesson.h"
#include "matrix.h"
#include "params.h"
#include "precision.h"

struct runner;
struct workspace;               /* measure.h's: the inputs and buffers a runner computes from */

/* What a runner's prepare returns. */
enum prepare_result { PREPARED, REFUSED, FAILED };

/* What a launch returns when the device refuses it. */
#define LAUNCH_REFUSED (-2)

struct runner_ops {
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
    /* Optional: releases what the runner holds, after the measurement. */
    void (*release)(struct runner *self);
};

struct runner {
    const struct runner_ops *ops;
    struct workspace *w;
    long long tile_rows, tile_cols; /* the block of C a work-group computes, for the error map
                                       of a wrong result; 0 when not known */
    bool c_column_major;        /* the kernel stores C column by column (for the error map) */
    unsigned uses;              /* what the kernel uses, for the map's hint (enum errmap_uses) */
    enum precision precision;   /* what the result is verified to (verify_tolerance_for) */
    int calls_per_launch;       /* a launch that is a batch of calls reports time per call */
};

/* A lesson's runner: the lesson at a size, with its parameters. */
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

/* The runner of a lesson's engine (lessons/FORMAT: engine), and what measure_lesson needs to
   know of it. */
struct engine_runner {
    const struct runner_ops *ops;
    bool needs_device;          /* runs on the OpenCL device: refused without one */
    bool on_host;               /* runs on the host CPU: not on the device's ceilings */
};

extern const struct engine_runner runner_host, runner_opencl;

const struct engine_runner *runner_for_engine(enum lesson_engine engine);

#endif
