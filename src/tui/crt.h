/* crt.h: the terminal's life cycle for the interactive screen: starting curses, colours by
   role, reading keys, and giving the terminal back on every way out (quit, Ctrl-C,
   SIGTERM, a fatal error, a crash). Only the screen's modules include curses. */
#ifndef CLMM_CRT_H
#define CLMM_CRT_H

#include <stdbool.h>
#include <stddef.h>

/* What a part of the screen is, not how it looks: the colours and the monochrome
   attributes are chosen in crt.c. */
enum role {
    ROLE_NORMAL,
    ROLE_TITLE,         /* the top line */
    ROLE_KEYS,          /* the bottom line */
    ROLE_KEY,           /* a key's name in it */
    ROLE_BORDER,
    ROLE_BORDER_FOCUS,  /* the pane the arrow keys scroll */
    ROLE_HEADING,
    ROLE_EMPHASIS,
    ROLE_CODE,
    ROLE_DIM,           /* secondary text: sources, line numbers, units */
    ROLE_KEYWORD,
    ROLE_TYPE,
    ROLE_QUALIFIER,     /* __kernel, __local, barrier */
    ROLE_BUILTIN,       /* get_global_id, vload4 */
    ROLE_COMMENT,
    ROLE_NUMBER,
    ROLE_STRING,
    ROLE_PREPROC,
    ROLE_CHANGED,       /* the mark of a line changed since the previous lesson */
    ROLE_ADDED,
    ROLE_REMOVED,
    ROLE_BAR,
    ROLE_BAR_CURRENT,
    ROLE_BAR_REFERENCE, /* the CPU reference and CLBlast */
    ROLE_BEST,          /* the fastest lesson's mark */
    ROLE_WRONG,         /* a failed verification */
    ROLE_WARNING,       /* a refusal, a limit exceeded */
    ROLE_GOOD,          /* a notice of success */
    ROLE_SELECTED,      /* the chosen line of a picker */
    ROLE_MARK,          /* the highlighted group and item of the layout drawing */
    ROLE_TILE_A,        /* the layout drawing's tile of A in local memory */
    ROLE_TILE_B,        /* its tile of B */
    ROLE_PADDING,       /* its padding, beyond the C asked for */
    ROLE_COUNT
};

/* Starts curses (the locale must be set). color: use colours when the terminal has them. */
void crt_init(bool color);
/* Gives the terminal back; safe to call twice, and from the crash handler. */
void crt_done(void);

int crt_attr(enum role r);
bool crt_utf8(void);
bool crt_has_color(void);

/* While the screen is up, what is written on stderr is held in a temporary file; it is
   written out when released, and on every way out (crt_fatal, the signals that end the
   program). */
void crt_hold_stderr(void);
void crt_release_stderr(void);
/* The terminal and stderr given back, for a fatal error on any thread (the allocation
   helpers' hook). */
void crt_fatal(void);

/* Runs a command of the user's (an editor) on the terminal: the screen is suspended (curses
   ended, stderr given back to the terminal), `/bin/sh -c 'COMMAND "$1"' sh ARG` runs and is
   waited for, then the screen comes back. COMMAND is shell text, so that "code -w" works.
   Returns 0 when it ended with status 0, else -1 with why in words. */
int crt_run_command(const char *command, const char *arg, char *why, size_t len);

/* Catches SIGINT, SIGTERM and SIGHUP (they ask to quit: see crt_quit_requested), and every
   other signal that ends the process (a crash, SIGQUIT, SIGALRM, SIGPIPE...): those give the
   terminal back, then end the process as the signal would. */
void crt_install_signals(void);
/* Installs the handlers of the signals that end the process again, after a library (an
   OpenCL driver) replaced them with its own; those a library handles or ignores other than
   crashes and SIGQUIT are left to it. */
void crt_install_crash_handlers(void);
bool crt_quit_requested(void);

/* Waits at most timeout_ms for a key; ERR when none came, and for keys the screen does
   not use: Alt+key and escape sequences curses does not know (they are read whole, so that
   none of their bytes passes for a key). CRT_KEY_ESC is Esc pressed alone. */
int crt_read_key(int timeout_ms);

#define CRT_KEY_ESC 27
#define CRT_KEY_TAB '\t'

#endif
