/* meter.h: a progress line for the command line's long runs (--bench, --tune) on stderr:
   "lesson 5, 6 of 26, at 1024x1024x1024: 42 s elapsed, about 3:10 left", written over
   itself with \r while a terminal shows it, and blanked when done and before anything else
   is printed; nothing at all when the stream is not a terminal. No curses. */
#ifndef CLMM_METER_H
#define CLMM_METER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/measure.h"

struct meter {
    FILE *out;
    bool on;                    /* out is a terminal */
    char what[256];             /* the step running */
    size_t after;               /* steps to come after it */
    double started, step_started;
    double finished_s;          /* time of the steps finished */
    size_t finished;
    double step_left;           /* the measurement's own estimate for the step running; < 0: none */
    double deadline_s;          /* no step starts this long after the first (--time-limit); 0: none */
    double drawn_at;
    size_t shown;               /* characters on the line now */
};

/* A meter on out, shown only when out is a terminal (isatty). */
void meter_init(struct meter *m, FILE *out);

/* The next step begins: what it is, and how many steps come after it. */
void meter_start(struct meter *m, const char *what, size_t after);
/* The step running is done: its time counts in the estimate of the steps to come. */
void meter_finish(struct meter *m);
/* For measure_config.progress (ctx: the meter): redraws, at most a few times a second,
   with the measurement's estimate of what is left of its launches. */
void meter_progress(void *ctx, const struct measure_progress *p);
/* Blanks the line, before anything else is printed to the terminal (the next start or
   progress draws it again). */
void meter_clear(struct meter *m);
/* Shows text as the line, cut to the terminal's width; unless now, not more often than
   the line is redrawn. */
void meter_show(struct meter *m, const char *text, bool now);

/* The line itself, into buf (at most width - 1 characters, so that the terminal never
   wraps it): what, the time elapsed, and left seconds to go (< 0: not known yet). */
void meter_line(char *buf, size_t len, const char *what, double elapsed, double left, int width);

#endif
