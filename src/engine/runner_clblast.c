/* runner_clblast.c: CLBlast SGEMM as a reference row, when configure found CLBlast.

   It runs on the same buffers and inputs as the lessons and is verified the same way. It
   cannot be timed by a profiling event: CLBlast may run helper kernels (padding,
   transposition) before its main kernel, and its event covers only the last one (on POCL at
   2048 that made it look 300 times faster than it was). So it is timed in batches of
   back-to-back calls on the host clock, up to clFinish (runner_calls.h).

   Parameters that CLBlast's tuners found for the device (clblastparams.h) are applied with
   CLBlastOverrideParameters before each measurement; CLBlast keys its compiled programs by
   their parameters, so it compiles the kernels again with them. */
#include "runner_clblast.h"

#include <stdio.h>
#include <string.h>

#include "runner_calls.h"
#include "str.h"

#ifdef HAVE_CLBLAST
/* clblast_c.h declares CLBlastClearCache() without "void". */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <clblast_c.h>
#pragma GCC diagnostic pop

/* CLBlast's own status codes, beyond OpenCL's (clblast_c.h). */
static const struct {
    CLBlastStatusCode code;
    const char *name, *meaning;
} statuses[] = {
    { CLBlastNotImplemented, "CLBlastNotImplemented", "not implemented" },
    { CLBlastInvalidDimension, "CLBlastInvalidDimension", "M, N and K must be above zero" },
    { CLBlastInsufficientMemoryTemp, "CLBlastInsufficientMemoryTemp", "temporary buffer too small" },
    { CLBlastInvalidOverrideKernel, "CLBlastInvalidOverrideKernel", "no such kernel to override" },
    { CLBlastMissingOverrideParameter, "CLBlastMissingOverrideParameter",
      "a parameter of the kernel is missing from the override" },
    { CLBlastInvalidLocalMemUsage, "CLBlastInvalidLocalMemUsage", "the parameters need more local memory than the "
                                                                  "device has" },
    { CLBlastDatabaseError, "CLBlastDatabaseError", "no entry for the device in the database" },
    { CLBlastUnknownError, "CLBlastUnknownError", "an unspecified error" },
    { CLBlastUnexpectedError, "CLBlastUnexpectedError", "an unexpected exception" },
};

/* A failed call's status in e: OpenCL's by name, CLBlast's own by name where known. */
static void status_set(struct error *e, const char *call, CLBlastStatusCode rc)
{
    if (rc > -1024) {
        clerror_set(e, call, (cl_int)rc);
        return;
    }
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (statuses[i].code == rc) {
            error_set(e, "%s failed: %s (%d: %s)", call, statuses[i].name, (int)rc, statuses[i].meaning);
            return;
        }
    error_set(e, "%s failed with CLBlast status %d (see clblast_c.h)", call, (int)rc);
}

struct clblast_runner {
    struct calls_runner base;
    struct matrix_layout c;
};

static int call_sgemm(struct calls_runner *cr, struct error *e)
{
    struct workspace *w = cr->base.w;
    CLBlastStatusCode rc;

    rc = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                      (size_t)cr->size.m, (size_t)cr->size.n, (size_t)cr->size.k, 1.0f,
                      w->dA, 0, (size_t)cr->size.k, w->dB, 0, (size_t)cr->size.n, 0.0f,
                      w->dC, 0, (size_t)cr->size.n, &w->cl->queue, NULL);
    if (rc == CLBlastSuccess)
        return 0;
    status_set(e, "CLBlastSgemm", rc);
    return -1;
}

/* count calls back-to-back, up to clFinish. */
static int clblast_calls(struct calls_runner *cr, int count, struct error *e)
{
    cl_int rc;

    for (int i = 0; i < count; i++)
        if (call_sgemm(cr, e) < 0)
            return -1;
    rc = clFinish(cr->base.w->cl->queue);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clFinish", rc);
        return -1;
    }
    return 0;
}

static enum prepare_result clblast_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct clblast_runner *cr = (struct clblast_runner *)self;
    struct matrix_layout a = { s.m, s.k, false, false }, b = { s.k, s.n, false, false };
    enum prepare_result pr;

    cr->base.size = s;
    cr->c = (struct matrix_layout){ s.m, s.n, false, false };
    pr = workspace_load(self->w, s, &a, &b, &cr->c, e);
    if (pr != PREPARED)
        return pr;
    return calls_runner_size_batch(&cr->base, e);
}

static int clblast_fetch(struct runner *self, struct error *e)
{
    return workspace_fetch(self->w, &((struct clblast_runner *)self)->c, e);
}

static const struct runner_ops clblast_ops = {
    .prepare = clblast_prepare,
    .launch = calls_runner_launch,
    .batch = calls_runner_batch,
    .fetch = clblast_fetch,
};

int clblast_apply(const struct ocl *cl, const struct clblast_params *tuned, struct error *e)
{
    if (clblast_params_check_device(tuned, cl->device->name, e) < 0)
        return -1;
    for (size_t i = 0; i < tuned->nkernels; i++) {
        const struct clblast_kernel *k = &tuned->kernels[i];
        const char *names[CLBLAST_PARAMS_MAX_VALUES];
        CLBlastStatusCode rc;
        for (size_t j = 0; j < k->count; j++)
            names[j] = k->names[j];
        rc = CLBlastOverrideParameters(cl->device->id, k->name, CLBlastPrecisionSingle, k->count, names, k->values);
        if (rc != CLBlastSuccess) {
            status_set(e, "CLBlastOverrideParameters", rc);
            error_prefix(e, "CLBlast refused the parameters of %s from %s", k->name, k->file);
            return -1;
        }
    }
    return 0;
}

static void clblast_measure(struct workspace *w, const struct reference_settings *rs,
                            const struct measure_config *cfg, struct run_result *r)
{
    const struct clblast_params *tuned = rs->clblast;
    struct clblast_runner cr;

    if (tuned && clblast_apply(w->cl, tuned, &r->error) < 0) {
        r->status = RUN_ERROR;
        return;
    }
    memset(&cr, 0, sizeof cr);
    cr.base.base.w = w;
    cr.base.base.ops = &clblast_ops;
    cr.base.calls = clblast_calls;
    measure_run(&cr.base.base, cfg, r);
}

static const char *clblast_params(const struct reference_settings *rs)
{
    return rs->clblast ? rs->clblast->key : "";
}

static void clblast_title(const struct reference_settings *rs, char *buf, size_t len)
{
    str_copy(buf, len, rs->clblast ? "CLBlast (tuned)" : "CLBlast (defaults)");
}

const struct reference_kind reference_clblast = { -1, "CLBlast", clblast_title, clblast_params, clblast_measure };

#else

int clblast_apply(const struct ocl *cl, const struct clblast_params *tuned, struct error *e)
{
    (void)cl;
    (void)tuned;
    error_set(e, "this build has no CLBlast");
    return -1;
}
#endif
