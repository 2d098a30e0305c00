/* runner_cblas.c: the CPU's own BLAS as a reference row, when configure found a CBLAS
   (OpenBLAS): what the host's cores reach with a tuned library, the comparison that
   notebooks make between a GPU kernel and numpy's BLAS.

   It multiplies the lessons' inputs, the workspace's A and B, on the host with
   cblas_sgemm (row-major, as the workspace keeps them) straight into the workspace's C,
   and is verified as every row is. A call returns when the product is done, so it is timed
   as CLBlast is: batches of back-to-back calls on the host clock (runner_calls.h). Its
   threads are OpenBLAS's own (OPENBLAS_NUM_THREADS, else one per core), counted by
   openblas_get_num_threads and said in its title, which fits the table's 28 columns. */
#include "runner_cblas.h"

#include <stdio.h>
#include <string.h>

#include "runner_calls.h"

void cblas_title_for(int threads, char *buf, size_t len)
{
    if (threads > 0)
        snprintf(buf, len, "CPU BLAS (%d thread%s)", threads, threads == 1 ? "" : "s");
    else
        snprintf(buf, len, "CPU BLAS (CBLAS)");
}

#ifdef HAVE_CBLAS
#include <cblas.h>

#ifdef HAVE_OPENBLAS_GET_NUM_THREADS
int openblas_get_num_threads(void);     /* OpenBLAS's cblas.h has it; another CBLAS's may not */
#endif

static int library_threads(void)
{
#ifdef HAVE_OPENBLAS_GET_NUM_THREADS
    return openblas_get_num_threads();
#else
    return 0;
#endif
}

/* count calls back-to-back; each returns with its product done. */
static int cblas_calls(struct calls_runner *cr, int count, struct error *e)
{
    struct workspace *w = cr->base.w;
    struct gemm_size s = cr->size;

    (void)e;
    for (int i = 0; i < count; i++)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)s.m, (int)s.n, (int)s.k, 1.0f, w->A, (int)s.k,
                    w->B, (int)s.n, 0.0f, w->C, (int)s.n);
    return 0;
}

/* A probe's smaller product reads the first elements of A and B as its matrices, and writes
   the first of C: any values will do. */
static enum prepare_result cblas_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct calls_runner *cr = (struct calls_runner *)self;

    cr->size = s;
    return calls_runner_size_batch(cr, e);
}

static int cblas_fetch(struct runner *self, struct error *e)
{
    (void)self;
    (void)e;
    return 0;   /* the library computed straight into w->C */
}

static const struct runner_ops cblas_ops = {
    .prepare = cblas_prepare,
    .launch = calls_runner_launch,
    .batch = calls_runner_batch,
    .fetch = cblas_fetch,
};

static void cblas_measure(struct workspace *w, const struct reference_settings *rs, const struct measure_config *cfg,
                          struct run_result *r)
{
    struct calls_runner cr;

    (void)rs;
    memset(&cr, 0, sizeof cr);
    cr.base.w = w;
    cr.base.ops = &cblas_ops;
    cr.calls = cblas_calls;
    r->on_host = true;
    measure_run(&cr.base, cfg, r);
}

static void cblas_title(const struct reference_settings *rs, char *buf, size_t len)
{
    (void)rs;
    cblas_title_for(library_threads(), buf, len);
}

const struct reference_kind reference_cblas = { -2, "the CPU's BLAS", cblas_title, NULL, cblas_measure };

#endif
