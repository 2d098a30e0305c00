/* exitstatus.h: the program's exit statuses, as the command line's modes and the screen
   return them (clmm-tutor(1), EXIT STATUS). */
#ifndef CLMM_EXITSTATUS_H
#define CLMM_EXITSTATUS_H

enum exit_status {
    EXIT_OK = 0,
    EXIT_RUN_FAILED = 1,        /* a run was wrong, refused or failed */
    EXIT_USAGE = 2,             /* bad arguments */
    EXIT_ENVIRONMENT = 3,       /* no usable OpenCL device, unreadable or malformed lessons */
};

#endif
