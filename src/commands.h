/* commands.h: what each mode of the command line does. */
#ifndef CLMM_COMMANDS_H
#define CLMM_COMMANDS_H

#include "options.h"

enum exit_status {
    EXIT_OK = 0,
    EXIT_RUN_FAILED = 1,        /* a run was wrong, refused or failed */
    EXIT_USAGE = 2,             /* bad arguments */
    EXIT_ENVIRONMENT = 3,       /* no usable OpenCL device, unreadable or malformed lessons */
};

/* Runs the mode of opts; returns the exit status. */
int commands_run(const struct options *opts);

#endif
