/* ocl.c: context, queue, program builds and buffers. */
#include "ocl.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

int ocl_open(struct ocl *cl, const struct device_info *device, struct error *e)
{
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)device->platform, 0 };
    cl_int rc;

    memset(cl, 0, sizeof *cl);
    cl->device = device;
    cl->context = clCreateContext(props, 1, &device->id, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clCreateContext", rc);
        return -1;
    }
    cl->queue = clCreateCommandQueue(cl->context, device->id, CL_QUEUE_PROFILING_ENABLE, &rc);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clCreateCommandQueue", rc);
        clReleaseContext(cl->context);
        cl->context = NULL;
        return -1;
    }
    return 0;
}

void ocl_close(struct ocl *cl)
{
    if (cl->queue) {
        clFinish(cl->queue);
        clReleaseCommandQueue(cl->queue);
    }
    if (cl->context)
        clReleaseContext(cl->context);
    memset(cl, 0, sizeof *cl);
}

char *ocl_build_log(struct ocl *cl, cl_program program)
{
    size_t len = 0;
    char *log;

    if (clGetProgramBuildInfo(program, cl->device->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
        return NULL;
    log = xmalloc(len + 1);
    if (clGetProgramBuildInfo(program, cl->device->id, CL_PROGRAM_BUILD_LOG, len, log, NULL) != CL_SUCCESS) {
        free(log);
        return NULL;
    }
    log[len] = '\0';
    return log;
}

int ocl_kernel(cl_program program, const char *entry, cl_kernel *kernel, struct error *e)
{
    cl_int rc;

    *kernel = clCreateKernel(program, entry, &rc);
    if (rc != CL_SUCCESS) {
        *kernel = NULL;
        clerror_set(e, "clCreateKernel", rc);
        error_prefix(e, "kernel \"%s\"", entry);
        return -1;
    }
    return 0;
}

int ocl_build(struct ocl *cl, const char *source, const char *options, const char *entry,
              cl_program *program, cl_kernel *kernel, struct error *e)
{
    cl_int rc;

    *kernel = NULL;
    *program = clCreateProgramWithSource(cl->context, 1, &source, NULL, &rc);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clCreateProgramWithSource", rc);
        return -1;
    }
    rc = clBuildProgram(*program, 1, &cl->device->id, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clBuildProgram", rc);
        error_set_detail(e, ocl_build_log(cl, *program));
        goto fail;
    }
    if (ocl_kernel(*program, entry, kernel, e) < 0)
        goto fail;
    return 0;
fail:
    clReleaseProgram(*program);
    *program = NULL;
    return -1;
}

int ocl_reserve(struct ocl *cl, cl_mem *buf, size_t *capacity, size_t bytes, struct error *e)
{
    cl_int rc;

    if (*buf && *capacity >= bytes)
        return 0;
    if (*buf)
        clReleaseMemObject(*buf);
    *capacity = 0;
    *buf = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc != CL_SUCCESS) {
        *buf = NULL;
        clerror_set(e, "clCreateBuffer", rc);
        error_prefix(e, "%zu MiB", bytes >> 20);
        return -1;
    }
    *capacity = bytes;
    return 0;
}

int ocl_event_seconds(cl_event ev, double *seconds, struct error *e)
{
    return ocl_events_span(ev, ev, seconds, e);
}

int ocl_events_span(cl_event first, cl_event last, double *seconds, struct error *e)
{
    cl_ulong start, end;
    cl_int rc;

    rc = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clGetEventProfilingInfo", rc);
        return -1;
    }
    *seconds = end > start ? (double)(end - start) * 1e-9 : 0.0;
    return 0;
}
