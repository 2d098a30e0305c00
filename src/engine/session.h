/* session.h: the measuring side of the interactive screen.

   A worker thread owns the OpenCL device: it opens it, builds kernels and measures, one
   run at a time, so that the screen never waits for the device. The screen says what it
   wants (a lesson, parameters, a size, a device, a series of runs) and reads a snapshot of
   what is known; a change that makes the running work useless cancels it between two
   launches. No curses here. */
#ifndef CLMM_SESSION_H
#define CLMM_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "ceilings.h"
#include "check.h"
#include "inside.h"
#include "device.h"
#include "exercise.h"
#include "geometry.h"
#include "lesson.h"
#include "measure.h"
#include "params.h"
#include "results.h"

#define SESSION_HISTORY RESULTS_RUNS    /* runs kept for the history chart */
#define SESSION_MAX_LESSONS 100
#define SESSION_MAX_REFERENCES 4    /* reference rows shown (reference.h) */
#define SESSION_MAX_DEVICES 16
#define SESSION_MAX_SWEEP 16
#define SESSION_MAX_TUNE 2048   /* configurations kept for the tuner's chart */

enum session_job { JOB_NONE, JOB_ALL, JOB_SWEEP, JOB_TUNE };

/* What the session takes from the command line. */
struct session_config {
    struct measure_config measure;  /* the live and series runs shorten its budget unless given */
    bool budget_given;          /* --budget or --reps */
    const char *device;         /* --device; NULL: CLMM_TUTOR_DEVICE, else the remembered or default one */
    struct params_request params;   /* --param and --no-tuned (the session finds the tuned file) */
    size_t max_configs;         /* the tuner's bounds */
    double time_limit_s;
    const struct clblast_params *clblast;   /* CLBlast's tuned parameters (outlive the session);
                                               NULL: its defaults */
    bool lessons_apart;         /* the lessons are not the installed ones (--lessons): their
                                   kernels run in a child process (isolate.h), as every
                                   student's kernel does */
    double check_timeout_s;     /* --check-timeout; 0: derived (isolate.h) */
};

struct sweep_point {
    struct gemm_size size;
    struct summary fig;
};

struct session_view {
    unsigned long version;      /* changes whenever anything below changes */

    /* The device. */
    bool devices_known;         /* the list below is loaded */
    char devices[SESSION_MAX_DEVICES][300];
    int ndevices;
    int device;                 /* index in the list; -1 until one is open */
    bool device_ready;
    struct device_info info;    /* of the open device: its limits */
    char device_error[1024];    /* why no device is open */
    struct ceilings ceilings;   /* of the open device (have false: not measured, see
                                   ceilings_error) */
    char ceilings_error[1200];
    bool fatal;                 /* the device asked for on the command line cannot be had: */
    char fatal_error[1024];     /* the screen closes and prints this */

    struct gemm_size size;
    struct gemm_size want_size; /* asked for, perhaps not prepared yet */
    enum session_job want_job;  /* the series asked for, perhaps not started yet */
    char size_error[512];       /* the device cannot hold this size: nothing runs */
    bool paused;

    /* The current lesson, measured again and again. */
    int lesson;                 /* index in the lesson set */
    struct param_set params;    /* its parameters now */
    struct param_origin origin; /* where they came from */
    bool hand_set;              /* changed with t */
    struct summary latest;      /* its newest run alone (median over that run's launches) */
    struct errmap latest_map;   /* where its newest run was wrong (ERRMAP_NONE: not wrong, or not mapped) */
    double history[SESSION_HISTORY];    /* the runs summed up in bars[lesson], oldest first */
    size_t nhistory;
    bool live_stopped;          /* the last run was not OK: measuring waits for a change */

    /* Every lesson at this size on this device with the parameters it has now (by index in
       the set), and CLBlast: the medians of all their runs in the session. bars[lesson] is
       the current lesson's "median" line too. */
    struct summary bars[SESSION_MAX_LESSONS];
    bool changed[SESSION_MAX_LESSONS];  /* its parameters are neither the defaults nor tuned */
    struct summary refs[SESSION_MAX_REFERENCES];    /* reference_at(i)'s, as bars */
    char ref_titles[SESSION_MAX_REFERENCES][128];   /* their rows' titles */
    size_t nrefs;               /* the reference rows of this build */

    /* A sweep over sizes of one lesson. */
    int sweep_lesson;           /* -1: none */
    struct sweep_point sweep[SESSION_MAX_SWEEP];
    size_t nsweep, sweep_total;

    /* The tuner's search. */
    int tune_lesson;            /* -1: none */
    size_t tune_done, tune_space;
    double tune_best;
    char tune_best_params[256];
    double tune_gflops[SESSION_MAX_TUNE];
    size_t ntune;

    /* What the worker is doing. */
    bool busy;
    char activity[256];         /* "measuring lesson 9 at 1024x1024x1024" */
    double activity_started;    /* now_seconds() */
    struct measure_progress progress;   /* of the run in progress (zero until it reports) */
    double progress_at;         /* when it last reported */
    enum session_job job;
    size_t job_done, job_total; /* steps of the series */
    double job_started;
    char notice[512];           /* the last thing worth telling: a saved file, a reload */
    unsigned long notices;      /* counts them, so that the same text twice shows twice */

    /* The last reload that failed to build. */
    unsigned long build_failures;   /* counts them, so the screen shows each once */
    char build_error[512];
    char build_log[16384];

    unsigned long sources_version;  /* changes when a kernel is reloaded */

    /* A look inside the current lesson's built kernel (inside.h), made after each change
       of lesson, parameters, kernel or device; its binary is not kept. */
    bool inside_have;           /* inside holds the current lesson's, with its parameters */
    int inside_lesson;          /* index of the lesson examined; -1: none yet */
    char inside_params[256];    /* and its parameters (param_set_format) */
    unsigned long inside_sources;   /* sources_version it was made at */
    struct inside inside;
    char inside_error[1024];    /* why it could not be made (inside_have false) */

    /* Checks of exercises. */
    bool checking;              /* one is asked for or running */
    unsigned long check_serial; /* the newest report's (session_check_report) */
    struct check_step check_step;   /* what the running check does */
    double check_step_at;       /* since when (now_seconds) */
    double check_started;
    bool check_stopped;         /* the newest check was stopped (x) before its report */
};

struct session;

/* Creates the session and starts its worker. lessons, and what cfg points to, must outlive
   it; state_device (may be NULL) names the device to open when cfg names none. */
struct session *session_start(const struct lesson_set *lessons, const struct session_config *cfg,
                              int lesson_index, struct gemm_size size, const char *state_device);
/* Stops the worker, waiting at most timeout_s for a running launch to end. Returns false
   when it did not end (the process should then exit without freeing the device). */
bool session_stop(struct session *s, double timeout_s);

void session_view(struct session *s, struct session_view *v);
unsigned long session_version(struct session *s);

/* The kernel text the session measures for a lesson (malloc'd; NULL for the host lesson). */
char *session_source(struct session *s, int lesson_index);

void session_set_lesson(struct session *s, int lesson_index);
/* Runs the live lesson even when a launch is estimated to take longer than the limit, until
   the lesson, its parameters or the size change. */
void session_force(struct session *s, int lesson_index);
void session_set_param(struct session *s, int lesson_index, size_t param, long long value);
void session_set_size(struct session *s, struct gemm_size size);
void session_set_device(struct session *s, int device_index);
void session_set_paused(struct session *s, bool paused);
/* Starts a series, or cancels it when it is the one running. */
void session_toggle_job(struct session *s, enum session_job job);
void session_cancel_job(struct session *s);
/* Reads the lesson's kernel from disk again and builds it; on success it replaces the one
   measured, else the error and its log go to the view and the old kernel stays. */
void session_reload(struct session *s, int lesson_index);
/* Checks exercise x (which must outlive the session) with o (its strings are copied) on the
   open device, before anything else; a check already running is cancelled and started
   again. The live measurement goes on afterwards unless paused. */
void session_check(struct session *s, const struct exercise *x, const struct check_options *o);
/* When the newest check's report is not the one numbered *seen: copies it to *out (free it
   with check_report_free), updates *seen and returns true. */
bool session_check_report(struct session *s, unsigned long *seen, struct check_report *out);
/* Stops the check that runs (its kernel is ended at once), and one asked for; the view
   says so (check_stopped) until the next check. */
void session_stop_check(struct session *s);

/* Forgets the sweep and tuner charts (the screen shows the live chart again). */
void session_clear_charts(struct session *s);

#endif
