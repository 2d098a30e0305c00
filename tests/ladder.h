/* ladder.h: what the ladder's test programs share: the shipped lesson set, one OpenCL device
   (POCL in CI) opened once, and the checks that run a lesson at a size and verify it.
   check_ladder runs every lesson at every size with the builds the tool makes; check_params
   and check_launches sweep parameters, built without POCL's optimizer (ladder_main says why). */
#ifndef CLMM_TESTS_LADDER_H
#define CLMM_TESTS_LADDER_H

#include <check.h>
#include <stdbool.h>

#include "engine/lesson.h"
#include "engine/measure.h"
#include "engine/ocl.h"

extern struct lesson_set ladder_lessons;
extern struct ocl ladder_cl;
extern char ladder_top_srcdir[4096];

/* The sizes at which every lesson is verified: a multiple of every tile, a non-square
   multiple, one where nothing divides, and 1 x 1 x 1. */
extern const struct gemm_size ladder_sizes[4];
#define LADDER_NSIZES (sizeof ladder_sizes / sizeof ladder_sizes[0])

/* One measurement of l at s with the parameters ps (NULL: its defaults), one timed launch. */
void ladder_run(const struct lesson *l, const struct param_set *ps, struct gemm_size s, struct run_result *r);

/* Whether this device can run the lesson (its needs line). */
bool ladder_runs_here(const struct lesson *l);

/* A lesson that needs another device is refused with the reason, and never built. */
void ladder_check_refused_here(const struct lesson *l, const struct param_set *ps, const char *what);

/* l verified at every size it claims, with ps (NULL: its defaults); what names them in a
   failure. */
void ladder_check_sizes_with(const struct lesson *l, const struct param_set *ps, const char *what);

/* The lesson numbered number in set (the test fails without it). */
const struct lesson *ladder_find(struct lesson_set *set, int number, const char *dir);

/* The main of a ladder program: loads the lessons, opens the device, runs the suite that
   make_suite builds (after the lessons are loaded: loop tests count them), unforked, so one
   context serves every test. Exits 77 without an OpenCL device. With unoptimized set, POCL
   builds without its optimizer (POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable, unless the
   environment sets that variable or CLMM_TEST_OPTIMIZE=1): see ladder.c. */
int ladder_main(const char *name, Suite *(*make_suite)(void), bool unoptimized);

#endif
