/* runner_calls.h: the timing of a library's SGEMM (runner_clblast.c, runner_cblas.c), which
   no profiling event covers: each timed "launch" is a batch of back-to-back calls on the host
   clock, up to the end of the last, divided by the batch size. The batch, sized from warm
   calls, lasts at least a millisecond (or is 128 calls) so that call overhead is amortised
   as launch overhead is on the device. */
#ifndef CLMM_RUNNER_CALLS_H
#define CLMM_RUNNER_CALLS_H

#include "runner.h"

struct calls_runner {
    struct runner base;         /* base.calls_per_launch: the batch */
    struct gemm_size size;      /* of the prepared product */
    /* count calls of the product of size, back to back, the last one waited for. */
    int (*calls)(struct calls_runner *self, int count, struct error *e);
};

/* The end of a calls runner's prepare, the product of cr->size ready to be called: one call
   to do the library's one-time work (compiling its kernels), then the batch doubled until it
   lasts long enough. Its result is overwritten by the launch that is verified. */
enum prepare_result calls_runner_size_batch(struct calls_runner *cr, struct error *e);

/* The launch and batch operations of a calls runner (struct runner_ops). */
int calls_runner_launch(struct runner *self, double *seconds, struct error *e);
int calls_runner_batch(struct runner *self, int count, double *seconds, struct error *e);

#endif
