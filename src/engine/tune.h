/* tune.h: the autotuner: a bounded, resumable search of a lesson's parameter space. */
#ifndef CLMM_TUNE_H
#define CLMM_TUNE_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"
#include "measure.h"

struct tune_options {
    struct measure_config measure;
    size_t max_configs;         /* measured in one run */
    double time_limit_s;        /* no new configuration starts after this */
    bool restart;               /* forget the log of an earlier search */
};

/* One configuration measured (or found in the log of an earlier run). */
struct tune_step {
    size_t index;               /* in the space */
    size_t space;               /* its size */
    size_t done;                /* configurations known so far, this one included */
    const struct param_set *params;
    const struct run_result *result;
    bool best;                  /* the fastest so far */
    bool from_log;              /* measured by an earlier run */
};

struct tune_result {
    size_t space;
    size_t done;                /* measured, now or by earlier runs */
    size_t measured;            /* by this run */
    size_t verified;
    bool complete;              /* every configuration is done */
    bool space_changed;         /* an earlier log was of other parameter values: not replayed */
    bool stopped_by_time, stopped_by_count, stopped_by_cancel;
    struct param_set best;
    double best_gflops;         /* 0 when nothing verified */
    double *gflops;             /* of every verified configuration, malloc'd */
    size_t ngflops;
};

/* The number of configurations: the product of the numbers of allowed values of the
   parameters that are not switches. */
size_t tune_space_size(const struct lesson *l);
/* The configuration at index, the last parameter varying fastest; switches at their
   defaults. */
void tune_space_get(const struct lesson *l, size_t index, struct param_set *ps);
/* The index of a configuration (of allowed values); its switches do not count. */
size_t tune_space_index(const struct lesson *l, const struct param_set *ps);

/* $XDG_STATE_HOME/clmm-tutor/tune/DEVICE-lesson-N-MxNxK.log (or ~/.local/state/...). */
int tune_log_path(const char *device, int lesson, struct gemm_size size, char *buf, size_t len);

/* Searches the space at the workspace's size, appending each result to the log at
   log_path and calling step for each configuration (those of the log first). The
   lesson's defaults are measured first, so the best found is never worse than them. */
int tune_run(struct workspace *w, const struct lesson *l, const struct tune_options *o,
             const char *log_path, void (*step)(void *ctx, const struct tune_step *s), void *ctx,
             struct tune_result *res, struct error *e);
void tune_result_free(struct tune_result *res);

#endif
