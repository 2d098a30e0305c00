/* viewchart.h: the chart the interactive screen shows, saved as an SVG picture (plot.h):
   the bars of every lesson at the size on screen, or the sweep of the lesson on screen
   over sizes; the figures are the session's medians, the ones the bars show. No
   curses. */
#ifndef CLMM_VIEWCHART_H
#define CLMM_VIEWCHART_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "engine/error.h"
#include "engine/lesson.h"
#include "engine/plot.h"
#include "engine/session.h"

/* The chart of view into p (which it initialises): with sweep, the sweep of view's
   sweep_lesson; else a bar per lesson measured at view's size, and the current lesson's
   (index lesson) even when not measured yet, then CLBlast; log_scale: bars on a log axis.
   now: when it was saved. */
void viewchart_plot(struct plot *p, const struct session_view *v, const struct lesson_set *lessons, int lesson,
                    bool sweep, bool log_scale, time_t now);

/* Its file name: clmm-tutor-lesson5-1024-20261124-093021.svg (the lesson on screen, the
   size, MxNxK when not square, or "sweep", and the time, UTC). */
void viewchart_name(char *buf, size_t len, int lesson_number, struct gemm_size size, bool sweep, time_t now);

/* Saves p as name in the current directory when it can be written, else under
   $XDG_DATA_HOME/clmm-tutor/charts (files_data_path); the path written to in path.
   -1 with a message in e. */
int viewchart_save(const struct plot *p, const char *name, char *path, size_t len, struct error *e);

#endif
