/* commands.h: what each mode of the command line does. */
#ifndef CLMM_COMMANDS_H
#define CLMM_COMMANDS_H

#include "cli.h"
#include "engine/compare.h"
#include "engine/exercise.h"
#include "engine/lesson.h"
#include "options.h"
#include "engine/screenstart.h"

/* The interactive screen, given by the program (the engine has no curses): it starts with
   start, filled from the options (start->exercise says whether it opens on an exercise of
   exercises); saved: the run of --compare (its rows marked as the screen draws them), NULL
   without one. CLBlast's parameters and the saved run are loaded by the command line before
   the screen opens, so that a file that cannot be used is said on the terminal as it is. */
typedef int commands_screen(const struct screen_start *start, const struct lesson_set *lessons,
                            const struct exercise_set *exercises, struct compare *saved);

/* Runs the mode of opts; returns the exit status. In the tutor mode, screen runs when
   standard input and output are terminals; otherwise (or without a screen) the lesson is
   printed, then measured. */
int commands_run(const struct options *opts, commands_screen *screen);

#endif
