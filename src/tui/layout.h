/* layout.h: where each pane of the interactive screen goes, for a terminal of a given
   size. Pure arithmetic, so that it can be tested without a terminal. */
#ifndef CLMM_LAYOUT_H
#define CLMM_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24

enum pane { PANE_TEXT, PANE_SOURCE, PANE_LAYOUT, PANE_GFLOPS, PANE_COUNT };

struct rect {
    int y, x, h, w;             /* a hidden pane has h == w == 0 */
};

struct screen_layout {
    bool too_small;             /* below LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS: nothing else set */
    struct rect title;          /* the top line */
    struct rect keys;           /* the bottom line: the main keys, or a prompt */
    struct rect pane[PANE_COUNT];   /* each with its border */
};

/* Lays out the screen. focus is the pane that scrolls with the arrow keys; zoom gives it
   the whole space between the top and bottom lines. On screens too narrow for every pane,
   the lesson text and the source share one place: the focused one of the two, else
   left_choice. gflops_rows is the height the GFLOPS pane asks for (0: its share): it is
   taken from the work-group layout pane, which is hidden when too little would be left of
   it, unless it has the focus. */
void layout_compute(int cols, int rows, enum pane focus, enum pane left_choice, bool zoom, int gflops_rows,
                    struct screen_layout *out);

bool rect_visible(const struct rect *r);

#endif
