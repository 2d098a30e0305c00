/* canvas.c: a page of characters for text drawings. */
#include "canvas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

void canvas_init(struct canvas *c, int rows, int cols)
{
    c->rows = rows;
    c->cols = cols;
    c->cell = xcalloc((size_t)rows * (size_t)cols, sizeof *c->cell);
}

void canvas_free(struct canvas *c)
{
    free(c->cell);
    c->cell = NULL;
}

void canvas_put(struct canvas *c, int row, int col, const char *glyph)
{
    if (row >= 0 && row < c->rows && col >= 0 && col < c->cols)
        snprintf(c->cell[row * c->cols + col], sizeof c->cell[0], "%s", glyph);
}

void canvas_fill(struct canvas *c, int row, int col, int rows, int cols, const char *glyph)
{
    for (int r = row; r < row + rows; r++)
        for (int k = col; k < col + cols; k++)
            canvas_put(c, r, k, glyph);
}

void canvas_text(struct canvas *c, int row, int col, const char *text)
{
    while (*text) {
        size_t n = str_prefix(text, 1);
        char glyph[5];
        snprintf(glyph, sizeof glyph, "%.*s", (int)n, text);
        canvas_put(c, row, col++, glyph);
        text += n;
    }
}

void canvas_line(const struct canvas *c, int row, char *out, size_t len)
{
    struct str s;
    size_t keep = 0;

    str_init(&s, out, len);
    for (int col = 0; col < c->cols; col++) {
        const char *glyph = c->cell[row * c->cols + col];
        str_appendf(&s, "", "%s", glyph[0] ? glyph : " ");
        if (glyph[0] && strcmp(glyph, " ") != 0)
            keep = s.len;
    }
    out[keep] = '\0';
}
