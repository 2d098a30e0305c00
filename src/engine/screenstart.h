/* screenstart.h: what the interactive screen starts with, as the command line gives it: the
   worker's settings (session.h) and the screen's own. A plain structure, so that the command
   line, which fills it from its options, and the screen, which reads it, need not know each
   other (doc/ARCHITECTURE.md). */
#ifndef CLMM_SCREENSTART_H
#define CLMM_SCREENSTART_H

#include <stdbool.h>

#include "geometry.h"
#include "session.h"

struct screen_start {
    struct session_config session;  /* the worker's settings, CLBlast's parameters included */
    int lesson;                 /* the lesson asked for (--lesson); below 0: the remembered one */
    int exercise;               /* the exercise to open (--exercise); below 1: none */
    bool size_given;            /* --size: size, else the remembered one */
    struct gemm_size size;
    bool no_color;              /* --no-color */
    double demo_s;              /* --demo: seconds a lesson; 0: no demo */
    const char *workspace;      /* --workspace; NULL: the default (practice_workspace) */
    const char *lessons_dir;    /* --lessons; NULL: the installed lessons */
};

#endif
