/* tutor.h: the interactive screen (curses). */
#ifndef CLMM_TUTOR_H
#define CLMM_TUTOR_H

#include "clblastparams.h"
#include "compare.h"
#include "exercise.h"
#include "lesson.h"
#include "options.h"

/* Runs the screen until the user quits; returns the exit status. The terminal is given
   back on every way out, and a fatal error is printed after it. */
int tutor_run(const struct options *opts, const struct lesson_set *lessons, const struct exercise_set *exercises,
              const struct clblast_params *clblast, struct compare *saved);

#endif
