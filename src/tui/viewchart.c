/* viewchart.c: the screen's chart as a file. */
#include "viewchart.h"

#include <string.h>
#include <unistd.h>

#include "engine/device.h"
#include "engine/files.h"
#include "engine/needs.h"
#include "engine/reference.h"
#include "engine/str.h"

#define METHOD "the median of the session's runs, each result verified before it is timed"

/* A summary of the session (results.h) as a point of the chart. */
static void point_of(const struct summary *f, struct plot_point *pt)
{
    pt->have = f->have;
    pt->status = f->status;
    pt->stale = f->stale;
    pt->gflops = f->status == RUN_OK && !f->stale ? f->median : 0.0;
    str_copy(pt->why, sizeof pt->why, f->stale ? f->params : f->status == RUN_OK ? "" : f->message);
}

static struct plot_series *lesson_series(struct plot *p, const struct lesson *l, const struct session_view *v)
{
    struct plot_series *s = plot_series(p, l->number, l->short_title, l->branch, l->engine == ENGINE_HOST,
                                        l->precision == PRECISION_TF32);

    s->emulated = v->device >= 0 && lesson_emulated(l, &v->info);
    return s;
}

void viewchart_plot(struct plot *p, const struct session_view *v, const struct lesson_set *lessons, int lesson,
                    bool sweep, bool log_scale, time_t now)
{
    char device[600];

    device_describe(&v->info, device, sizeof device);
    plot_init(p, device, now, "clmm-tutor", METHOD);
    lesson_emulation_note(&v->info, p->emulated_note, sizeof p->emulated_note);
    p->log_scale = log_scale;
    if (sweep && v->sweep_lesson >= 0 && (size_t)v->sweep_lesson < lessons->count) {
        struct plot_series *s = lesson_series(p, &lessons->items[v->sweep_lesson], v);
        s->current = true;
        for (size_t i = 0; i < v->nsweep; i++) {
            int at = plot_size(p, v->sweep[i].size);
            if (at >= 0)
                point_of(&v->sweep[i].fig, &s->at[at]);
        }
        return;
    }
    plot_size(p, v->size);
    for (size_t i = 0; i < lessons->count && i < SESSION_MAX_LESSONS; i++) {
        struct plot_series *s;
        if (!v->bars[i].have && (int)i != lesson)
            continue;
        s = lesson_series(p, &lessons->items[i], v);
        s->current = (int)i == lesson;
        point_of(&v->bars[i], &s->at[0]);
    }
    for (size_t i = 0; i < v->nrefs; i++)
        if (v->refs[i].have)
            point_of(&v->refs[i], &plot_series(p, PLOT_REFERENCE - (int)i, v->ref_titles[i], "", true, false)->at[0]);
}

void viewchart_name(char *buf, size_t len, int lesson_number, struct gemm_size size, bool sweep, time_t now)
{
    char what[96], when[32];
    struct tm tm;

    if (sweep)
        snprintf(what, sizeof what, "sweep");
    else if (size.m == size.n && size.n == size.k)
        snprintf(what, sizeof what, "%lld", size.m);
    else
        snprintf(what, sizeof what, "%lldx%lldx%lld", size.m, size.n, size.k);
    if (!gmtime_r(&now, &tm) || strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm) == 0)
        snprintf(when, sizeof when, "%lld", (long long)now);
    snprintf(buf, len, "clmm-tutor-lesson%d-%s-%s.svg", lesson_number, what, when);
}

/* The path of name in dir ("." or the charts directory), made unique: a second chart of the
   same second is name-2.svg, not the first one replaced. */
static int unique_path(const char *name, bool here, char *path, size_t len)
{
    for (int n = 1; n < 100; n++) {
        char rel[512], each[300];
        const char *dot = strrchr(name, '.');
        if (n == 1)
            snprintf(each, sizeof each, "%s", name);
        else
            snprintf(each, sizeof each, "%.*s-%d%s", (int)(dot ? dot - name : (long)strlen(name)), name, n,
                     dot ? dot : "");
        if (here)
            snprintf(path, len, "./%s", each);
        else if (snprintf(rel, sizeof rel, "charts/%s", each), files_data_path(rel, path, len) < 0)
            return -1;
        if (access(path, F_OK) != 0)
            return 0;
    }
    return 0;   /* the hundredth is replaced */
}

int viewchart_save(const struct plot *p, const char *name, char *path, size_t len, struct error *e)
{
    if (access(".", W_OK | X_OK) == 0) {
        unique_path(name, true, path, len);
        return plot_save(p, path, e);
    }
    if (unique_path(name, false, path, len) < 0) {
        error_set(e, "the current directory cannot be written, and neither XDG_DATA_HOME nor HOME is set: "
                     "start the tutor in a directory you can write");
        return -1;
    }
    return plot_save(p, path, e);
}
