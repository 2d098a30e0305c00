/* tune.c: the autotuner.

   The space is the product of the lesson's allowed parameter values, visited in order;
   a switch or a range (lessons/FORMAT) is no part of it and stays at its default.
   Each configuration is measured like any run: refused (a require line, a device limit),
   failing to build, wrong, or verified and timed. Every outcome is appended to a log, so
   a search stopped by its time or count limit, or by the user, resumes where it ended. */
#include "tune.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device.h"
#include "files.h"
#include "needs.h"
#include "params.h"
#include "str.h"
#include "tuned.h"
#include "xalloc.h"

#define TUNE_LOG_MAX (64 << 20)    /* bytes: a log of every configuration of any space is far smaller */

size_t tune_space_size(const struct lesson *l)
{
    size_t n = 1;

    for (size_t i = 0; i < l->nparams; i++)
        if (lesson_param_searched(&l->params[i]) && __builtin_mul_overflow(n, l->params[i].nvalues, &n))
            return (size_t)-1;
    return n;
}

void tune_space_get(const struct lesson *l, size_t index, struct param_set *ps)
{
    memset(ps, 0, sizeof *ps);
    for (size_t i = l->nparams; i-- > 0;) {
        const struct lesson_param *p = &l->params[i];
        if (!lesson_param_searched(p)) {
            ps->values[i] = p->def;
            continue;
        }
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
        if (!lesson_param_searched(p))
            continue;
        while (v + 1 < p->nvalues && p->values[v] != ps->values[i])
            v++;
        index = index * p->nvalues + v;
    }
    return index;
}

int tune_log_path(const char *device, int lesson, struct gemm_size size, char *buf, size_t len)
{
    char name[400];
    size_t j;
    int n;

    /* The device's name as a file name: letters and digits, the rest as '-'. */
    n = snprintf(name, sizeof name, "tune/");
    j = (size_t)n;
    for (const char *c = device; *c && j < 128; c++)
        name[j++] = isalnum((unsigned char)*c) ? *c : '-';
    n = snprintf(name + j, sizeof name - j, "-lesson-%d-%lldx%lldx%lld.log", lesson, size.m, size.n, size.k);
    if (n < 0 || (size_t)n >= sizeof name - j)
        return -1;
    return files_state_path(name, buf, len);
}

static void add_outcome(struct tune_result *res, const struct param_set *ps, const struct run_result *r,
                        bool *best)
{
    *best = false;
    res->done++;
    if (r->status != RUN_OK)
        return;
    res->verified++;
    res->gflops = xrealloc(res->gflops, (res->ngflops + 1) * sizeof *res->gflops);
    res->gflops[res->ngflops++] = r->gflops.median;
    if (res->verified == 1 || r->gflops.median > res->best_gflops) {
        res->best_gflops = r->gflops.median;
        res->best = *ps;
        *best = true;
    }
}

/* The first line of a log: the space it indexes. A log of another space (the lesson's
   allowed values changed) is not replayed. */
static void space_header(const struct lesson *l, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    str_appendf(&s, "", "# clmm-tutor tuning log:");
    for (size_t i = 0; i < l->nparams; i++) {
        if (!lesson_param_searched(&l->params[i]))
            continue;
        str_appendf(&s, "", " %s=", l->params[i].name);
        for (size_t v = 0; v < l->params[i].nvalues; v++)
            str_appendf(&s, v ? "," : "", "%lld", l->params[i].values[v]);
    }
}

static bool parse_status(const char *text, enum run_status *status)
{
    static const enum run_status all[] = { RUN_OK, RUN_WRONG, RUN_REFUSED, RUN_ERROR };

    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(text, run_status_name(all[i])) == 0) {
            *status = all[i];
            return true;
        }
    return false;
}

/* Configuration index of the space as it is measured on w's device: a range parameter, a
   fact of the device, takes its rule's value there rather than its default. */
static int configuration(const struct lesson *l, size_t index, const struct workspace *w, struct param_set *ps,
                         struct error *e)
{
    tune_space_get(l, index, ps);
    if (w->cl && w->cl->device &&
        params_apply_range_rules(l, w->size, (long long)w->cl->device->compute_units, ps, e) < 0)
        return -1;
    return 0;
}

/* Records an outcome, from the log or just measured, and shows it. */
static void outcome(const struct lesson *l, const struct workspace *w, size_t index, struct run_result *r,
                    bool from_log, struct tune_result *res, void (*step)(void *, const struct tune_step *),
                    void *ctx)
{
    struct param_set ps;
    struct tune_step st;
    struct error ignored;

    /* Its rules were evaluated before the configuration was measured (or, from the log, when
       it was): they do not fail now; if one did, the default stands. */
    error_init(&ignored);
    configuration(l, index, w, &ps, &ignored);
    st = (struct tune_step){ index, res->space, 0, &ps, r, false, from_log };
    add_outcome(res, &ps, r, &st.best);
    st.done = res->done;
    step(ctx, &st);
}

static void log_outcome(FILE *log, size_t index, const struct run_result *r)
{
    char reason[sizeof r->error.msg];

    /* Tabs and newlines would break the log's lines. */
    snprintf(reason, sizeof reason, "%s", r->error.msg);
    for (char *c = reason; *c; c++)
        if (*c == '\t' || *c == '\n')
            *c = ' ';
    fprintf(log, "%zu\t%s\t%.6g\t%s\n", index, run_status_name(r->status),
            r->status == RUN_OK ? r->gflops.median : 0.0, reason);
    fflush(log);
}

/* Replays an earlier run's log: "index <tab> status <tab> GFLOPS <tab> reason" lines, and
   "index <tab> started" before each measurement, so that a configuration that ended the
   process (a crash, a hung device) is recorded as failed instead of being tried forever;
   "index <tab> cancelled" when the user stopped it, which leaves it to be measured again. */
static void replay(FILE *log, const struct lesson *l, const struct workspace *w, bool *done,
                   struct tune_result *res, void (*step)(void *, const struct tune_step *), void *ctx)
{
    char *line = NULL;
    size_t cap = 0, started = (size_t)-1;

    while (getline(&line, &cap, log) > 0) {
        char *status, *gflops, *reason, *end;
        long long index;
        double value;
        struct run_result r;
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        if (!(status = strchr(line, '\t')))
            continue;
        *status++ = '\0';
        if (str_to_ll(line, &index) < 0 || index < 0 || (size_t)index >= res->space || done[index])
            continue;
        if (strcmp(status, "started") == 0 || strcmp(status, "cancelled") == 0) {
            started = strcmp(status, "started") == 0 ? (size_t)index : (size_t)-1;
            continue;
        }
        if (!(gflops = strchr(status, '\t')) || !(reason = strchr(gflops + 1, '\t')))
            continue;
        *gflops++ = *reason++ = '\0';
        value = strtod(gflops, &end);
        run_result_init(&r);
        if (!parse_status(status, &r.status) || *end != '\0' || !isfinite(value) || value < 0)
            continue;
        done[index] = true;
        if ((size_t)index == started)
            started = (size_t)-1;
        r.lesson = l->number;
        r.gflops.median = value;
        error_set(&r.error, "%s", reason);
        outcome(l, w, (size_t)index, &r, true, res, step, ctx);
        run_result_free(&r);
    }
    free(line);
    fseek(log, 0, SEEK_END);    /* from reading to writing */
    if (started != (size_t)-1) {
        struct run_result r;
        run_result_init(&r);
        r.lesson = l->number;
        r.status = RUN_ERROR;
        error_set(&r.error, "the previous run ended while measuring this configuration");
        done[started] = true;
        log_outcome(log, started, &r);
        outcome(l, w, started, &r, true, res, step, ctx);
        run_result_free(&r);
    }
}

/* The last byte of a stream open for reading and appending, or EOF; the stream is left at
   its end, ready to be written (C11 7.21.5.3: between a read and a write, a positioning). */
static int last_byte(FILE *f)
{
    int c = fseek(f, -1, SEEK_END) == 0 ? fgetc(f) : EOF;

    fseek(f, 0, SEEK_END);
    return c;
}

/* Opens the log, locked against a second search of the same space, holding the right
   header and ending with a whole line. */
static FILE *open_log(const char *path, const struct lesson *l, bool restart, struct tune_result *res,
                      struct error *e)
{
    char header[1024], first[1024] = "";
    struct stat st;
    FILE *log;
    long size;
    int fd;

    if (make_parents(path, e) < 0)
        return NULL;
    /* Never blocked by a FIFO or a device at the log's path: open without waiting, and use
       only a regular file. */
    fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        error_set(e, "cannot open the tuning log %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        error_set(e, "the tuning log %s is %s, not a regular file: move it away", path,
                  files_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    if (!restart && st.st_size > TUNE_LOG_MAX) {
        error_set(e, "the tuning log %s is %lld bytes, more than the %d MiB a log may have: --restart starts "
                  "it anew", path, (long long)st.st_size, TUNE_LOG_MAX >> 20);
        close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    log = fdopen(fd, "a+");
    if (!log) {
        error_set(e, "cannot open the tuning log %s: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (flock(fileno(log), LOCK_EX | LOCK_NB) < 0) {
        error_set(e, "another search of this lesson on this device at this size is running (it holds %s)",
                  path);
        fclose(log);
        return NULL;
    }
    space_header(l, header, sizeof header);
    rewind(log);
    if (!fgets(first, sizeof first, log))
        first[0] = '\0';
    first[strcspn(first, "\n")] = '\0';
    fseek(log, 0, SEEK_END);
    size = ftell(log);
    if (size > 0 && (restart || strcmp(first, header) != 0)) {
        res->space_changed = !restart;
        if (ftruncate(fileno(log), 0) < 0) {
            error_set(e, "cannot empty the tuning log %s: %s", path, strerror(errno));
            fclose(log);
            return NULL;
        }
        size = 0;
    }
    if (size == 0)
        fprintf(log, "%s\n", header);
    else if (last_byte(log) != '\n')
        fputc('\n', log);  /* a line cut short by a crash stays a line of its own */
    fflush(log);
    rewind(log);
    return log;
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
    /* Every configuration would be refused alike: the search is, once. */
    if (w->cl && lesson_device_check(l, w->cl->device, e) < 0)
        return -1;
    res->space = tune_space_size(l);
    if (res->space == (size_t)-1 || res->space > 1000000) {
        error_set(e, "lesson %d has too many parameter combinations to search", l->number);
        return -1;
    }
    log = open_log(log_path, l, o->restart, res, e);
    if (!log)
        return -1;
    done = xcalloc(res->space, sizeof *done);
    replay(log, l, w, done, res, step, ctx);
    param_set_defaults(l, &defaults);
    first = tune_space_index(l, &defaults);
    /* The defaults first, then the space in order. */
    for (size_t n = 0; n <= res->space; n++) {
        size_t i = n == 0 ? first : n - 1;
        struct param_set ps;
        struct run_result r;
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
        if (configuration(l, i, w, &ps, e) < 0) {
            free(done);
            fclose(log);
            return -1;
        }
        fprintf(log, "%zu\tstarted\n", i);
        fflush(log);
        run_result_init(&r);
        measure_lesson(w, l, &ps, &o->measure, &r);
        if (r.cancelled) {
            /* Not an outcome: the next run measures this configuration again. */
            fprintf(log, "%zu\tcancelled\n", i);
            fflush(log);
            run_result_free(&r);
            res->stopped_by_cancel = true;
            break;
        }
        done[i] = true;
        res->measured++;
        log_outcome(log, i, &r);
        outcome(l, w, i, &r, false, res, step, ctx);
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
