/* commands.h: what each mode of the command line does. */
#ifndef CLMM_COMMANDS_H
#define CLMM_COMMANDS_H

#include <stdbool.h>

#include "device.h"
#include "lesson.h"
#include "options.h"

enum exit_status {
    EXIT_OK = 0,
    EXIT_RUN_FAILED = 1,        /* a run was wrong, refused or failed */
    EXIT_USAGE = 2,             /* bad arguments */
    EXIT_ENVIRONMENT = 3,       /* no usable OpenCL device, unreadable or malformed lessons */
};

/* The interactive screen, given by the program (the engine has no curses). */
typedef int commands_screen(const struct options *opts, const struct lesson_set *lessons);

/* Runs the mode of opts; returns the exit status. In the tutor mode, screen runs when
   standard input and output are terminals; otherwise (or without a screen) the lesson is
   printed, then measured. */
int commands_run(const struct options *opts, commands_screen *screen);

#endif
