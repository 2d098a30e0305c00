/* build.h: building a lesson's kernels (build.c), as its OpenCL runner (runner_opencl.c)
   does; also for checking a build, looking inside a kernel and the host code shown. */
#ifndef CLMM_BUILD_H
#define CLMM_BUILD_H

#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"
#include "ocl.h"
#include "params.h"

/* The compiler options a lesson's kernel is built with: its options line, each parameter as
   -DNAME=VALUE, MEASURE_ARG_INFO_OPTION, then extra (NULL: none), separated by blanks, into
   buf (len bytes). Returns 0, or -1 with a message in e when they do not fit. */
#define MEASURE_OPTIONS_MAX 4096
/* Keeps the kernel arguments' names and types for clGetKernelArgInfo, which the build checks
   against the lesson's args (kernelargs.h); a reflection option of OpenCL 1.2 that changes no
   code. */
#define MEASURE_ARG_INFO_OPTION "-cl-kernel-arg-info"
int measure_options(const struct lesson *l, const struct param_set *ps, const char *extra, char *buf,
                    size_t len, struct error *e);

/* A lesson's program and the kernel of each of its launches, in the lesson's order:
   kernel[0] is the main launch's. */
struct lesson_kernels {
    cl_program program;
    cl_kernel kernel[LESSON_MAX_LAUNCHES];
    size_t count;
    unsigned uses;              /* what its source uses (errmap_uses_of), for a map's hint */
};

/* Builds the lesson's program from source (NULL: its file) with its options and the
   parameters as -DNAME=VALUE, and creates the kernel of every launch (its entry and then
   lines). On a build failure, e's detail holds the build log; a missing kernel is named.
   Once built, each kernel's signature is checked against its launch's args (kernelargs_check):
   a mismatch returns MEASURE_ARGS_DIFFER. Nothing is left to release after a failure. */
#define MEASURE_ARGS_DIFFER (-2)
int measure_build(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *source,
                  struct lesson_kernels *k, struct error *e);
/* The same with extra compiler options after those (NULL: none). */
int measure_build_extra(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *source,
                        const char *extra, struct lesson_kernels *k, struct error *e);
void measure_kernels_release(struct lesson_kernels *k);

/* Refuses, with a message in e, a launch of geometry g whose matrices (after padding) have
   more elements than the kernels' int indices reach. Returns 0 when they fit. */
int measure_check_indices(const struct geometry *g, struct error *e);

#endif
