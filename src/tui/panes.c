/* panes.c: what each part of the interactive screen shows, drawn with curses.

   The numbers come from the session's snapshot, the drawings from the curses-free modules
   (text, highlight, diff, diagram, chart): this file only places strings and colours. */
#include "panes.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/chart.h"
#include "crt.h"
#include "diagram.h"
#include "engine/errmap.h"
#include "highlight.h"
#include "engine/hostcode.h"
#include "engine/inside.h"
#include "engine/roofline.h"
#include "engine/measure.h"
#include "engine/needs.h"
#include "engine/sources.h"
#include "engine/stats.h"
#include "engine/str.h"
#include "engine/text.h"
#include "engine/waves.h"
#include "engine/xalloc.h"

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

/* The mark of a line cut at the left or right edge of a pane: a character, so that it shows
   without colours too. */
static void put_cut_marks(int y, int x, int w, const struct text_cut *cut)
{
    int attr = crt_attr(ROLE_DIM);

    if (cut->left)
        puts_at(y, x, 1, crt_utf8() ? "\u2026" : "<", attr);
    if (cut->right)
        puts_at(y, x + w - 1, 1, crt_utf8() ? "\u2026" : ">", attr);
}

/* Writes the w columns of a line from its column first on at (y, x), marking where it goes
   on beyond either edge; returns the columns used. */
static int put_cut(int y, int x, int w, const char *line, int first, int attr)
{
    struct text_cut cut;

    text_cut(line, first, w, &cut);
    put_cut_marks(y, x, w, &cut);
    return cut.at + put(y, x + cut.at, w - cut.at, line + cut.start, cut.len, attr) + cut.right;
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
    if (title && r->w > 6) {
        /* " title " between two lines of the border on either side. */
        int x = r->x + 2 + puts_at(r->y, r->x + 2, 1, " ", attr);
        x += put_cut(r->y, x, r->w - 6, title, 0, attr | A_BOLD);
        puts_at(r->y, x, 1, " ", attr);
    }
    return in;
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

/* "↑3 ↓94": how many lines there are above and below, on the bottom border at the right
   (the top border holds the title). */
static void scroll_marks(const struct rect *r, int scroll, int content, int visible)
{
    char marks[64];
    struct str s;
    int w;

    str_init(&s, marks, sizeof marks);
    if (scroll > 0)
        str_appendf(&s, "", crt_utf8() ? " \u2191%d" : " ^%d", scroll);
    if (scroll + visible < content)
        str_appendf(&s, "", crt_utf8() ? " \u2193%d" : " v%d", content - scroll - visible);
    if (s.len == 0)
        return;
    str_appendf(&s, "", " ");
    w = (int)str_columns(marks, s.len);
    if (w <= r->w - 4)
        puts_at(r->y + r->h - 1, r->x + r->w - 2 - w, w, marks, crt_attr(ROLE_DIM));
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

/* Where the current lesson's parameters came from, for the title: " (tuned)", " (tuned at
   4096³, partial search)", " (defaults: tuned at 256³, too far from this size)", " (set with
   t)", " (--param)"; nothing for the defaults. */
static void origin_note(const struct session_view *v, char *buf, size_t len)
{
    const struct param_origin *o = &v->origin;
    char at[64];
    bool same = o->tuned.size.m == v->size.m && o->tuned.size.n == v->size.n && o->tuned.size.k == v->size.k;

    buf[0] = '\0';
    format_size(at, sizeof at, o->tuned.size);
    if (v->hand_set)
        snprintf(buf, len, " (set with t)");
    else if (o->source == PARAMS_TUNED)
        snprintf(buf, len, " (tuned%s%s%s)", same ? "" : " at ", same ? "" : at,
                 o->tuned.complete ? "" : ", partial search");
    else if (o->source == PARAMS_OVERRIDDEN)
        snprintf(buf, len, " (--param)");
    else if (o->source == PARAMS_TUNED_NOT_APPLIED)
        snprintf(buf, len, " (defaults: tuned at %s, too far from this size)", at);
}

/* The parts of the title line, from which it is built to fit. */
struct title_parts {
    char head[256];             /* " clmm-tutor │ Lesson 13 (14 of 15): " */
    char short_head[256];       /* the same without the side branch's name */
    const char *title, *size, *note, *device, *sep;
    char params[LESSON_MAX_PARAMS][64];
    size_t nparams;
};

/* The title line with the first kept parameters (an ellipsis after them when some are left
   out), the note and the device when asked for, the title shortened to what is left; returns
   the columns left of the title. */
static int title_line(const struct title_parts *p, size_t kept, bool note, bool device, bool short_head,
                       int width, char *buf, size_t len)
{
    const char *head = short_head ? p->short_head : p->head;
    char tail[LINE_BYTES], title[512];
    struct str s;

    str_init(&s, tail, sizeof tail);
    str_appendf(&s, "", "%s%s", p->sep, p->size);
    if (p->nparams > 0) {
        str_appendf(&s, "", "%s", p->sep);
        for (size_t i = 0; i < kept; i++)
            str_appendf(&s, i ? " " : "", "%s", p->params[i]);
        if (kept < p->nparams)
            str_appendf(&s, kept ? " " : "", "%s", chart_ellipsis(crt_utf8()));
        if (note)
            str_appendf(&s, "", "%s", p->note);
    }
    if (device && p->device)
        str_appendf(&s, "", "%s%s", p->sep, p->device);
    int shown = chart_shorten_words(title, sizeof title, p->title,
                                    width - (int)str_columns(head, strlen(head)) - (int)str_columns(tail, strlen(tail)),
                                    crt_utf8());
    snprintf(buf, len, "%s%s%s", head, title, tail);
    return shown;
}

/* Whether lesson l runs emulated on the open device (needs.h): its speed is not comparable,
   and the title, its figure and its bar say so. */
static bool emulated_here(const struct screen_model *m, const struct lesson *l)
{
    return m->view->device >= 0 && lesson_emulated(l, &m->view->info);
}

/* Builds the title line from whole parts: what does not fit gives way, the device first, then
   where the parameters came from, the parameters one at a time from the end, the side branch's
   name, and at last the words of the title from the end; a number is never cut. */
static void fit_title(const struct title_parts *p, int width, char *buf, size_t len)
{
    size_t kept = p->nparams;
    bool note = p->note[0] != '\0', device = p->device != NULL, short_head = false;

    for (;;) {
        title_line(p, kept, note, device, short_head, LINE_BYTES, buf, len);
        if ((int)str_columns(buf, strlen(buf)) <= width)
            return;
        if (device)
            device = false;
        else if (note)
            note = false;
        else if (kept > 0)
            kept--;
        else
            break;
    }
    /* The side branch's name stays while the title keeps at least half of itself beside it. */
    if (title_line(p, kept, note, device, false, width, buf, len) < (int)str_columns(p->title, strlen(p->title)) / 2)
        title_line(p, kept, note, device, true, width, buf, len);
}

void panes_draw_title(const struct rect *r, const struct screen_model *m)
{
    const struct lesson *l = current(m);
    const struct session_view *v = m->view;
    int attr = crt_attr(ROLE_TITLE);
    char size[64], note[128], line[LINE_BYTES];
    struct title_parts p;

    memset(&p, 0, sizeof p);
    p.sep = crt_utf8() ? " \u2502 " : " | ";
    blank(r->y, r->x, r->w, attr);
    if (m->exercise) {
        const struct exercise_model *ex = m->exercise;
        snprintf(p.head, sizeof p.head, " clmm-tutor%sExercise %d (%d of %d): ", p.sep, ex->x->number,
                 ex->position, ex->count);
        p.title = ex->x->l.title;
        p.device = v->devices_known && v->device >= 0 ? v->devices[v->device] : "opening the device...";
        /* No size in an exercise's title: the device follows the title at once. */
        snprintf(line, sizeof line, "%s%s%s%s", p.head, p.title, p.sep, p.device);
        if ((int)str_columns(line, strlen(line)) > r->w)
            chart_shorten_words(line + strlen(p.head), sizeof line - strlen(p.head), p.title,
                                r->w - (int)str_columns(p.head, strlen(p.head)), crt_utf8());
        puts_at(r->y, r->x, r->w, line, attr);
        return;
    }
    if (v->device_ready || v->device >= 0)
        p.device = v->devices_known && v->device >= 0 ? v->devices[v->device] : NULL;
    else
        p.device = "opening the device...";
    format_size(size, sizeof size, v->size);
    origin_note(v, note, sizeof note);
    p.size = size;
    p.note = note;
    p.title = l->title;
    for (size_t i = 0; i < l->nparams; i++)
        snprintf(p.params[i], sizeof p.params[i], "%s=%lld", l->params[i].name, v->params.values[i]);
    p.nparams = l->nparams;
    /* The lesson's number, its precision and units where they are not FP32's ("[TF32]": its
       speed is never read as an FP32 one), where it stands in the set (numbers may start at 0),
       and the side branch it is on. */
    const char *tag = precision_tag(l->precision, l->units);
    const char *emulated = emulated_here(m, l) ? "emulated" : "";
    char kind[64];
    snprintf(kind, sizeof kind, "%s%s%s%s%s", tag[0] || emulated[0] ? " [" : "", tag, tag[0] && emulated[0] ? ", " : "",
             emulated, tag[0] || emulated[0] ? "]" : "");
    snprintf(p.head, sizeof p.head, " clmm-tutor%s%sLesson %d%s (%d of %zu%s%s): ", m->demo ? " [demo]" : "", p.sep,
             l->number, kind, m->lesson + 1, m->lessons->count, l->branch ? ", side branch: " : "",
             l->branch ? l->branch : "");
    snprintf(p.short_head, sizeof p.short_head, " clmm-tutor%s%sLesson %d%s (%d of %zu%s): ",
             m->demo ? " [demo]" : "", p.sep, l->number, kind, m->lesson + 1, m->lessons->count,
             l->branch ? ", side branch" : "");
    fit_title(&p, r->w, line, sizeof line);
    puts_at(r->y, r->x, r->w, line, attr);
}

static int key_width(const struct key_binding *k)
{
    return (int)(strlen(k->line_keys) + strlen(k->line_label) + 3);
}

void panes_draw_keys(const struct rect *r, const struct screen_model *m)
{
    int x = r->x, right = r->x + r->w, base = crt_attr(ROLE_KEYS), room = r->w, most = 0, width = 0;

    blank(r->y, r->x, r->w, base);
    if (m->message) {
        puts_at(r->y, r->x + 1, r->w - 2, m->message, m->message_is_error ? crt_attr(ROLE_WARNING) : base);
        return;
    }
    if (m->exercise) {
        x += printf_at(r->y, x, right - x, crt_attr(ROLE_KEY), " %d of %d verified ", m->exercise->verified,
                       m->exercise->count);
        room -= x - r->x;
    } else if (m->view->job != JOB_NONE) {
        x += printf_at(r->y, x, right - x, crt_attr(ROLE_KEY), " x");
        x += printf_at(r->y, x, right - x, base, " cancel ");
        room -= x - r->x;
    }
    /* The keys of the highest ranks give way until the rest fit. */
    for (size_t i = 0; i < m->nkeys; i++)
        if (m->keys[i].line_keys && m->keys[i].modes & m->mode) {
            width += key_width(&m->keys[i]);
            most = m->keys[i].line_rank > most ? m->keys[i].line_rank : most;
        }
    for (; width > room && most > 0; most--)
        for (size_t i = 0; i < m->nkeys; i++)
            if (m->keys[i].line_keys && m->keys[i].modes & m->mode && m->keys[i].line_rank == most)
                width -= key_width(&m->keys[i]);
    for (size_t i = 0; i < m->nkeys; i++) {
        const struct key_binding *k = &m->keys[i];
        if (!k->line_keys || !(k->modes & m->mode) || k->line_rank > most)
            continue;
        x += printf_at(r->y, x, right - x, crt_attr(ROLE_KEY), " %s", k->line_keys);
        x += printf_at(r->y, x, right - x, base, " %s ", k->line_label);
    }
}

void panes_draw_closing(const struct rect *r, const char *text)
{
    blank(r->y, r->x, r->w, crt_attr(ROLE_KEYS));
    puts_at(r->y, r->x + 1, r->w - 2, text, crt_attr(ROLE_KEYS));
}

/* ---- the lesson text ---- */

/* A line of prose with its markup as colours; a word wider than the pane is cut with a mark. */
static int draw_markup(int y, int x, int w, const char *text, int base)
{
    struct text_span spans[64];
    size_t n = text_spans(text, spans, 64);
    int used = 0, wide = 0, room;

    if (n > 64)
        return put_cut(y, x, w, text, 0, base);
    for (size_t i = 0; i < n; i++)
        wide += (int)str_columns(spans[i].text, spans[i].len) - (spans[i].kind == SPAN_CODE ? 2 : 0);
    room = wide > w ? w - 1 : w;
    for (size_t i = 0; i < n && used < room; i++) {
        const struct text_span *s = &spans[i];
        if (s->kind == SPAN_CODE)   /* colour instead of backquotes */
            used += put(y, x + used, room - used, s->text + 1, s->len - 2, crt_attr(ROLE_CODE));
        else
            used += put(y, x + used, room - used, s->text, s->len,
                        s->kind == SPAN_EMPHASIS ? crt_attr(ROLE_EMPHASIS) : base);
    }
    if (wide > w)
        put_cut_marks(y, x, w, &(struct text_cut){ .right = true });
    return used + (wide > w);
}

/* An exercise's task as markup: the task, the goal, the student's file and the hints
   revealed so far. malloc'd. */
static char *exercise_task(const struct exercise_model *ex)
{
    const struct exercise *x = ex->x;
    size_t len = strlen(x->l.text) + strlen(ex->path) + 1024;
    char goal[256], *out;
    struct str s;

    for (size_t i = 0; i < x->nhints; i++)
        len += strlen(x->hints[i]) + 32;
    out = xmalloc(len);
    str_init(&s, out, len);
    str_appendf(&s, "", "%s\n\n*Goal:* verified at", x->l.text);
    for (size_t i = 0; i < x->nsizes; i++)
        str_appendf(&s, "", "%s %lldx%lldx%lld", i ? "," : "", x->sizes[i].m, x->sizes[i].n, x->sizes[i].k);
    exercise_goal_describe(x, goal, sizeof goal);
    str_appendf(&s, "", "%s%s, %d launches each.\n\n*Your file:* %s (each save is checked)\n\n*Hints:* ",
                goal[0] ? "; " : "", goal, x->repeat, ex->path);
    if (x->nhints == 0)
        str_appendf(&s, "", "none for this exercise.");
    else if (ex->hints < (int)x->nhints)
        str_appendf(&s, "", "%d of %zu shown: i shows the next.", ex->hints, x->nhints);
    else
        str_appendf(&s, "", "all %zu shown.", x->nhints);
    if (ex->hints > 0)
        str_appendf(&s, "", "\n");
    for (int i = 0; i < ex->hints && i < (int)x->nhints; i++)
        str_appendf(&s, "", "\n- %s", x->hints[i]);
    return out;
}

/* The lesson's text, with a first line that names its exercises ("Practise: exercises 2
   and 3, on X."); NULL for a lesson without one. */
static char *practise_line(const struct screen_model *m, const struct lesson *l)
{
    int numbers[100], n = 0;
    char list[400];
    struct str s;
    char *text;

    for (size_t i = 0; m->exercises && i < m->exercises->count && n < 100; i++)
        if (m->exercises->items[i].lesson == l->number)
            numbers[n++] = m->exercises->items[i].number;
    if (n == 0)
        return NULL;
    str_init(&s, list, sizeof list);
    for (int i = 0; i < n; i++)
        str_appendf(&s, i == 0 ? "" : i + 1 == n ? " and " : ", ", "%d", numbers[i]);
    text = xmalloc(strlen(l->text) + sizeof list + 64);
    sprintf(text, "*Practise:* exercise%s %s, on X.\n\n%s", n > 1 ? "s" : "", list, l->text);
    return text;
}

void panes_draw_text(const struct rect *r, struct screen_model *m)
{
    const struct lesson *l = current(m);
    struct text_lines lines, sources;
    char title[256], *sources_text, *task = NULL;
    struct rect in;
    int top, total, widest = 0, first;

    if (m->exercise) {
        snprintf(title, sizeof title, "Exercise %d: %s", m->exercise->x->number, m->exercise->x->l.short_title);
        task = exercise_task(m->exercise);
    } else {
        snprintf(title, sizeof title, "Lesson %d: %s", l->number, l->short_title);
    }
    in = frame(r, title, m->focus == PANE_TEXT);
    if (!task)
        task = practise_line(m, l);
    text_layout(task ? task : l->text, in.w - 1, &lines);
    free(task);
    /* The sources come last, after a blank line, wrapped like the prose: the lesson's line,
       then the title, author and address of each document it cites. */
    sources_text = sources_markup(&m->lessons->sources, l->sources);
    text_layout(m->exercise ? "" : sources_text, in.w - 1, &sources);
    free(sources_text);
    total = (int)(lines.count + 1 + sources.count);
    top = clamp_scroll(&m->scroll[PANE_TEXT], total, in.h);
    /* Verbatim lines (formulas, tables) are not wrapped: they are cut, and scroll sideways. */
    for (size_t i = 0; i < lines.count; i++)
        if (lines.items[i].kind == TEXT_VERBATIM && lines.items[i].indent + text_width(lines.items[i].text) > widest)
            widest = lines.items[i].indent + text_width(lines.items[i].text);
    first = m->hscroll[PANE_TEXT] = text_clamp_offset(m->hscroll[PANE_TEXT], widest, in.w);
    for (int row = 0; row < in.h; row++) {
        int i = top + row, y = in.y + row;
        if (i < (int)lines.count) {
            const struct text_line *t = &lines.items[i];
            int x = in.x + t->indent;
            if (t->kind == TEXT_ITEM)
                puts_at(y, x - 2, 2, crt_utf8() ? "\u2022 " : "- ", crt_attr(ROLE_DIM));
            if (t->kind == TEXT_VERBATIM)
                put_cut(y, x, in.w - t->indent, t->text, first, crt_attr(ROLE_CODE));
            else if (t->kind == TEXT_HEADING)
                draw_markup(y, x, in.w - t->indent, t->text, crt_attr(ROLE_HEADING));
            else
                draw_markup(y, x, in.w - t->indent, t->text, A_NORMAL);
        } else if (i > (int)lines.count && i < total) {
            const struct text_line *t = &sources.items[i - (int)lines.count - 1];
            if (t->kind == TEXT_ITEM)
                puts_at(y, in.x + t->indent - 2, 2, crt_utf8() ? "\u2022 " : "- ", crt_attr(ROLE_DIM));
            put_cut(y, in.x + t->indent, in.w - t->indent, t->text, 0, crt_attr(ROLE_DIM));
        }
    }
    scroll_marks(r, top, total, in.h);
    text_lines_free(&lines);
    text_lines_free(&sources);
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

/* Highlights a line and draws its columns from first on, w of them, at (y, x), marking
   where it goes on beyond either edge; with draw false, only moves st past the line. */
static void draw_code(int y, int x, int w, const char *line, int first, struct hl_state *st, bool draw)
{
    struct hl_span spans[128];
    size_t n = highlight_line(line, strlen(line), st, spans, 128);
    struct text_cut cut;

    if (!draw)
        return;     /* only the highlighter's state across lines was wanted */
    text_cut(line, first, w, &cut);
    put_cut_marks(y, x, w, &cut);
    for (size_t i = 0; i < n; i++) {
        size_t from = spans[i].start, to = spans[i].start + spans[i].len, end = cut.start + cut.len;
        from = from > cut.start ? from : cut.start;
        to = to < end ? to : end;
        if (from < to)
            put(y, x + cut.at + (int)str_columns(line + cut.start, from - cut.start), w, line + from, to - from,
                role_of(spans[i].role));
    }
}

/* The widest of the lines of a diff, in the kernel each comes from. */
static int diff_width(const struct diff *d, const struct screen_model *m)
{
    int widest = 0;

    for (size_t i = 0; i < d->count; i++) {
        const struct diff_line *dl = &d->items[i];
        int w = text_width(dl->op == DIFF_REMOVED ? m->previous->items[dl->old_index] : m->source->items[dl->new_index]);
        widest = w > widest ? w : widest;
    }
    return widest;
}

/* The diff d: a column of marks ('+' added, '-' removed, blank for the same), then the lines,
   which scroll sideways. Added and removed lines are in their role's colour, the others
   highlighted. */
static void draw_diff(const struct rect *in, struct screen_model *m, const struct diff *d)
{
    int top = clamp_scroll(&m->scroll[PANE_SOURCE], (int)d->count, in->h);
    int first = m->hscroll[PANE_SOURCE] = text_clamp_offset(m->hscroll[PANE_SOURCE], diff_width(d, m), in->w - 1);
    struct hl_state st = { 0, 0 };
    size_t next_new = 0;

    for (int i = top; i < (int)d->count && i < top + in->h; i++) {
        const struct diff_line *dl = &d->items[i];
        int y = in->y + i - top;
        if (dl->op == DIFF_REMOVED) {
            puts_at(y, in->x, 1, "-", crt_attr(ROLE_REMOVED));
            put_cut(y, in->x + 1, in->w - 1, m->previous->items[dl->old_index], first, crt_attr(ROLE_REMOVED));
            continue;
        }
        /* The highlighter runs over every line of the new kernel up to this one, so that
           comments spanning lines colour right wherever the view starts. */
        for (; next_new < dl->new_index; next_new++)
            draw_code(0, 0, 0, m->source->items[next_new], 0, &st, false);
        next_new++;
        if (dl->op == DIFF_ADDED) {
            draw_code(0, 0, 0, m->source->items[dl->new_index], 0, &st, false);
            puts_at(y, in->x, 1, "+", crt_attr(ROLE_ADDED));
            put_cut(y, in->x + 1, in->w - 1, m->source->items[dl->new_index], first, crt_attr(ROLE_ADDED));
        } else {
            draw_code(y, in->x + 1, in->w - 1, m->source->items[dl->new_index], first, &st, true);
        }
    }
    scroll_marks(&(struct rect){ in->y - 1, in->x - 1, in->h + 2, in->w + 2 }, top, (int)d->count, in->h);
}

/* The diff of the lines that hold code: lines of comments and blank lines in either kernel
   are left out. */
static bool diff_code(const struct screen_model *m, struct diff *out)
{
    bool *old_skip = xcalloc(m->previous->count + 1, sizeof *old_skip);
    bool *new_skip = xcalloc(m->source->count + 1, sizeof *new_skip);
    bool too_large;

    highlight_comment_lines(m->previous->items, m->previous->count, old_skip);
    highlight_comment_lines(m->source->items, m->source->count, new_skip);
    diff_lines_kept(m->previous, old_skip, m->source, new_skip, out);
    too_large = diff_too_large(m->previous, old_skip, m->source, new_skip);
    free(old_skip);
    free(new_skip);
    return too_large;
}

/* The source pane's title for a lesson: the kernel's file, or what the diff compares; the
   diff of code lines alone goes to code. */
static void lesson_source_title(const struct screen_model *m, bool code_only, struct diff *code, char *title,
                                size_t len)
{
    const struct lesson *l = current(m);
    const struct lesson *prev = m->lesson > 0 ? &m->lessons->items[m->lesson - 1] : NULL;
    bool too_large = false;

    if (code_only)
        too_large = diff_code(m, code);
    else if (m->show_diff && m->diff)
        too_large = diff_too_large(m->previous, NULL, m->source, NULL);
    if (m->show_diff && m->diff && too_large)
        /* Listed whole, removed then added: counts would pretend to be a comparison. */
        snprintf(title, len, "diff from lesson %d%s: too large to compare line by line (c: the kernel)",
                 prev->number, code_only ? ", code only" : "");
    else if (m->show_diff && m->diff)
        snprintf(title, len, "diff from lesson %d%s: +%zu -%zu (c: the kernel)", prev->number,
                 code_only ? ", code only" : "", code_only ? code->added : m->diff->added,
                 code_only ? code->removed : m->diff->removed);
    else if (m->diff)
        snprintf(title, len, "%s (%zu lines new since %d)", strrchr(l->kernel_file, '/') + 1, m->diff->added,
                 prev->number);
    else
        snprintf(title, len, "%s", strrchr(l->kernel_file, '/') + 1);
}

/* The view's look inside, when it is the current lesson's with its parameters now. */
static const struct inside *inside_of(const struct screen_model *m)
{
    const struct session_view *v = m->view;
    char params[256];

    param_set_format(current(m), &v->params, params, sizeof params);
    if (v->inside_lesson != m->lesson || strcmp(v->inside_params, params) != 0 ||
        v->inside_sources != v->sources_version)
        return NULL;
    return v->inside_have ? &v->inside : NULL;
}

/* What the compiler made of the current lesson's kernel, in place of its source. */
static void draw_inside(const struct rect *r, struct screen_model *m)
{
    const struct session_view *v = m->view;
    const struct inside *in = inside_of(m);
    char title[200], (*lines)[INSIDE_LINE_BYTES];
    struct rect box;
    size_t n;
    int top;

    snprintf(title, sizeof title, "Look inside lesson %d's built kernel (i: the source)", current(m)->number);
    box = frame(r, title, m->focus == PANE_SOURCE);
    if (!in) {
        bool failed = v->inside_lesson == m->lesson && !v->inside_have && v->inside_error[0];
        draw_wrapped(&box, 0, failed ? v->inside_error : current(m)->engine == ENGINE_HOST
                                                             ? "The host reference is C on the CPU: no kernel "
                                                               "to look inside (i: its source)."
                                                             : "building the kernel to look inside...",
                     crt_attr(failed ? ROLE_WARNING : ROLE_DIM));
        return;
    }
    lines = xmalloc(200 * sizeof *lines);
    n = inside_describe(in, box.w, lines, 200);
    top = clamp_scroll(&m->scroll[PANE_SOURCE], (int)n, box.h);
    for (int row = 0; row < box.h && top + row < (int)n; row++)
        puts_at(box.y + row, box.x, box.w, lines[top + row], A_NORMAL);
    scroll_marks(r, top, (int)n, box.h);
    free(lines);
}

/* Lines of code in the box in of pane r, numbered and highlighted, scrolled as the source
   pane is; a line that changed (changed may be NULL) has a mark, line number mark (0:
   none) the colour of a wrong result. */
static void draw_listing(const struct rect *r, const struct rect *in, struct screen_model *m, const struct lines *src,
                         const bool *changed, int mark)
{
    struct hl_state st = { 0, 0 };
    int top, digits = src->count >= 100 ? 3 : 2, widest = 0, first;

    top = clamp_scroll(&m->scroll[PANE_SOURCE], (int)src->count, in->h);
    /* Only the code scrolls sideways: the line numbers and marks stay. */
    for (size_t i = 0; i < src->count; i++)
        widest = text_width(src->items[i]) > widest ? text_width(src->items[i]) : widest;
    first = m->hscroll[PANE_SOURCE] = text_clamp_offset(m->hscroll[PANE_SOURCE], widest, in->w - digits - 2);
    for (int i = 0; i < (int)src->count && i < top + in->h; i++) {
        int y = in->y + i - top;
        if (i < top) {
            draw_code(0, 0, 0, src->items[i], 0, &st, false);
            continue;
        }
        printf_at(y, in->x, digits, crt_attr(i + 1 == mark ? ROLE_WRONG : ROLE_DIM), "%*d", digits, i + 1);
        if (changed && changed[i])
            puts_at(y, in->x + digits, 1, crt_utf8() ? "\u258c" : "+", crt_attr(ROLE_CHANGED));
        draw_code(y, in->x + digits + 2, in->w - digits - 2, src->items[i], first, &st, true);
    }
    scroll_marks(r, top, (int)src->count, in->h);
}

/* The host code of the current lesson's launch at the size and parameters now, in place of
   its kernel. */
static void draw_host_code(const struct rect *r, struct screen_model *m)
{
    const struct session_view *v = m->view;
    char title[200];
    struct rect in;
    struct lines lines;
    struct error e;
    char *text;

    char size[64], what[128], shorter[128];

    /* The size stays whole; the words shorten, then the key goes. */
    format_size(size, sizeof size, v->size);
    snprintf(what, sizeof what, "Host code of lesson %d's launch at %s", current(m)->number, size);
    snprintf(shorter, sizeof shorter, "Host code, lesson %d at %s", current(m)->number, size);
    {
        const struct chart_item items[] = { { what, shorter, 0 }, { " (H: the kernel)", " (H: kernel)", 1 } };
        chart_fit_items(title, sizeof title, items, 2, "", r->w - 6);
    }
    in = frame(r, title, m->focus == PANE_SOURCE);
    error_init(&e);
    text = hostcode_generate(current(m), &v->params, v->size, &e);
    if (!text) {
        draw_wrapped(&in, 0, e.msg, crt_attr(current(m)->engine == ENGINE_HOST ? ROLE_DIM : ROLE_WARNING));
        error_clear(&e);
        return;
    }
    lines_split(text, &lines);
    free(text);
    draw_listing(r, &in, m, &lines, NULL, 0);
    lines_free(&lines);
}

void panes_draw_source(const struct rect *r, struct screen_model *m)
{
    char title[512];
    struct rect in;
    bool *changed = NULL, code_only = m->show_diff && m->diff && m->diff_code_only;
    struct diff code = { NULL, 0, 0, 0 };
    int mark = 0;

    if (m->exercise && !m->source) {
        in = frame(r, m->exercise->path, m->focus == PANE_SOURCE);
        draw_wrapped(&in, 0, m->exercise->file_missing ? "Your file is not there: R puts the starting kernel back."
                                                      : "Your file cannot be read.", crt_attr(ROLE_WARNING));
        return;
    }
    if (m->inside && !m->exercise) {
        draw_inside(r, m);
        return;
    }
    if (m->host_code && !m->exercise) {
        draw_host_code(r, m);
        return;
    }
    if (!m->source) {
        in = frame(r, "Source", m->focus == PANE_SOURCE);
        draw_wrapped(&in, 0, current(m)->engine == ENGINE_HOST ? "The host reference is C on the CPU; its "
                     "lesson names no source to show (a kernel: line)." : "The kernel cannot be read.",
                     crt_attr(ROLE_DIM));
        return;
    }
    if (m->exercise) {
        const struct check_report *rep = m->exercise->report;
        if (m->exercise->solution_file)
            snprintf(title, sizeof title, "Solution: %s (Esc: yours)", strrchr(m->exercise->solution_file, '/')
                     ? strrchr(m->exercise->solution_file, '/') + 1 : m->exercise->solution_file);
        else
            snprintf(title, sizeof title, "%s", m->exercise->path);
        /* The line the compiler names first, marked as a wrong result is. */
        mark = rep && !m->exercise->solution_file && rep->verdict == CHECK_NOT_BUILT ? rep->build_line : 0;
    } else {
        lesson_source_title(m, code_only, &code, title, sizeof title);
    }
    in = frame(r, title, m->focus == PANE_SOURCE);
    if (m->show_diff && m->diff) {
        draw_diff(&in, m, code_only ? &code : m->diff);
        diff_free(&code);
        return;
    }
    if (m->diff) {
        changed = xcalloc(m->source->count + 1, sizeof *changed);
        diff_mark_new(m->diff, changed, m->source->count);
    }
    draw_listing(r, &in, m, m->source, changed, mark);
    free(changed);
}

/* ---- the work-group layout ---- */

static struct figures_limits limits_of(const struct session_view *v)
{
    struct figures_limits lim;

    memset(&lim, 0, sizeof lim);
    if (v->device_ready) {
        lim.max_group = v->info.max_group;
        lim.local_mem = v->info.local_mem;
        for (int i = 0; i < 3; i++)
            lim.max_item_sizes[i] = v->info.max_item_sizes[i];
    }
    return lim;
}

/* Draws a line of the diagram, its highlighted cells, its tiles of A and B and its padding
   each in their role's colour (diagram_glyph_at tells them apart). */
static void draw_diagram_line(int y, int x, int w, const char *line, const struct figures *d)
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

#define WAVE_ROWS 40      /* more than waves_draw writes */
#define WAVE_FIRST 5      /* its lines a tall pane shows without scrolling */

/* The waves of work-groups of the current lesson on the open device, with what the look
   inside found of its kernel (registers, local memory) when it is there. */
static size_t layout_waves(const struct screen_model *m, const struct figures *d, int width, size_t rows,
                           char (*lines)[WAVES_LINE_BYTES])
{
    const struct session_view *v = m->view;
    struct waves_kernel k;
    struct waves w;
    struct error e;
    size_t n = 0;

    if (!v->device_ready)
        return 0;
    inside_waves_kernel(inside_of(m), &k);
    error_init(&e);
    if (waves_compute(d, &v->info, &k, &w, &e) == 0)
        n = waves_draw(&w, width, rows, crt_utf8(), lines);
    else if (rows > 0)
        snprintf(lines[n++], WAVES_LINE_BYTES, "waves: %.900s", e.msg);
    error_clear(&e);
    return n;
}

void panes_draw_layout(const struct rect *r, struct screen_model *m)
{
    const struct lesson *l = current(m);
    struct figures_limits lim = limits_of(m->view);
    struct figures *d = xmalloc(sizeof *d);
    char (*lines)[DIAGRAM_LINE_BYTES];
    struct rect in = frame(r, "Work-group layout", m->focus == PANE_LAYOUT);
    struct error e;
    size_t n;
    int top;

    lines = xmalloc(200 * sizeof *lines);
    error_init(&e);
    if (figures_compute(l, &m->view->params, m->view->size, m->view->device_ready ? &lim : NULL, d, &e) < 0) {
        draw_wrapped(&in, 0, e.msg, crt_attr(l->engine == ENGINE_HOST ? ROLE_NORMAL : ROLE_WARNING));
    } else {
        /* Drawn for the pane: a small one gets the figures and a compact drawing. The waves
           of work-groups come under it, all of them (the pane scrolls); a tall pane shows
           their first lines, the most telling, without scrolling. */
        char (*wave_lines)[WAVES_LINE_BYTES] = xmalloc(WAVE_ROWS * sizeof *wave_lines);
        size_t nw = layout_waves(m, d, in.w, WAVE_ROWS, wave_lines);
        int room = in.h - WAVE_FIRST - 1;
        n = diagram_draw(d, in.w, (size_t)(nw > 0 && room >= 10 ? room : in.h), crt_utf8(), lines);
        if (nw > 0 && n + 1 + nw <= 200) {
            lines[n++][0] = '\0';
            for (size_t i = 0; i < nw; i++)
                snprintf(lines[n++], DIAGRAM_LINE_BYTES, "%s", wave_lines[i]);
        }
        free(wave_lines);
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
        puts_at(y, x, w, crt_utf8() ? "\u23f8 paused (space resumes)" : "paused (space resumes)",
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
        printf_at(y, x, w, crt_attr(ROLE_EMPHASIS), "%s%s: %zu of %zu, %.0f s%s%s", job_name(v->job), whose,
                  v->job_done + 1 > v->job_total ? v->job_total : v->job_done + 1, v->job_total, elapsed, left,
                  slow);
        return;
    }
    progress_text(v, slow, sizeof slow);
    if (v->busy && slow[0])     /* a slow launch: where it is, in the room there is */
        printf_at(y, x, w, crt_attr(ROLE_EMPHASIS), "%s %s", crt_utf8() ? "\u25b6" : ">", slow + 2);
    else if (v->busy)
        printf_at(y, x, w, crt_attr(ROLE_DIM), "%s %s (%.1f s)", crt_utf8() ? "\u25b6" : ">", v->activity,
                  now - v->activity_started);
    else if (v->live_stopped)
        puts_at(y, x, w, "stopped on this result: change something, or space twice", crt_attr(ROLE_DIM));
}

static const char *plus_minus(void)
{
    return crt_utf8() ? "\u00b1" : "+-";
}

/* The spread of a summary as a percentage of its median: "±0.4%". */
static void format_spread(const struct summary *f, char *buf, size_t len)
{
    double spread = f->median > 0.0 ? 100.0 * (f->q3 - f->q1) / f->median : 0.0;

    snprintf(buf, len, spread < 9.95 ? "%s%.1f%%" : "%s%.0f%%", plus_minus(), spread);
}

/* Where a wrong result is wrong: the pattern with its counts, the hint, and C drawn by
   tiles, as many rows as there are below the message. Returns the rows used. */
static int draw_error_map(const struct rect *in, int row, const struct errmap *em, bool hint)
{
    char line[512];

    if (em->pattern == ERRMAP_NONE || em->pattern == ERRMAP_RIGHT || row >= in->h)
        return row;
    errmap_summary(em, line, sizeof line);
    row = draw_wrapped(in, row, line, crt_attr(ROLE_EMPHASIS));
    if (hint) {
        errmap_hint(em, line, sizeof line);
        row = draw_wrapped(in, row, line, A_NORMAL);
    }
    /* Each cell in its colour: right dim, wrong as a wrong result, never written a warning. */
    for (int i = 0; i < em->grid_rows && row < in->h; i++, row++)
        for (int j = 0; j < em->grid_cols && 2 + j < in->w; j++) {
            char c = em->cells[i][j];
            const char *glyph = c == '#' ? (crt_utf8() ? "\u2588" : "#") : c == '?' ? "?" : crt_utf8() ? "\u00b7" : ".";
            puts_at(in->y + row, in->x + 2 + j, 1, glyph,
                    crt_attr(c == '#' ? ROLE_WRONG : c == '?' ? ROLE_WARNING : ROLE_DIM));
        }
    return row;
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
        puts_at(in->y + row, in->x, in->w, "waiting for the first measurement", crt_attr(ROLE_DIM));
        return row + 1;
    }
    if (f->have && f->status == RUN_WRONG) {
        puts_at(in->y + row, in->x, in->w, " wrong result ", crt_attr(ROLE_WRONG));
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
        format_spread(all, spread, sizeof spread);
        n = snprintf(line, sizeof line, "latest %s  median %s %s", a, b, spread);
        /* The share of the peak (none for the tensor cores: the FP32 peak is not theirs), then
           the number of runs the median is of, where they fit. */
        char runs[48] = "";
        int more = 0;
        if (emulated_here(m, current(m)))
            more = snprintf(runs, sizeof runs, "  %s", "emulated");   /* the title and the legend say more */
        else if (current(m)->units == UNITS_TENSOR)
            more = snprintf(runs, sizeof runs, "  %s", UNITS_TENSOR_NOTE);
        else if (v->ceilings.have && v->ceilings.gflops > 0.0 && current(m)->engine != ENGINE_HOST)
            more = snprintf(runs, sizeof runs, "  %.0f%% of peak", 100.0 * all->median / v->ceilings.gflops);
        if ((int)str_columns(line, (size_t)n) + more <= in->w)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s", runs);
        more = snprintf(runs, sizeof runs, "  (%zu run%s)", all->runs, all->runs == 1 ? "" : "s");
        if ((int)str_columns(line, (size_t)n) + more <= in->w)
            snprintf(line + n, sizeof line - (size_t)n, "%s", runs);
    } else {
        snprintf(line, sizeof line, "latest %s", a);
    }
    puts_at(in->y + row, in->x, in->w, line, A_NORMAL);
    printf_at(in->y + row, in->x, 6, crt_attr(ROLE_EMPHASIS), "latest");
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
    int index;                  /* in the lesson set; below 0 for a reference row */
    const struct summary *fig;
    const char *title;          /* a reference row's */
};

/* Whether bar b's lesson runs emulated (emulated_here): marked E, never the fastest. */
static bool bar_emulated(const struct screen_model *m, const struct bar *b)
{
    return b->index >= 0 && emulated_here(m, &m->lessons->items[b->index]);
}

static bool shows_speed(const struct summary *f)
{
    return f->have && !f->stale && f->status == RUN_OK && f->median > 0.0;
}

/* The bars there are: every lesson measured at this size (and the current one), then
   the reference rows; in ladder order. */
static size_t collect_bars(const struct screen_model *m, struct bar *bars)
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
        puts_at(y, x, w, s, attr);
        return;
    }
    put(y, x, w - 1, s, str_prefix(s, (size_t)(w - 1)), attr);
    puts_at(y, x + w - 1, 1, crt_utf8() ? "\u2026" : ">", crt_attr(ROLE_DIM));
}

/* The lesson the speed-up view compares with: lesson 1, else the first lesson with a kernel
   that has a figure. -1 when there is none. */
static int speedup_base(const struct screen_model *m)
{
    int first = -1;

    for (size_t i = 0; i < m->lessons->count; i++) {
        const struct lesson *l = &m->lessons->items[i];
        if (l->engine != ENGINE_OPENCL || !shows_speed(&m->view->bars[i]))
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
    format_spread(f, spread, spread_len);
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
    return 2 + 1 + 1 + 3 + 1 + (int)collect_bars(m, bars) + 1;
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

static void draw_bars(const struct rect *in, int row, struct screen_model *m)
{
    const struct session_view *v = m->view;
    struct bar bars[SESSION_MAX_LESSONS + SESSION_MAX_REFERENCES];
    int rows = in->h - row - 2, base = speedup_base(m), label_w, bar_w, value_w;
    double fastest = 0.0, least = 0.0, lo = 0.0, hi = 0.0, scale = 0.0, unit = 1.0;
    size_t n = collect_bars(m, bars), shown;
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
        if (shows_speed(bars[i].fig)) {
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
    format_size(size, sizeof size, v->size);
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
    puts_at(in->y + row, in->x, in->w, heading, crt_attr(ROLE_HEADING));
    shown = fit_bars(m, bars, n, (size_t)rows, best);
    /* The figures take what the widest needs; the label and the bar share the rest. */
    value_w = 0;
    for (size_t i = 0; i < shown; i++)
        if (shows_speed(bars[i].fig)) {
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
            printf_at(y, x + label_w + 1, 1, crt_attr(ROLE_EMPHASIS), "%c", mark);
        x += label_w + 3;
        if (!f->have) {
            puts_at(y, x, in->x + in->w - x, "measuring...", crt_attr(ROLE_DIM));
        } else if (f->stale) {
            any_stale = true;
            printf_at(y, x, in->x + in->w - x, crt_attr(ROLE_DIM), "other params (%s)", f->params);
        } else if (f->status == RUN_WRONG) {
            puts_at(y, x, in->x + in->w - x, "wrong result", crt_attr(ROLE_WRONG));
        } else if (f->status != RUN_OK) {
            puts_at(y, x, in->x + in->w - x, run_status_name(f->status), crt_attr(ROLE_WARNING));
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
                puts_at(y, x, bar_w, bar, crt_attr(ROLE_DIM));
                any_ghost = true;
            }
            used = mode == BARS_LINEAR ? chart_bar(bar, sizeof bar, x_value, scale, bar_w, crt_utf8())
                                       : chart_bar(bar, sizeof bar, chart_log_fraction(x_value, lo, hi), 1.0,
                                                   bar_w, crt_utf8());
            puts_at(y, x, bar_w, bar, crt_attr(role));
            used = used > ghost_used ? used : ghost_used;
            format_bar_value(f, mode, unit, value, sizeof value, spread, sizeof spread);
            x += used + 1;
            x += printf_at(y, x, in->x + in->w - x, 0, "%s", value);
            x += printf_at(y, x, in->x + in->w - x, crt_attr(ROLE_DIM), " %s", spread);
            if (f == best)
                puts_at(y, x + 1, 1, crt_utf8() ? "\u2605" : "*", crt_attr(ROLE_BEST));
            if (ghost > 0.0) {
                char saved[32];
                chart_format_value(ghost, saved, sizeof saved);
                if (in->w >= GHOST_FIGURES_W && x + 3 + (int)strlen(saved) + 1 <= in->x + in->w)
                    printf_at(y, x + 3, in->x + in->w - x - 3, crt_attr(ROLE_DIM), "%s%s", chart_ghost_mark(crt_utf8()),
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
        puts_at(in->y + row + 1 + (int)shown, in->x, in->w, legend, crt_attr(ROLE_DIM));
    }
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
    if (n < v->nsweep) {
        size_t wrong = 0;
        for (size_t i = 0; i < v->nsweep; i++)
            wrong += v->sweep[i].fig.status == RUN_WRONG;
        if (wrong > 0)
            printf_at(in->y + in->h - 1, in->x + 12, in->w - 20, crt_attr(ROLE_WRONG), "%zu wrong, %zu not run",
                      wrong, v->nsweep - n - wrong);
        else
            printf_at(in->y + in->h - 1, in->x + 12, in->w - 20, crt_attr(ROLE_WARNING), "%zu sizes not run",
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
    printf_at(in->y + row, in->x, in->w, crt_attr(ROLE_HEADING), "Tuning lesson %d: %zu of %zu, best %s",
              m->lessons->items[v->tune_lesson].number, v->tune_done, v->tune_space, best);
    printf_at(in->y + row + 1, in->x, in->w, crt_attr(ROLE_DIM), "%s", v->tune_best_params);
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
    const struct lesson *l = current(m);
    struct roofline_verdict verdict;
    char a[32], b[32];

    if (l->engine == ENGINE_HOST) {
        snprintf(line, len, "Lesson %d runs on the host CPU: it has no place on this device's roofline.", l->number);
        return;
    }
    if (!shows_speed(f)) {
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

/* Rows text takes wrapped to width. */
static int wrapped_rows(const char *text, int width)
{
    struct text_lines lines;
    int rows;

    text_layout(text, width, &lines);
    rows = (int)lines.count;
    text_lines_free(&lines);
    return rows;
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
    size_t n = collect_bars(m, bars), npts = 0, nmarks = 0, drawn = 0;
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
        if (bars[i].index < 0 || !shows_speed(f) || f->intensity <= 0.0)
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
    plot_rows = in->h - row - wrapped_rows(verdict, in->w) - wrapped_rows(note, in->w);
    lines = xmalloc((size_t)(plot_rows > 0 ? plot_rows : 1) * sizeof *lines);
    if (plot_rows > 0)
        drawn = roofline_draw(c->gflops, c->gbps, pts, npts, in->w, (size_t)plot_rows, crt_utf8(), lines, marks,
                              &nmarks);
    for (size_t i = 0; i < drawn; i++)
        puts_at(in->y + row + (int)i, in->x, in->w, lines[i], crt_attr(ROLE_BAR));
    /* The labels in their colours, the current lesson's as its bar. */
    for (size_t i = 0; drawn > 0 && i < nmarks; i++) {
        const char *line = lines[marks[i].row];
        size_t at = str_prefix(line, (size_t)marks[i].col), len = str_prefix(line + at, (size_t)marks[i].len);
        put(in->y + row + marks[i].row, in->x + marks[i].col, marks[i].len, line + at, len,
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
    struct rect in = frame(r, m->roofline ? "Roofline: GFLOPS against flops per byte (log-log)"
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
        draw_bars(&in, row, m);
}

/* ---- the check of an exercise ---- */

static int draw_wrappedf(const struct rect *in, int row, int attr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int draw_wrappedf(const struct rect *in, int row, int attr, const char *fmt, ...)
{
    char buf[LINE_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_wrapped(in, row, buf, attr);
}

static void format_gemm_size(char *buf, size_t len, struct gemm_size s)
{
    snprintf(buf, len, "%lldx%lldx%lld", s.m, s.n, s.k);
}

/* One size of the check: verified with its launches, or what went wrong and where. */
static int draw_check_size(const struct rect *in, int row, const struct check_size *cs, bool hint)
{
    char size[96];

    format_gemm_size(size, sizeof size, cs->size);
    if (cs->verdict == CHECK_VERIFIED)
        return draw_wrappedf(in, row, crt_attr(ROLE_GOOD), "%s verified: %d launches, max error %.2g", size,
                             cs->launches, cs->max_error);
    row = draw_wrappedf(in, row, crt_attr(ROLE_WARNING), "%s %s: %s", size, check_verdict_text(cs->verdict),
                        cs->message);
    if (cs->verdict != CHECK_WRONG || cs->map.pattern == ERRMAP_NONE)
        return row;
    row = draw_error_map(in, row, &cs->map, hint);
    return draw_wrappedf(in, row, crt_attr(ROLE_DIM), "C in %d x %d cells of %lld x %lld: %s right, %s wrong, "
                         "? never written", cs->map.grid_rows, cs->map.grid_cols, cs->map.cell_rows,
                         cs->map.cell_cols, crt_utf8() ? "\u00b7" : ".", crt_utf8() ? "\u2588" : "#");
}

/* The speed part, as the command line prints it; the measurement only after a prediction. */
static int draw_check_speed(const struct rect *in, int row, const struct check_report *r)
{
    char size[96];

    format_gemm_size(size, sizeof size, r->speed_size);
    switch (r->speed) {
    case CHECK_SPEED_NONE:
        return row;
    case CHECK_SPEED_PREDICT_FIRST:
        return draw_wrappedf(in, row, crt_attr(ROLE_EMPHASIS), "Predict first: how many times as fast as lesson "
                             "%d at %s do you expect your kernel to be? (c checks again and asks)", r->versus, size);
    case CHECK_SPEED_FAILED:
        return draw_wrappedf(in, row, crt_attr(ROLE_WARNING), "Speed: %s", r->speed_message);
    default:
        break;
    }
    row = draw_wrappedf(in, row, A_NORMAL, "Speed at %s: yours %.4g GFLOPS, lesson %d %.4g GFLOPS: %.2fx", size,
                        r->gflops, r->versus, r->versus_gflops, r->ratio);
    if (r->speed == CHECK_SPEED_PREDICTED)
        row = draw_wrappedf(in, row, crt_attr(ROLE_EMPHASIS), "You predicted %.2fx; measured %.2fx (%s).",
                            r->prediction, r->ratio,
                            r->ratio >= r->prediction * 0.8 && r->ratio <= r->prediction * 1.25 ? "close"
                            : r->ratio > r->prediction ? "faster than you expected" : "slower than you expected");
    else
        row = draw_wrappedf(in, row, crt_attr(r->speed == CHECK_SPEED_MET ? ROLE_GOOD : ROLE_EMPHASIS),
                            "Target: at least %.2fx lesson %d: %s.", r->target, r->versus,
                            r->speed == CHECK_SPEED_MET ? "met" : r->speed == CHECK_SPEED_MISSED ? "not yet"
                                                                                                 : "not judged");
    if (r->speed_message[0])
        row = draw_wrappedf(in, row, crt_attr(ROLE_DIM), "(%s)", r->speed_message);
    return row;
}

/* The length of the first row of a line wrapped at w columns (at least one character). */
static size_t wrap_piece(const char *line, int w)
{
    size_t n = str_prefix(line, (size_t)w);

    return n ? n : strlen(line);
}

/* The compiler's log below row, its long lines wrapped at the pane's width, from the
   pane's scroll on. */
static void draw_check_log(const struct rect *r, const struct rect *in, int row, const char *log, int *scroll)
{
    struct lines lines;
    int visible = in->h - row, total = 0, top, at = 0;

    lines_split(log, &lines);
    for (size_t i = 0; i < lines.count; i++) {
        const char *p = lines.items[i];
        do {
            total++;
            p += wrap_piece(p, in->w);
        } while (*p);
    }
    top = clamp_scroll(scroll, total, visible);
    for (size_t i = 0; i < lines.count && at < top + visible; i++) {
        const char *p = lines.items[i];
        do {
            size_t n = wrap_piece(p, in->w);
            if (at >= top && at < top + visible)
                put(in->y + row + at - top, in->x, in->w, p, n, 0);
            at++;
            p += n;
        } while (*p);
    }
    scroll_marks(r, top, total, visible);
    lines_free(&lines);
}

/* "checking… 12 s (x stops it)", and the step: "64x64x64, launch 1 of 3: 2 s of 30". */
static int draw_checking(const struct rect *in, int row, const struct screen_model *m, const char *dots)
{
    const struct session_view *v = m->view;
    const struct check_step *st = &v->check_step;
    double now = m->exercise->now;
    char step[200];

    row = draw_wrappedf(in, row, crt_attr(ROLE_EMPHASIS), "checking%s %.0f s (x stops it)", dots,
                        v->check_started > 0 && now > v->check_started ? now - v->check_started : 0.0);
    check_step_describe(st, m->exercise->x->lesson, step, sizeof step);
    if (st->kind == CHECK_STEP_LAUNCH && st->allowed_s > 0)
        return draw_wrappedf(in, row, crt_attr(ROLE_DIM), "%s: %.0f s of at most %.0f", step,
                             now > v->check_step_at ? now - v->check_step_at : 0.0, st->allowed_s);
    return draw_wrapped(in, row, step, crt_attr(ROLE_DIM));
}

void panes_draw_check(const struct rect *r, struct screen_model *m)
{
    const struct exercise_model *ex = m->exercise;
    const struct check_report *rep = ex->report;
    struct rect in = frame(r, "Check of your file", m->focus == PANE_GFLOPS);
    const char *dots = crt_utf8() ? "\u2026" : "...";
    int row = 0;

    if (ex->checking) {
        row = draw_checking(&in, row, m, dots);
    } else if (ex->stopped) {
        row = draw_wrapped(&in, row, "Check stopped (x): your file as saved is not checked. c checks it.",
                           crt_attr(ROLE_WARNING));
    } else if (!m->view->device_ready)
        row = draw_wrapped(&in, row, m->view->device_error[0] ? m->view->device_error : "opening the device...",
                           crt_attr(m->view->device_error[0] ? ROLE_WARNING : ROLE_DIM));
    if (!rep) {
        draw_wrappedf(&in, row, crt_attr(ROLE_DIM), ex->file_missing ? "Your file is not there: R puts the "
                      "starting kernel back." : "Not checked yet. Edit your file (e, or any editor): each save "
                      "is checked; c checks now.");
        return;
    }
    if (ex->checking || ex->stopped)
        row = draw_wrapped(&in, row, "Before your last save (not current):", crt_attr(ROLE_DIM));
    if (check_passed(rep))
        row = draw_wrappedf(&in, row, crt_attr(ROLE_GOOD) | A_BOLD | A_REVERSE, " verified%s ",
                            rep->speed == CHECK_SPEED_MET ? ", target met"
                            : rep->speed == CHECK_SPEED_PREDICTED ? ", prediction measured" : "");
    else if (rep->verdict == CHECK_VERIFIED)
        row = draw_wrappedf(&in, row, crt_attr(ROLE_GOOD) | A_BOLD, "verified; %s",
                            rep->speed == CHECK_SPEED_PREDICT_FIRST ? "now predict, then measure"
                                                                    : "the speed goal is not reached yet");
    else
        row = draw_wrappedf(&in, row, crt_attr(ROLE_WRONG), " not verified yet: %s ",
                            check_verdict_text(rep->verdict));
    if (ex->as_shipped > 0 && !ex->checking && !ex->stopped)
        row = draw_wrappedf(&in, row, crt_attr(ROLE_WARNING), "This is the starting kernel as shipped: fill "
                            "the gap marked TODO (line %d) first.", ex->as_shipped);
    else if (ex->as_shipped < 0 && !ex->checking && !ex->stopped)
        row = draw_wrapped(&in, row, "This is the starting kernel as shipped: change it as the task says first.",
                           crt_attr(ROLE_WARNING));
    if (rep->verdict == CHECK_NOT_BUILT) {
        if (rep->build_line > 0)
            row = draw_wrappedf(&in, row, crt_attr(ROLE_WARNING), "Does not build: first error on line %d",
                                rep->build_line);
        else
            row = draw_wrapped(&in, row, "Does not build:", crt_attr(ROLE_WARNING));
        if (rep->build_log)
            draw_check_log(r, &in, row, rep->build_log, &m->scroll[PANE_GFLOPS]);
        else
            draw_wrapped(&in, row, rep->message, A_NORMAL);
        return;
    }
    if ((rep->verdict == CHECK_FAILED || rep->verdict == CHECK_TIMEOUT || rep->verdict == CHECK_CRASHED) &&
        rep->nsizes == 0) {
        draw_wrapped(&in, row, rep->message, crt_attr(ROLE_WARNING));
        return;
    }
    for (size_t i = 0; i < rep->nsizes; i++)
        row = draw_check_size(&in, row, &rep->sizes[i], ex->as_shipped == 0);
    for (size_t i = rep->nsizes; i < rep->sizes_total && i < ex->x->nsizes; i++) {
        char size[96];
        format_gemm_size(size, sizeof size, ex->x->sizes[i]);
        row = draw_wrappedf(&in, row, crt_attr(ROLE_DIM), "%s not checked", size);
    }
    if (rep->verdict != CHECK_VERIFIED && rep->verdict != CHECK_RACE && rep->nsizes > 0 &&
        rep->sizes[rep->nsizes - 1].verdict == CHECK_VERIFIED)
        row = draw_wrapped(&in, row, rep->message, crt_attr(ROLE_WARNING));
    row = draw_check_speed(&in, row, rep);
    if (rep->races != RACES_NOT_RUN && row < in.h)
        row = draw_wrappedf(&in, row, crt_attr(rep->races == RACES_NONE ? ROLE_DIM : ROLE_WARNING),
                            "Under oclgrind: %s", rep->races_message);
    if (rep->barrier_note && (rep->races == RACES_NOT_RUN || rep->races == RACES_UNAVAILABLE ||
                              rep->races == RACES_FAILED) && row < in.h)
        row = draw_wrapped(&in, row, "On this CPU device the work-items of a group run in turn, which hides "
                                     "most missing barriers: verified here is no proof of a race-free kernel.",
                           crt_attr(ROLE_DIM));
    if (row + 1 < in.h)
        draw_wrappedf(&in, row + 1, crt_attr(ROLE_DIM), "on %s", rep->device);
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
        puts_at(y, x, w, h->heading, crt_attr(ROLE_HEADING));
        return;
    }
    puts_at(y, x + 1, 12, h->key->keys, crt_attr(ROLE_EMPHASIS));
    puts_at(y, x + 14, w - 14, h->key->help, A_NORMAL);
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
    in = frame(&r, "Keys (Esc or any other key closes)", true);
    body = in.h - foot - 1;
    top = clamp_scroll(scroll, (int)split, body);
    for (int row = 0; row < body; row++) {
        size_t left = (size_t)(top + row), right = split + (size_t)(top + row);
        if (left < split)
            draw_help_line(in.y + row, in.x + 1, split < n ? in.w / 2 - 1 : in.w - 2, &lines[left]);
        if (split < n && right < n)
            draw_help_line(in.y + row, in.x + in.w / 2, in.w - in.w / 2 - 1, &lines[right]);
    }
    if (top + body < (int)split)
        scroll_marks(&r, top, (int)split, body);
    for (int i = 0; i < foot; i++)
        puts_at(in.y + body + 1 + i, in.x + 1, in.w - 2, footer[i], crt_attr(ROLE_DIM));
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
        w = printf_at(y, x, width, crt_attr(ROLE_SELECTED), "[%lld]", now);
        return w + printf_at(y, x + w, width - w, 0, "%s", span);
    }
    for (size_t k = 0; k < p->nvalues; k++) {
        bool on = current && p->values[k] == *current;
        if (!draw)
            w += snprintf(NULL, 0, " %lld ", p->values[k]);
        else
            w += printf_at(y, x + w, width - w, on ? crt_attr(ROLE_SELECTED) : 0, on ? "[%lld]" : " %lld ",
                           p->values[k]);
    }
    return w;
}

void panes_draw_params(int cols, int rows, const struct screen_model *m, int row, const char *refusal)
{
    const struct lesson *l = current(m);
    /* 74 columns: a name of 6 letters, the widest span of a list ("[1] of 16 values, 1 to 16")
       and "  (default 132)  by rule, not tuned" on one row (lesson 19's WAVE, beside PIECES). */
    int rules = rule_rows(l, 70);
    struct rect r = centred(cols, rows, 74, (int)l->nparams + 7 + (rules ? rules + 1 : 0));
    char title[128];
    struct rect in;

    snprintf(title, sizeof title, "Lesson %d parameters: Up/Down choose, Left/Right change", l->number);
    int name_w = 0, values_w = 0;

    in = frame(&r, title, true);
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
        printf_at(y, x, name_w, (int)i == row ? crt_attr(ROLE_SELECTED) : crt_attr(ROLE_EMPHASIS), "%-*s", name_w,
                  p->name);
        x += name_w + 1;
        start = x;
        draw_values(p, compact[i], &m->view->params.values[i], y, x, in.x + in.w - x, true);
        x = start + values_w;
        x += printf_at(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  (default %lld)", p->def);
        /* A switch turns one change of the lesson on or off; the tuner leaves it at its default. */
        if (p->is_switch)
            printf_at(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  switch, not tuned");
        /* A rule chooses the value from the shape where the tuner's is not applied; the rules
           are written out whole below the list. */
        else if (p->rule)
            printf_at(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), p->is_range ? "  by rule, not tuned" : "  by rule");
        else if (p->is_range)
            printf_at(y, x, in.x + in.w - x, crt_attr(ROLE_DIM), "  range, not tuned");
    }
    /* The rules in the rows left between the parameters and the status line (a refusal's
       whole text, up to 4 rows); on a screen too small for all of them, as many as fit and a
       line that says where the rest are. */
    int status = refusal && *refusal ? wrapped_rows(refusal, in.w - 2) : 1;
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
        puts_at(in.y + (int)l->nparams + 1 + rules, in.x + 1, in.w - 2, more, crt_attr(ROLE_DIM));
        rules++;
    }
    int below = (int)l->nparams + (rules ? rules + 1 : 0);
    if (refusal && *refusal) {
        struct rect msg = { in.y + below + 1, in.x + 1, in.h - below - 2, in.w - 2 };
        draw_wrapped(&msg, 0, refusal, crt_attr(ROLE_WARNING));
    } else {
        puts_at(in.y + below + 1, in.x + 1, in.w - 2, "runs with these values", crt_attr(ROLE_GOOD));
    }
    puts_at(in.y + in.h - 1, in.x + 1, in.w - 2, "Enter or Esc closes; d: the defaults", crt_attr(ROLE_DIM));
}

void panes_draw_course(int cols, int rows, const struct lesson_set *lessons, const struct exercise_set *set,
                       const struct progress *p, const struct course_row *list, int count, int row, int current)
{
    struct rect r = centred(cols, rows, 90, count + 4);
    struct rect in = frame(&r, "Lessons and exercises: Up/Down, Enter opens, Esc closes", true);
    int body = in.h - 1, top = row - body + 1 > 0 ? row - body + 1 : 0;
    const char *branch_mark = crt_utf8() ? "\u2506" : "|";

    for (int i = 0; i < body && top + i < count; i++) {
        const struct course_row *c = &list[top + i];
        const struct lesson *l = &lessons->items[c->lesson];
        int y = in.y + i, x0 = in.x + 1, w = in.w - 2, status_w = 22;
        int attr = top + i == row ? crt_attr(ROLE_SELECTED) : 0;
        blank(y, x0, w, attr);
        if (c->exercise < 0) {
            printf_at(y, x0, w, attr | (c->lesson == current ? A_BOLD : 0), "%c%3d %s %s", c->lesson == current ? '>' : ' ',
                      l->number, l->branch ? branch_mark : " ", l->title);
        } else {
            const struct exercise *x = &set->items[c->exercise];
            const struct progress_entry *en = &p->e[x->number];
            int status_attr = crt_attr(en->best >= PROGRESS_VERIFIED ? ROLE_GOOD
                                       : en->best > PROGRESS_NOT_STARTED ? ROLE_WARNING : ROLE_DIM);
            printf_at(y, x0, w - status_w, attr, "        exercise %-2d %s", x->number, x->l.short_title);
            printf_at(y, x0 + w - status_w, status_w, top + i == row ? attr : status_attr, " %s",
                      progress_status_name(en->best));
        }
    }
    scroll_marks(&r, top, count, body);
    printf_at(in.y + in.h - 1, in.x + 1, in.w - 2, crt_attr(ROLE_DIM), "%s side branch   > the lesson shown   "
              "%d of %zu exercises verified", branch_mark, progress_count(p, set, PROGRESS_VERIFIED), set->count);
}

void panes_draw_exercises(int cols, int rows, const struct exercise_set *set, const struct progress *p, int row,
                          const char *typed)
{
    struct rect r = centred(cols, rows, 78, (int)set->count + 6);
    struct rect in = frame(&r, "Exercises: Up/Down, Enter opens (or its number), Esc closes", true);
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
        blank(y, x0, w, attr);
        printf_at(y, x0, w - status_w, attr, "%2d  lesson %-2d  %s", x->number, x->lesson, x->l.short_title);
        printf_at(y, x0 + w - status_w, status_w, top + i == row ? attr : status_attr, " %-20s %3d check%s",
                  progress_status_name(en->best), en->checks, en->checks == 1 ? "" : "s");
    }
    scroll_marks(&r, top, (int)set->count, body);
    printf_at(in.y + in.h - 2, in.x + 1, in.w - 2, crt_attr(ROLE_EMPHASIS), "%d of %zu exercises verified",
              verified, set->count);
    if (typed && *typed)
        printf_at(in.y + in.h - 1, in.x + 1, in.w - 2, crt_attr(ROLE_DIM), "exercise %s_", typed);
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

void panes_draw_build_log(int cols, int rows, const struct screen_model *m, int *scroll)
{
    const struct session_view *v = m->view;
    struct rect r = centred(cols, rows, cols - 4, rows - 2);
    struct rect in = frame(&r, "Build failed: the previous kernel is still measured (Esc closes)", true);
    struct lines log;
    int first, top;

    /* The log starts below the error, however many rows it took. */
    first = draw_wrapped(&in, 0, v->build_error, crt_attr(ROLE_WARNING)) + 1;
    lines_split(v->build_log, &log);
    top = clamp_scroll(scroll, (int)log.count, in.h - first);
    for (int i = first; i < in.h && top + i - first < (int)log.count; i++)
        puts_at(in.y + i, in.x, in.w, log.items[top + i - first], 0);
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
