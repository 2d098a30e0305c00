/* ocl.h: one OpenCL context and profiling queue on a device, and kernels built from source. */
#ifndef CLMM_OCL_H
#define CLMM_OCL_H

#include "clerror.h"
#include "device.h"
#include "error.h"

struct ocl {
    const struct device_info *device;
    cl_context context;
    cl_command_queue queue;     /* in order, with profiling */
};

int ocl_open(struct ocl *cl, const struct device_info *device, struct error *e);
void ocl_close(struct ocl *cl);

/* Builds source with options and creates the kernel entry. On a build failure e says so
   and its detail holds the build log. */
int ocl_build(struct ocl *cl, const char *source, const char *options, const char *entry,
              cl_program *program, cl_kernel *kernel, struct error *e);

/* Creates the kernel entry of a built program. */
int ocl_kernel(cl_program program, const char *entry, cl_kernel *kernel, struct error *e);

/* The program's build log for the device, malloc'd; NULL when the platform gives none. */
char *ocl_build_log(struct ocl *cl, cl_program program);

/* Makes *buf hold at least bytes, reallocating only to grow. */
int ocl_reserve(struct ocl *cl, cl_mem *buf, size_t *capacity, size_t bytes, struct error *e);

/* Start-to-end time of a finished command, in seconds. */
int ocl_event_seconds(cl_event ev, double *seconds, struct error *e);
/* From the start of the command of first to the end of that of last, both finished. */
int ocl_events_span(cl_event first, cl_event last, double *seconds, struct error *e);

#endif
