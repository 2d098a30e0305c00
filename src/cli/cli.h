/* cli.h: what the command line's modes share: their exit statuses, how an error is printed,
   the terminal's width, the device chosen, and interrupts while a long step runs. Used by
   commands.c (the dispatch and the lesson modes) and excommands.c (the exercise modes). */
#ifndef CLMM_CLI_H
#define CLMM_CLI_H

#include <signal.h>
#include <stdatomic.h>

#include "engine/device.h"
#include "engine/error.h"
#include "engine/exitstatus.h"
#include "engine/isolate.h"
#include "engine/ocl.h"
#include "options.h"

/* Prints "clmm-tutor: MESSAGE" (made printable) and the detail, returns status; opens the
   device of --device, CLMM_TUTOR_DEVICE or the default (printing why not and returning
   EXIT_ENVIRONMENT); the width text is wrapped to. */
int cli_fail(int status, const struct error *e);
int cli_open_device(const struct options *opts, struct device_list *list, struct ocl *cl);
int cli_terminal_width(void);
/* With --lessons, a child process for the lessons' kernels (isolate.h: they are not the
   installed ones); NULL with the installed lessons, which run in this process. */
struct isolate *cli_apart(const struct options *opts);
/* The device of --device, CLMM_TUTOR_DEVICE or the default, listed but not opened. */
int cli_select_device(const struct options *opts, struct device_list *list, const struct device_info **d);

/* SIGINT, SIGTERM and SIGHUP while a long step runs: the first one prints message on
   stderr and sets the flag returned, which the step takes as its cancel flag; a second
   one ends the program at once. old keeps the handlers found, for
   cli_release_interrupts, which puts them back and then, after an interrupt, ends the
   program as that signal does (for a shell, status 128 + its number). */
#define CLI_INTERRUPTS 3
const atomic_int *cli_catch_interrupts(struct sigaction *old, const char *message);
void cli_release_interrupts(const struct sigaction *old);

#endif
