/* results.c: the session's measurements by device, size, lesson and parameters.

   Each key holds the medians of its runs (the newest RESULTS_RUNS), whether any run was
   wrong, and the newest failure; a summary is computed from them when asked for. The
   store only grows during a session (a teacher going back to a size finds its ladder
   again) except when a lesson's kernel is reloaded, which makes its runs meaningless. */
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "str.h"
#include "xalloc.h"

struct result_entry {
    int device;
    struct gemm_size size;
    int lesson;
    char params[256];
    bool tuned, partial;
    bool wrong;                 /* a run failed verification: never a speed again */
    enum run_status last_status;
    char message[256];          /* of the newest run that was not RUN_OK */
    double estimate_s;          /* its estimate, when it was refused for it */
    double runs[RESULTS_RUNS];  /* GFLOPS medians, a ring: the newest count ones */
    size_t nruns, next;
    int launches;
    double run_q1, run_q3;      /* the quartiles of the newest run's launches */
    double intensity;           /* of the newest run (the same for every run of a key) */
    unsigned long serial;       /* when it last changed */
};

void results_init(struct results *rs)
{
    memset(rs, 0, sizeof *rs);
}

void results_free(struct results *rs)
{
    free(rs->items);
    results_init(rs);
}

static bool same_size(struct gemm_size a, struct gemm_size b)
{
    return a.m == b.m && a.n == b.n && a.k == b.k;
}

static bool same_place(const struct result_entry *e, int device, struct gemm_size size, int lesson)
{
    return e->device == device && e->lesson == lesson && same_size(e->size, size);
}

static struct result_entry *entry(struct results *rs, int device, struct gemm_size size, int lesson,
                                  const char *params)
{
    struct result_entry *e;

    for (size_t i = 0; i < rs->count; i++)
        if (same_place(&rs->items[i], device, size, lesson) && strcmp(rs->items[i].params, params) == 0)
            return &rs->items[i];
    if (rs->count == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 32;
        struct result_entry *grown = xreallocarray(rs->items, cap, sizeof *grown);
        rs->items = grown;
        rs->cap = cap;
    }
    e = &rs->items[rs->count++];
    memset(e, 0, sizeof *e);
    e->device = device;
    e->size = size;
    e->lesson = lesson;
    snprintf(e->params, sizeof e->params, "%s", params);
    return e;
}

void results_add(struct results *rs, int device, struct gemm_size size, int lesson, bool tuned, bool partial,
                 const struct run_result *r)
{
    struct result_entry *e;

    if (r->cancelled)
        return;
    e = entry(rs, device, size, lesson, r->params);
    e->tuned = tuned;
    e->partial = partial;
    e->last_status = r->status;
    e->serial = ++rs->serial;
    e->intensity = r->intensity;
    if (r->status == RUN_OK) {
        e->runs[e->next] = r->gflops.median;
        e->next = (e->next + 1) % RESULTS_RUNS;
        if (e->nruns < RESULTS_RUNS)
            e->nruns++;
        e->launches = r->reps;
        e->run_q1 = r->gflops.q1;
        e->run_q3 = r->gflops.q3;
        return;
    }
    e->wrong |= r->status == RUN_WRONG;
    e->estimate_s = r->refused_by_estimate ? r->estimate_s : 0.0;
    str_copy(e->message, sizeof e->message, r->error.msg);
}

/* The runs of e, oldest first. */
static size_t runs_in_order(const struct result_entry *e, double *out)
{
    size_t first = e->nruns < RESULTS_RUNS ? 0 : e->next;

    for (size_t i = 0; i < e->nruns; i++)
        out[i] = e->runs[(first + i) % RESULTS_RUNS];
    return e->nruns;
}

void results_summary(const struct results *rs, int device, struct gemm_size size, int lesson, const char *params,
                     struct summary *out, double *history, size_t *nhistory)
{
    const struct result_entry *match = NULL, *other = NULL;
    double runs[RESULTS_RUNS];
    struct stats st;
    size_t n;

    memset(out, 0, sizeof *out);
    if (nhistory)
        *nhistory = 0;
    for (size_t i = 0; i < rs->count; i++) {
        const struct result_entry *e = &rs->items[i];
        if (!same_place(e, device, size, lesson))
            continue;
        if (strcmp(e->params, params) == 0)
            match = e;
        else if (!other || e->serial > other->serial)
            other = e;
    }
    if (!match) {
        if (other) {
            out->have = out->stale = true;
            snprintf(out->params, sizeof out->params, "%s", other->params);
        }
        return;
    }
    out->have = true;
    out->tuned = match->tuned;
    out->partial = match->partial;
    out->intensity = match->intensity;
    snprintf(out->params, sizeof out->params, "%s", match->params);
    n = runs_in_order(match, runs);
    if (history && nhistory) {
        memcpy(history, runs, n * sizeof *runs);
        *nhistory = n;
    }
    if (match->wrong || n == 0) {
        out->status = match->wrong ? RUN_WRONG : match->last_status;
        out->estimate_s = out->status == RUN_REFUSED ? match->estimate_s : 0.0;
        snprintf(out->message, sizeof out->message, "%s", match->message);
        return;
    }
    stats_compute(runs, n, &st);
    out->status = RUN_OK;
    out->median = st.median;
    /* Quartiles of fewer than 3 runs say nothing: those of the newest run's launches do. */
    out->q1 = n >= 3 ? st.q1 : match->run_q1;
    out->q3 = n >= 3 ? st.q3 : match->run_q3;
    out->latest = runs[n - 1];
    out->runs = n;
    out->launches = match->launches;
}

void results_forget_lesson(struct results *rs, int lesson)
{
    size_t kept = 0;

    for (size_t i = 0; i < rs->count; i++)
        if (rs->items[i].lesson != lesson)
            rs->items[kept++] = rs->items[i];
    rs->count = kept;
}
