/* pane_gflops.c: the GFLOPS pane: the run's status, the latest result with its history,
   and below them the bars (bars.c), the sweep over sizes, the tuner's progress or the
   roofline. */
#include "panes.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bars.h"
#include "crt.h"
#include "draw.h"
#include "engine/ceilings.h"
#include "engine/chart.h"
#include "engine/measure.h"
#include "engine/roofline.h"
#include "engine/str.h"
#include "engine/xalloc.h"

static const char *job_name(enum session_job job)
{
    return job == JOB_ALL ? "all lessons" : job == JOB_SWEEP ? "sweep" : "tuning";
}

/* Where a slow run is: "launch 2 of 3, about 35 s each, 70 s left"; empty while its
   launches are quick or before it says. */
static void progress_text(const struct session_view *v, char *buf, size_t len)
{
    const struct measure_progress *p = &v->progress;
    double since = now_seconds() - v->progress_at, left = p->left_s - since;

    buf[0] = '\0';
    if (!v->busy || p->launch_s < 0.5)
        return;
    if (p->phase == MEASURE_PROBING)
        snprintf(buf, len, ", estimating: probe %d took %.1f s", p->index - 1, p->launch_s);
    else if (p->phase == MEASURE_WARMUP)
        snprintf(buf, len, ", warm-up launch, about %.0f s", p->launch_s);
    else if (p->phase == MEASURE_TIMED && p->count > 0)
        snprintf(buf, len, ", launch %d of %d, about %.0f s each, %.0f s left", p->index, p->count, p->launch_s,
                 left > 0.0 ? left : 0.0);
}

/* The status line: what runs now, with progress for a series; a series of another lesson
   than the one on screen names its lesson. */
static void draw_status(int y, int x, int w, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    double now = now_seconds();
    char slow[160];

    if (!v->busy && v->paused) {
        draw_puts(y, x, w, crt_utf8() ? "\u23f8 paused (space resumes)" : "paused (space resumes)",
                crt_attr(ROLE_WARNING));
        return;
    }
    if (v->job != JOB_NONE && v->job_total > 0) {
        double elapsed = now - v->job_started;
        char left[64] = "", whose[48] = "";
        int lesson = v->job == JOB_TUNE ? v->tune_lesson : v->job == JOB_SWEEP ? v->sweep_lesson : -1;
        if (v->job_done > 0 && v->job_done < v->job_total)
            snprintf(left, sizeof left, ", about %.0f s left",
                     elapsed / (double)v->job_done * (double)(v->job_total - v->job_done));
        if (lesson >= 0)
            snprintf(whose, sizeof whose, " lesson %d", m->lessons->items[lesson].number);
        progress_text(v, slow, sizeof slow);
        draw_printf(y, x, w, crt_attr(ROLE_EMPHASIS), "%s%s: %zu of %zu, %.0f s%s%s", job_name(v->job), whose,
                  v->job_done + 1 > v->job_total ? v->job_total : v->job_done + 1, v->job_total, elapsed, left,
                  slow);
        return;
    }
    progress_text(v, slow, sizeof slow);
    if (v->busy && slow[0])     /* a slow launch: where it is, in the room there is */
        draw_printf(y, x, w, crt_attr(ROLE_EMPHASIS), "%s %s", crt_utf8() ? "\u25b6" : ">", slow + 2);
    else if (v->busy)
        draw_printf(y, x, w, crt_attr(ROLE_DIM), "%s %s (%.1f s)", crt_utf8() ? "\u25b6" : ">", v->activity,
                  now - v->activity_started);
    else if (v->live_stopped)
        draw_puts(y, x, w, "stopped on this result: change something, or space twice", crt_attr(ROLE_DIM));
}

/* The newest figure of the current lesson and the median of all its runs (the same number
   as its bar), or why there is none. Returns the rows used. */
static int draw_latest(const struct rect *in, int row, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    const struct summary *f = &v->latest, *all = &v->bars[m->lesson];
    char a[32], b[32], spread[32], line[200];
    int n;

    if (v->size_error[0])
        return draw_wrapped(in, row, v->size_error, crt_attr(ROLE_WARNING));
    if (!f->have && all->have && !all->stale && all->status != RUN_OK)
        f = all;    /* no run since the lesson came back: what its runs came to */
    else if (!f->have && !(all->have && !all->stale)) {
        draw_puts(in->y + row, in->x, in->w, "waiting for the first measurement", crt_attr(ROLE_DIM));
        return row + 1;
    }
    if (f->have && f->status == RUN_WRONG) {
        draw_puts(in->y + row, in->x, in->w, " wrong result ", crt_attr(ROLE_WRONG));
        row = draw_wrapped(in, row + 1, f->message, crt_attr(ROLE_WARNING));
        return f == &v->latest ? draw_error_map(in, row, &v->latest_map, true) : row;
    }
    if (f->have && f->status != RUN_OK) {
        char msg[700];
        /* The key first: a long reason wraps, and the way out must not be lost at its end. */
        snprintf(msg, sizeof msg, "%s%s: %s", run_status_name(f->status),
                 f->status == RUN_REFUSED && f->estimate_s > 0.0 ? " (f runs it anyway)" : "", f->message);
        return draw_wrapped(in, row, msg, crt_attr(ROLE_WARNING));
    }
    chart_format_value(f->have ? f->median : all->latest, a, sizeof a);
    if (all->have && !all->stale && all->status == RUN_OK) {
        chart_format_value(all->median, b, sizeof b);
        bars_format_spread(all, spread, sizeof spread);
        n = snprintf(line, sizeof line, "latest %s  median %s %s", a, b, spread);
        /* The share of the peak (none for the tensor cores: the FP32 peak is not theirs), then
           the number of runs the median is of, where they fit. */
        char runs[48] = "";
        int more = 0;
        if (model_emulated(m, model_lesson(m)))
            more = snprintf(runs, sizeof runs, "  %s", "emulated");   /* the title and the legend say more */
        else if (model_lesson(m)->units == UNITS_TENSOR)
            more = snprintf(runs, sizeof runs, "  %s", UNITS_TENSOR_NOTE);
        else if (v->ceilings.have && v->ceilings.gflops > 0.0 && model_lesson(m)->engine != ENGINE_HOST)
            more = snprintf(runs, sizeof runs, "  %.0f%% of peak", 100.0 * all->median / v->ceilings.gflops);
        if ((int)str_columns(line, (size_t)n) + more <= in->w)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s", runs);
        more = snprintf(runs, sizeof runs, "  (%zu run%s)", all->runs, all->runs == 1 ? "" : "s");
        if ((int)str_columns(line, (size_t)n) + more <= in->w)
            snprintf(line + n, sizeof line - (size_t)n, "%s", runs);
    } else {
        snprintf(line, sizeof line, "latest %s", a);
    }
    draw_puts(in->y + row, in->x, in->w, line, A_NORMAL);
    draw_printf(in->y + row, in->x, 6, crt_attr(ROLE_EMPHASIS), "latest");
    return row + 1;
}

/* A plot with its y scale at the left: rows text rows at (y, x), w columns. */
static void draw_plot(int y, int x, int w, int rows, const double *px, const double *py, size_t n, double xmin,
                      double xmax, bool logx, double ymax, bool join)
{
    char **lines = xmalloc((size_t)rows * sizeof *lines);
    char label[32];
    int label_w = 6;

    for (int i = 0; i < rows; i++)
        lines[i] = xmalloc(chart_row_bytes(w - label_w));
    chart_plot(px, py, n, xmin, xmax, 0.0, ymax, logx, join, w - label_w, rows, crt_utf8(), lines);
    chart_format_value(ymax, label, sizeof label);
    draw_printf(y, x, label_w, crt_attr(ROLE_DIM), "%5s", label);
    draw_printf(y + rows - 1, x, label_w, crt_attr(ROLE_DIM), "%5s", "0");
    for (int i = 0; i < rows; i++) {
        draw_puts(y + i, x + label_w - 1, 1, crt_utf8() ? "\u2502" : "|", crt_attr(ROLE_DIM));
        draw_puts(y + i, x + label_w, w - label_w, lines[i], crt_attr(ROLE_BAR_CURRENT));
        free(lines[i]);
    }
    free(lines);
}

static void draw_history(const struct rect *in, int row, int rows, const struct session_view *v)
{
    double xs[SESSION_HISTORY], top = 0.0;

    for (size_t i = 0; i < v->nhistory; i++) {
        xs[i] = (double)i;
        if (v->history[i] > top)
            top = v->history[i];
    }
    draw_plot(in->y + row, in->x, in->w, rows, xs, v->history, v->nhistory, 0.0,
              v->nhistory > 1 ? (double)(v->nhistory - 1) : 1.0, false, chart_nice_max(top), true);
}

static void draw_sweep(const struct rect *in, int row, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    double xs[SESSION_MAX_SWEEP], ys[SESSION_MAX_SWEEP], top = 0.0;
    int rows = in->h - row - 2;
    size_t n = 0;
    char first[32], last[32];

    draw_printf(in->y + row, in->x, in->w, crt_attr(ROLE_HEADING), "Sweep: lesson %d, GFLOPS against size (w hides)",
              m->lessons->items[v->sweep_lesson].number);
    for (size_t i = 0; i < v->nsweep; i++)
        if (v->sweep[i].fig.status == RUN_OK) {
            xs[n] = (double)v->sweep[i].size.m;
            ys[n] = v->sweep[i].fig.median;
            top = ys[n] > top ? ys[n] : top;
            n++;
        }
    if (rows < 1)
        return;
    draw_plot(in->y + row + 1, in->x, in->w, rows, xs, ys, n, 64.0, (double)(v->sweep_total ? 64LL << (v->sweep_total - 1) : 8192),
              true, chart_nice_max(top), true);
    snprintf(first, sizeof first, "64");
    snprintf(last, sizeof last, "%lld", v->sweep_total ? 64LL << (v->sweep_total - 1) : 8192LL);
    draw_puts(in->y + in->h - 1, in->x + 6, 8, first, crt_attr(ROLE_DIM));
    draw_puts(in->y + in->h - 1, in->x + in->w - (int)strlen(last), (int)strlen(last), last, crt_attr(ROLE_DIM));
    if (n < v->nsweep) {
        size_t wrong = 0;
        for (size_t i = 0; i < v->nsweep; i++)
            wrong += v->sweep[i].fig.status == RUN_WRONG;
        if (wrong > 0)
            draw_printf(in->y + in->h - 1, in->x + 12, in->w - 20, crt_attr(ROLE_WRONG), "%zu wrong, %zu not run",
                      wrong, v->nsweep - n - wrong);
        else
            draw_printf(in->y + in->h - 1, in->x + 12, in->w - 20, crt_attr(ROLE_WARNING), "%zu sizes not run",
                      v->nsweep - n);
    }
}

/* The tuner: progress, the best so far, and how GFLOPS spread over the space. */
static void draw_tune(const struct rect *in, int row, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    int rows = in->h - row - 3, bins = in->w - 6;
    char best[32];
    double top = 0.0;

    chart_format_value(v->tune_best, best, sizeof best);
    draw_printf(in->y + row, in->x, in->w, crt_attr(ROLE_HEADING), "Tuning lesson %d: %zu of %zu, best %s",
              m->lessons->items[v->tune_lesson].number, v->tune_done, v->tune_space, best);
    draw_printf(in->y + row + 1, in->x, in->w, crt_attr(ROLE_DIM), "%s", v->tune_best_params);
    if (rows < 1 || bins < 4 || v->ntune == 0)
        return;
    for (size_t i = 0; i < v->ntune; i++)
        top = v->tune_gflops[i] > top ? v->tune_gflops[i] : top;
    {
        /* A histogram: how many configurations reached each band of GFLOPS. */
        double *count = xcalloc((size_t)bins, sizeof *count), most = 0, scale = chart_nice_max(top);
        char **lines = xmalloc((size_t)rows * sizeof *lines);
        char label[32];
        for (size_t i = 0; i < v->ntune; i++) {
            int b = (int)(v->tune_gflops[i] / scale * bins);
            count[b >= bins ? bins - 1 : b]++;
        }
        for (int b = 0; b < bins; b++)
            most = count[b] > most ? count[b] : most;
        for (int i = 0; i < rows; i++)
            lines[i] = xmalloc(chart_row_bytes(bins));
        chart_columns(count, (size_t)bins, most, rows, crt_utf8(), lines);
        for (int i = 0; i < rows; i++) {
            draw_puts(in->y + row + 2 + i, in->x + 6, bins, lines[i], crt_attr(ROLE_BAR_CURRENT));
            free(lines[i]);
        }
        draw_printf(in->y + row + 2, in->x, 6, crt_attr(ROLE_DIM), "%4.0f", most);
        chart_format_value(scale, label, sizeof label);
        draw_printf(in->y + in->h - 1, in->x, in->w, crt_attr(ROLE_DIM), "configurations by GFLOPS, 0 to %s", label);
        free(lines);
        free(count);
    }
}

/* ---- the roofline ---- */

/* The ceilings in a line: "measured: roof 64435 GFLOPS, slope 3321 GB/s, ridge 19.4 flop/B". */
static void say_ceilings(const struct ceilings *c, char *buf, size_t len)
{
    char peak[32], gbps[32];

    chart_format_value(c->gflops, peak, sizeof peak);
    chart_format_value(c->gbps, gbps, sizeof gbps);
    snprintf(buf, len, "measured: roof %s GFLOPS, slope %s GB/s, ridge %.3g flop/B", peak, gbps,
             roofline_ridge(c->gflops, c->gbps));
}

/* The current lesson against the model, in words under the drawing. */
static void say_verdict(const struct screen_model *m, char *line, size_t len)
{
    const struct session_view *v = m->view;
    const struct summary *f = &v->bars[m->lesson];
    const struct lesson *l = model_lesson(m);
    struct roofline_verdict verdict;
    char a[32], b[32];

    if (l->engine == ENGINE_HOST) {
        snprintf(line, len, "Lesson %d runs on the host CPU: it has no place on this device's roofline.", l->number);
        return;
    }
    if (!bars_shows_speed(f)) {
        snprintf(line, len, "Lesson %d is not measured at this size yet.", l->number);
        return;
    }
    roofline_judge(f->median, f->intensity, l->units, v->ceilings.gflops, v->ceilings.gbps, &verdict);
    chart_format_value(f->median, a, sizeof a);
    if (verdict.no_ceiling) {
        snprintf(line, len, "Lesson %d: %s GFLOPS on the tensor cores, whose peak clmm-tutor does not measure: the "
                 "FP32 roof is no ceiling for it, so it has no place on this roofline.", l->number, a);
        return;
    }
    if (verdict.bound <= 0.0) {
        snprintf(line, len, "Lesson %d: %s GFLOPS, %.0f%% of the peak; %s, so it has no place on the roofline.",
                 l->number, a, 100.0 * verdict.of_peak,
                 f->intensity < 0.0 ? "its layout lines give no figure at this size (see the layout pane)"
                                    : "its lesson file has no loads line");
        return;
    }
    chart_format_value(verdict.bound, b, sizeof b);
    snprintf(line, len, "Lesson %d: %.3g flop/B allows %s GFLOPS (%s); it runs at %s, %.0f%% of that and %.0f%% of "
             "the peak: %s.", l->number, verdict.intensity, b, verdict.memory_bound ? "the slope" : "the roof", a,
             100.0 * verdict.of_bound, 100.0 * verdict.of_peak, roofline_verdict_words(&verdict));
}

/* The device's roofline with every lesson measured at this size on it, the current one
   highlighted, what the model says of the current one, and where the model is wrong. */
static void draw_roofline(const struct rect *in, int row, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    const struct ceilings *c = &v->ceilings;
    struct bar bars[SESSION_MAX_LESSONS + SESSION_MAX_REFERENCES];
    struct roofline_point pts[ROOFLINE_MAX_POINTS];
    struct roofline_mark marks[ROOFLINE_MAX_POINTS];
    char (*lines)[ROOFLINE_LINE_BYTES], text[300], verdict[700];
    const char *note;
    size_t n = bars_collect(m, bars), npts = 0, nmarks = 0, drawn = 0;
    bool above = false;
    int plot_rows;

    if (!c->have) {
        draw_wrapped(in, row, v->ceilings_error[0] ? v->ceilings_error : "measuring the device's ceilings...",
                     crt_attr(v->ceilings_error[0] ? ROLE_WARNING : ROLE_DIM));
        return;
    }
    say_ceilings(c, text, sizeof text);
    row = draw_wrapped(in, row, text, crt_attr(ROLE_DIM));
    if (c->note[0]) {           /* measured now and not kept: said, since each start measures again */
        char kept[sizeof c->note + 64];
        snprintf(kept, sizeof kept, "These ceilings are %s.", c->note);
        row = draw_wrapped(in, row, kept, crt_attr(ROLE_WARNING));
    }
    for (size_t i = 0; i < n && npts < ROOFLINE_MAX_POINTS; i++) {
        const struct summary *f = bars[i].fig;
        struct roofline_verdict judged;
        if (bars[i].index < 0 || !bars_shows_speed(f) || f->intensity <= 0.0)
            continue;
        roofline_judge(f->median, f->intensity, m->lessons->items[bars[i].index].units, c->gflops, c->gbps, &judged);
        if (judged.no_ceiling)
            continue;           /* not under this roof: say_verdict says why */
        above |= judged.above;
        pts[npts] = (struct roofline_point){ .intensity = f->intensity, .gflops = f->median,
                                             .current = bars[i].index == m->lesson };
        snprintf(pts[npts].label, sizeof pts[npts].label, "%d", m->lessons->items[bars[i].index].number);
        npts++;
    }
    /* The words under the drawing always show whole: the drawing gets what they leave. */
    say_verdict(m, verdict, sizeof verdict);
    note = above ? "Above the slope: the caches served part of the traffic that the model counts from global "
                   "memory."
                 : "The model: every load from global memory, C written once; caches can beat it.";
    plot_rows = in->h - row - draw_wrapped_rows(verdict, in->w) - draw_wrapped_rows(note, in->w);
    lines = xmalloc((size_t)(plot_rows > 0 ? plot_rows : 1) * sizeof *lines);
    if (plot_rows > 0)
        drawn = roofline_draw(c->gflops, c->gbps, pts, npts, in->w, (size_t)plot_rows, crt_utf8(), lines, marks,
                              &nmarks);
    for (size_t i = 0; i < drawn; i++)
        draw_puts(in->y + row + (int)i, in->x, in->w, lines[i], crt_attr(ROLE_BAR));
    /* The labels in their colours, the current lesson's as its bar. */
    for (size_t i = 0; drawn > 0 && i < nmarks; i++) {
        const char *line = lines[marks[i].row];
        size_t at = str_prefix(line, (size_t)marks[i].col), len = str_prefix(line + at, (size_t)marks[i].len);
        draw_put(in->y + row + marks[i].row, in->x + marks[i].col, marks[i].len, line + at, len,
            marks[i].current ? crt_attr(ROLE_BAR_CURRENT) | A_BOLD : A_NORMAL);
    }
    free(lines);
    row += (int)drawn;
    if (drawn == 0 && plot_rows > 0)
        row = draw_wrapped(in, row, "(too small for the drawing: z zooms the pane)", crt_attr(ROLE_DIM));
    row = draw_wrapped(in, row, verdict, A_NORMAL);
    draw_wrapped(in, row, note, crt_attr(ROLE_DIM));
}

void panes_draw_gflops(const struct rect *r, struct screen_model *m)
{
    const struct session_view *v = m->view;
    struct rect in = draw_frame(r, m->roofline ? "Roofline: GFLOPS against flops per byte (log-log)"
                                          : "GFLOPS, measured and verified", m->focus == PANE_GFLOPS);
    int row = 0, chart_rows, want = panes_gflops_rows(m);

    if (!v->device_ready) {
        draw_wrapped(&in, 0, v->device_error[0] ? v->device_error : "opening the device...",
                     v->device_error[0] ? crt_attr(ROLE_WARNING) : crt_attr(ROLE_DIM));
        return;
    }
    draw_status(in.y, in.x, in.w, m);
    row = draw_latest(&in, 1, m);
    if (m->roofline) {
        draw_roofline(&in, row, m);
        return;
    }
    /* The history chart gets what the bars leave, up to 5 rows. */
    chart_rows = in.h >= 20 ? 5 : in.h >= 14 ? 3 : 2;
    if (want > 0 && r->h - want + 3 < chart_rows)
        chart_rows = r->h - want + 3;
    if (v->nhistory > 0 && chart_rows >= 2 && row + chart_rows < in.h) {
        draw_history(&in, row, chart_rows, v);
        row += chart_rows;
    }
    if (v->tune_lesson == m->lesson && (v->job == JOB_TUNE || v->ntune > 0))
        draw_tune(&in, row, m);
    else if (v->sweep_lesson == m->lesson)
        draw_sweep(&in, row, m);
    else
        bars_draw(&in, row, m);
}
