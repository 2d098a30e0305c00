/* reference.c: CLBlast SGEMM as the reference row, when configure found CLBlast.

   It runs on the same buffers and inputs as the lessons and is verified the same way. It
   cannot be timed by a profiling event: CLBlast may run helper kernels (padding,
   transposition) before its main kernel, and its event covers only the last one (on POCL at
   2048 that made it look 300 times faster than it was). So each timed "launch" is a batch
   of back-to-back calls on the host clock, up to clFinish, divided by the batch size; the
   batch, sized from warm calls, lasts at least a millisecond (or is 128 calls) so that
   launch overhead is amortised as it is on the device. */
#include "reference.h"

#include <stdio.h>
#include <string.h>

#ifdef HAVE_CLBLAST
/* clblast_c.h declares CLBlastClearCache() without "void". */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <clblast_c.h>
#pragma GCC diagnostic pop

#define BATCH_MIN_SECONDS 1e-3
#define BATCH_MAX_CALLS 128

struct clblast_runner {
    struct runner base;         /* base.calls_per_launch: the batch */
    struct gemm_size size;
    struct matrix_layout c;
};

static int call_sgemm(struct clblast_runner *cr, struct error *e)
{
    struct workspace *w = cr->base.w;
    CLBlastStatusCode rc;

    rc = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                      (size_t)cr->size.m, (size_t)cr->size.n, (size_t)cr->size.k, 1.0f,
                      w->dA, 0, (size_t)cr->size.k, w->dB, 0, (size_t)cr->size.n, 0.0f,
                      w->dC, 0, (size_t)cr->size.n, &w->cl->queue, NULL);
    if (rc == CLBlastSuccess)
        return 0;
    if (rc > -1024)
        clerror_set(e, "CLBlastSgemm", (cl_int)rc);
    else
        error_set(e, "CLBlastSgemm failed with CLBlast status %d (see clblast_c.h)", (int)rc);
    return -1;
}

/* calls back-to-back, up to clFinish, on the host clock. */
static int timed_calls(struct clblast_runner *cr, int calls, double *seconds, struct error *e)
{
    double start = now_seconds();
    cl_int rc;

    for (int i = 0; i < calls; i++)
        if (call_sgemm(cr, e) < 0)
            return -1;
    rc = clFinish(cr->base.w->cl->queue);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clFinish", rc);
        return -1;
    }
    *seconds = now_seconds() - start;
    return 0;
}

static enum prepare_result clblast_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct clblast_runner *cr = (struct clblast_runner *)self;
    struct matrix_layout a = { s.m, s.k, false, false }, b = { s.k, s.n, false, false };
    enum prepare_result pr;
    double t = 0.0;
    int calls;

    cr->size = s;
    cr->c = (struct matrix_layout){ s.m, s.n, false, false };
    pr = workspace_load(self->w, s, &a, &b, &cr->c, e);
    if (pr != PREPARED)
        return pr;
    /* One call to compile CLBlast's kernels, then double the batch until it lasts long
       enough. Its result is overwritten by the launch that is verified. */
    if (timed_calls(cr, 1, &t, e) < 0)
        return FAILED;
    for (calls = 1; calls < BATCH_MAX_CALLS; calls *= 2) {
        if (timed_calls(cr, calls, &t, e) < 0)
            return FAILED;
        if (t >= BATCH_MIN_SECONDS)
            break;
    }
    self->calls_per_launch = calls;
    return PREPARED;
}

static int clblast_batch(struct runner *self, int count, double *seconds, struct error *e)
{
    if (timed_calls((struct clblast_runner *)self, count * self->calls_per_launch, seconds, e) < 0)
        return -1;
    *seconds /= count * self->calls_per_launch;
    return 0;
}

static int clblast_launch(struct runner *self, double *seconds, struct error *e)
{
    if (timed_calls((struct clblast_runner *)self, self->calls_per_launch, seconds, e) < 0)
        return -1;
    *seconds /= self->calls_per_launch;
    return 0;
}

static int clblast_fetch(struct runner *self, struct error *e)
{
    return workspace_fetch(self->w, &((struct clblast_runner *)self)->c, e);
}

bool reference_measure(struct workspace *w, const struct measure_config *cfg, struct run_result *r)
{
    struct clblast_runner cr;

    memset(&cr, 0, sizeof cr);
    cr.base.w = w;
    cr.base.prepare = clblast_prepare;
    cr.base.launch = clblast_launch;
    cr.base.batch = clblast_batch;
    cr.base.fetch = clblast_fetch;
    r->lesson = -1;
    snprintf(r->title, sizeof r->title, "CLBlast SGEMM");
    measure_run(&cr.base, cfg, r);
    r->run = w->size;
    return true;
}

#else

bool reference_measure(struct workspace *w, const struct measure_config *cfg, struct run_result *r)
{
    (void)w;
    (void)cfg;
    (void)r;
    return false;   /* configure found no CLBlast: there is no reference row */
}

#endif
