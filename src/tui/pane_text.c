/* pane_text.c: the lesson pane: the lesson's text with its light markup (lessons/FORMAT)
   and the exercises that practise it; in exercise mode, the exercise's task and hints. */
#include "panes.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"
#include "draw.h"
#include "engine/sources.h"
#include "engine/str.h"
#include "engine/text.h"
#include "engine/xalloc.h"

/* A line of prose with its markup as colours; a word wider than the pane is cut with a mark. */
static int draw_markup(int y, int x, int w, const char *text, int base)
{
    struct text_span spans[64];
    size_t n = text_spans(text, spans, 64);
    int used = 0, wide = 0, room;

    if (n > 64)
        return draw_put_cut(y, x, w, text, 0, base);
    for (size_t i = 0; i < n; i++)
        wide += (int)str_columns(spans[i].text, spans[i].len) - (spans[i].kind == SPAN_CODE ? 2 : 0);
    room = wide > w ? w - 1 : w;
    for (size_t i = 0; i < n && used < room; i++) {
        const struct text_span *s = &spans[i];
        if (s->kind == SPAN_CODE)   /* colour instead of backquotes */
            used += draw_put(y, x + used, room - used, s->text + 1, s->len - 2, crt_attr(ROLE_CODE));
        else
            used += draw_put(y, x + used, room - used, s->text, s->len,
                        s->kind == SPAN_EMPHASIS ? crt_attr(ROLE_EMPHASIS) : base);
    }
    if (wide > w)
        draw_cut_marks(y, x, w, &(struct text_cut){ .right = true });
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
    const struct lesson *l = model_lesson(m);
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
    in = draw_frame(r, title, m->focus == PANE_TEXT);
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
    top = draw_clamp_scroll(&m->scroll[PANE_TEXT], total, in.h);
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
                draw_puts(y, x - 2, 2, crt_utf8() ? "\u2022 " : "- ", crt_attr(ROLE_DIM));
            if (t->kind == TEXT_VERBATIM)
                draw_put_cut(y, x, in.w - t->indent, t->text, first, crt_attr(ROLE_CODE));
            else if (t->kind == TEXT_HEADING)
                draw_markup(y, x, in.w - t->indent, t->text, crt_attr(ROLE_HEADING));
            else
                draw_markup(y, x, in.w - t->indent, t->text, A_NORMAL);
        } else if (i > (int)lines.count && i < total) {
            const struct text_line *t = &sources.items[i - (int)lines.count - 1];
            if (t->kind == TEXT_ITEM)
                draw_puts(y, in.x + t->indent - 2, 2, crt_utf8() ? "\u2022 " : "- ", crt_attr(ROLE_DIM));
            draw_put_cut(y, in.x + t->indent, in.w - t->indent, t->text, 0, crt_attr(ROLE_DIM));
        }
    }
    draw_scroll_marks(r, top, total, in.h);
    text_lines_free(&lines);
    text_lines_free(&sources);
}
