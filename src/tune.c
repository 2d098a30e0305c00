/* tune.c: the autotuner.

   The space is the product of the lesson's allowed parameter values, visited in order.
   Each configuration is measured like any run: refused (a require line, a device limit),
   failing to build, wrong, or verified and timed. Every outcome is appended to a log, so
   a search stopped by its time or count limit, or by the user, resumes where it ended. */
#include "tune.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "tuned.h"

size_t tune_space_size(const struct lesson *l)
{
    size_t n = 1;

    for (size_t i = 0; i < l->nparams; i++)
        if (__builtin_mul_overflow(n, l->params[i].nvalues, &n))
            return (size_t)-1;
    return n;
}

void tune_space_get(const struct lesson *l, size_t index, struct param_set *ps)
{
    memset(ps, 0, sizeof *ps);
    for (size_t i = l->nparams; i-- > 0;) {
        const struct lesson_param *p = &l->params[i];
        ps->values[i] = p->values[index % p->nvalues];
        index /= p->nvalues;
    }
}

size_t tune_space_index(const struct lesson *l, const struct param_set *ps)
{
    size_t index = 0;

    for (size_t i = 0; i < l->nparams; i++) {
        const struct lesson_param *p = &l->params[i];
        size_t v = 0;
        while (v + 1 < p->nvalues && p->values[v] != ps->values[i])
            v++;
        index = index * p->nvalues + v;
    }
    return index;
}

int tune_log_path(const char *device, int lesson, struct gemm_size size, char *buf, size_t len)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char name[128];
    size_t j = 0;
    int n;

    /* The device's name as a file name: letters and digits, the rest as '-'. */
    for (const char *c = device; *c && j < sizeof name - 1; c++)
        name[j++] = isalnum((unsigned char)*c) ? *c : '-';
    name[j] = '\0';
    if (state && *state)
        n = snprintf(buf, len, "%s/clmm-tutor/tune/%s-lesson-%d-%lldx%lldx%lld.log", state, name, lesson,
                     size.m, size.n, size.k);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.local/state/clmm-tutor/tune/%s-lesson-%d-%lldx%lldx%lld.log", home,
                     name, lesson, size.m, size.n, size.k);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

static void add_outcome(struct tune_result *res, const struct param_set *ps, const struct run_result *r,
                        bool *best)
{
    *best = false;
    res->done++;
    if (r->status != RUN_OK)
        return;
    res->verified++;
    res->gflops = realloc(res->gflops, (res->ngflops + 1) * sizeof *res->gflops);
    if (!res->gflops)
        abort();
    res->gflops[res->ngflops++] = r->gflops.median;
    if (r->gflops.median > res->best_gflops) {
        res->best_gflops = r->gflops.median;
        res->best = *ps;
        *best = true;
    }
}

/* Replays an earlier run's log: "index <tab> status <tab> GFLOPS <tab> reason". */
static void replay(FILE *log, const struct lesson *l, bool *done, struct tune_result *res,
                   void (*step)(void *, const struct tune_step *), void *ctx)
{
    char line[2048];

    while (fgets(line, sizeof line, log)) {
        char *status, *gflops, *reason;
        long long index;
        struct param_set ps;
        struct run_result r;
        struct tune_step st;
        if (!(status = strchr(line, '\t')) || !(gflops = strchr(status + 1, '\t')) ||
            !(reason = strchr(gflops + 1, '\t')))
            continue;
        *status++ = *gflops++ = *reason++ = '\0';
        reason[strcspn(reason, "\n")] = '\0';
        if (str_to_ll(line, &index) < 0 || index < 0 || (size_t)index >= res->space || done[index])
            continue;
        done[index] = true;
        run_result_init(&r);
        r.lesson = l->number;
        r.status = strcmp(status, "ok") == 0 ? RUN_OK : strcmp(status, "wrong result") == 0 ? RUN_WRONG
                 : strcmp(status, "refused") == 0 ? RUN_REFUSED : RUN_ERROR;
        r.gflops.median = strtod(gflops, NULL);
        error_set(&r.error, "%s", reason);
        tune_space_get(l, (size_t)index, &ps);
        st = (struct tune_step){ (size_t)index, res->space, 0, &ps, &r, false, true };
        add_outcome(res, &ps, &r, &st.best);
        st.done = res->done;
        step(ctx, &st);
        run_result_free(&r);
    }
}

int tune_run(struct workspace *w, const struct lesson *l, const struct tune_options *o,
             const char *log_path, void (*step)(void *ctx, const struct tune_step *s), void *ctx,
             struct tune_result *res, struct error *e)
{
    double start = now_seconds();
    struct param_set defaults;
    size_t first;
    bool *done;
    FILE *log;

    memset(res, 0, sizeof *res);
    res->space = tune_space_size(l);
    if (res->space == (size_t)-1 || res->space > 1000000) {
        error_set(e, "lesson %d has too many parameter combinations to search", l->number);
        return -1;
    }
    done = calloc(res->space, sizeof *done);
    if (!done)
        abort();
    if (make_parents(log_path, e) < 0) {
        free(done);
        return -1;
    }
    log = fopen(log_path, o->restart ? "w+" : "a+");
    if (!log) {
        error_set(e, "cannot open the tuning log %s: %s", log_path, strerror(errno));
        free(done);
        return -1;
    }
    rewind(log);
    replay(log, l, done, res, step, ctx);
    param_set_defaults(l, &defaults);
    first = tune_space_index(l, &defaults);
    /* The defaults first, then the space in order. */
    for (size_t n = 0; n <= res->space; n++) {
        size_t i = n == 0 ? first : n - 1;
        struct param_set ps;
        struct run_result r;
        struct tune_step st;
        if (done[i])
            continue;
        if (res->measured == o->max_configs) {
            res->stopped_by_count = true;
            break;
        }
        if (now_seconds() - start > o->time_limit_s) {
            res->stopped_by_time = true;
            break;
        }
        tune_space_get(l, i, &ps);
        run_result_init(&r);
        measure_lesson(w, l, &ps, &o->measure, &r);
        done[i] = true;
        res->measured++;
        st = (struct tune_step){ i, res->space, 0, &ps, &r, false, false };
        add_outcome(res, &ps, &r, &st.best);
        st.done = res->done;
        /* Tabs and newlines would break the log's lines. */
        for (char *c = r.error.msg; *c; c++)
            if (*c == '\t' || *c == '\n')
                *c = ' ';
        fprintf(log, "%zu\t%s\t%.6g\t%s\n", i, run_status_name(r.status),
                r.status == RUN_OK ? r.gflops.median : 0.0, r.error.msg);
        fflush(log);
        step(ctx, &st);
        run_result_free(&r);
    }
    res->complete = res->done == res->space;
    fclose(log);
    free(done);
    return 0;
}

void tune_result_free(struct tune_result *res)
{
    free(res->gflops);
    res->gflops = NULL;
    res->ngflops = 0;
}
