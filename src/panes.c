/* panes.c: what each part of the interactive screen shows, drawn with curses.

   The numbers come from the session's snapshot, the drawings from the curses-free modules
   (text, highlight, diff, diagram, chart): this file only places strings and colours. */
#include "panes.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "crt.h"
#include "diagram.h"
#include "highlight.h"
#include "measure.h"
#include "stats.h"
#include "str.h"
#include "text.h"

#define LINE_BYTES 4096

/* ---- primitives ---- */

/* Writes len bytes of UTF-8 text at (y, x), cut to w columns; returns the columns used. */
static int put(int y, int x, int w, const char *s, size_t len, int attr)
{
    char buf[LINE_BYTES];
    size_t n;

    if (w <= 0 || len == 0)
        return 0;
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    n = str_prefix(buf, (size_t)w);
    attron(attr);
    mvaddnstr(y, x, buf, (int)n);
    attroff(attr);
    return (int)str_columns(buf, n);
}

static int puts_at(int y, int x, int w, const char *s, int attr)
{
    return put(y, x, w, s, strlen(s), attr);
}

static int printf_at(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int printf_at(int y, int x, int w, int attr, const char *fmt, ...)
{
    char buf[LINE_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return puts_at(y, x, w, buf, attr);
}

static void blank(int y, int x, int w, int attr)
{
    attron(attr);
    mvhline(y, x, ' ', w);
    attroff(attr);
}

static void clear_rect(const struct rect *r)
{
    for (int y = 0; y < r->h; y++)
        blank(r->y + y, r->x, r->w, A_NORMAL);
}

/* A line of n copies of one character (UTF-8 or ASCII) at (y, x). */
static void repeat(int y, int x, int n, const char *ch, int attr)
{
    for (int i = 0; i < n; i++)
        puts_at(y, x + i, 1, ch, attr);
}

/* A border with a title; returns the inside. The box characters are written as text, not
   through the terminal's alternate character set, so that a captured screen (and a
   projector's terminal) shows them as they are. */
static struct rect frame(const struct rect *r, const char *title, bool focus)
{
    static const char *const unicode[] = { "\u2500", "\u2502", "\u250c", "\u2510", "\u2514", "\u2518" };
    static const char *const ascii[] = { "-", "|", "+", "+", "+", "+" };
    const char *const *box = crt_utf8() ? unicode : ascii;
    int attr = crt_attr(focus ? ROLE_BORDER_FOCUS : ROLE_BORDER);
    struct rect in = { r->y + 1, r->x + 1, r->h - 2, r->w - 2 };

    clear_rect(r);
    repeat(r->y, r->x + 1, r->w - 2, box[0], attr);
    repeat(r->y + r->h - 1, r->x + 1, r->w - 2, box[0], attr);
    for (int y = r->y + 1; y < r->y + r->h - 1; y++) {
        puts_at(y, r->x, 1, box[1], attr);
        puts_at(y, r->x + r->w - 1, 1, box[1], attr);
    }
    puts_at(r->y, r->x, 1, box[2], attr);
    puts_at(r->y, r->x + r->w - 1, 1, box[3], attr);
    puts_at(r->y + r->h - 1, r->x, 1, box[4], attr);
    puts_at(r->y + r->h - 1, r->x + r->w - 1, 1, box[5], attr);
    if (title && r->w > 6)
        printf_at(r->y, r->x + 2, r->w - 4, attr | A_BOLD, " %s ", title);
    return in;
}

/* Keeps *scroll within the content; returns it. */
static int clamp_scroll(int *scroll, int content, int visible)
{
    int most = content - visible;

    if (*scroll > most)
        *scroll = most;
    if (*scroll < 0)
        *scroll = 0;
    return *scroll;
}

/* "↑ 3 more" style marks on the border when there is more above or below. */
static void scroll_marks(const struct rect *r, int scroll, int content, int visible)
{
    int attr = crt_attr(ROLE_DIM);

    if (scroll > 0)
        printf_at(r->y, r->x + r->w - 12, 10, attr, crt_utf8() ? " \u2191%d " : " ^%d ", scroll);
    if (scroll + visible < content)
        printf_at(r->y + r->h - 1, r->x + r->w - 12, 10, attr, crt_utf8() ? " \u2193%d " : " v%d ",
                  content - scroll - visible);
}

static const struct lesson *current(const struct screen_model *m)
{
    return &m->lessons->items[m->lesson];
}

static void format_size(char *buf, size_t len, struct gemm_size s)
{
    if (s.m == s.n && s.n == s.k)
        snprintf(buf, len, "%lld\u00b3", s.m);
    else
        snprintf(buf, len, "%lldx%lldx%lld", s.m, s.n, s.k);
    if (!crt_utf8() && s.m == s.n && s.n == s.k)
        snprintf(buf, len, "%lld^3", s.m);
}

/* ---- title and keys ---- */

void panes_draw_title(const struct rect *r, const struct screen_model *m)
{
    const struct lesson *l = current(m);
    const struct session_view *v = m->view;
    int attr = crt_attr(ROLE_TITLE), x = r->x;
    char size[64], params[256];
    const char *sep = crt_utf8() ? " \u2502 " : " | ";

    format_size(size, sizeof size, v->size);
    param_set_format(l, &v->params, params, sizeof params);
    blank(r->y, r->x, r->w, attr);
    x += printf_at(r->y, x, r->w, attr, " clmm-tutor%s%sLesson %d of %d: %s%s%s%s%s%s",
                   m->demo ? " [demo]" : "", sep, l->number, m->lessons->items[m->lessons->count - 1].number,
                   l->title, sep, size, params[0] ? sep : "", params, v->tuned ? " (tuned)" : "");
    if (v->device_ready || v->device >= 0)
        printf_at(r->y, x, r->x + r->w - x, attr, "%s%s", sep, v->devices_known && v->device >= 0 ?
                  v->devices[v->device] : "");
    else
        printf_at(r->y, x, r->x + r->w - x, attr, "%sopening the device...", sep);
}

struct key_hint {
    const char *key, *what;
};

static int key_hint_width(const struct key_hint *h)
{
    return (int)(strlen(h->key) + strlen(h->what) + 3);
}

void panes_draw_keys(const struct rect *r, const struct screen_model *m)
{
    static const struct key_hint hints[] = {
        { "n/p", "lesson" }, { "+/-", "size" }, { "t", "param" }, { "d", "device" }, { "a", "all" },
        { "w", "sweep" }, { "T", "tune" }, { "spc", "pause" }, { "r", "reload" }, { "c", "diff" },
        { "tab", "pane" }, { "z", "zoom" }, { "s", "size..." }, { "?", "help" }, { "q", "quit" },
    };
    size_t n = sizeof hints / sizeof hints[0];
    int x = r->x, right = r->x + r->w, base = crt_attr(ROLE_KEYS);

    blank(r->y, r->x, r->w, base);
    if (m->message) {
        puts_at(r->y, r->x + 1, r->w - 2, m->message, m->message_is_error ? crt_attr(ROLE_WARNING) : base);
        return;
    }
    if (m->view->job != JOB_NONE) {
        x += printf_at(r->y, x, right - x, crt_attr(ROLE_KEY), " x");
        x += printf_at(r->y, x, right - x, base, " cancel ");
    }
    /* The last two ("? help", "q quit") always show: the others give way on narrow screens. */
    for (size_t i = 0; i < n; i++) {
        int need = key_hint_width(&hints[i]);
        if (i < n - 2 && x + need + key_hint_width(&hints[n - 2]) + key_hint_width(&hints[n - 1]) > right)
            continue;
        x += printf_at(r->y, x, right - x, crt_attr(ROLE_KEY), " %s", hints[i].key);
        x += printf_at(r->y, x, right - x, base, " %s ", hints[i].what);
    }
}

/* ---- the lesson text ---- */

static int draw_markup(int y, int x, int w, const char *text, int base)
{
    struct text_span spans[64];
    size_t n = text_spans(text, spans, 64);
    int used = 0;

    if (n > 64)
        return put(y, x, w, text, strlen(text), base);
    for (size_t i = 0; i < n && used < w; i++) {
        const struct text_span *s = &spans[i];
        if (s->kind == SPAN_CODE)   /* colour instead of backquotes */
            used += put(y, x + used, w - used, s->text + 1, s->len - 2, crt_attr(ROLE_CODE));
        else
            used += put(y, x + used, w - used, s->text, s->len,
                        s->kind == SPAN_EMPHASIS ? crt_attr(ROLE_EMPHASIS) : base);
    }
    return used;
}

void panes_draw_text(const struct rect *r, struct screen_model *m)
{
    const struct lesson *l = current(m);
    struct text_lines lines;
    char title[256];
    struct rect in;
    int top, total;

    snprintf(title, sizeof title, "Lesson %d: %s", l->number, l->short_title);
    in = frame(r, title, m->focus == PANE_TEXT);
    text_layout(l->text, in.w - 1, &lines);
    /* The sources line comes last, after a blank. */
    total = (int)lines.count + 2;
    top = clamp_scroll(&m->scroll[PANE_TEXT], total, in.h);
    for (int row = 0; row < in.h; row++) {
        int i = top + row, y = in.y + row;
        if (i < (int)lines.count) {
            const struct text_line *t = &lines.items[i];
            int x = in.x + t->indent;
            if (t->kind == TEXT_ITEM)
                puts_at(y, x - 2, 2, crt_utf8() ? "\u2022 " : "- ", crt_attr(ROLE_DIM));
            if (t->kind == TEXT_VERBATIM)
                puts_at(y, x, in.w - t->indent, t->text, crt_attr(ROLE_CODE));
            else if (t->kind == TEXT_HEADING)
                draw_markup(y, x, in.w - t->indent, t->text, crt_attr(ROLE_HEADING));
            else
                draw_markup(y, x, in.w - t->indent, t->text, A_NORMAL);
        } else if (i == (int)lines.count + 1) {
            printf_at(y, in.x, in.w, crt_attr(ROLE_DIM), "Sources: %s", l->sources);
        }
    }
    scroll_marks(r, top, total, in.h);
    text_lines_free(&lines);
}

/* ---- the kernel source ---- */

static int role_of(enum hl_role h)
{
    static const enum role roles[] = {
        [HL_PLAIN] = ROLE_NORMAL, [HL_KEYWORD] = ROLE_KEYWORD, [HL_TYPE] = ROLE_TYPE,
        [HL_QUALIFIER] = ROLE_QUALIFIER, [HL_BUILTIN] = ROLE_BUILTIN, [HL_COMMENT] = ROLE_COMMENT,
        [HL_NUMBER] = ROLE_NUMBER, [HL_STRING] = ROLE_STRING, [HL_PREPROC] = ROLE_PREPROC,
    };
    return crt_attr(roles[h]);
}

static void draw_code(int y, int x, int w, const char *line, struct hl_state *st, bool draw)
{
    struct hl_span spans[128];
    size_t len = strlen(line), n = highlight_line(line, len, st, spans, 128);
    int used = 0;

    if (!draw)
        return;     /* only the highlighter's state across lines was wanted */
    for (size_t i = 0; i < n && used < w; i++)
        used += put(y, x + used, w - used, line + spans[i].start, spans[i].len, role_of(spans[i].role));
}

static void draw_diff(const struct rect *in, struct screen_model *m)
{
    const struct diff *d = m->diff;
    int top = clamp_scroll(&m->scroll[PANE_SOURCE], (int)d->count, in->h);
    struct hl_state st_old = { 0, 0 }, st_new = { 0, 0 };

    /* The highlighter runs over every line of each text, so that comments spanning lines
       colour right wherever the view starts. */
    for (int i = 0; i < (int)d->count && i < top + in->h; i++) {
        const struct diff_line *dl = &d->items[i];
        bool shown = i >= top;
        int y = in->y + i - top;
        const char *mark = dl->op == DIFF_ADDED ? "+" : dl->op == DIFF_REMOVED ? "-" : " ";
        int attr = dl->op == DIFF_ADDED ? crt_attr(ROLE_ADDED) : dl->op == DIFF_REMOVED ? crt_attr(ROLE_REMOVED) : 0;
        if (dl->op == DIFF_REMOVED) {
            if (shown)
                puts_at(y, in->x, in->w, m->previous->items[dl->old_index], attr);
            continue;
        }
        if (dl->op == DIFF_SAME && dl->old_index != SIZE_MAX)
            draw_code(0, 0, 0, m->previous->items[dl->old_index], &st_old, false);
        if (shown) {
            puts_at(y, in->x, 1, mark, attr);
            if (dl->op == DIFF_ADDED)
                puts_at(y, in->x + 1, in->w - 1, m->source->items[dl->new_index], attr);
            else
                draw_code(y, in->x + 1, in->w - 1, m->source->items[dl->new_index], &st_new, true);
        } else {
            draw_code(0, 0, 0, m->source->items[dl->new_index], &st_new, false);
        }
    }
    scroll_marks(&(struct rect){ in->y - 1, in->x - 1, in->h + 2, in->w + 2 }, top, (int)d->count, in->h);
}

void panes_draw_source(const struct rect *r, struct screen_model *m)
{
    const struct lesson *l = current(m);
    const struct lesson *prev = m->lesson > 0 ? &m->lessons->items[m->lesson - 1] : NULL;
    char title[512];
    struct rect in;
    bool *changed = NULL;
    struct hl_state st = { 0, 0 };
    int top, digits;

    if (!m->source) {
        in = frame(r, "Source", m->focus == PANE_SOURCE);
        puts_at(in.y, in.x, in.w, "The host reference is C on the CPU: no kernel.", crt_attr(ROLE_DIM));
        return;
    }
    if (m->show_diff && m->diff)
        snprintf(title, sizeof title, "diff from lesson %d: +%zu -%zu (c: the kernel)", prev->number,
                 m->diff->added, m->diff->removed);
    else if (m->diff)
        snprintf(title, sizeof title, "%s (%zu lines new since %d)", strrchr(l->kernel_file, '/') + 1,
                 m->diff->added, prev->number);
    else
        snprintf(title, sizeof title, "%s", strrchr(l->kernel_file, '/') + 1);
    in = frame(r, title, m->focus == PANE_SOURCE);
    if (m->show_diff && m->diff) {
        draw_diff(&in, m);
        return;
    }
    if (m->diff) {
        changed = calloc(m->source->count + 1, sizeof *changed);
        if (!changed)
            abort();
        diff_mark_new(m->diff, changed, m->source->count);
    }
    digits = m->source->count >= 100 ? 3 : 2;
    top = clamp_scroll(&m->scroll[PANE_SOURCE], (int)m->source->count, in.h);
    for (int i = 0; i < (int)m->source->count && i < top + in.h; i++) {
        int y = in.y + i - top;
        if (i < top) {
            draw_code(0, 0, 0, m->source->items[i], &st, false);
            continue;
        }
        printf_at(y, in.x, digits, crt_attr(ROLE_DIM), "%*d", digits, i + 1);
        if (changed && changed[i])
            puts_at(y, in.x + digits, 1, crt_utf8() ? "\u258c" : "+", crt_attr(ROLE_CHANGED));
        draw_code(y, in.x + digits + 2, in.w - digits - 2, m->source->items[i], &st, true);
    }
    scroll_marks(r, top, (int)m->source->count, in.h);
    free(changed);
}

/* ---- the work-group layout ---- */

static struct diagram_limits limits_of(const struct session_view *v)
{
    struct diagram_limits lim;

    memset(&lim, 0, sizeof lim);
    if (v->device_ready) {
        lim.max_group = v->info.max_group;
        lim.local_mem = v->info.local_mem;
        for (int i = 0; i < 3; i++)
            lim.max_item_sizes[i] = v->info.max_item_sizes[i];
    }
    return lim;
}

/* Wraps a message over the rows of a rectangle. */
static int draw_wrapped(const struct rect *in, int row, const char *text, int attr)
{
    struct text_lines lines;

    text_layout(text, in->w, &lines);
    for (size_t i = 0; i < lines.count && row < in->h; i++, row++)
        puts_at(in->y + row, in->x + lines.items[i].indent, in->w, lines.items[i].text, attr);
    text_lines_free(&lines);
    return row;
}

/* Draws a line of the diagram, its highlighted cells, its tiles of A and B and its padding
   each in their role's colour (diagram_glyph_at tells them apart). */
static void draw_diagram_line(int y, int x, int w, const char *line, const struct diagram *d)
{
    static const int roles[] = {
        [DIAGRAM_GLYPH_TEXT] = ROLE_NORMAL,
        [DIAGRAM_GLYPH_MARK] = ROLE_MARK,
        [DIAGRAM_GLYPH_TILE_A] = ROLE_TILE_A,
        [DIAGRAM_GLYPH_TILE_B] = ROLE_TILE_B,
        [DIAGRAM_GLYPH_PAD] = ROLE_PADDING,
    };
    bool utf8 = crt_utf8();
    int used = 0, warn = 0;

    for (int i = 0; i < d->nwarnings; i++)
        warn |= strstr(line, d->warnings[i]) != NULL;
    if (warn) {
        puts_at(y, x, w, line, crt_attr(ROLE_WARNING));
        return;
    }
    while (*line && used < w) {
        size_t len, run = 0;
        enum diagram_glyph kind = diagram_glyph_at(line, utf8, &len);
        /* A run of characters of one kind, drawn at once. */
        do
            run += len;
        while (line[run] && diagram_glyph_at(line + run, utf8, &len) == kind);
        used += put(y, x + used, w - used, line, run, crt_attr((enum role)roles[kind]));
        line += run;
    }
}

void panes_draw_layout(const struct rect *r, struct screen_model *m)
{
    const struct lesson *l = current(m);
    struct diagram_limits lim = limits_of(m->view);
    struct diagram *d = malloc(sizeof *d);
    char (*lines)[DIAGRAM_LINE_BYTES];
    struct rect in = frame(r, "Work-group layout", m->focus == PANE_LAYOUT);
    struct error e;
    size_t n;
    int top;

    lines = malloc(200 * sizeof *lines);
    if (!d || !lines)
        abort();
    error_init(&e);
    if (diagram_compute(l, &m->view->params, m->view->size, m->view->device_ready ? &lim : NULL, d, &e) < 0) {
        draw_wrapped(&in, 0, e.msg, crt_attr(l->engine == ENGINE_HOST ? ROLE_NORMAL : ROLE_WARNING));
    } else {
        /* Drawn for the pane: a small one gets the figures and a compact drawing. */
        n = diagram_draw(d, in.w, (size_t)in.h, crt_utf8(), lines);
        top = clamp_scroll(&m->scroll[PANE_LAYOUT], (int)n, in.h);
        for (int row = 0; row < in.h && top + row < (int)n; row++)
            draw_diagram_line(in.y + row, in.x, in.w, lines[top + row], d);
        scroll_marks(r, top, (int)n, in.h);
    }
    error_clear(&e);
    free(lines);
    free(d);
}

/* ---- GFLOPS ---- */

/* The status line: what runs now, with progress for a series. */
static void draw_status(int y, int x, int w, const struct session_view *v)
{
    double now = now_seconds();

    if (!v->busy && v->paused) {
        puts_at(y, x, w, crt_utf8() ? "\u23f8 paused (space resumes)" : "paused (space resumes)",
                crt_attr(ROLE_WARNING));
        return;
    }
    if (v->job != JOB_NONE && v->job_total > 0) {
        double elapsed = now - v->job_started;
        char left[64] = "";
        if (v->job_done > 0 && v->job_done < v->job_total)
            snprintf(left, sizeof left, ", about %.0f s left",
                     elapsed / (double)v->job_done * (double)(v->job_total - v->job_done));
        printf_at(y, x, w, crt_attr(ROLE_EMPHASIS), "%s %zu of %zu, %.0f s%s",
                  v->job == JOB_ALL ? "all lessons:" : v->job == JOB_SWEEP ? "sweep:" : "tuning:",
                  v->job_done + 1 > v->job_total ? v->job_total : v->job_done + 1, v->job_total, elapsed, left);
        return;
    }
    if (v->busy)
        printf_at(y, x, w, crt_attr(ROLE_DIM), "%s %s (%.1f s)", crt_utf8() ? "\u25b6" : ">", v->activity,
                  now - v->activity_started);
    else if (v->live_stopped)
        puts_at(y, x, w, "stopped on this result: change something, or space twice", crt_attr(ROLE_DIM));
}

/* The latest figure of the current lesson, or why there is none. Returns the rows used. */
static int draw_latest(const struct rect *in, int row, const struct session_view *v)
{
    const struct figure *f = &v->latest;
    char a[32], b[32];

    if (v->size_error[0])
        return draw_wrapped(in, row, v->size_error, crt_attr(ROLE_WARNING));
    if (!f->have) {
        puts_at(in->y + row, in->x, in->w, "waiting for the first measurement", crt_attr(ROLE_DIM));
        return row + 1;
    }
    if (f->status == RUN_WRONG) {
        puts_at(in->y + row, in->x, in->w, " wrong result ", crt_attr(ROLE_WRONG));
        return draw_wrapped(in, row + 1, f->message, crt_attr(ROLE_WARNING));
    }
    if (f->status != RUN_OK) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s: %s", run_status_name(f->status), f->message);
        return draw_wrapped(in, row, msg, crt_attr(ROLE_WARNING));
    }
    {
        struct stats st;
        stats_compute(v->history, v->nhistory, &st);
        chart_format_value(f->median, a, sizeof a);
        chart_format_value(st.median, b, sizeof b);
        char line[160];
        int n = snprintf(line, sizeof line, "latest %s  median %s  %s%.1f%%", a, b, crt_utf8() ? "\u00b1" : "+-",
                         100.0 * stats_relative_spread(&st));
        /* The number of measurements, where it fits. */
        if ((int)str_columns(line, (size_t)n) + 8 <= in->w)
            snprintf(line + n, sizeof line - (size_t)n, "  (%zu)", v->nhistory);
        puts_at(in->y + row, in->x, in->w, line, A_NORMAL);
        printf_at(in->y + row, in->x, 6, crt_attr(ROLE_EMPHASIS), "latest");
    }
    return row + 1;
}

/* A plot with its y scale at the left: rows text rows at (y, x), w columns. */
static void draw_plot(int y, int x, int w, int rows, const double *px, const double *py, size_t n, double xmin,
                      double xmax, bool logx, double ymax, bool join)
{
    char **lines = malloc((size_t)rows * sizeof *lines);
    char label[32];
    int label_w = 6;

    if (!lines)
        abort();
    for (int i = 0; i < rows; i++)
        if (!(lines[i] = malloc(chart_row_bytes(w - label_w))))
            abort();
    chart_plot(px, py, n, xmin, xmax, 0.0, ymax, logx, join, w - label_w, rows, crt_utf8(), lines);
    chart_format_value(ymax, label, sizeof label);
    printf_at(y, x, label_w, crt_attr(ROLE_DIM), "%5s", label);
    printf_at(y + rows - 1, x, label_w, crt_attr(ROLE_DIM), "%5s", "0");
    for (int i = 0; i < rows; i++) {
        puts_at(y + i, x + label_w - 1, 1, crt_utf8() ? "\u2502" : "|", crt_attr(ROLE_DIM));
        puts_at(y + i, x + label_w, w - label_w, lines[i], crt_attr(ROLE_BAR_CURRENT));
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

struct bar {
    const char *label;
    int number;                 /* -1 for CLBlast */
    const struct figure *fig;
    int role;
};

/* Which bars fit: the current lesson, the fastest and the references first, then the
   lessons nearest the current one; shown in ladder order. */
static size_t choose_bars(const struct screen_model *m, struct bar *bars, size_t room, double *fastest)
{
    const struct session_view *v = m->view;
    size_t count = m->lessons->count, n = 0, best = SIZE_MAX;
    bool *take = calloc(count + 1, sizeof *take);

    if (!take)
        abort();
    *fastest = 0.0;
    for (size_t i = 0; i < count; i++)
        if (v->bars[i].have && v->bars[i].status == RUN_OK && v->bars[i].median > *fastest) {
            *fastest = v->bars[i].median;
            best = i;
        }
    if (v->clblast.have && v->clblast.status == RUN_OK && v->clblast.median > *fastest)
        *fastest = v->clblast.median;
    {
        size_t wanted = 0, order[SESSION_MAX_LESSONS + 3];
        size_t k = 0;
        order[k++] = (size_t)m->lesson;
        if (best != SIZE_MAX)
            order[k++] = best;
        if (m->lessons->items[0].engine == ENGINE_HOST)
            order[k++] = 0;
        for (int d = 1; d < (int)count; d++) {
            if (m->lesson - d >= 0)
                order[k++] = (size_t)(m->lesson - d);
            if (m->lesson + d < (int)count)
                order[k++] = (size_t)(m->lesson + d);
        }
        if (v->clblast.have && room > 0)
            room--;
        for (size_t i = 0; i < k && wanted < room; i++) {
            size_t at = order[i];
            if (take[at] || (!v->bars[at].have && at != (size_t)m->lesson))
                continue;
            take[at] = true;
            wanted++;
        }
    }
    for (size_t i = 0; i < count; i++)
        if (take[i]) {
            const struct lesson *l = &m->lessons->items[i];
            bars[n++] = (struct bar){ l->short_title, l->number, &v->bars[i],
                                      l->engine == ENGINE_HOST ? ROLE_BAR_REFERENCE
                                      : (int)i == m->lesson ? ROLE_BAR_CURRENT : ROLE_BAR };
        }
    if (v->clblast.have)
        bars[n++] = (struct bar){ "CLBlast SGEMM", -1, &v->clblast, ROLE_BAR_REFERENCE };
    free(take);
    return n;
}

static void draw_bars(const struct rect *in, int row, struct screen_model *m)
{
    const struct session_view *v = m->view;
    struct bar *bars = calloc(m->lessons->count + 1, sizeof *bars);
    int rows = in->h - row - 1, label_w = in->w * 2 / 5, value_w = 8;
    double fastest, scale;
    char size[64];
    size_t n;

    if (!bars)
        abort();
    if (rows < 1) {
        free(bars);
        return;
    }
    format_size(size, sizeof size, v->size);
    printf_at(in->y + row, in->x, in->w, crt_attr(ROLE_HEADING), "GFLOPS at %s%s", size,
              v->clblast.have || !v->clblast_built ? "" : " (a: every lesson)");
    n = choose_bars(m, bars, (size_t)rows, &fastest);
    scale = chart_nice_max(fastest);
    for (size_t i = 0; i < n; i++) {
        const struct bar *b = &bars[i];
        int y = in->y + row + 1 + (int)i, x = in->x, bar_w = in->w - label_w - value_w - 1;
        char label[64], bar[LINE_BYTES], value[32];
        if (b->number >= 0)
            snprintf(label, sizeof label, "%2d %s", b->number, b->label);
        else
            snprintf(label, sizeof label, "   %s", b->label);
        puts_at(y, x, label_w - 1, label, b->number == m->lessons->items[m->lesson].number ? crt_attr(ROLE_EMPHASIS) : 0);
        x += label_w;
        if (!b->fig->have) {
            puts_at(y, x, bar_w, "measuring...", crt_attr(ROLE_DIM));
        } else if (b->fig->status == RUN_WRONG) {
            puts_at(y, x, bar_w, "wrong result", crt_attr(ROLE_WRONG));
        } else if (b->fig->status != RUN_OK) {
            puts_at(y, x, bar_w, run_status_name(b->fig->status), crt_attr(ROLE_WARNING));
        } else {
            int used = chart_bar(bar, sizeof bar, b->fig->median, scale, bar_w, crt_utf8());
            puts_at(y, x, bar_w, bar, crt_attr(b->role));
            chart_format_value(b->fig->median, value, sizeof value);
            printf_at(y, x + used + 1, value_w + bar_w - used, 0, "%s", value);
            if (b->fig->median == fastest && fastest > 0.0)
                puts_at(y, x + used + 2 + (int)strlen(value), 2, crt_utf8() ? "\u2605" : "*", crt_attr(ROLE_BEST));
        }
    }
    free(bars);
}

static void draw_sweep(const struct rect *in, int row, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    double xs[SESSION_MAX_SWEEP], ys[SESSION_MAX_SWEEP], top = 0.0;
    int rows = in->h - row - 2;
    size_t n = 0;
    char first[32], last[32];

    printf_at(in->y + row, in->x, in->w, crt_attr(ROLE_HEADING), "Sweep: lesson %d, GFLOPS against size (w hides)",
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
    puts_at(in->y + in->h - 1, in->x + 6, 8, first, crt_attr(ROLE_DIM));
    puts_at(in->y + in->h - 1, in->x + in->w - (int)strlen(last), (int)strlen(last), last, crt_attr(ROLE_DIM));
    if (n < v->nsweep)
        printf_at(in->y + in->h - 1, in->x + 12, in->w - 20, crt_attr(ROLE_WARNING), "%zu sizes not run",
                  v->nsweep - n);
}

/* The tuner: progress, the best so far, and how GFLOPS spread over the space. */
static void draw_tune(const struct rect *in, int row, const struct screen_model *m)
{
    const struct session_view *v = m->view;
    int rows = in->h - row - 3, bins = in->w - 6;
    char best[32];
    double top = 0.0;

    chart_format_value(v->tune_best, best, sizeof best);
    printf_at(in->y + row, in->x, in->w, crt_attr(ROLE_HEADING), "Tuning lesson %d: %zu of %zu, best %s",
              m->lessons->items[v->tune_lesson].number, v->tune_done, v->tune_space, best);
    printf_at(in->y + row + 1, in->x, in->w, crt_attr(ROLE_DIM), "%s", v->tune_best_params);
    if (rows < 1 || bins < 4 || v->ntune == 0)
        return;
    for (size_t i = 0; i < v->ntune; i++)
        top = v->tune_gflops[i] > top ? v->tune_gflops[i] : top;
    {
        /* A histogram: how many configurations reached each band of GFLOPS. */
        double *count = calloc((size_t)bins, sizeof *count), most = 0, scale = chart_nice_max(top);
        char **lines = malloc((size_t)rows * sizeof *lines);
        char label[32];
        if (!count || !lines)
            abort();
        for (size_t i = 0; i < v->ntune; i++) {
            int b = (int)(v->tune_gflops[i] / scale * bins);
            count[b >= bins ? bins - 1 : b]++;
        }
        for (int b = 0; b < bins; b++)
            most = count[b] > most ? count[b] : most;
        for (int i = 0; i < rows; i++)
            if (!(lines[i] = malloc(chart_row_bytes(bins))))
                abort();
        chart_columns(count, (size_t)bins, most, rows, crt_utf8(), lines);
        for (int i = 0; i < rows; i++) {
            puts_at(in->y + row + 2 + i, in->x + 6, bins, lines[i], crt_attr(ROLE_BAR_CURRENT));
            free(lines[i]);
        }
        printf_at(in->y + row + 2, in->x, 6, crt_attr(ROLE_DIM), "%4.0f", most);
        chart_format_value(scale, label, sizeof label);
        printf_at(in->y + in->h - 1, in->x, in->w, crt_attr(ROLE_DIM), "configurations by GFLOPS, 0 to %s", label);
        free(lines);
        free(count);
    }
}

void panes_draw_gflops(const struct rect *r, struct screen_model *m)
{
    const struct session_view *v = m->view;
    struct rect in = frame(r, "GFLOPS, measured and verified", m->focus == PANE_GFLOPS);
    int row = 0, chart_rows;

    if (!v->device_ready) {
        draw_wrapped(&in, 0, v->device_error[0] ? v->device_error : "opening the device...",
                     v->device_error[0] ? crt_attr(ROLE_WARNING) : crt_attr(ROLE_DIM));
        return;
    }
    draw_status(in.y, in.x, in.w, v);
    row = draw_latest(&in, 1, v);
    chart_rows = in.h >= 20 ? 5 : in.h >= 14 ? 3 : 2;
    if (v->latest.have && v->latest.status == RUN_OK && row + chart_rows < in.h) {
        draw_history(&in, row, chart_rows, v);
        row += chart_rows;
    }
    if (v->tune_lesson == m->lesson && (v->job == JOB_TUNE || v->ntune > 0))
        draw_tune(&in, row, m);
    else if (v->sweep_lesson == m->lesson)
        draw_sweep(&in, row, m);
    else
        draw_bars(&in, row, m);
}

/* ---- overlays ---- */

static struct rect centred(int cols, int rows, int w, int h)
{
    struct rect r;

    r.w = w > cols - 4 ? cols - 4 : w;
    r.h = h > rows - 2 ? rows - 2 : h;
    r.x = (cols - r.w) / 2;
    r.y = (rows - r.h) / 2;
    return r;
}

void panes_draw_too_small(int cols, int rows)
{
    char msg[128];
    int len;

    erase();
    len = snprintf(msg, sizeof msg, "terminal too small: have %dx%d, need %dx%d", cols, rows, LAYOUT_MIN_COLS,
                   LAYOUT_MIN_ROWS);
    puts_at(rows / 2, cols > len ? (cols - len) / 2 : 0, cols, msg, crt_attr(ROLE_WARNING));
    if (rows / 2 + 1 < rows)
        puts_at(rows / 2 + 1, cols > 12 ? (cols - 12) / 2 : 0, cols, "(q quits)", crt_attr(ROLE_DIM));
}

/* At most 20 lines: the window fits inside 80x24. */
static const char *const help_lines[] = {
    "Lessons and sizes",
    "  n, Right / p, Left  next / previous lesson     0-9   jump to a lesson",
    "  +, = / -            larger / smaller size      s     type N or MxNxK",
    "  d                   choose the OpenCL device",
    "Parameters and kernels",
    "  t     change the lesson's parameters: the layout and speed follow",
    "  T     tune: search the parameter space and keep the best (T stops)",
    "  r     reload the edited kernel                 c     diff, previous lesson",
    "Measuring",
    "  space pause / resume                           x     cancel a series",
    "  a     every lesson at this size, and CLBlast (a again stops)",
    "  w     sweep sizes for this lesson (w again hides and stops it)",
    "Screen",
    "  Tab, Shift-Tab   next / previous pane (the arrows scroll it)",
    "  Up Down PgUp PgDn Home End, j k   scroll     z   zoom the pane",
    "  ?, h, F1         this help                   q, Esc, F10   quit",
    "",
    "A speed is shown only after the result was verified against the host",
    "reference; a failed check shows as \"wrong result\".",
};

void panes_draw_help(int cols, int rows)
{
    size_t n = sizeof help_lines / sizeof help_lines[0];
    struct rect r = centred(cols, rows, 78, (int)n + 3);
    struct rect in = frame(&r, "Keys (any key closes)", true);

    for (int i = 0; i < in.h && i < (int)n; i++)
        puts_at(in.y + i, in.x + 1, in.w - 2, help_lines[i],
                crt_attr(help_lines[i][0] != ' ' && help_lines[i][0] ? ROLE_HEADING : ROLE_NORMAL));
}

void panes_draw_params(int cols, int rows, const struct screen_model *m, int row, const char *refusal)
{
    const struct lesson *l = current(m);
    struct rect r = centred(cols, rows, 70, (int)l->nparams + 7);
    char title[128];
    struct rect in;

    snprintf(title, sizeof title, "Lesson %d parameters: Up/Down choose, Left/Right change", l->number);
    in = frame(&r, title, true);
    for (size_t i = 0; i < l->nparams && (int)i < in.h; i++) {
        const struct lesson_param *p = &l->params[i];
        int x = in.x + 1, y = in.y + (int)i;
        x += printf_at(y, x, 12, (int)i == row ? crt_attr(ROLE_SELECTED) : crt_attr(ROLE_EMPHASIS), "%-8s",
                       p->name);
        for (size_t k = 0; k < p->nvalues; k++) {
            bool on = p->values[k] == m->view->params.values[i];
            x += printf_at(y, x, in.x + in.w - x, on ? crt_attr(ROLE_SELECTED) : 0, on ? "[%lld]" : " %lld ",
                           p->values[k]);
        }
        printf_at(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  (default %lld)", p->def);
    }
    if (refusal && *refusal) {
        struct rect msg = { in.y + (int)l->nparams + 1, in.x + 1, in.h - (int)l->nparams - 2, in.w - 2 };
        draw_wrapped(&msg, 0, refusal, crt_attr(ROLE_WARNING));
    } else {
        puts_at(in.y + (int)l->nparams + 1, in.x + 1, in.w - 2, "runs with these values", crt_attr(ROLE_GOOD));
    }
    puts_at(in.y + in.h - 1, in.x + 1, in.w - 2, "Enter or Esc closes; d: the defaults", crt_attr(ROLE_DIM));
}

void panes_draw_devices(int cols, int rows, const struct screen_model *m, int row)
{
    const struct session_view *v = m->view;
    struct rect r = centred(cols, rows, 76, v->ndevices + 4);
    struct rect in = frame(&r, "OpenCL device: Up/Down, Enter chooses, Esc cancels", true);

    if (!v->devices_known) {
        puts_at(in.y, in.x + 1, in.w - 2, "looking for devices...", crt_attr(ROLE_DIM));
        return;
    }
    for (int i = 0; i < v->ndevices && i < in.h; i++)
        printf_at(in.y + i, in.x + 1, in.w - 2, i == row ? crt_attr(ROLE_SELECTED) : 0, "%c %d  %s",
                  i == v->device ? '*' : ' ', i, v->devices[i]);
}

void panes_draw_build_log(int cols, int rows, const struct screen_model *m, int scroll)
{
    const struct session_view *v = m->view;
    struct rect r = centred(cols, rows, cols - 4, rows - 2);
    struct rect in = frame(&r, "Build failed: the previous kernel is still measured (Esc closes)", true);
    struct lines log;
    int top;

    draw_wrapped(&in, 0, v->build_error, crt_attr(ROLE_WARNING));
    lines_split(v->build_log, &log);
    top = scroll < 0 ? 0 : scroll;
    for (int i = 2; i < in.h && top + i - 2 < (int)log.count; i++)
        puts_at(in.y + i, in.x, in.w, log.items[top + i - 2], 0);
    lines_free(&log);
}

void panes_draw_prompt(const struct rect *r, const char *label, const char *input, const char *error)
{
    int x = r->x;

    blank(r->y, r->x, r->w, crt_attr(ROLE_KEYS));
    x += puts_at(r->y, x, r->w, label, crt_attr(ROLE_KEY));
    x += puts_at(r->y, x, r->x + r->w - x, input, crt_attr(ROLE_KEYS));
    x += puts_at(r->y, x, r->x + r->w - x, "_", crt_attr(ROLE_KEYS) | A_BLINK);
    if (error && *error)
        puts_at(r->y, x + 2, r->x + r->w - x - 2, error, crt_attr(ROLE_WARNING));
}
