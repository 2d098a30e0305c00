/* reference.c: CLBlast SGEMM as the reference row, when configure found CLBlast.

   It runs on the same buffers and is timed the same way as the lessons: with the profiling
   event CLBlast returns. That event covers CLBlast's last kernel; for sizes where CLBlast
   first pads or transposes its inputs with helper kernels, those are not counted, which
   can only flatter the reference. */
#include "reference.h"

#include <stdio.h>
#include <string.h>

#ifdef HAVE_CLBLAST
#include <clblast_c.h>

struct clblast_runner {
    struct runner base;
    struct gemm_size size;
    struct matrix_layout a, b, c;
};

static enum prepare_result clblast_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct clblast_runner *cr = (struct clblast_runner *)self;

    cr->size = s;
    cr->a = (struct matrix_layout){ s.m, s.k, false, false };
    cr->b = (struct matrix_layout){ s.k, s.n, false, false };
    cr->c = (struct matrix_layout){ s.m, s.n, false, false };
    return workspace_upload(self->w, s, &cr->a, &cr->b, &cr->c, e) < 0 ? REFUSED : PREPARED;
}

static int clblast_launch(struct runner *self, double *seconds, struct error *e)
{
    struct clblast_runner *cr = (struct clblast_runner *)self;
    struct workspace *w = self->w;
    cl_event ev = NULL;
    CLBlastStatusCode rc;
    int result;

    rc = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                      (size_t)cr->size.m, (size_t)cr->size.n, (size_t)cr->size.k, 1.0f,
                      w->dA, 0, (size_t)cr->size.k, w->dB, 0, (size_t)cr->size.n, 0.0f,
                      w->dC, 0, (size_t)cr->size.n, &w->cl->queue, &ev);
    if (rc != CLBlastSuccess) {
        if (rc > -1024)
            clerror_set(e, "CLBlastSgemm", (cl_int)rc);
        else
            error_set(e, "CLBlastSgemm failed with CLBlast status %d (see clblast_c.h)", (int)rc);
        return -1;
    }
    if (clWaitForEvents(1, &ev) != CL_SUCCESS) {
        error_set(e, "clWaitForEvents failed after CLBlastSgemm");
        clReleaseEvent(ev);
        return -1;
    }
    result = ocl_event_seconds(ev, seconds, e);
    clReleaseEvent(ev);
    return result;
}

static int clblast_fetch(struct runner *self, struct error *e)
{
    return workspace_fetch(self->w, &((struct clblast_runner *)self)->c, e);
}

bool reference_available(void)
{
    return true;
}

void reference_measure(struct workspace *w, const struct measure_config *cfg, struct run_result *r)
{
    struct clblast_runner cr;

    memset(&cr, 0, sizeof cr);
    cr.base.w = w;
    cr.base.prepare = clblast_prepare;
    cr.base.launch = clblast_launch;
    cr.base.fetch = clblast_fetch;
    r->lesson = -1;
    snprintf(r->title, sizeof r->title, "CLBlast SGEMM");
    measure_run(&cr.base, cfg, r);
    r->run = w->size;
}

#else

bool reference_available(void)
{
    return false;
}

void reference_measure(struct workspace *w, const struct measure_config *cfg, struct run_result *r)
{
    (void)w;
    (void)cfg;
    r->lesson = -1;
    snprintf(r->title, sizeof r->title, "CLBlast SGEMM");
    r->status = RUN_REFUSED;
    error_set(&r->error, "this build has no CLBlast (configure --with-clblast)");
}

#endif
