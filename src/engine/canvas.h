/* canvas.h: a page of characters, one per column, on which a text drawing is painted (the
   work-group diagram, the roofline), so that no line can grow past its width. No curses. */
#ifndef CLMM_CANVAS_H
#define CLMM_CANVAS_H

#include <stddef.h>

struct canvas {
    int rows, cols;
    char (*cell)[5];            /* a UTF-8 character; "" is a blank */
};

void canvas_init(struct canvas *c, int rows, int cols);
void canvas_free(struct canvas *c);

/* One character at (row, col); outside the page: nothing. */
void canvas_put(struct canvas *c, int row, int col, const char *glyph);
void canvas_fill(struct canvas *c, int row, int col, int rows, int cols, const char *glyph);
/* UTF-8 text from (row, col), a character a column, cut at the page's edge. */
void canvas_text(struct canvas *c, int row, int col, const char *text);

/* Row row as a NUL-terminated line of at most len bytes, without trailing blanks. */
void canvas_line(const struct canvas *c, int row, char *out, size_t len);

#endif
