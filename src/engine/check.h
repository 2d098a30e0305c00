/* check.h: checking a student's kernel for an exercise: it builds, it is right at every size
   the exercise names (each of several launches, and the launches agree bit for bit), and,
   where the exercise asks, how fast it is beside a lesson measured in the same check.
   Engine code: the command line and the screen print the same report. */
#ifndef CLMM_CHECK_H
#define CLMM_CHECK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "errmap.h"
#include "exercise.h"
#include "measure.h"
#include "ocl.h"
#include "progress.h"

enum check_verdict {
    CHECK_VERIFIED,             /* right at every size, every launch */
    CHECK_NOT_BUILT,            /* the kernel does not build */
    CHECK_WRONG,                /* a result is wrong (the size's map says where) */
    CHECK_UNSTABLE,             /* each launch close enough, but launches disagree: a race */
    CHECK_REFUSED,              /* the device cannot run it (local memory, group size...) */
    CHECK_FAILED,               /* a launch failed, or the file cannot be read */
    CHECK_TIMEOUT,              /* a step did not finish in its time limit (isolate.h) */
    CHECK_CRASHED,              /* the process running the kernel died (isolate.h) */
    CHECK_RACE,                 /* oclgrind saw work-items race, or an access outside a buffer
                                   (races.h) */
    CHECK_FENCE,                /* right here, but a fence between work-groups is missing
                                   (fences.h): on a GPU it can be wrong */
    CHECK_CANCELLED,
};

/* The check under oclgrind (races.h). */
enum check_races {
    RACES_NOT_RUN,              /* not asked for */
    RACES_NONE,                 /* oclgrind found nothing */
    RACES_FOUND,                /* data races: the verdict is CHECK_RACE */
    RACES_ACCESS,               /* an access outside a buffer: the verdict is CHECK_RACE */
    RACES_UNAVAILABLE,          /* asked for, but oclgrind is not installed */
    RACES_FAILED,               /* oclgrind could not run it */
};

enum check_speed {
    CHECK_SPEED_NONE,           /* the exercise has no speed goal, or the kernel is not verified */
    CHECK_SPEED_MET,            /* target: the ratio reaches it */
    CHECK_SPEED_MISSED,         /* target: it does not */
    CHECK_SPEED_NOT_JUDGED,     /* target on a device that is not a GPU: measured, not judged */
    CHECK_SPEED_PREDICT_FIRST,  /* predict: no prediction given, so nothing measured */
    CHECK_SPEED_PREDICTED,      /* predict: measured beside the prediction */
    CHECK_SPEED_FAILED,         /* the compared lesson or the kernel failed at the speed size */
};

struct check_size {
    struct gemm_size size;
    enum check_verdict verdict; /* CHECK_VERIFIED, or what went wrong at this size */
    int launches;               /* verified launches */
    double max_error, tolerance;
    char message[1024];         /* what went wrong, in words; empty when verified */
    struct errmap map;          /* CHECK_WRONG: where; ERRMAP_NONE when not mapped */
    long long differing;        /* CHECK_UNSTABLE: elements that changed between launches */
};

/* What a check is about to do, for a progress line and a time limit. */
struct check_step {
    enum { CHECK_STEP_BUILDING, CHECK_STEP_REFERENCE, CHECK_STEP_LAUNCH, CHECK_STEP_SPEED, CHECK_STEP_RACES } kind;
    struct gemm_size size;      /* REFERENCE, LAUNCH, SPEED */
    int launch, launches;       /* LAUNCH: launch of launches at this size, from 1 */
    double allowed_s;           /* its time limit, where one is watched (isolate.h); 0: none */
};

/* "64x64x64, launch 1 of 3", "building", ...; lesson: the exercise's (for the reference). */
void check_step_describe(const struct check_step *st, int lesson, char *buf, size_t len);

struct check_options {
    const char *file;           /* the student's kernel */
    const char *shown_name;     /* the name build errors give it; NULL: file */
    bool has_prediction;
    double prediction;          /* the speed-up the student expects (SPEED_PREDICT) */
    bool speed_size_given;
    struct gemm_size speed_size;    /* instead of the exercise's */
    struct measure_config measure;  /* seed, cancel, progress; budget and reps of the speed
                                       measurement (the checks' own launches are fixed) */
    /* When not NULL: called before each step (the build, each launch, the speed). */
    void (*step)(void *ctx, struct check_step *st);
    /* When not NULL, while a step runs in a child (isolate.h): called a few times a second
       with how long it has run. */
    void (*waiting)(void *ctx, const struct check_step *st, double elapsed_s);
    void *step_ctx;
};

struct check_report {
    int exercise;
    char title[128];
    char file[4096];
    char device[300];
    bool device_is_gpu;
    bool emulated;              /* the kernel's PTX ran emulated (needs.h): its speed judges nothing */
    enum check_verdict verdict;
    char message[1024];         /* the first problem, in words; empty when verified */
    char *build_log;            /* CHECK_NOT_BUILT: the compiler's log, naming the student's
                                   file; malloc'd, NULL when none */
    int build_line;             /* the first error's line in the student's file; 0: not known */
    struct check_size sizes[EXERCISE_MAX_SIZES];
    size_t nsizes;              /* sizes checked (it stops at the first that fails) */
    size_t sizes_total;
    /* The speed part. */
    enum check_speed speed;
    int versus;                 /* the lesson compared with */
    struct gemm_size speed_size;
    double gflops, versus_gflops, ratio;    /* medians; 0 when not measured */
    double target;              /* SPEED_TARGET's ratio */
    double prediction;          /* as given */
    char speed_message[512];    /* why it was not measured or not judged */
    bool barrier_note;          /* verified on a device that is not a GPU, with a kernel that
                                   uses local memory: a missing barrier may go unseen there */
    enum check_races races;     /* the run under oclgrind */
    char races_message[1024];   /* what it found, or why it did not run */
};

void check_report_free(struct check_report *r);

/* The report is of a file that is still x's starting kernel as shipped, and not verified:
   the line of its first TODO, -1 without one; 0 otherwise (practice_as_shipped). */
int check_as_shipped(const struct check_report *r, const struct exercise *x);

/* Checks the file for exercise x on the open device; lessons holds the lesson compared with.
   Returns 0 with the report filled, whatever the verdict; when the file cannot be read, e
   says why as the report does. (No failure returns -1 now: memory runs out through
   xalloc's one way out.) */
int check_run(struct ocl *cl, const struct exercise *x, const struct lesson_set *lessons,
              const struct check_options *o, struct check_report *r, struct error *e);

/* Verified, and the speed goal reached or not judged (the exit status 0 of --check; the
   progress counts a target not judged as verified, not done). */
bool check_passed(const struct check_report *r);

/* The progress a report stands for (status, figures, verdict word, device). */
void check_progress(const struct check_report *r, struct progress_check *c);

/* "verified", "not-built", ...: one word, for JSON and the log; check_verdict_text says it
   for people ("does not build"). */
const char *check_verdict_name(enum check_verdict v);
const char *check_verdict_text(enum check_verdict v);

/* Rewrites a build log so that it names the student's file: lines that start with an
   implementation's name for the source ("<kernel>", "<stdin>", "input.cl", a temporary
   .cl path) followed by :LINE: get shown_name instead. Returns a new malloc'd log and the
   first error's line in *line (0 when none is found). */
char *check_rewrite_log(const char *log, const char *shown_name, int *line);

#endif
