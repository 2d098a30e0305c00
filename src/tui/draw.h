/* draw.h: what the screen's panes and overlays draw with (draw.c): text cut to a width,
   frames with scroll marks, wrapped messages, the error map; and what they read of the screen's
   model. Only the files of the screen that draw include it. */
#ifndef CLMM_DRAW_H
#define CLMM_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "panes.h"
#include "engine/errmap.h"
#include "engine/geometry.h"
#include "engine/inside.h"
#include "engine/lesson.h"
#include "engine/text.h"

/* The longest line a pane builds before cutting it to its width, in bytes. */
#define LINE_BYTES 4096

/* Writes len bytes of UTF-8 text at (y, x), cut to w columns; returns the columns used. */
int draw_put(int y, int x, int w, const char *s, size_t len, int attr);

/* A string at (y, x), cut to w columns; returns the columns used. */
int draw_puts(int y, int x, int w, const char *s, int attr);

/* The mark of a line cut at the left or right edge of a pane: a character, so that it shows
   without colours too. */
void draw_cut_marks(int y, int x, int w, const struct text_cut *cut);

/* Writes the w columns of a line from its column first on at (y, x), marking where it goes
   on beyond either edge; returns the columns used. */
int draw_put_cut(int y, int x, int w, const char *line, int first, int attr);

/* draw_puts of a formatted string. */
int draw_printf(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* w blank columns at (y, x). */
void draw_blank(int y, int x, int w, int attr);

/* Blanks a rectangle. */
void draw_clear(const struct rect *r);

/* A line of n copies of one character (UTF-8 or ASCII) at (y, x). */
void draw_repeat(int y, int x, int n, const char *ch, int attr);

/* A border with a title; returns the inside. The box characters are written as text, not
   through the terminal's alternate character set, so that a captured screen (and a
   projector's terminal) shows them as they are. */
struct rect draw_frame(const struct rect *r, const char *title, bool focus);

/* Wraps a message over the rows of a rectangle. */
int draw_wrapped(const struct rect *in, int row, const char *text, int attr);

/* Keeps *scroll within the content; returns it. */
int draw_clamp_scroll(int *scroll, int content, int visible);

/* "↑3 ↓94": how many lines there are above and below, on the bottom border at the right
   (the top border holds the title). */
void draw_scroll_marks(const struct rect *r, int scroll, int content, int visible);

/* The lesson on screen. */
const struct lesson *model_lesson(const struct screen_model *m);

/* A size as the screen writes it: "1024³" ("1024^3" without UTF-8), or "MxNxK". */
void draw_format_size(char *buf, size_t len, struct gemm_size s);

/* Whether lesson l runs emulated on the open device (needs.h): its speed is not comparable,
   and the title, its figure and its bar say so. */
bool model_emulated(const struct screen_model *m, const struct lesson *l);

/* The view's look inside, when it is the current lesson's with its parameters now. */
const struct inside *model_inside(const struct screen_model *m);

/* Where a wrong result is wrong: the pattern with its counts, the hint, and C drawn by
   tiles, as many rows as there are below the message. Returns the rows used. */
int draw_error_map(const struct rect *in, int row, const struct errmap *em, bool hint);

/* Rows text takes wrapped to width. */
int draw_wrapped_rows(const char *text, int width);

/* draw_wrapped of a formatted message. */
int draw_wrappedf(const struct rect *in, int row, int attr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
