/* commands.h: what each mode of the command line does. */
#ifndef CLMM_COMMANDS_H
#define CLMM_COMMANDS_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "clblastparams.h"
#include "device.h"
#include "exercise.h"
#include "isolate.h"
#include "ocl.h"
#include "lesson.h"
#include "compare.h"
#include "options.h"
#include "screenstart.h"
#include "cli.h"

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

/* CLBlast's tuned parameters for the reference row: from --clblast-params, else from the
   files of CLMM_TUTOR_CLBLAST_PARAMS (for --bench and the tutor, with the reference row, in
   a build with CLBlast). *tuned is NULL when there are none (CLBlast's defaults), else cp.
   Which of several files of one kernel was kept is said on stderr. Returns EXIT_OK, or
   EXIT_ENVIRONMENT after printing why a file cannot be used. */
int commands_clblast_params(const struct options *opts, struct clblast_params *cp,
                            const struct clblast_params **tuned);

/* The saved run of --compare into c: *saved is c, or NULL without --compare. Returns
   EXIT_OK, or EXIT_ENVIRONMENT after printing why the file cannot be used. */
int commands_compare(const struct options *opts, struct compare *c, struct compare **saved);

#endif
