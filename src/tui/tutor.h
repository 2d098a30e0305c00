/* tutor.h: the interactive screen (curses). */
#ifndef CLMM_TUTOR_H
#define CLMM_TUTOR_H

#include "engine/compare.h"
#include "engine/exercise.h"
#include "engine/lesson.h"
#include "engine/screenstart.h"

/* Runs the screen until the user quits; returns the exit status. The terminal is given
   back on every way out, and a fatal error is printed after it. */
int tutor_run(const struct screen_start *start, const struct lesson_set *lessons,
              const struct exercise_set *exercises, struct compare *saved);

#endif
