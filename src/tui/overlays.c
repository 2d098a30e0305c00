/* overlays.c: the boxes drawn over the panes: the terminal too small, the help, the
   lesson's parameters, the course list, the exercises, the devices and the build log. */
#include "panes.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"
#include "draw.h"
#include "engine/text.h"
#include "engine/xalloc.h"

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
    draw_puts(rows / 2, cols > len ? (cols - len) / 2 : 0, cols, msg, crt_attr(ROLE_WARNING));
    if (rows / 2 + 1 < rows)
        draw_puts(rows / 2 + 1, cols > 12 ? (cols - 12) / 2 : 0, cols, "(q quits)", crt_attr(ROLE_DIM));
}

/* The help's lines: a heading for each section, then "keys  what they do". */
struct help_line {
    const char *heading;        /* or NULL for a key */
    const struct key_binding *key;
};

static size_t help_lines(const struct screen_model *m, struct help_line *out)
{
    size_t n = 0;

    const char *section = NULL;

    /* A section's heading goes above its first key that works in this mode. */
    for (size_t i = 0; i < m->nkeys; i++) {
        if (m->keys[i].section)
            section = m->keys[i].section;
        if (!(m->keys[i].modes & m->mode))
            continue;
        if (section)
            out[n++] = (struct help_line){ section, NULL };
        section = NULL;
        out[n++] = (struct help_line){ NULL, &m->keys[i] };
    }
    return n;
}

static void draw_help_line(int y, int x, int w, const struct help_line *h)
{
    if (h->heading) {
        draw_puts(y, x, w, h->heading, crt_attr(ROLE_HEADING));
        return;
    }
    draw_puts(y, x + 1, 12, h->key->keys, crt_attr(ROLE_EMPHASIS));
    draw_puts(y, x + 14, w - 14, h->key->help, A_NORMAL);
}

static const char *const help_footer[] = {
    "A speed is shown only after its result was verified against the host",
    "reference (else \"wrong result\"). Bars: medians of all runs at this size.",
};

static const char *const exercise_help_footer[] = {
    "Each save of your file is checked against the host reference at every",
    "size of the exercise. The solution (S) is shown after a check of yours.",
};

void panes_draw_help(int cols, int rows, const struct screen_model *m, int *scroll)
{
    struct help_line *lines = xcalloc(2 * m->nkeys + 1, sizeof *lines);
    size_t n, split;
    const char *const *footer = m->exercise ? exercise_help_footer : help_footer;
    int foot = (int)(sizeof help_footer / sizeof help_footer[0]), body, top;
    struct rect r, in;

    n = help_lines(m, lines);
    /* One column when it fits, else two, the second starting at a section. */
    split = n;
    if ((int)n + foot + 3 > rows - 2) {
        /* The section start nearest the middle. */
        for (size_t i = 1; i < n; i++)
            if (lines[i].heading && (split == n || (i > n / 2 ? i - n / 2 : n / 2 - i) <
                                                       (split > n / 2 ? split - n / 2 : n / 2 - split)))
                split = i;
    }
    body = (int)(split > n - split ? split : n - split);
    r = centred(cols, rows, 78, body + foot + 3);
    in = draw_frame(&r, "Keys (Esc or any other key closes)", true);
    body = in.h - foot - 1;
    top = draw_clamp_scroll(scroll, (int)split, body);
    for (int row = 0; row < body; row++) {
        size_t left = (size_t)(top + row), right = split + (size_t)(top + row);
        if (left < split)
            draw_help_line(in.y + row, in.x + 1, split < n ? in.w / 2 - 1 : in.w - 2, &lines[left]);
        if (split < n && right < n)
            draw_help_line(in.y + row, in.x + in.w / 2, in.w - in.w / 2 - 1, &lines[right]);
    }
    if (top + body < (int)split)
        draw_scroll_marks(&r, top, (int)split, body);
    for (int i = 0; i < foot; i++)
        draw_puts(in.y + body + 1 + i, in.x + 1, in.w - 2, footer[i], crt_attr(ROLE_DIM));
    free(lines);
}

/* "TSM by rule: 64 + 64 * ...", a parameter's rule as the t dialog writes it out. */
static void rule_text(const struct lesson_param *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s by rule: %s", p->name, p->rule);
}

/* Rows the rules take, wrapped to width. */
static int rule_rows(const struct lesson *l, int width)
{
    char text[1200];
    int n = 0;

    for (size_t i = 0; i < l->nparams; i++) {
        struct text_lines lines;
        if (!l->params[i].rule)
            continue;
        rule_text(&l->params[i], text, sizeof text);
        text_layout(text, width, &lines);
        n += (int)lines.count;
        text_lines_free(&lines);
    }
    return n;
}

/* A parameter's values as a row of choices, or, for a range and for a list that would not
   leave room for the default and its note, the current value and the span: "[9] of 16
   values, 1 to 16", "[132] of 1 to 65536". Returns the columns, drawing at (y, x) when
   draw is set; at its widest when current is not given (the column's width). */
static int draw_values(const struct lesson_param *p, bool compact, const long long *current, int y, int x,
                       int width, bool draw)
{
    long long lo = p->values[0], hi = p->values[0];
    int w = 0;

    for (size_t k = 1; k < p->nvalues; k++) {
        lo = p->values[k] < lo ? p->values[k] : lo;
        hi = p->values[k] > hi ? p->values[k] : hi;
    }
    if (compact) {
        /* The current value at its widest: the low end or the high one. */
        long long now = current ? *current : snprintf(NULL, 0, "%lld", lo) > snprintf(NULL, 0, "%lld", hi) ? lo : hi;
        char span[96];
        if (p->is_range)
            snprintf(span, sizeof span, " of %lld to %lld", lo, hi);
        else
            snprintf(span, sizeof span, " of %zu values, %lld to %lld", p->nvalues, lo, hi);
        if (!draw)
            return snprintf(NULL, 0, "[%lld]%s", now, span);
        w = draw_printf(y, x, width, crt_attr(ROLE_SELECTED), "[%lld]", now);
        return w + draw_printf(y, x + w, width - w, 0, "%s", span);
    }
    for (size_t k = 0; k < p->nvalues; k++) {
        bool on = current && p->values[k] == *current;
        if (!draw)
            w += snprintf(NULL, 0, " %lld ", p->values[k]);
        else
            w += draw_printf(y, x + w, width - w, on ? crt_attr(ROLE_SELECTED) : 0, on ? "[%lld]" : " %lld ",
                           p->values[k]);
    }
    return w;
}

void panes_draw_params(int cols, int rows, const struct screen_model *m, int row, const char *refusal)
{
    const struct lesson *l = model_lesson(m);
    /* 74 columns: a name of 6 letters, the widest span of a list ("[1] of 16 values, 1 to 16")
       and "  (default 132)  by rule, not tuned" on one row (lesson 19's WAVE, beside PIECES). */
    int rules = rule_rows(l, 70);
    struct rect r = centred(cols, rows, 74, (int)l->nparams + 7 + (rules ? rules + 1 : 0));
    char title[128];
    struct rect in;

    snprintf(title, sizeof title, "Lesson %d parameters: Up/Down choose, Left/Right change", l->number);
    int name_w = 0, values_w = 0;

    in = draw_frame(&r, title, true);
    /* The names in a column as wide as the longest and a space; the values in another, so that
       the defaults, and the word that marks a switch, line up. A list wider than what leaves
       room for "  (default 65536)  by rule, not tuned" is shown by its span. */
    for (size_t i = 0; i < l->nparams; i++)
        name_w = (int)strlen(l->params[i].name) > name_w ? (int)strlen(l->params[i].name) : name_w;
    bool compact[LESSON_MAX_PARAMS];
    for (size_t i = 0; i < l->nparams; i++) {
        const struct lesson_param *p = &l->params[i];
        int room = in.w - 2 - name_w - 1 - 38;
        compact[i] = p->is_range || draw_values(p, false, NULL, 0, 0, 0, false) > room;
        int w = draw_values(p, compact[i], NULL, 0, 0, 0, false);
        values_w = w > values_w ? w : values_w;
    }
    for (size_t i = 0; i < l->nparams && (int)i < in.h; i++) {
        const struct lesson_param *p = &l->params[i];
        int x = in.x + 1, y = in.y + (int)i, start;
        draw_printf(y, x, name_w, (int)i == row ? crt_attr(ROLE_SELECTED) : crt_attr(ROLE_EMPHASIS), "%-*s", name_w,
                  p->name);
        x += name_w + 1;
        start = x;
        draw_values(p, compact[i], &m->view->params.values[i], y, x, in.x + in.w - x, true);
        x = start + values_w;
        x += draw_printf(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  (default %lld)", p->def);
        /* A switch turns one change of the lesson on or off; the tuner leaves it at its default. */
        if (p->is_switch)
            draw_printf(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  switch, not tuned");
        /* A rule chooses the value from the shape where the tuner's is not applied; the rules
           are written out whole below the list. */
        else if (p->rule)
            draw_printf(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), p->is_range ? "  by rule, not tuned" : "  by rule");
        else if (p->is_range)
            draw_printf(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  range, not tuned");
    }
    /* The rules in the rows left between the parameters and the status line (a refusal's
       whole text, up to 4 rows); on a screen too small for all of them, as many as fit and a
       line that says where the rest are. */
    int status = refusal && *refusal ? draw_wrapped_rows(refusal, in.w - 2) : 1;
    status = status > 4 ? 4 : status;
    int room = in.h - (int)l->nparams - 3 - status;
    bool cut = rules > room;
    if (cut)
        rules = room > 1 ? room - 1 : 0;
    if (rules) {
        struct rect box = { in.y + (int)l->nparams + 1, in.x + 1, rules, in.w - 2 };
        char text[1200];
        int at = 0;
        for (size_t i = 0; i < l->nparams; i++) {
            if (!l->params[i].rule)
                continue;
            rule_text(&l->params[i], text, sizeof text);
            at = draw_wrapped(&box, at, text, crt_attr(ROLE_DIM));
        }
    }
    if (cut && room > 0) {
        char more[64];
        snprintf(more, sizeof more, "... the rest: clmm-tutor --show %d", l->number);
        draw_puts(in.y + (int)l->nparams + 1 + rules, in.x + 1, in.w - 2, more, crt_attr(ROLE_DIM));
        rules++;
    }
    int below = (int)l->nparams + (rules ? rules + 1 : 0);
    if (refusal && *refusal) {
        struct rect msg = { in.y + below + 1, in.x + 1, in.h - below - 2, in.w - 2 };
        draw_wrapped(&msg, 0, refusal, crt_attr(ROLE_WARNING));
    } else {
        draw_puts(in.y + below + 1, in.x + 1, in.w - 2, "runs with these values", crt_attr(ROLE_GOOD));
    }
    draw_puts(in.y + in.h - 1, in.x + 1, in.w - 2, "Enter or Esc closes; d: the defaults", crt_attr(ROLE_DIM));
}

void panes_draw_course(int cols, int rows, const struct lesson_set *lessons, const struct exercise_set *set,
                       const struct progress *p, const struct course_row *list, int count, int row, int current)
{
    struct rect r = centred(cols, rows, 90, count + 4);
    struct rect in = draw_frame(&r, "Lessons and exercises: Up/Down, Enter opens, Esc closes", true);
    int body = in.h - 1, top = row - body + 1 > 0 ? row - body + 1 : 0;
    const char *branch_mark = crt_utf8() ? "\u2506" : "|";

    for (int i = 0; i < body && top + i < count; i++) {
        const struct course_row *c = &list[top + i];
        const struct lesson *l = &lessons->items[c->lesson];
        int y = in.y + i, x0 = in.x + 1, w = in.w - 2, status_w = 22;
        int attr = top + i == row ? crt_attr(ROLE_SELECTED) : 0;
        draw_blank(y, x0, w, attr);
        if (c->exercise < 0) {
            draw_printf(y, x0, w, attr | (c->lesson == current ? A_BOLD : 0), "%c%3d %s %s", c->lesson == current ? '>' : ' ',
                      l->number, l->branch ? branch_mark : " ", l->title);
        } else {
            const struct exercise *x = &set->items[c->exercise];
            const struct progress_entry *en = &p->e[x->number];
            int status_attr = crt_attr(en->best >= PROGRESS_VERIFIED ? ROLE_GOOD
                                       : en->best > PROGRESS_NOT_STARTED ? ROLE_WARNING : ROLE_DIM);
            draw_printf(y, x0, w - status_w, attr, "        exercise %-2d %s", x->number, x->l.short_title);
            draw_printf(y, x0 + w - status_w, status_w, top + i == row ? attr : status_attr, " %s",
                      progress_status_name(en->best));
        }
    }
    draw_scroll_marks(&r, top, count, body);
    draw_printf(in.y + in.h - 1, in.x + 1, in.w - 2, crt_attr(ROLE_DIM), "%s side branch   > the lesson shown   "
              "%d of %zu exercises verified", branch_mark, progress_count(p, set, PROGRESS_VERIFIED), set->count);
}

void panes_draw_exercises(int cols, int rows, const struct exercise_set *set, const struct progress *p, int row,
                          const char *typed)
{
    struct rect r = centred(cols, rows, 78, (int)set->count + 6);
    struct rect in = draw_frame(&r, "Exercises: Up/Down, Enter opens (or its number), Esc closes", true);
    int verified = progress_count(p, set, PROGRESS_VERIFIED), body = in.h - 3, top;

    if (set->count == 0) {
        draw_wrapped(&in, 0, "There are no exercises here: --exercises-dir DIR reads them from DIR.",
                     crt_attr(ROLE_DIM));
        return;
    }
    top = row - body + 1 > 0 ? row - body + 1 : 0;
    for (int i = 0; i < body && top + i < (int)set->count; i++) {
        const struct exercise *x = &set->items[top + i];
        const struct progress_entry *en = &p->e[x->number];
        int y = in.y + i, x0 = in.x + 1, w = in.w - 2, status_w = 32;
        int attr = top + i == row ? crt_attr(ROLE_SELECTED) : 0;
        int status_attr = crt_attr(en->best >= PROGRESS_VERIFIED ? ROLE_GOOD
                                   : en->best > PROGRESS_NOT_STARTED ? ROLE_WARNING : ROLE_DIM);
        draw_blank(y, x0, w, attr);
        draw_printf(y, x0, w - status_w, attr, "%2d  lesson %-2d  %s", x->number, x->lesson, x->l.short_title);
        draw_printf(y, x0 + w - status_w, status_w, top + i == row ? attr : status_attr, " %-20s %3d check%s",
                  progress_status_name(en->best), en->checks, en->checks == 1 ? "" : "s");
    }
    draw_scroll_marks(&r, top, (int)set->count, body);
    draw_printf(in.y + in.h - 2, in.x + 1, in.w - 2, crt_attr(ROLE_EMPHASIS), "%d of %zu exercises verified",
              verified, set->count);
    if (typed && *typed)
        draw_printf(in.y + in.h - 1, in.x + 1, in.w - 2, crt_attr(ROLE_DIM), "exercise %s_", typed);
}

void panes_draw_devices(int cols, int rows, const struct screen_model *m, int row)
{
    const struct session_view *v = m->view;
    struct rect r = centred(cols, rows, 76, v->ndevices + 4);
    struct rect in = draw_frame(&r, "OpenCL device: Up/Down, Enter chooses, Esc cancels", true);

    if (!v->devices_known) {
        draw_puts(in.y, in.x + 1, in.w - 2, "looking for devices...", crt_attr(ROLE_DIM));
        return;
    }
    for (int i = 0; i < v->ndevices && i < in.h; i++)
        draw_printf(in.y + i, in.x + 1, in.w - 2, i == row ? crt_attr(ROLE_SELECTED) : 0, "%c %d  %s",
                  i == v->device ? '*' : ' ', i, v->devices[i]);
}

void panes_draw_build_log(int cols, int rows, const struct screen_model *m, int *scroll)
{
    const struct session_view *v = m->view;
    struct rect r = centred(cols, rows, cols - 4, rows - 2);
    struct rect in = draw_frame(&r, "Build failed: the previous kernel is still measured (Esc closes)", true);
    struct lines log;
    int first, top;

    /* The log starts below the error, however many rows it took. */
    first = draw_wrapped(&in, 0, v->build_error, crt_attr(ROLE_WARNING)) + 1;
    lines_split(v->build_log, &log);
    top = draw_clamp_scroll(scroll, (int)log.count, in.h - first);
    for (int i = first; i < in.h && top + i - first < (int)log.count; i++)
        draw_puts(in.y + i, in.x, in.w, log.items[top + i - first], 0);
    lines_free(&log);
}
