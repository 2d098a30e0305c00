/* progress.h: how far the student has come with each exercise, kept under the XDG state
   directory so that it survives the session, and a log of every check. Engine code. */
#ifndef CLMM_PROGRESS_H
#define CLMM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "error.h"
#include "exercise.h"

#define PROGRESS_MAX_EXERCISES 100      /* numbers 0-99 */
#define PROGRESS_FILE_MAX (256 << 10)

/* Ordered: a later status is further on. */
enum progress_status {
    PROGRESS_NOT_STARTED,       /* never checked */
    PROGRESS_NOT_BUILT,         /* checked; did not build */
    PROGRESS_BUILDS,            /* builds, not verified */
    PROGRESS_VERIFIED,          /* verified at the exercise's sizes */
    PROGRESS_DONE,              /* and the speed goal reached (target met, or prediction
                                   measured); for an exercise without one, verified is done */
};

struct progress_entry {
    enum progress_status best;  /* the furthest status reached */
    enum progress_status last;  /* the newest check's */
    int checks;
    double best_gflops;         /* of verified checks that measured speed; 0: none */
    double last_ratio;          /* speed-up over the compared lesson in the newest check
                                   that measured one; 0: none */
    double prediction;          /* the newest prediction stated; 0: none */
    int hints;                  /* hints revealed */
    bool solution_shown;
    long long last_time;        /* of the newest check, seconds since the epoch */
};

struct progress {
    struct progress_entry e[PROGRESS_MAX_EXERCISES];
};

const char *progress_status_name(enum progress_status s);  /* "not started", "verified", ... */

/* $XDG_STATE_HOME/clmm-tutor/progress (files_state_path); -1 without a home. */
int progress_path(char *buf, size_t len);

/* Reads the file; a missing or unreadable file, and lines that do not parse, leave entries
   not started. */
void progress_load(const char *path, struct progress *p);

/* What a check adds to an entry. */
struct progress_check {
    int exercise;
    enum progress_status status;
    double gflops;              /* 0: not measured */
    double ratio;               /* 0: not measured */
    double prediction;          /* 0: none stated */
    char verdict[64];           /* for the log: "verified", "wrong", ... */
    char device[128];
};

/* Adds a check made at now (seconds since the epoch) to an entry: the newest status, the
   furthest, the count, the best GFLOPS of a verified check, the newest ratio and prediction. */
void progress_apply(struct progress_entry *en, const struct progress_check *c, long long now);

/* The exercises of set whose furthest status is at least at_least: "4 of 11 verified". */
int progress_count(const struct progress *p, const struct exercise_set *set, enum progress_status at_least);

/* Under a lock shared with every writer of path: reads the file again, adds the check,
   replaces the file (file_replace) and appends a line to the log beside it (path.log).
   The updated entries go to *p when p is not NULL. */
int progress_record(const char *path, const struct progress_check *c, struct progress *p, struct error *e);

/* Under the same lock: sets what the screen reveals (hints, the solution). */
int progress_note(const char *path, int exercise, int hints, bool solution_shown, struct progress *p,
                  struct error *e);

#endif
