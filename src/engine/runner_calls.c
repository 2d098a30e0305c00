/* runner_calls.c: a library's calls timed in batches on the host clock (runner_calls.h). */
#include "runner_calls.h"

#include "measure.h"

#define BATCH_MIN_SECONDS 1e-3
#define BATCH_MAX_CALLS 128

/* calls back-to-back, up to the end of the last, on the host clock. */
static int timed_calls(struct calls_runner *cr, int calls, double *seconds, struct error *e)
{
    double start = now_seconds();

    if (cr->calls(cr, calls, e) < 0)
        return -1;
    *seconds = now_seconds() - start;
    return 0;
}

enum prepare_result calls_runner_size_batch(struct calls_runner *cr, struct error *e)
{
    double t = 0.0;
    int calls;

    if (timed_calls(cr, 1, &t, e) < 0)
        return FAILED;
    for (calls = 1; calls < BATCH_MAX_CALLS; calls *= 2) {
        if (timed_calls(cr, calls, &t, e) < 0)
            return FAILED;
        if (t >= BATCH_MIN_SECONDS)
            break;
    }
    cr->base.calls_per_launch = calls;
    return PREPARED;
}

int calls_runner_batch(struct runner *self, int count, double *seconds, struct error *e)
{
    if (timed_calls((struct calls_runner *)self, count * self->calls_per_launch, seconds, e) < 0)
        return -1;
    *seconds /= count * self->calls_per_launch;
    return 0;
}

int calls_runner_launch(struct runner *self, double *seconds, struct error *e)
{
    if (timed_calls((struct calls_runner *)self, self->calls_per_launch, seconds, e) < 0)
        return -1;
    *seconds /= self->calls_per_launch;
    return 0;
}
