/* lines.c: the screen's top and bottom lines: the title (the lesson, its size and
   parameters, fitted to the width), the key line, and the prompt and closing words that take
   the key line's place. */
#include "panes.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "crt.h"
#include "draw.h"
#include "engine/chart.h"
#include "engine/params.h"
#include "engine/str.h"

/* Where the current lesson's parameters came from, for the title: " (tuned)", " (tuned at
   4096³, partial search)", " (defaults: tuned at 256³, too far from this size)", " (set with
   t)", " (--param)"; nothing for the defaults. */
static void origin_note(const struct session_view *v, char *buf, size_t len)
{
    const struct param_origin *o = &v->origin;
    char at[64];
    bool same = o->tuned.size.m == v->size.m && o->tuned.size.n == v->size.n && o->tuned.size.k == v->size.k;

    buf[0] = '\0';
    draw_format_size(at, sizeof at, o->tuned.size);
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
    const struct lesson *l = model_lesson(m);
    const struct session_view *v = m->view;
    int attr = crt_attr(ROLE_TITLE);
    char size[64], note[128], line[LINE_BYTES];
    struct title_parts p;

    memset(&p, 0, sizeof p);
    p.sep = crt_utf8() ? " \u2502 " : " | ";
    draw_blank(r->y, r->x, r->w, attr);
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
        draw_puts(r->y, r->x, r->w, line, attr);
        return;
    }
    if (v->device_ready || v->device >= 0)
        p.device = v->devices_known && v->device >= 0 ? v->devices[v->device] : NULL;
    else
        p.device = "opening the device...";
    draw_format_size(size, sizeof size, v->size);
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
    const char *emulated = model_emulated(m, l) ? "emulated" : "";
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
    draw_puts(r->y, r->x, r->w, line, attr);
}

static int key_width(const struct key_binding *k)
{
    return (int)(strlen(k->line_keys) + strlen(k->line_label) + 3);
}

void panes_draw_keys(const struct rect *r, const struct screen_model *m)
{
    int x = r->x, right = r->x + r->w, base = crt_attr(ROLE_KEYS), room = r->w, most = 0, width = 0;

    draw_blank(r->y, r->x, r->w, base);
    if (m->message) {
        draw_puts(r->y, r->x + 1, r->w - 2, m->message, m->message_is_error ? crt_attr(ROLE_WARNING) : base);
        return;
    }
    if (m->exercise) {
        x += draw_printf(r->y, x, right - x, crt_attr(ROLE_KEY), " %d of %d verified ", m->exercise->verified,
                       m->exercise->count);
        room -= x - r->x;
    } else if (m->view->job != JOB_NONE) {
        x += draw_printf(r->y, x, right - x, crt_attr(ROLE_KEY), " x");
        x += draw_printf(r->y, x, right - x, base, " cancel ");
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
        x += draw_printf(r->y, x, right - x, crt_attr(ROLE_KEY), " %s", k->line_keys);
        x += draw_printf(r->y, x, right - x, base, " %s ", k->line_label);
    }
}

void panes_draw_closing(const struct rect *r, const char *text)
{
    draw_blank(r->y, r->x, r->w, crt_attr(ROLE_KEYS));
    draw_puts(r->y, r->x + 1, r->w - 2, text, crt_attr(ROLE_KEYS));
}

void panes_draw_prompt(const struct rect *r, const char *label, const char *input, const char *error)
{
    int x = r->x;

    draw_blank(r->y, r->x, r->w, crt_attr(ROLE_KEYS));
    x += draw_puts(r->y, x, r->w, label, crt_attr(ROLE_KEY));
    x += draw_puts(r->y, x, r->x + r->w - x, input, crt_attr(ROLE_KEYS));
    x += draw_puts(r->y, x, r->x + r->w - x, "_", crt_attr(ROLE_KEYS) | A_BLINK);
    if (error && *error)
        draw_puts(r->y, x + 2, r->x + r->w - x - 2, error, crt_attr(ROLE_WARNING));
}
