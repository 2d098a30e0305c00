/* runner_opencl.c: a lesson's runner on the OpenCL device: its program (built with its
   parameters by build.c), its arguments set, its device limits checked, each launch (or run
   of several launches) timed by profiling events. */
#include "runner.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "measure.h"
#include "needs.h"
#include "xalloc.h"

/* Device limits of launch i: known from the geometry and, after the build, from its kernel. */
static enum prepare_result check_launch_limits(struct lesson_runner *lr, size_t i, struct error *e)
{
    const struct device_info *d = lr->base.w->cl->device;
    const struct launch_geometry *g = &lr->g.launch[i];
    size_t kernel_max = 0;
    cl_ulong kernel_local = 0;
    char which[96];
    cl_int rc;

    lesson_launch_which(lr->lesson, i, which, sizeof which);
    rc = clGetKernelWorkGroupInfo(lr->k.kernel[i], d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_max,
                                  &kernel_max, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetKernelWorkGroupInfo(lr->k.kernel[i], d->id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof kernel_local,
                                      &kernel_local, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clGetKernelWorkGroupInfo", rc);
        return FAILED;
    }
    /* Some drivers report a conservative CL_KERNEL_WORK_GROUP_SIZE (NVIDIA's says 256 for
       kernels that run with 1024): a larger group is tried, and only refused if the launch
       fails (see device_enqueue). */
    lr->kernel_max_group[i] = kernel_max;
    /* CL_KERNEL_LOCAL_MEM_SIZE counts the __local arrays of the kernel and, on most
       implementations, the local arguments already set; take the larger reading. */
    if ((cl_ulong)g->local_bytes > kernel_local)
        kernel_local = g->local_bytes;
    if (kernel_local > d->local_mem) {
        error_set(e, "the kernel%s needs %lu bytes of local memory per work-group; the device has %lu", which,
                  (unsigned long)kernel_local, (unsigned long)d->local_mem);
        return REFUSED;
    }
    if (!g->has_local)
        return PREPARED;
    for (size_t dim = 0; dim < g->dims; dim++)
        if (g->local[dim] > d->max_item_sizes[dim]) {
            error_set(e, "a work-group%s of %zu work-items in dimension %zu exceeds the device's %zu", which,
                      g->local[dim], dim, d->max_item_sizes[dim]);
            return REFUSED;
        }
    if (g->group_items > d->max_group) {
        error_set(e, "a work-group%s of %zu work-items exceeds the device's maximum of %zu", which,
                  g->group_items, d->max_group);
        return REFUSED;
    }
    return PREPARED;
}

static enum prepare_result check_limits(struct lesson_runner *lr, struct error *e)
{
    enum prepare_result pr = PREPARED;

    for (size_t i = 0; i < lr->g.nlaunches && pr == PREPARED; i++)
        if (!lr->g.launch[i].skipped)
            pr = check_launch_limits(lr, i, e);
    return pr;
}

/* Argument i of launch k, an ints(...) (lessons/FORMAT): a small __global int buffer of its
   values at this size, made anew at each prepare (the one before released) and released with
   the runner (release_ints). Not timed: made before the first launch. */
static int ints_buffer(struct lesson_runner *lr, size_t k, size_t i, struct error *e)
{
    const struct launch_geometry *g = &lr->g.launch[k];
    const struct lesson_arg *a = &lr->lesson->launch[k].args[i];
    cl_mem *buf = &lr->ints[k][i];
    cl_int values[LESSON_MAX_INTS], rc;

    for (size_t v = 0; v < a->nvalues; v++)
        values[v] = g->ints[(size_t)g->arg_values[i] + v];
    if (*buf)
        clReleaseMemObject(*buf);
    *buf = clCreateBuffer(lr->base.w->cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          a->nvalues * sizeof *values, values, &rc);
    if (rc != CL_SUCCESS) {
        *buf = NULL;
        clerror_set(e, "clCreateBuffer", rc);
        return -1;
    }
    return 0;
}

static void release_ints(struct lesson_runner *lr)
{
    for (size_t k = 0; k < LESSON_MAX_LAUNCHES; k++)
        for (size_t i = 0; i < LESSON_MAX_ARGS; i++)
            if (lr->ints[k][i]) {
                clReleaseMemObject(lr->ints[k][i]);
                lr->ints[k][i] = NULL;
            }
}

/* The arguments of every launch that runs at this size. */
static int set_args(struct lesson_runner *lr, struct error *e)
{
    struct workspace *w = lr->base.w;

    for (size_t k = 0; k < lr->g.nlaunches; k++) {
        const struct lesson_launch *launch = &lr->lesson->launch[k];
        const struct launch_geometry *g = &lr->g.launch[k];
        cl_kernel kernel = lr->k.kernel[k];
        if (g->skipped)
            continue;
        for (size_t i = 0; i < launch->nargs; i++) {
            const struct lesson_arg *a = &launch->args[i];
            cl_int rc, value = 0;
            switch (a->kind) {
            case ARG_M: value = (cl_int)lr->g.run.m; break;
            case ARG_N: value = (cl_int)lr->g.run.n; break;
            case ARG_K: value = (cl_int)lr->g.run.k; break;
            case ARG_INT: value = (cl_int)g->arg_values[i]; break;
            default: break;
            }
            if (a->kind == ARG_A || a->kind == ARG_B || a->kind == ARG_C || a->kind == ARG_W) {
                cl_mem *m = a->kind == ARG_A ? &w->dA : a->kind == ARG_B ? &w->dB : a->kind == ARG_C ? &w->dC
                                                                                                      : &w->dW;
                rc = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), m);
            } else if (a->kind == ARG_LOCAL) {
                rc = clSetKernelArg(kernel, (cl_uint)i, (size_t)g->arg_values[i] * sizeof(float), NULL);
            } else if (a->kind == ARG_INTS) {
                if (ints_buffer(lr, k, i, e) < 0) {
                    error_prefix(e, "argument %zu of %s, ints(...)", i + 1, launch->entry);
                    return -1;
                }
                rc = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &lr->ints[k][i]);
            } else {
                rc = clSetKernelArg(kernel, (cl_uint)i, sizeof value, &value);
            }
            if (rc != CL_SUCCESS) {
                clerror_set(e, "clSetKernelArg", rc);
                error_prefix(e, "argument %zu of %s", i + 1, launch->entry);
                return -1;
            }
        }
    }
    return 0;
}

/* The first bytes of the scratch buffer filled with a 4-byte pattern, waited for; what names
   the part in an error. */
static int fill_scratch(struct workspace *w, const void *pattern, size_t bytes, const char *what, struct error *e)
{
    cl_int rc = clEnqueueFillBuffer(w->cl->queue, w->dW, pattern, 4, 0, bytes, 0, NULL, NULL);

    if (rc == CL_SUCCESS)
        rc = clFinish(w->cl->queue);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueFillBuffer", rc);
        error_prefix(e, "%s", what);
        return -1;
    }
    return 0;
}

/* The first floats of the scratch buffer that the lesson's scratch-zero line names, set to 0
   (all bits 0: an int 0 as well). Its kernels keep counters there and set each back to 0
   when they are done with it, so that the next run finds them at 0; a partial launch (a
   probe) leaves some counted and not set back, and is followed by this. */
static int zero_counters(struct lesson_runner *lr, struct error *e)
{
    const cl_uint zero = 0;

    if (lr->g.scratch_zero <= 0)
        return 0;
    return fill_scratch(lr->base.w, &zero, (size_t)lr->g.scratch_zero * sizeof zero,
                        "the scratch buffer's counters (scratch-zero)", e);
}

/* After a whole run, the counters are at 0 again: a kernel that leaves one counted would
   find it wrong in the next run, where the result could silently be the run before's.
   Checked with each fetch of C: after the verified first run and after the timed runs. */
static int check_counters(struct lesson_runner *lr, struct error *e)
{
    struct workspace *w = lr->base.w;
    size_t n = (size_t)lr->g.scratch_zero, left = 0, first = 0;
    cl_uint *v;
    cl_int rc;

    if (lr->g.scratch_zero <= 0)
        return 0;
    v = xcalloc(n, sizeof *v);
    rc = clEnqueueReadBuffer(w->cl->queue, w->dW, CL_TRUE, 0, n * sizeof *v, v, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueReadBuffer", rc);
        error_prefix(e, "the scratch buffer's counters (scratch-zero)");
    } else {
        for (size_t i = n; i-- > 0;)
            if (v[i] != 0) {
                left++;
                first = i;
            }
        if (left)
            error_set(e, "after a run, %zu of the %zu counters at the start of the scratch buffer (scratch-zero) %s "
                         "not 0, the first at float %zu (%u): a kernel that counts there must set each counter back "
                         "to 0 when it is done with it, so that the next run starts from 0 (lessons/FORMAT)",
                      left, n, left == 1 ? "is" : "are", first, v[first]);
    }
    free(v);
    return rc != CL_SUCCESS || left ? -1 : 0;
}

/* The scratch buffer of the lesson at this size (lessons/FORMAT: scratch), in the workspace,
   filled with NaN so that a part of it that a launch reads before any launch wrote it fails
   verification. Not timed: it is allocated and filled before the first launch. A scratch line
   of 0 floats gets a buffer of one, which the kernels must not use: OpenCL has no empty
   buffers. */
static enum prepare_result load_scratch(struct lesson_runner *lr, struct error *e)
{
    struct workspace *w = lr->base.w;
    size_t floats = lr->g.scratch > 0 ? (size_t)lr->g.scratch : 1, bytes = floats * sizeof(float);
    const float nan = NAN;

    if (!lr->lesson->scratch)
        return PREPARED;
    if (workspace_check_memory(w, &lr->a, &lr->b, &lr->c, bytes, e) < 0)
        return REFUSED;
    if (ocl_reserve(w->cl, &w->dW, &w->capW, bytes, e) < 0)
        return FAILED;
    if (fill_scratch(w, &nan, bytes, "the scratch buffer", e) < 0 || zero_counters(lr, e) < 0)
        return FAILED;
    return PREPARED;
}

/* The lesson's tile at this size, for the error map; 0 x 0 without one. */
static void set_tile(struct lesson_runner *lr)
{
    const struct lesson *l = lr->lesson;
    long long rows, cols;
    struct error ignored;

    lr->base.tile_rows = lr->base.tile_cols = 0;
    lr->base.c_column_major = l->column_major;
    if (!l->layout.tile[0] || !l->layout.tile[1])
        return;
    error_init(&ignored);
    if (geometry_eval(l, lr->params, lr->g.run, l->layout.tile[0], &rows, &ignored) == 0 &&
        geometry_eval(l, lr->params, lr->g.run, l->layout.tile[1], &cols, &ignored) == 0 && rows > 0 && cols > 0) {
        lr->base.tile_rows = rows;
        lr->base.tile_cols = cols;
    }
    error_clear(&ignored);
}

static enum prepare_result device_prepare(struct runner *self, struct gemm_size s, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    const struct lesson *l = lr->lesson;
    enum prepare_result pr;

    lr->size = s;
    if (lesson_device_check(l, self->w->cl->device, e) < 0 || geometry_compute(l, lr->params, s, &lr->g, e) < 0)
        return REFUSED;
    set_tile(lr);
    if (measure_check_indices(&lr->g, e) < 0)
        return REFUSED;
    lr->a = (struct matrix_layout){ lr->g.run.m, lr->g.run.k, l->column_major, false };
    lr->b = l->b_transposed ? (struct matrix_layout){ lr->g.run.n, lr->g.run.k, l->column_major, true }
                            : (struct matrix_layout){ lr->g.run.k, lr->g.run.n, l->column_major, false };
    lr->c = (struct matrix_layout){ lr->g.run.m, lr->g.run.n, l->column_major, false };
    if (lr->k.count == 0 && measure_build(self->w->cl, l, lr->params, lr->source, &lr->k, e) < 0)
        return FAILED;
    lr->base.uses = lr->k.uses;
    pr = workspace_load(self->w, s, &lr->a, &lr->b, &lr->c, e);
    if (pr == PREPARED)
        pr = load_scratch(lr, e);
    if (pr != PREPARED)
        return pr;
    if (set_args(lr, e) < 0)
        return FAILED;
    pr = check_limits(lr, e);
    return pr;
}

/* Enqueues launch i, its NDRange global, with an event where ev is not NULL. Returns 0, -1, or
   LAUNCH_REFUSED where its work-groups are more than its kernel can run here. */
static int enqueue_one(struct lesson_runner *lr, size_t i, const size_t *global, cl_event *ev, struct error *e)
{
    const struct launch_geometry *g = &lr->g.launch[i];
    char which[96];
    cl_int rc;

    rc = clEnqueueNDRangeKernel(lr->base.w->cl->queue, lr->k.kernel[i], (cl_uint)g->dims, NULL, global,
                                g->has_local ? g->local : NULL, 0, NULL, ev);
    if (rc == CL_SUCCESS)
        return 0;
    clerror_set(e, "clEnqueueNDRangeKernel", rc);
    lesson_launch_which(lr->lesson, i, which, sizeof which);
    if ((rc == CL_INVALID_WORK_GROUP_SIZE || rc == CL_OUT_OF_RESOURCES) && g->group_items > lr->kernel_max_group[i]) {
        error_prefix(e, "work-groups%s of %zu work-items are more than this kernel can run on this "
                        "device (CL_KERNEL_WORK_GROUP_SIZE is %zu: its registers or local memory "
                        "limit it)", which, g->group_items, lr->kernel_max_group[i]);
        return LAUNCH_REFUSED;
    }
    if (i > 0)
        error_prefix(e, "launch %zu (then: %.60s)", i + 1, lr->lesson->launch[i].entry);
    return -1;
}

/* One run: every launch of the lesson that runs at this size, in order, the first with the
   NDRange global (its own, or a part of it for a probe), waited for. Its time from profiling
   events, from the start of the first launch to the end of the last: gaps between launches
   count, as they do for a user of the kernels. Without events (seconds NULL), queued only. */
static int enqueue_run(struct lesson_runner *lr, const size_t *global, double *seconds, struct error *e)
{
    cl_event first = NULL, last = NULL;
    int rc = 0;

    for (size_t i = 0; i < lr->g.nlaunches && rc == 0; i++) {
        cl_event ev = NULL;
        if (lr->g.launch[i].skipped)
            continue;
        rc = enqueue_one(lr, i, i == 0 ? global : lr->g.launch[i].global, &ev, e);
        if (rc < 0)
            break;
        if (!first)
            first = ev;
        else if (last)
            clReleaseEvent(last);
        if (ev != first)
            last = ev;
    }
    if (!last)
        last = first;
    if (rc == 0 && last) {
        cl_int wrc = clWaitForEvents(1, &last);
        if (wrc != CL_SUCCESS) {
            clerror_set(e, "clWaitForEvents", wrc);
            rc = -1;
        }
    } else if (rc < 0) {
        clFinish(lr->base.w->cl->queue);    /* the launches queued before the failing one */
    }
    if (rc == 0)
        rc = ocl_events_span(first, last, seconds, e);
    if (last && last != first)
        clReleaseEvent(last);
    if (first)
        clReleaseEvent(first);
    return rc;
}

static int device_launch(struct runner *self, double *seconds, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    return enqueue_run(lr, lr->g.launch[0].global, seconds, e);
}

/* The work-groups a device runs at once. A CPU device (POCL) runs one per compute unit, on
   one thread each. A GPU runs several per compute unit: at most as many as fit its largest
   work-group's work-items, taken here as the count, an upper bound (registers and local
   memory may allow fewer): a probe with more groups than needed is only a longer probe. */
static size_t resident_groups(const struct device_info *d, size_t group_items)
{
    size_t per_unit = 1;

    if (!(d->type & CL_DEVICE_TYPE_CPU) && group_items > 0 && d->max_group > group_items)
        per_unit = d->max_group / group_items;
    return (size_t)(d->compute_units > 0 ? d->compute_units : 1) * per_unit;
}

/* The groups of the main launch, the first: a probe cuts it alone (device_launch_part). */
static bool device_groups(struct runner *self, size_t *groups, size_t *dims, size_t *resident,
                          const char **unit)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    const struct launch_geometry *g = &lr->g.launch[0];

    /* Without a work-group size the implementation chooses one, which a cut NDRange could
       change: no partial launch. */
    if (!g->has_local)
        return false;
    for (size_t d = 0; d < g->dims; d++)
        groups[d] = g->global[d] / g->local[d];
    *dims = g->dims;
    *resident = resident_groups(self->w->cl->device, g->group_items);
    *unit = "work-groups";
    return true;
}

/* The same kernel and arguments on the full-size buffers, with fewer groups along dim: the
   kernels index C by their global ids and use no global size, so this computes a part of C
   exactly as the whole launch does. Only the first launch is cut; the further ones run
   whole, on whatever the cut one left, so that a probe of a lesson of several launches
   counts them all: its estimate errs long, never short. */
static int device_launch_part(struct runner *self, size_t dim, size_t groups, double *seconds,
                              struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    size_t global[LESSON_MAX_DIMS];
    int rc;

    memcpy(global, lr->g.launch[0].global, sizeof global);
    global[dim] = groups * lr->g.launch[0].local[dim];
    rc = enqueue_run(lr, global, seconds, e);
    if (rc == 0 && zero_counters(lr, e) < 0)
        rc = -1;
    return rc;
}

/* count runs back to back, every launch of each, waited for once at the end. */
static int device_batch(struct runner *self, int count, double *seconds, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    cl_command_queue q = self->w->cl->queue;
    double start = now_seconds();
    cl_int rc;
    int queued = 0;

    for (int i = 0; i < count && queued == 0; i++)
        for (size_t k = 0; k < lr->g.nlaunches && queued == 0; k++)
            if (!lr->g.launch[k].skipped)
                queued = enqueue_one(lr, k, lr->g.launch[k].global, NULL, e);
    if (queued < 0) {
        clFinish(q);
        return -1;
    }
    rc = clFinish(q);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clFinish", rc);
        return -1;
    }
    *seconds = (now_seconds() - start) / count;
    return 0;
}

static int device_fetch(struct runner *self, struct error *e)
{
    struct lesson_runner *lr = (struct lesson_runner *)self;
    if (check_counters(lr, e) < 0)
        return -1;
    return workspace_fetch(self->w, &lr->c, e);
}

static void device_release(struct runner *self)
{
    release_ints((struct lesson_runner *)self);
    measure_kernels_release(&((struct lesson_runner *)self)->k);
}

static const struct runner_ops opencl_ops = {
    .prepare = device_prepare,
    .launch = device_launch,
    .batch = device_batch,
    .groups = device_groups,
    .launch_part = device_launch_part,
    .fetch = device_fetch,
    .release = device_release,
};

const struct engine_runner runner_opencl = { &opencl_ops, true, false };
