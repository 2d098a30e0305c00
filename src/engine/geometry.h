/* geometry.h: what a lesson's launch looks like at one size with one set of parameters. */
#ifndef CLMM_GEOMETRY_H
#define CLMM_GEOMETRY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "expr.h"
#include "lesson.h"

struct gemm_size {
    long long m, n, k;
};

/* The largest M, N or K, asked for or after padding: the kernels take the sizes as int. With
   each side within it, every product of two sides fits a long long and its bytes a size_t. */
#define GEOMETRY_MAX_SIDE INT_MAX

/* One launch of a lesson (struct lesson_launch) at one size. */
struct launch_geometry {
    bool skipped;               /* its then-when line is 0 here: not launched (nor the rest below
                                   computed) */
    size_t dims;
    size_t global[LESSON_MAX_DIMS];
    size_t local[LESSON_MAX_DIMS];
    bool has_local;
    size_t groups;              /* number of work-groups (0 without a local size) */
    size_t group_items;         /* work-items per group (0 without a local size) */
    size_t work_items;          /* in the whole NDRange */
    long long arg_values[LESSON_MAX_ARGS];  /* ints, local buffer sizes in floats, and for an ints(...)
                                               argument the index of its first value in ints */
    int ints[LESSON_MAX_INTS];  /* the values of the ints(...) arguments, in order */
    size_t nints;
    size_t local_bytes;         /* local memory passed as arguments, per group */
};

struct geometry {
    struct gemm_size asked;     /* the product the user asked for */
    struct gemm_size run;       /* what the kernel computes: asked, or padded up */
    bool padded;
    /* The lesson's launches in order; launch[0] is the main one, never skipped, which the
       work-group diagram, the waves and the figures describe. */
    struct launch_geometry launch[LESSON_MAX_LAUNCHES];
    size_t nlaunches;           /* 0 for a host lesson */
    long long scratch;          /* floats of the scratch buffer (argument W); 0: none, or the
                                   scratch line is 0 at this size */
    long long scratch_zero;     /* its first floats that start at 0 (scratch-zero), at most
                                   scratch; 0: none */
};

/* Parameter values in the lesson's order. */
struct param_set {
    long long values[LESSON_MAX_PARAMS];
};

void param_set_defaults(const struct lesson *l, struct param_set *ps);
/* "TS=16 WPT=8"; empty for a lesson without parameters. */
void param_set_format(const struct lesson *l, const struct param_set *ps, char *buf, size_t len);

/* Computes the geometry, padding the size where the lesson needs and allows it.
   Returns -1 with the reason in e when the lesson cannot run at this size with these
   parameters (a size it cannot take, a failed require line, a global size that is not a
   multiple of the local size, a side over GEOMETRY_MAX_SIDE, an NDRange whose work-items
   do not fit a size_t). */
int geometry_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size asked,
                     struct geometry *g, struct error *e);

/* Evaluates one of the lesson's expressions at the size s (M, N and K of the launch, after
   padding) with these parameters. */
int geometry_eval(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                  const char *expr, long long *value, struct error *e);
/* The same with one more name, such as the compute units of a rule (params.c). */
int geometry_eval_with(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                       const struct expr_var *extra, const char *expr, long long *value, struct error *e);

/* 2*M*N*K of the size asked for. */
double gemm_flops(struct gemm_size s);

#endif
