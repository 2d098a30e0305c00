/* pane_source.c: the kernel pane: the lesson's kernel highlighted, the diff from the
   previous lesson, the look inside the built kernel, or the host code of its launch. */
#include "panes.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"
#include "draw.h"
#include "highlight.h"
#include "engine/chart.h"
#include "engine/hostcode.h"
#include "engine/inside.h"
#include "engine/str.h"
#include "engine/text.h"
#include "engine/xalloc.h"

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
    draw_cut_marks(y, x, w, &cut);
    for (size_t i = 0; i < n; i++) {
        size_t from = spans[i].start, to = spans[i].start + spans[i].len, end = cut.start + cut.len;
        from = from > cut.start ? from : cut.start;
        to = to < end ? to : end;
        if (from < to)
            draw_put(y, x + cut.at + (int)str_columns(line + cut.start, from - cut.start), w, line + from, to - from,
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
    int top = draw_clamp_scroll(&m->scroll[PANE_SOURCE], (int)d->count, in->h);
    int first = m->hscroll[PANE_SOURCE] = text_clamp_offset(m->hscroll[PANE_SOURCE], diff_width(d, m), in->w - 1);
    struct hl_state st = { 0, 0 };
    size_t next_new = 0;

    for (int i = top; i < (int)d->count && i < top + in->h; i++) {
        const struct diff_line *dl = &d->items[i];
        int y = in->y + i - top;
        if (dl->op == DIFF_REMOVED) {
            draw_puts(y, in->x, 1, "-", crt_attr(ROLE_REMOVED));
            draw_put_cut(y, in->x + 1, in->w - 1, m->previous->items[dl->old_index], first, crt_attr(ROLE_REMOVED));
            continue;
        }
        /* The highlighter runs over every line of the new kernel up to this one, so that
           comments spanning lines colour right wherever the view starts. */
        for (; next_new < dl->new_index; next_new++)
            draw_code(0, 0, 0, m->source->items[next_new], 0, &st, false);
        next_new++;
        if (dl->op == DIFF_ADDED) {
            draw_code(0, 0, 0, m->source->items[dl->new_index], 0, &st, false);
            draw_puts(y, in->x, 1, "+", crt_attr(ROLE_ADDED));
            draw_put_cut(y, in->x + 1, in->w - 1, m->source->items[dl->new_index], first, crt_attr(ROLE_ADDED));
        } else {
            draw_code(y, in->x + 1, in->w - 1, m->source->items[dl->new_index], first, &st, true);
        }
    }
    draw_scroll_marks(&(struct rect){ in->y - 1, in->x - 1, in->h + 2, in->w + 2 }, top, (int)d->count, in->h);
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
    const struct lesson *l = model_lesson(m);
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

/* What the compiler made of the current lesson's kernel, in place of its source. */
static void draw_inside(const struct rect *r, struct screen_model *m)
{
    const struct session_view *v = m->view;
    const struct inside *in = model_inside(m);
    char title[200], (*lines)[INSIDE_LINE_BYTES];
    struct rect box;
    size_t n;
    int top;

    snprintf(title, sizeof title, "Look inside lesson %d's built kernel (i: the source)", model_lesson(m)->number);
    box = draw_frame(r, title, m->focus == PANE_SOURCE);
    if (!in) {
        bool failed = v->inside_lesson == m->lesson && !v->inside_have && v->inside_error[0];
        draw_wrapped(&box, 0, failed ? v->inside_error : model_lesson(m)->engine == ENGINE_HOST
                                                             ? "The host reference is C on the CPU: no kernel "
                                                               "to look inside (i: its source)."
                                                             : "building the kernel to look inside...",
                     crt_attr(failed ? ROLE_WARNING : ROLE_DIM));
        return;
    }
    lines = xmalloc(200 * sizeof *lines);
    n = inside_describe(in, box.w, lines, 200);
    top = draw_clamp_scroll(&m->scroll[PANE_SOURCE], (int)n, box.h);
    for (int row = 0; row < box.h && top + row < (int)n; row++)
        draw_puts(box.y + row, box.x, box.w, lines[top + row], A_NORMAL);
    draw_scroll_marks(r, top, (int)n, box.h);
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

    top = draw_clamp_scroll(&m->scroll[PANE_SOURCE], (int)src->count, in->h);
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
        draw_printf(y, in->x, digits, crt_attr(i + 1 == mark ? ROLE_WRONG : ROLE_DIM), "%*d", digits, i + 1);
        if (changed && changed[i])
            draw_puts(y, in->x + digits, 1, crt_utf8() ? "\u258c" : "+", crt_attr(ROLE_CHANGED));
        draw_code(y, in->x + digits + 2, in->w - digits - 2, src->items[i], first, &st, true);
    }
    draw_scroll_marks(r, top, (int)src->count, in->h);
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
    draw_format_size(size, sizeof size, v->size);
    snprintf(what, sizeof what, "Host code of lesson %d's launch at %s", model_lesson(m)->number, size);
    snprintf(shorter, sizeof shorter, "Host code, lesson %d at %s", model_lesson(m)->number, size);
    {
        const struct chart_item items[] = { { what, shorter, 0 }, { " (H: the kernel)", " (H: kernel)", 1 } };
        chart_fit_items(title, sizeof title, items, 2, "", r->w - 6);
    }
    in = draw_frame(r, title, m->focus == PANE_SOURCE);
    error_init(&e);
    text = hostcode_generate(model_lesson(m), &v->params, v->size, &e);
    if (!text) {
        draw_wrapped(&in, 0, e.msg, crt_attr(model_lesson(m)->engine == ENGINE_HOST ? ROLE_DIM : ROLE_WARNING));
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
        in = draw_frame(r, m->exercise->path, m->focus == PANE_SOURCE);
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
        in = draw_frame(r, "Source", m->focus == PANE_SOURCE);
        draw_wrapped(&in, 0, model_lesson(m)->engine == ENGINE_HOST ? "The host reference is C on the CPU; its "
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
    in = draw_frame(r, title, m->focus == PANE_SOURCE);
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
