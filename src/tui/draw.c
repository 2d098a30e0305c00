/* draw.c: what every pane draws with: text cut to its columns, frames with their scroll
   marks, wrapped text, the error map of a wrong result; and what the panes read of the model
   (the lesson on screen, whether it runs emulated, its look inside). */
#include "draw.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "crt.h"
#include "engine/errmap.h"
#include "engine/inside.h"
#include "engine/needs.h"
#include "engine/params.h"
#include "engine/str.h"
#include "engine/text.h"

/* ---- primitives ---- */

/* Writes len bytes of UTF-8 text at (y, x), cut to w columns; returns the columns used. */
int draw_put(int y, int x, int w, const char *s, size_t len, int attr)
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

int draw_puts(int y, int x, int w, const char *s, int attr)
{
    return draw_put(y, x, w, s, strlen(s), attr);
}

/* The mark of a line cut at the left or right edge of a pane: a character, so that it shows
   without colours too. */
void draw_cut_marks(int y, int x, int w, const struct text_cut *cut)
{
    int attr = crt_attr(ROLE_DIM);

    if (cut->left)
        draw_puts(y, x, 1, crt_utf8() ? "\u2026" : "<", attr);
    if (cut->right)
        draw_puts(y, x + w - 1, 1, crt_utf8() ? "\u2026" : ">", attr);
}

/* Writes the w columns of a line from its column first on at (y, x), marking where it goes
   on beyond either edge; returns the columns used. */
int draw_put_cut(int y, int x, int w, const char *line, int first, int attr)
{
    struct text_cut cut;

    text_cut(line, first, w, &cut);
    draw_cut_marks(y, x, w, &cut);
    return cut.at + draw_put(y, x + cut.at, w - cut.at, line + cut.start, cut.len, attr) + cut.right;
}

int draw_printf(int y, int x, int w, int attr, const char *fmt, ...)
{
    char buf[LINE_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_puts(y, x, w, buf, attr);
}

void draw_blank(int y, int x, int w, int attr)
{
    attron(attr);
    mvhline(y, x, ' ', w);
    attroff(attr);
}

void draw_clear(const struct rect *r)
{
    for (int y = 0; y < r->h; y++)
        draw_blank(r->y + y, r->x, r->w, A_NORMAL);
}

/* A line of n copies of one character (UTF-8 or ASCII) at (y, x). */
void draw_repeat(int y, int x, int n, const char *ch, int attr)
{
    for (int i = 0; i < n; i++)
        draw_puts(y, x + i, 1, ch, attr);
}

/* A border with a title; returns the inside. The box characters are written as text, not
   through the terminal's alternate character set, so that a captured screen (and a
   projector's terminal) shows them as they are. */
struct rect draw_frame(const struct rect *r, const char *title, bool focus)
{
    static const char *const unicode[] = { "\u2500", "\u2502", "\u250c", "\u2510", "\u2514", "\u2518" };
    static const char *const ascii[] = { "-", "|", "+", "+", "+", "+" };
    const char *const *box = crt_utf8() ? unicode : ascii;
    int attr = crt_attr(focus ? ROLE_BORDER_FOCUS : ROLE_BORDER);
    struct rect in = { r->y + 1, r->x + 1, r->h - 2, r->w - 2 };

    draw_clear(r);
    draw_repeat(r->y, r->x + 1, r->w - 2, box[0], attr);
    draw_repeat(r->y + r->h - 1, r->x + 1, r->w - 2, box[0], attr);
    for (int y = r->y + 1; y < r->y + r->h - 1; y++) {
        draw_puts(y, r->x, 1, box[1], attr);
        draw_puts(y, r->x + r->w - 1, 1, box[1], attr);
    }
    draw_puts(r->y, r->x, 1, box[2], attr);
    draw_puts(r->y, r->x + r->w - 1, 1, box[3], attr);
    draw_puts(r->y + r->h - 1, r->x, 1, box[4], attr);
    draw_puts(r->y + r->h - 1, r->x + r->w - 1, 1, box[5], attr);
    if (title && r->w > 6) {
        /* " title " between two lines of the border on either side. */
        int x = r->x + 2 + draw_puts(r->y, r->x + 2, 1, " ", attr);
        x += draw_put_cut(r->y, x, r->w - 6, title, 0, attr | A_BOLD);
        draw_puts(r->y, x, 1, " ", attr);
    }
    return in;
}

/* Wraps a message over the rows of a rectangle. */
int draw_wrapped(const struct rect *in, int row, const char *text, int attr)
{
    struct text_lines lines;

    text_layout(text, in->w, &lines);
    for (size_t i = 0; i < lines.count && row < in->h; i++, row++)
        draw_puts(in->y + row, in->x + lines.items[i].indent, in->w, lines.items[i].text, attr);
    text_lines_free(&lines);
    return row;
}

/* Keeps *scroll within the content; returns it. */
int draw_clamp_scroll(int *scroll, int content, int visible)
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
void draw_scroll_marks(const struct rect *r, int scroll, int content, int visible)
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
        draw_puts(r->y + r->h - 1, r->x + r->w - 2 - w, w, marks, crt_attr(ROLE_DIM));
}

const struct lesson *model_lesson(const struct screen_model *m)
{
    return &m->lessons->items[m->lesson];
}

void draw_format_size(char *buf, size_t len, struct gemm_size s)
{
    if (s.m == s.n && s.n == s.k)
        snprintf(buf, len, "%lld\u00b3", s.m);
    else
        snprintf(buf, len, "%lldx%lldx%lld", s.m, s.n, s.k);
    if (!crt_utf8() && s.m == s.n && s.n == s.k)
        snprintf(buf, len, "%lld^3", s.m);
}

/* Whether lesson l runs emulated on the open device (needs.h): its speed is not comparable,
   and the title, its figure and its bar say so. */
bool model_emulated(const struct screen_model *m, const struct lesson *l)
{
    return m->view->device >= 0 && lesson_emulated(l, &m->view->info);
}

/* The view's look inside, when it is the current lesson's with its parameters now. */
const struct inside *model_inside(const struct screen_model *m)
{
    const struct session_view *v = m->view;
    char params[256];

    param_set_format(model_lesson(m), &v->params, params, sizeof params);
    if (v->inside_lesson != m->lesson || strcmp(v->inside_params, params) != 0 ||
        v->inside_sources != v->sources_version)
        return NULL;
    return v->inside_have ? &v->inside : NULL;
}

/* Where a wrong result is wrong: the pattern with its counts, the hint, and C drawn by
   tiles, as many rows as there are below the message. Returns the rows used. */
int draw_error_map(const struct rect *in, int row, const struct errmap *em, bool hint)
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
            draw_puts(in->y + row, in->x + 2 + j, 1, glyph,
                    crt_attr(c == '#' ? ROLE_WRONG : c == '?' ? ROLE_WARNING : ROLE_DIM));
        }
    return row;
}

/* Rows text takes wrapped to width. */
int draw_wrapped_rows(const char *text, int width)
{
    struct text_lines lines;
    int rows;

    text_layout(text, width, &lines);
    rows = (int)lines.count;
    text_lines_free(&lines);
    return rows;
}

int draw_wrappedf(const struct rect *in, int row, int attr, const char *fmt, ...)
{
    char buf[LINE_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_wrapped(in, row, buf, attr);
}
