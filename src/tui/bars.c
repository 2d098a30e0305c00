/* bars.c: the GFLOPS pane's bar chart: every lesson and reference row measured at this
   size, fitted to the rows there are, on a linear, log or speed-up scale, with the ghost
   bars of a saved run (--compare). */
#include "bars.h"

#include <stdio.h>
#include <string.h>

#include "crt.h"
#include "draw.h"
#include "engine/chart.h"
#include "engine/str.h"

static const char *plus_minus(void)
{
    return crt_utf8() ? "\u00b1" : "+-";
}

/* The spread of a summary as a percentage of its median: "±0.4%". */
void bars_format_spread(const struct summary *f, char *buf, size_t len)
{
    double spread = f->median > 0.0 ? 100.0 * (f->q3 - f->q1) / f->median : 0.0;

    snprintf(buf, len, spread < 9.95 ? "%s%.1f%%" : "%s%.0f%%", plus_minus(), spread);
}

/* Whether bar b's lesson runs emulated (model_emulated): marked E, never the fastest. */
static bool bar_emulated(const struct screen_model *m, const struct bar *b)
{
    return b->index >= 0 && model_emulated(m, &m->lessons->items[b->index]);
}

bool bars_shows_speed(const struct summary *f)
{
    return f->have && !f->stale && f->status == RUN_OK && f->median > 0.0;
}

/* The bars there are: every lesson measured at this size (and the current one), then
   the reference rows; in ladder order. */
size_t bars_collect(const struct screen_model *m, struct bar *bars)
{
    const struct session_view *v = m->view;
    size_t n = 0;

    for (size_t i = 0; i < m->lessons->count; i++)
        if (v->bars[i].have || (int)i == m->lesson)
            bars[n++] = (struct bar){ (int)i, &v->bars[i], NULL };
    for (size_t i = 0; i < v->nrefs; i++)
        if (v->refs[i].have)
            bars[n++] = (struct bar){ RESULTS_REFERENCE - (int)i, &v->refs[i], v->ref_titles[i] };
    return n;
}

/* Some reference row has no bar yet: 'a' measures it. */
static bool references_missing(const struct session_view *v)
{
    for (size_t i = 0; i < v->nrefs; i++)
        if (!v->refs[i].have)
            return true;
    return false;
}

static bool is_reference(const struct screen_model *m, const struct bar *b)
{
    return b->index < 0 || m->lessons->items[b->index].engine == ENGINE_HOST;
}

/* Which of n bars fit in room rows: all when they fit; else the current lesson, the
   fastest and the references first, then the lessons nearest the current one; kept in
   ladder order. */
static size_t fit_bars(const struct screen_model *m, struct bar *bars, size_t n, size_t room,
                       const struct summary *best)
{
    bool take[SESSION_MAX_LESSONS + SESSION_MAX_REFERENCES] = { false };
    size_t kept = 0, taken = 0;
    int cur = 0;

    if (n <= room)
        return n;
    for (size_t i = 0; i < n; i++)
        if (bars[i].index == m->lesson)
            cur = (int)i;
    take[cur] = true;
    taken = 1;
    for (size_t i = 0; i < n && taken < room; i++)
        if (!take[i] && bars[i].fig == best) {
            take[i] = true;
            taken++;
        }
    for (size_t i = 0; i < n && taken < room; i++)
        if (!take[i] && is_reference(m, &bars[i])) {
            take[i] = true;
            taken++;
        }
    for (int d = 1; d < (int)n && taken < room; d++)
        for (int at = cur - d; at <= cur + d && taken < room; at += 2 * d)
            if (at >= 0 && at < (int)n && !take[at]) {
                take[at] = true;
                taken++;
            }
    for (size_t i = 0; i < n; i++)
        if (take[i])
            bars[kept++] = bars[i];
    return kept;
}

/* A label cut to w columns, its last column a mark when it was cut. */
static void put_label(int y, int x, int w, const char *s, int attr)
{
    if (w <= 0)
        return;
    if ((int)str_columns(s, strlen(s)) <= w) {
        draw_puts(y, x, w, s, attr);
        return;
    }
    draw_put(y, x, w - 1, s, str_prefix(s, (size_t)(w - 1)), attr);
    draw_puts(y, x + w - 1, 1, crt_utf8() ? "\u2026" : ">", crt_attr(ROLE_DIM));
}

/* The lesson the speed-up view compares with: lesson 1, else the first lesson with a kernel
   that has a figure. -1 when there is none. */
static int speedup_base(const struct screen_model *m)
{
    int first = -1;

    for (size_t i = 0; i < m->lessons->count; i++) {
        const struct lesson *l = &m->lessons->items[i];
        if (l->engine != ENGINE_OPENCL || !bars_shows_speed(&m->view->bars[i]))
            continue;
        if (l->number == 1)
            return (int)i;
        if (first < 0)
            first = (int)i;
    }
    return first;
}

/* A bar's figure (GFLOPS, or the speed-up over unit) and its spread. */
static void format_bar_value(const struct summary *f, enum bar_scale mode, double unit, char *value, size_t len,
                             char *spread, size_t spread_len)
{
    if (mode == BARS_SPEEDUP) {
        char ratio[32];
        chart_format_value(f->median / unit, ratio, sizeof ratio);
        snprintf(value, len, "%s%s", crt_utf8() ? "\u00d7" : "x", ratio);
    } else {
        chart_format_value(f->median, value, len);
    }
    bars_format_spread(f, spread, spread_len);
}

static const char *bar_label(const struct screen_model *m, const struct bar *b, char *buf, size_t len)
{
    const struct lesson *l = b->index < 0 ? NULL : &m->lessons->items[b->index];

    if (!l)
        snprintf(buf, len, "   %s", b->title);
    else
        chart_lesson_label(buf, len, l->number, l->short_title, precision_mark(l->precision),
                           l->branch != NULL, crt_utf8());
    return buf;
}

/* The rows the GFLOPS pane would like, to show every bar with the history chart above. */
int panes_gflops_rows(const struct screen_model *m)
{
    const struct session_view *v = m->view;
    struct bar bars[SESSION_MAX_LESSONS + SESSION_MAX_REFERENCES];

    if (m->roofline)
        return 2 + 1 + 1 + 2 + 12 + 3;     /* borders, status, latest, ceilings, drawing, verdict */
    if (v->tune_lesson == m->lesson || v->sweep_lesson == m->lesson)
        return 0;
    /* Borders, status, latest, a history of 3, the heading, the bars, the legend. */
    return 2 + 1 + 1 + 3 + 1 + (int)bars_collect(m, bars) + 1;
}

/* A chart this wide shows each ghost's figure beside its bar; a narrower one gives the
   columns to the bars. */
#define GHOST_FIGURES_W 56

/* The saved run's figure of a bar at this size (--compare), 0 when it has none: a ghost
   bar behind the bar, on the GFLOPS scales (not the speed-up one, which is this run's). */
static double ghost_of(const struct screen_model *m, const struct bar *b, enum bar_scale mode)
{
    const struct compare_row *r;

    if (!m->compare || mode == BARS_SPEEDUP)
        return 0.0;
    r = compare_find(m->compare, b->index == RESULTS_REFERENCE ? -1 : m->lessons->items[b->index].number,
                     m->view->size, b->fig->params, NULL);
    return r && r->ok ? r->gflops : 0.0;
}

void bars_draw(const struct rect *in, int row, struct screen_model *m)
{
    const struct session_view *v = m->view;
    struct bar bars[SESSION_MAX_LESSONS + SESSION_MAX_REFERENCES];
    int rows = in->h - row - 2, base = speedup_base(m), label_w, bar_w, value_w;
    double fastest = 0.0, least = 0.0, lo = 0.0, hi = 0.0, scale = 0.0, unit = 1.0;
    size_t n = bars_collect(m, bars), shown;
    const struct summary *best = NULL;
    bool any_tuned = false, any_partial = false, any_changed = false, any_stale = false, any_ghost = false;
    bool any_emulated = false;
    const char *branch = NULL;  /* the side branch of a bar shown, for the legend */
    enum bar_scale mode = m->bar_scale;
    char size[64], heading[160];

    if (rows < 1)
        return;
    if (mode == BARS_SPEEDUP && base < 0)
        mode = BARS_LOG;    /* nothing to compare with yet */
    if (mode == BARS_SPEEDUP)
        unit = v->bars[base].median;
    for (size_t i = 0; i < n; i++)
        if (bars_shows_speed(bars[i].fig)) {
            double x = bars[i].fig->median / unit;
            if (x > fastest && !bar_emulated(m, &bars[i])) {
                fastest = x;
                best = bars[i].fig;
            }
            least = least == 0.0 || x < least ? x : least;
            /* The ghosts on the same scale. */
            x = ghost_of(m, &bars[i], mode);
            fastest = x > fastest ? x : fastest;
            least = x > 0.0 && x < least ? x : least;
        }
    if (mode == BARS_LINEAR)
        scale = chart_nice_max(fastest);
    else
        chart_log_range(least, fastest, &lo, &hi);
    draw_format_size(size, sizeof size, v->size);
    {
        /* The scale and what it compares with first; the hint gives way first. */
        char what[128];
        if (mode == BARS_SPEEDUP)
            snprintf(what, sizeof what, "Speed-up over lesson %d at %s", m->lessons->items[base].number, size);
        else
            snprintf(what, sizeof what, "GFLOPS medians at %s", size);
        const struct chart_item items[] = {
            { what, NULL, 0 },
            { mode == BARS_LINEAR ? "" : ", log scale", mode == BARS_LINEAR ? NULL : ", log", 0 },
            { references_missing(v) ? "  (a: every lesson)" : "", NULL, 1 },
        };
        chart_fit_items(heading, sizeof heading, items, sizeof items / sizeof items[0], "", in->w);
    }
    draw_puts(in->y + row, in->x, in->w, heading, crt_attr(ROLE_HEADING));
    shown = fit_bars(m, bars, n, (size_t)rows, best);
    /* The figures take what the widest needs; the label and the bar share the rest. */
    value_w = 0;
    for (size_t i = 0; i < shown; i++)
        if (bars_shows_speed(bars[i].fig)) {
            char value[48], spread[32];
            format_bar_value(bars[i].fig, mode, unit, value, sizeof value, spread, sizeof spread);
            /* the value, a space, the spread, and room for " ★"; a ghost's figure after them */
            int need = (int)(str_columns(value, strlen(value)) + str_columns(spread, strlen(spread))) + 3;
            if (ghost_of(m, &bars[i], mode) > 0.0 && in->w >= GHOST_FIGURES_W) {
                chart_format_value(ghost_of(m, &bars[i], mode), value, sizeof value);
                need += 2 + (int)strlen(value);
            }
            value_w = need > value_w ? need : value_w;
        }
    chart_bar_widths(in->w, value_w, &label_w, &bar_w);
    for (size_t i = 0; i < shown; i++) {
        const struct bar *b = &bars[i];
        const struct summary *f = b->fig;
        int y = in->y + row + 1 + (int)i, x = in->x;
        bool current = b->index == m->lesson;
        char label[128], bar[LINE_BYTES], value[48], spread[32], mark = ' ';
        if (bar_emulated(m, b))
            mark = 'E';
        else if (b->index >= 0 && f->have && !f->stale && v->changed[b->index])
            mark = '~';
        else if (f->have && !f->stale && f->tuned)
            mark = f->partial ? 'P' : 'T';
        any_tuned |= mark == 'T';
        any_partial |= mark == 'P';
        any_changed |= mark == '~';
        any_emulated |= mark == 'E';
        bar_label(m, b, label, sizeof label);
        if (b->index >= 0 && !branch)
            branch = m->lessons->items[b->index].branch;
        put_label(y, x, label_w, label, current ? crt_attr(ROLE_EMPHASIS) : 0);
        if (mark != ' ')
            draw_printf(y, x + label_w + 1, 1, crt_attr(ROLE_EMPHASIS), "%c", mark);
        x += label_w + 3;
        if (!f->have) {
            draw_puts(y, x, in->x + in->w - x, "measuring...", crt_attr(ROLE_DIM));
        } else if (f->stale) {
            any_stale = true;
            draw_printf(y, x, in->x + in->w - x, crt_attr(ROLE_DIM), "other params (%s)", f->params);
        } else if (f->status == RUN_WRONG) {
            draw_puts(y, x, in->x + in->w - x, "wrong result", crt_attr(ROLE_WRONG));
        } else if (f->status != RUN_OK) {
            draw_puts(y, x, in->x + in->w - x, run_status_name(f->status), crt_attr(ROLE_WARNING));
        } else {
            double x_value = f->median / unit;
            /* A side branch's bars dim beside the main ladder's, unless one is the lesson shown. */
            int role = b->index < 0 || m->lessons->items[b->index].engine == ENGINE_HOST
                           ? ROLE_BAR_REFERENCE : current ? ROLE_BAR_CURRENT
                           : m->lessons->items[b->index].branch ? ROLE_DIM : ROLE_BAR;
            double ghost = ghost_of(m, b, mode);
            int used, ghost_used = 0;
            if (ghost > 0.0) {
                /* The saved run's bar behind this one, as long as its figure. */
                ghost_used = mode == BARS_LINEAR ? chart_ghost_bar(bar, sizeof bar, ghost, scale, bar_w, crt_utf8())
                                                 : chart_ghost_bar(bar, sizeof bar, chart_log_fraction(ghost, lo, hi),
                                                                   1.0, bar_w, crt_utf8());
                draw_puts(y, x, bar_w, bar, crt_attr(ROLE_DIM));
                any_ghost = true;
            }
            used = mode == BARS_LINEAR ? chart_bar(bar, sizeof bar, x_value, scale, bar_w, crt_utf8())
                                       : chart_bar(bar, sizeof bar, chart_log_fraction(x_value, lo, hi), 1.0,
                                                   bar_w, crt_utf8());
            draw_puts(y, x, bar_w, bar, crt_attr(role));
            used = used > ghost_used ? used : ghost_used;
            format_bar_value(f, mode, unit, value, sizeof value, spread, sizeof spread);
            x += used + 1;
            x += draw_printf(y, x, in->x + in->w - x, 0, "%s", value);
            x += draw_printf(y, x, in->x + in->w - x, crt_attr(ROLE_DIM), " %s", spread);
            if (f == best)
                draw_puts(y, x + 1, 1, crt_utf8() ? "\u2605" : "*", crt_attr(ROLE_BEST));
            if (ghost > 0.0) {
                char saved[32];
                chart_format_value(ghost, saved, sizeof saved);
                if (in->w >= GHOST_FIGURES_W && x + 3 + (int)strlen(saved) + 1 <= in->x + in->w)
                    draw_printf(y, x + 3, in->x + in->w - x - 3, crt_attr(ROLE_DIM), "%s%s", chart_ghost_mark(crt_utf8()),
                              saved);
            }
        }
    }
    {
        /* The legend: what the marks mean, and what did not fit, in whole items; the hints give
           way first, then the marks that explain themselves best. */
        const char *star = crt_utf8() ? "\u2605" : "*";
        char legend[512], best_text[64], fastest_short[32], branch_full[128], branch_short[64], more[64];
        char ghost_full[160], ghost_short[64];
        struct chart_item items[10];
        size_t k = 0;
        snprintf(best_text, sizeof best_text, "%s fastest%s", star,
                 best && best->partial ? " (tuned, partial search)" : best && best->tuned ? " (tuned)" : "");
        snprintf(fastest_short, sizeof fastest_short, "%s fastest", star);
        if (best)
            items[k++] = (struct chart_item){ best_text, strcmp(best_text, fastest_short) ? fastest_short : NULL, 3 };
        if (any_tuned)
            items[k++] = (struct chart_item){ "T tuned", NULL, 3 };
        if (any_partial)
            items[k++] = (struct chart_item){ "P tuned, partial search", "P partial", 3 };
        if (any_emulated)
            items[k++] = (struct chart_item){ "E emulated: speed not comparable", "E emulated", 2 };
        if (any_changed)
            items[k++] = (struct chart_item){ "~ changed (t, --param)", "~ changed", 3 };
        if (any_ghost) {
            /* The saved run's device, named as far as the line allows. */
            snprintf(ghost_full, sizeof ghost_full, "%s saved: %s", chart_ghost_mark(crt_utf8()), m->compare->device);
            snprintf(ghost_short, sizeof ghost_short, "%s %.11s", chart_ghost_mark(crt_utf8()), m->compare->device);
            items[k++] = (struct chart_item){ ghost_full, ghost_short, 0 };
        }
        if (branch) {
            chart_branch_legend(branch_full, sizeof branch_full, branch, crt_utf8());
            snprintf(branch_short, sizeof branch_short, "%s side branch", chart_branch_mark(crt_utf8()));
            items[k++] = (struct chart_item){ branch_full, branch_short, 1 };
        }
        if (n > shown) {
            snprintf(more, sizeof more, m->focus == PANE_GFLOPS ? "+%zu more: z to zoom" : "+%zu more: Tab here, z zooms",
                     n - shown);
            items[k++] = (struct chart_item){ more, NULL, 2 };
        } else if (any_stale) {
            items[k++] = (struct chart_item){ "a measures", NULL, 4 };
        }
        if (best && mode == BARS_LINEAR)
            items[k++] = (struct chart_item){ "v: log scale", NULL, 5 };
        chart_fit_items(legend, sizeof legend, items, k, "  ", in->w);
        draw_puts(in->y + row + 1 + (int)shown, in->x, in->w, legend, crt_attr(ROLE_DIM));
    }
}
