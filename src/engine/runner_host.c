/* runner_host.c: the host lesson's runner: lesson 0's loop (hostgemm.c) on one core of the
   CPU, timed on the host clock, writing straight into the workspace's C. */
#include "runner.h"

#include "hostgemm.h"
#include "measure.h"

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

static const struct runner_ops host_ops = {
    .prepare = host_prepare,
    .launch = host_launch,
    .batch = host_batch,
    .groups = host_groups,
    .launch_part = host_launch_part,
    .fetch = host_fetch,
};

const struct engine_runner runner_host = { &host_ops, false, true };
