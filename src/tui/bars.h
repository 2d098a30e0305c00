/* bars.h: what the GFLOPS pane (pane_gflops.c) takes from its bar chart (bars.c): the bars
   there are, and the chart drawn. The roofline marks the same lessons. */
#ifndef CLMM_BARS_H
#define CLMM_BARS_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "panes.h"
#include "engine/results.h"

/* One bar: a lesson, or a reference row. */
struct bar {
    int index;                  /* in the lesson set; below 0 for a reference row */
    const struct summary *fig;
    const char *title;          /* a reference row's */
};

/* The spread of a summary as a percentage of its median: "±0.4%". */
void bars_format_spread(const struct summary *f, char *buf, size_t len);

/* Whether a result has a speed to draw (measured and verified). */
bool bars_shows_speed(const struct summary *f);

/* The bars there are: every lesson measured at this size (and the current one), then
   the reference rows; in ladder order. */
size_t bars_collect(const struct screen_model *m, struct bar *bars);

/* The bar chart from row on inside the pane. */
void bars_draw(const struct rect *in, int row, struct screen_model *m);

#endif
