/* excommands.h: the command-line modes of the exercises: --exercises, --check, --reset,
   --solution, and --exercise N when the output is not a terminal. */
#ifndef CLMM_EXCOMMANDS_H
#define CLMM_EXCOMMANDS_H

#include <stdio.h>

#include "engine/check.h"
#include "engine/exercise.h"
#include "engine/lesson.h"
#include "options.h"

/* Loads the exercises (--exercises-dir, else the installed ones) for the lessons; prints
   the error and returns EXIT_ENVIRONMENT when they cannot be read, else EXIT_OK. */
int excommands_load(const struct options *opts, const struct lesson_set *lessons, struct exercise_set *set);

/* Runs MODE_EXERCISES, MODE_CHECK, MODE_RESET, MODE_SOLUTION, or the exercise of MODE_TUTOR
   without a screen; returns the exit status. */
int excommands_run(const struct options *opts, const struct lesson_set *lessons, const struct exercise_set *set);

/* The check report as text (the same as --check prints), and as JSON. */
void excommands_print_check(FILE *out, const struct check_report *r, const struct exercise *x, bool utf8);
/* Its two parts: what is checked (printed before the check starts), and what was found. */
void excommands_print_check_header(FILE *out, const struct exercise *x, const char *file, const char *device);
void excommands_print_check_body(FILE *out, const struct check_report *r, const struct exercise *x, bool utf8);

void excommands_print_check_json(FILE *out, const struct check_report *r, const struct exercise *x);

#endif
