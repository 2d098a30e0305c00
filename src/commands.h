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

enum exit_status {
    EXIT_OK = 0,
    EXIT_RUN_FAILED = 1,        /* a run was wrong, refused or failed */
    EXIT_USAGE = 2,             /* bad arguments */
    EXIT_ENVIRONMENT = 3,       /* no usable OpenCL device, unreadable or malformed lessons */
};

/* The interactive screen, given by the program (the engine has no curses). exercises is
   the exercise set; opts->exercise says whether the screen opens on one of them. */
typedef int commands_screen(const struct options *opts, const struct lesson_set *lessons,
                            const struct exercise_set *exercises);

/* Runs the mode of opts; returns the exit status. In the tutor mode, screen runs when
   standard input and output are terminals; otherwise (or without a screen) the lesson is
   printed, then measured. */
int commands_run(const struct options *opts, commands_screen *screen);

/* For the other modes' files: prints "clmm-tutor: MESSAGE" (made printable) and the detail,
   returns status; opens the device of --device, CLMM_TUTOR_DEVICE or the default (printing
   why not and returning EXIT_ENVIRONMENT); the width text is wrapped to. */
int commands_fail(int status, const struct error *e);
int commands_open_device(const struct options *opts, struct device_list *list, struct ocl *cl);
int commands_terminal_width(void);
/* With --lessons, a child process for the lessons' kernels (isolate.h: they are not the
   installed ones); NULL with the installed lessons, which run in this process. */
struct isolate *commands_apart(const struct options *opts);
/* The device of --device, CLMM_TUTOR_DEVICE or the default, listed but not opened. */
int commands_select_device(const struct options *opts, struct device_list *list, const struct device_info **d);

/* SIGINT, SIGTERM and SIGHUP while a long step runs: the first one prints message on
   stderr and sets the flag returned, which the step takes as its cancel flag; a second
   one ends the program at once. old keeps the handlers found, for
   commands_release_interrupts, which puts them back and then, after an interrupt, ends the
   program as that signal does (for a shell, status 128 + its number). */
#define COMMANDS_INTERRUPTS 3
const atomic_int *commands_catch_interrupts(struct sigaction *old, const char *message);
void commands_release_interrupts(const struct sigaction *old);

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
