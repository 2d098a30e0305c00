/* results.h: every measurement the interactive screen made in this session, kept by
   device, size, lesson and parameters, and what each key sums up to: the median and
   quartiles of its runs. The bar chart and the current lesson's "median" line both read
   their number here, so they cannot disagree; a result of other parameters is never
   passed off as the one of the parameters in use. No curses here. */
#ifndef CLMM_RESULTS_H
#define CLMM_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "geometry.h"
#include "measure.h"

#define RESULTS_RUNS 240            /* runs kept per key: the newest */
#define RESULTS_REFERENCE (-1)      /* the first reference row's index: a reference row is kept by its
                                       lesson number (reference.h), -1 and below */

/* What is known of one lesson (or of the reference library) at one size. */
struct summary {
    bool have;                  /* something was measured (maybe with other parameters) */
    bool stale;                 /* only with other parameters: nothing below is current */
    enum run_status status;     /* RUN_WRONG if any run was wrong; else RUN_OK once a run was */
    double median, q1, q3;      /* GFLOPS over the runs, when status is RUN_OK (with fewer
                                   than 3 runs, q1 and q3 are the newest run's, over its
                                   timed launches) */
    double latest;              /* the newest run's own median */
    size_t runs;                /* runs summed up (each run: a verified warm-up, then timed launches) */
    int launches;               /* timed launches of the newest run */
    bool tuned;                 /* its parameters were the tuner's */
    bool partial;               /* found by a search stopped before its end */
    double estimate_s;          /* a run refused by its launch-time estimate: the estimate */
    double intensity;           /* flops per byte under the no-cache model (roofline.h); 0:
                                   not known */
    char params[256];           /* of the summed runs; with stale, of the newest other ones */
    char message[256];          /* why it is not RUN_OK */
};

struct result_entry;

struct results {
    struct result_entry *items;
    size_t count, cap;
    unsigned long serial;       /* orders the entries' last changes */
};

void results_init(struct results *rs);
void results_free(struct results *rs);

/* Records one run of lesson (an index, or a reference row's number) on device at size with the
   parameters written as in r->params, tuned (by a partial search) or not. A run that was
   cancelled records nothing. */
void results_add(struct results *rs, int device, struct gemm_size size, int lesson, bool tuned, bool partial,
                 const struct run_result *r);

/* What the runs of lesson on device at size with params sum up to. When none was made with
   these parameters but some with others, out->stale is set and out->params names the
   newest of those. history (may be NULL) receives the GFLOPS of the runs summed up, oldest
   first, RESULTS_RUNS at most; *nhistory their count. */
void results_summary(const struct results *rs, int device, struct gemm_size size, int lesson, const char *params,
                     struct summary *out, double *history, size_t *nhistory);

/* Forgets every run of lesson (its kernel changed). */
void results_forget_lesson(struct results *rs, int lesson);

#endif
