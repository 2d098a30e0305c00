/* panes.c: the screen's panes as a table the screen walks: which slot of the layout each
   fills, in which mode (the lessons, or an exercise open), and its draw function. A pane is
   a file of its own (pane_*.c); it only places strings and colours, reading the model. */
#include "panes.h"

const struct pane_ops panes_table[] = {
    {PANE_TEXT, KEYS_BOTH, panes_draw_text},            /* pane_text.c */
    {PANE_SOURCE, KEYS_BOTH, panes_draw_source},        /* pane_source.c */
    {PANE_LAYOUT, KEYS_LESSONS, panes_draw_layout},     /* pane_layout.c */
    {PANE_GFLOPS, KEYS_EXERCISE, panes_draw_check},     /* pane_check.c */
    {PANE_GFLOPS, KEYS_LESSONS, panes_draw_gflops},     /* pane_gflops.c */
};
const size_t panes_count = sizeof panes_table / sizeof panes_table[0];
