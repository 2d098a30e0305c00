/* isolate.h: kernels from files the tool did not ship, run in a process of the tool's own.

   A kernel that writes outside its buffers on a CPU device writes into the memory of the
   process that launched it, and a launch cannot be stopped once it has started: a student's
   loop that never ends holds the thread that waits for it. So a student's kernel, and the
   lessons of a set given with --lessons, run in a child process (the program itself,
   started again as ISOLATE_CHILD_ARG): it opens the same device, builds, launches and
   verifies, and reports each step and the result through a pipe. The parent gives each
   step a time limit. When the child dies (a signal, a driver's fault) or passes its limit,
   the result says which kernel, at which size and launch, and what the signal means; the
   next job starts a new child. The parent keeps the screen, the progress file and every
   other result. Engine code: no curses. */
#ifndef CLMM_ISOLATE_H
#define CLMM_ISOLATE_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "device.h"
#include "lesson.h"
#include "measure.h"

/* argv[1] of the program started as a child. */
#define ISOLATE_CHILD_ARG "--isolated-child"

/* The shortest time a launch of a check is allowed, whatever the reference lesson took. */
#define ISOLATE_FLOOR_S 10.0
/* A check's launch may take this many times the reference lesson's at the same size. */
#define ISOLATE_FACTOR 50.0
/* A build may take this long (POCL compiles a large kernel in tens of seconds). */
#define ISOLATE_BUILD_S 300.0

struct isolate;

/* A child of program (NULL: this program, /proc/self/exe), started at the first job.
   wrapper, when not NULL, is a command the child runs under (oclgrind and its options),
   as NULL-terminated argv words. */
struct isolate *isolate_new(const char *program, const char *const *wrapper);
/* Ends the child, if any, and frees. */
void isolate_free(struct isolate *iso);

/* The child's own process id; 0 when none is running. */
int isolate_pid(const struct isolate *iso);

/* measure_lesson in the child: l is read again there from its file (l->file), built with
   ps (NULL: its defaults) on w's device, and measured at w's size on inputs of w's seed,
   with w's guard after C, and with cfg's budget, launch limit, force, timing check, source,
   progress and cancel. A launch that passes its limit (three times --max-launch, at least
   ISOLATE_FLOOR_S; none when forced) or a child that dies gives RUN_ERROR with what
   happened. */
void isolate_measure(struct isolate *iso, const struct workspace *w, const struct lesson *l,
                     const struct param_set *ps, const struct measure_config *cfg, struct run_result *r);

/* From now on, measure_lesson on w runs its OpenCL lessons in iso's child (again after each
   workspace_init of w). */
void isolate_attach(struct isolate *iso, struct workspace *w);

/* check_run in the child: the exercise x (read again from its file, in the set of its
   directory, with the lessons of lessons->dir), the student's file o->file, on device d.
   timeout_s > 0 gives every launch that limit; 0 derives it from the reference lesson's
   time at each size (ISOLATE_FACTOR times, at least ISOLATE_FLOOR_S). o->step, when not
   NULL, is called in this process as each step starts, with its limit. A child that dies
   or passes a limit gives CHECK_CRASHED or CHECK_TIMEOUT with what happened, at the size it
   was at; o->measure.cancel ends the check at once (CHECK_CANCELLED). -1 with e when the
   child could not run the check at all. */
int isolate_check(struct isolate *iso, const struct device_info *d, const struct exercise *x,
                  const struct lesson_set *lessons, const struct check_options *o, double timeout_s,
                  struct check_report *r, struct error *e);

/* isolate_check on the child's first device (under a wrapper such as oclgrind, the one it
   provides), at the exercise's first size, one launch, without the speed part. */
int isolate_check_once(struct isolate *iso, const struct exercise *x, const struct lesson_set *lessons,
                       const struct check_options *o, double timeout_s, struct check_report *r, struct error *e);

/* The child's side: serves jobs from its parent until the pipe closes. The program's main
   calls it when argv[1] is ISOLATE_CHILD_ARG. */
int isolate_child_main(void);

/* What a signal that ended the child means, in words ("the kernel read or wrote outside its
   buffers"). */
const char *isolate_signal_meaning(int sig);

#endif
