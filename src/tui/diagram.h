/* diagram.h: a text drawing of how a lesson's kernel divides C among work-groups and
   work-items, from its figures (figures.h), that any screen can show (no curses here). */
#ifndef CLMM_DIAGRAM_H
#define CLMM_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/figures.h"

#define DIAGRAM_LINE_BYTES 1024

/* Draws C cut into work-groups (a grid scaled down to fit, the first group highlighted, the
   padding and the part of the edge groups beyond C in their own glyph), one work-group cut
   into its work-items (the first work-item's outputs highlighted, spread out as the kernel
   spreads them) with its tiles of A and B in local memory beside and above it, short labels
   with the real sizes, a legend of the glyphs, then the figures as "label value" lines and
   the warnings. Writes at most max_lines lines of at most width columns into lines (UTF-8
   characters when utf8, ASCII otherwise) and returns their count. Small panes get the
   figures and a compact drawing; 36 x 10 is the smallest that shows both. The glyphs below
   appear nowhere but in the drawing and the legend, so that a screen can colour them (see
   diagram_glyph_at); A's and B's differ without colour too. */
size_t diagram_draw(const struct figures *d, int width, size_t max_lines, bool utf8,
                    char (*lines)[DIAGRAM_LINE_BYTES]);

#define DIAGRAM_MARK_UTF8 "\xe2\x96\x88"    /* U+2588 FULL BLOCK: the first group, item */
#define DIAGRAM_MARK_ASCII "#"
#define DIAGRAM_TILE_A_UTF8 "\xe2\x96\xa4"  /* U+25A4 SQUARE WITH HORIZONTAL FILL */
#define DIAGRAM_TILE_A_ASCII "="
#define DIAGRAM_TILE_B_UTF8 "\xe2\x96\xa5"  /* U+25A5 SQUARE WITH VERTICAL FILL */
#define DIAGRAM_TILE_B_ASCII "|"
#define DIAGRAM_PAD_UTF8 "\xe2\x95\xb1"     /* U+2571 BOX DRAWINGS LIGHT DIAGONAL */
#define DIAGRAM_PAD_ASCII "~"

/* What a character of the drawing stands for. */
enum diagram_glyph {
    DIAGRAM_GLYPH_TEXT,         /* anything else: text, the other cells */
    DIAGRAM_GLYPH_MARK,         /* the first work-group, the first work-item's outputs */
    DIAGRAM_GLYPH_TILE_A,       /* the tile of A in local memory */
    DIAGRAM_GLYPH_TILE_B,       /* the tile of B */
    DIAGRAM_GLYPH_PAD           /* C beyond the size asked for: padding, or edge groups' overhang */
};

/* The kind of the character that starts at s, in a line diagram_draw wrote with utf8, and
   its length in bytes in *len (0 at the end of the line). */
enum diagram_glyph diagram_glyph_at(const char *s, bool utf8, size_t *len);

#endif
