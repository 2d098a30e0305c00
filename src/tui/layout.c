/* layout.c: pane placement.

   Below 160 columns: two columns, the lesson text or the kernel source on the left (both,
   one above the other, from 40 rows: a classroom's 120x40 shows the kernel) and, on the
   right, the work-group layout above the GFLOPS. From 160 columns: three columns, text,
   source, and the same right column. The right column keeps at least 38 columns: the
   layout drawing and the bar chart need 36 inside their borders. The GFLOPS pane grows to
   the height its bars ask for, taking it from the work-group layout; where that would
   leave the layout too small to read, the layout gives way to the bars (Tab brings it
   back). */
#include "layout.h"

#include <string.h>

#define RIGHT_MIN 38
#define RIGHT_NARROW 42        /* the bars' label, bar and figures at 80 columns */
#define WIDE_COLS 160
#define TALL_ROWS 40
#define LAYOUT_MIN_H 12         /* the layout pane's height at 24 rows: 10 inside */
#define LAYOUT_LEAST_H 8        /* below this, the layout pane gives way to the bars */

static struct rect make(int y, int x, int h, int w)
{
    struct rect r = { y, x, h, w };
    return r;
}

bool rect_visible(const struct rect *r)
{
    return r->h > 0 && r->w > 0;
}

/* The right column: the work-group layout above the GFLOPS pane, which gets gflops_rows
   when it asks for more than its share. */
static void right_column(struct screen_layout *out, int y, int x, int h, int w, int gflops_rows, bool layout_focus)
{
    int top = h * 45 / 100;

    if (top < LAYOUT_MIN_H)
        top = LAYOUT_MIN_H;
    if (!layout_focus && gflops_rows > h - top) {
        top = h - gflops_rows;
        if (top < LAYOUT_LEAST_H) {
            out->pane[PANE_GFLOPS] = make(y, x, h, w);
            return;
        }
    }
    out->pane[PANE_LAYOUT] = make(y, x, top, w);
    out->pane[PANE_GFLOPS] = make(y + top, x, h - top, w);
}

void layout_compute(int cols, int rows, enum pane focus, enum pane left_choice, bool zoom, int gflops_rows,
                    struct screen_layout *out)
{
    int body_y = 1, body_h = rows - 2, right_w, left_w;

    memset(out, 0, sizeof *out);
    if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
        out->too_small = true;
        return;
    }
    out->title = make(0, 0, 1, cols);
    out->keys = make(rows - 1, 0, 1, cols);
    if (zoom) {
        out->pane[focus] = make(body_y, 0, body_h, cols);
        return;
    }
    if (cols >= WIDE_COLS) {
        int text_w = cols * 30 / 100, source_w = cols * 37 / 100;
        out->pane[PANE_TEXT] = make(body_y, 0, body_h, text_w);
        out->pane[PANE_SOURCE] = make(body_y, text_w, body_h, source_w);
        right_column(out, body_y, text_w + source_w, body_h, cols - text_w - source_w, gflops_rows,
                     focus == PANE_LAYOUT);
        return;
    }
    right_w = cols * 45 / 100;
    if (right_w < RIGHT_MIN)
        right_w = RIGHT_MIN;
    /* Narrow screens: room for a bar's label, its bar and its figures. */
    if (right_w < RIGHT_NARROW && cols >= 2 * RIGHT_NARROW - 4)
        right_w = RIGHT_NARROW;
    left_w = cols - right_w;
    if (rows >= TALL_ROWS) {
        int text_h = body_h * 40 / 100;
        out->pane[PANE_TEXT] = make(body_y, 0, text_h, left_w);
        out->pane[PANE_SOURCE] = make(body_y + text_h, 0, body_h - text_h, left_w);
    } else {
        enum pane left = focus == PANE_TEXT || focus == PANE_SOURCE ? focus : left_choice;
        if (left != PANE_TEXT && left != PANE_SOURCE)
            left = PANE_TEXT;
        out->pane[left] = make(body_y, 0, body_h, left_w);
    }
    right_column(out, body_y, left_w, body_h, right_w, gflops_rows, focus == PANE_LAYOUT);
}
