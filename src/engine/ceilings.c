/* ceilings.c: the device's FP32 multiply-add rate and memory bandwidth measured with the
   tool's own kernels, its theoretical FP32 peak, and the cache of measured figures. */
#include "ceilings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "files.h"
#include "str.h"
#include "xalloc.h"

/* ---- measuring ---- */

/* madsW (W = 1, 4, 8, 16: float to float16): each work-item runs 8 independent chains
   x = x * a + b, 16 steps of each per turn of a loop that turns n times. a, b and n are
   arguments, so the compiler can neither compute the chains ahead nor shorten the loop;
   the sum of the chains is stored so that none of them is dropped. With 0 < a < 1 and
   b > 0, x stays between 0 and about b / (1 - a): no overflow and no denormals.
   Several widths, the fastest kept: POCL runs a work-item's chains with vector
   instructions only when they are vectors; a GPU's lanes are work-items, and every width
   runs there at about the same rate.
   copy: each work-item copies one float4. */
static const char source[] =
    "#define STEP(x) x = mad(x, a, b);\n"
    "#define ROUND STEP(x0) STEP(x1) STEP(x2) STEP(x3) STEP(x4) STEP(x5) STEP(x6) STEP(x7)\n"
    "#define ROUNDS4 ROUND ROUND ROUND ROUND\n"
    "#define MADS(T, NAME) \\\n"
    "__kernel void NAME(__global T *out, float a, float b, int n) \\\n"
    "{ \\\n"
    "    T x0 = (T)((float)(get_global_id(0) % 64) * 0.001f); \\\n"
    "    T x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f, x4 = x0 + 0.4f; \\\n"
    "    T x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f; \\\n"
    "    for (int i = 0; i < n; i++) { \\\n"
    "        ROUNDS4 ROUNDS4 ROUNDS4 ROUNDS4 \\\n"
    "    } \\\n"
    "    out[get_global_id(0)] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7; \\\n"
    "}\n"
    "MADS(float, mads1)\n"
    "MADS(float4, mads4)\n"
    "MADS(float8, mads8)\n"
    "MADS(float16, mads16)\n"
    "__kernel void copy(__global const float4 *restrict in, __global float4 *restrict out)\n"
    "{\n"
    "    out[get_global_id(0)] = in[get_global_id(0)];\n"
    "}\n";

#define CHAIN_MADS 128          /* multiply-adds of each work-item per turn: 8 chains x 16 */
#define MAX_WIDTH 16
#define GROUPS_PER_UNIT 16      /* work-groups per compute unit: enough to fill each */
#define MAX_TURNS (1L << 24)
#define MAX_LAUNCHES 4096
#define LONG_ENOUGH_S 0.02      /* a timed launch (or batch) takes at least this */
#define AIM_S 0.04              /* and the count is grown to aim at this */
#define TIMED 3                 /* the figure is the best of this many */

/* A kernel and how to time it: count is either the turns of its loop (argument 3) or the
   number of launches back to back. */
struct launcher {
    struct ocl *cl;
    cl_kernel kernel;
    size_t global, local;       /* local 0: the implementation chooses */
    bool count_is_turns;
};

/* Runs the launcher with count; the sum of the launches' times into *seconds. */
static int run(const struct launcher *l, long count, double *seconds, struct error *e)
{
    long launches = l->count_is_turns ? 1 : count;
    cl_event *ev = xcalloc((size_t)launches, sizeof *ev);
    cl_int rc = CL_SUCCESS;
    long started = 0;
    int status = -1;

    if (l->count_is_turns) {
        cl_int turns = (cl_int)count;
        rc = clSetKernelArg(l->kernel, 3, sizeof turns, &turns);
        if (rc != CL_SUCCESS) {
            clerror_set(e, "clSetKernelArg", rc);
            goto done;
        }
    }
    for (; started < launches; started++) {
        rc = clEnqueueNDRangeKernel(l->cl->queue, l->kernel, 1, NULL, &l->global, l->local ? &l->local : NULL,
                                    0, NULL, &ev[started]);
        if (rc != CL_SUCCESS) {
            clerror_set(e, "clEnqueueNDRangeKernel", rc);
            goto done;
        }
    }
    rc = clWaitForEvents((cl_uint)launches, ev);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clWaitForEvents", rc);
        goto done;
    }
    *seconds = 0;
    for (long i = 0; i < launches; i++) {
        double s;
        if (ocl_event_seconds(ev[i], &s, e) < 0)
            goto done;
        *seconds += s;
    }
    status = 0;
done:
    if (status < 0)
        clFinish(l->cl->queue);
    for (long i = 0; i < started; i++)
        clReleaseEvent(ev[i]);
    free(ev);
    return status;
}

/* Warms up with *count, then grows it until a run takes LONG_ENOUGH_S (or count reaches
   most); the shortest of TIMED runs at that count into *best. */
static int time_adapted(const struct launcher *l, long *count, long most, double *best, struct error *e)
{
    double t;

    if (run(l, *count, &t, e) < 0 || run(l, *count, &t, e) < 0)
        return -1;
    while (t < LONG_ENOUGH_S && *count < most) {
        double grow = t > 0 ? AIM_S / t : 64;
        grow = grow < 2 ? 2 : grow > 64 ? 64 : grow;
        *count = (double)*count * grow >= (double)most ? most : (long)((double)*count * grow);
        if (run(l, *count, &t, e) < 0)
            return -1;
    }
    *best = t;
    for (int i = 1; i < TIMED; i++) {
        if (run(l, *count, &t, e) < 0)
            return -1;
        if (t < *best)
            *best = t;
    }
    if (!(*best > 0)) {
        error_set(e, "the device's profiling clock gave a time of %g s", *best);
        return -1;
    }
    return 0;
}

static int set_arg(cl_kernel k, cl_uint index, size_t size, const void *value, struct error *e)
{
    cl_int rc = clSetKernelArg(k, index, size, value);

    if (rc != CL_SUCCESS) {
        clerror_set(e, "clSetKernelArg", rc);
        return -1;
    }
    return 0;
}

/* The work-group size for k: 256, or less where the kernel or the device allow less. */
static int group_size(struct ocl *cl, cl_kernel k, size_t *local, struct error *e)
{
    size_t most = 0;
    cl_int rc = clGetKernelWorkGroupInfo(k, cl->device->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL);

    if (rc != CL_SUCCESS) {
        clerror_set(e, "clGetKernelWorkGroupInfo", rc);
        return -1;
    }
    *local = most < 256 ? most : 256;
    if (*local > cl->device->max_item_sizes[0])
        *local = cl->device->max_item_sizes[0];
    if (*local == 0)
        *local = 1;
    return 0;
}

/* The best FP32 rate of the mads kernels, in GFLOPS. */
static int measure_fp32(struct ocl *cl, cl_program program, double *gflops, struct error *e)
{
    static const int widths[] = { 1, 4, 8, 16 };
    size_t groups = (size_t)(cl->device->compute_units ? cl->device->compute_units : 1) * GROUPS_PER_UNIT;
    const cl_float a = 0.999f, b = 0.001f;
    cl_mem out = NULL;
    size_t capacity = 0;
    int status = 0;

    *gflops = 0;
    if (ocl_reserve(cl, &out, &capacity, groups * 256 * MAX_WIDTH * sizeof(cl_float), e) < 0)
        return -1;
    for (size_t w = 0; w < sizeof widths / sizeof widths[0] && status == 0; w++) {
        struct launcher l = { .cl = cl, .count_is_turns = true };
        char name[16];
        long turns = 16;
        double t;
        cl_int rc;

        snprintf(name, sizeof name, "mads%d", widths[w]);
        l.kernel = clCreateKernel(program, name, &rc);
        if (rc != CL_SUCCESS) {
            clerror_set(e, "clCreateKernel", rc);
            error_prefix(e, "kernel \"%s\"", name);
            status = -1;
            break;
        }
        status = group_size(cl, l.kernel, &l.local, e);
        l.global = groups * l.local;
        if (status == 0)
            status = set_arg(l.kernel, 0, sizeof out, &out, e) < 0 || set_arg(l.kernel, 1, sizeof a, &a, e) < 0 ||
                     set_arg(l.kernel, 2, sizeof b, &b, e) < 0 ? -1 : 0;
        if (status == 0)
            status = time_adapted(&l, &turns, MAX_TURNS, &t, e);
        if (status == 0) {
            double rate = 2.0 * CHAIN_MADS * widths[w] * (double)l.global * (double)turns / t * 1e-9;
            if (rate > *gflops)
                *gflops = rate;
        } else {
            error_prefix(e, "the FP32 measurement (%s)", name);
        }
        clReleaseKernel(l.kernel);
    }
    clReleaseMemObject(out);
    return status;
}

/* The bytes of each of the copy's two buffers: large enough to defeat the caches, within
   the device's largest buffer and a quarter of its memory. A CPU's caches are smaller. */
static size_t copy_bytes(const struct device_info *d)
{
    unsigned long long bytes = d->type & CL_DEVICE_TYPE_CPU ? 64ULL << 20 : 256ULL << 20;

    if (d->max_alloc && bytes > d->max_alloc)
        bytes = d->max_alloc;
    if (d->global_mem && bytes > d->global_mem / 4)
        bytes = d->global_mem / 4;
    return (size_t)(bytes - bytes % (1 << 20));
}

/* The bandwidth of a copy, bytes read plus bytes written, in GB/s. */
static int measure_copy(struct ocl *cl, cl_kernel copy, double *gbps, struct error *e)
{
    struct launcher l = { .cl = cl, .kernel = copy, .count_is_turns = false };
    size_t bytes = copy_bytes(cl->device), in_cap = 0, out_cap = 0;
    const cl_float one = 1.0f;
    cl_mem in = NULL, out = NULL;
    long launches = 1;
    double t;
    cl_int rc;
    int status = -1;

    *gbps = 0;
    if (bytes == 0) {
        error_set(e, "the device's memory is too small for the bandwidth measurement");
        return -1;
    }
    if (ocl_reserve(cl, &in, &in_cap, bytes, e) < 0 || ocl_reserve(cl, &out, &out_cap, bytes, e) < 0)
        goto done;
    /* Memory never written may be read from a page of zeros that stays in the cache. */
    rc = clEnqueueFillBuffer(cl->queue, in, &one, sizeof one, 0, bytes, 0, NULL, NULL);
    if (rc == CL_SUCCESS)
        rc = clFinish(cl->queue);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clEnqueueFillBuffer", rc);
        goto done;
    }
    l.global = bytes / (4 * sizeof(cl_float));
    if (set_arg(copy, 0, sizeof in, &in, e) < 0 || set_arg(copy, 1, sizeof out, &out, e) < 0 ||
        time_adapted(&l, &launches, MAX_LAUNCHES, &t, e) < 0)
        goto done;
    *gbps = 2.0 * (double)bytes * (double)launches / t * 1e-9;
    status = 0;
done:
    if (status < 0)
        error_prefix(e, "the bandwidth measurement (%zu MiB copied)", bytes >> 20);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    return status;
}

static double seconds_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int ceilings_measure(struct ocl *cl, struct ceilings *c, struct error *e)
{
    double start = seconds_now(), gflops = 0, gbps = 0;
    cl_program program;
    cl_kernel copy;
    time_t now;
    struct tm tm;
    int status;

    if (ocl_build(cl, source, "", "copy", &program, &copy, e) < 0) {
        error_prefix(e, "the measuring kernels");
        return -1;
    }
    status = measure_fp32(cl, program, &gflops, e);
    if (status == 0)
        status = measure_copy(cl, copy, &gbps, e);
    clReleaseKernel(copy);
    clReleaseProgram(program);
    if (status < 0)
        return -1;
    c->have = true;
    c->from_cache = false;
    c->gflops = gflops;
    c->gbps = gbps;
    now = time(NULL);
    if (!gmtime_r(&now, &tm) || strftime(c->measured_on, sizeof c->measured_on, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(c->measured_on, sizeof c->measured_on, "?");
    c->took_s = seconds_now() - start;
    return 0;
}

/* ---- the theoretical peak ---- */

/* FP32 lanes (results of 32-bit floating-point add, multiply and multiply-add per clock
   cycle) of one multiprocessor, by compute capability: the table "Throughput of Native
   Arithmetic Instructions" of NVIDIA's CUDA C++ Programming Guide, as CUDA's samples
   carry it (_ConvertSMVer2Cores in Common/helper_cuda.h). */
static const struct {
    unsigned major, minor, lanes;
} nvidia_lanes[] = {
    { 3, 0, 192 }, { 3, 2, 192 }, { 3, 5, 192 }, { 3, 7, 192 },
    { 5, 0, 128 }, { 5, 2, 128 }, { 5, 3, 128 },
    { 6, 0, 64 }, { 6, 1, 128 }, { 6, 2, 128 },
    { 7, 0, 64 }, { 7, 2, 64 }, { 7, 5, 64 },
    { 8, 0, 64 }, { 8, 6, 128 }, { 8, 7, 128 }, { 8, 9, 128 },
    { 9, 0, 128 },
    { 10, 0, 128 }, { 10, 1, 128 }, { 10, 3, 128 }, { 11, 0, 128 }, { 12, 0, 128 }, { 12, 1, 128 },
};

void ceilings_theory(const struct device_info *d, struct ceilings *c)
{
    unsigned lanes = 0;

    c->theory_gflops = 0;
    if (d->nv_cc_major == 0) {
        snprintf(c->theory, sizeof c->theory, "the device does not report its FP32 lanes per compute unit");
        return;
    }
    for (size_t i = 0; i < sizeof nvidia_lanes / sizeof nvidia_lanes[0]; i++)
        if (nvidia_lanes[i].major == d->nv_cc_major && nvidia_lanes[i].minor == d->nv_cc_minor)
            lanes = nvidia_lanes[i].lanes;
    if (lanes == 0) {
        snprintf(c->theory, sizeof c->theory, "compute capability %u.%u is not in this program's table of FP32 "
                 "lanes per compute unit", d->nv_cc_major, d->nv_cc_minor);
        return;
    }
    if (d->compute_units == 0 || d->clock_mhz == 0) {
        snprintf(c->theory, sizeof c->theory, "the device does not report its compute units and clock");
        return;
    }
    c->theory_gflops = (double)d->compute_units * lanes * 2.0 * d->clock_mhz * 1e-3;
    snprintf(c->theory, sizeof c->theory, "%u compute units x %u lanes x 2 flops x %u MHz", d->compute_units,
             lanes, d->clock_mhz);
}

/* ---- in words ---- */

/* A figure with three significant digits, or its whole part: "154", "32.0", "4012", "1.25". */
static void figure(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.*f", v >= 100 ? 0 : v >= 10 ? 1 : 2, v);
}

void ceilings_describe(const struct ceilings *c, char *buf, size_t len)
{
    bool tera = (c->have ? c->gflops : c->theory_gflops) >= 1000;
    double scale = tera ? 1e-3 : 1;
    const char *unit = tera ? "TFLOPS" : "GFLOPS";
    char measured[32], theory[32], bandwidth[32];
    struct str s;

    figure(measured, sizeof measured, c->gflops * scale);
    figure(theory, sizeof theory, c->theory_gflops * scale);
    figure(bandwidth, sizeof bandwidth, c->gbps);
    str_init(&s, buf, len);
    if (c->have)
        str_appendf(&s, "", "FP32 peak %s %s measured", measured, unit);
    else
        str_appendf(&s, "", "FP32 peak not measured");
    if (c->theory_gflops > 0)
        str_appendf(&s, " ", "(%s %s theoretical: %s)", theory, unit, c->theory);
    else
        str_appendf(&s, " ", "(no theoretical figure: %s)", c->theory);
    if (c->have)
        str_appendf(&s, "; ", "bandwidth %s GB/s measured (copy; no theoretical figure: %s)", bandwidth,
                    CEILINGS_NO_BANDWIDTH_THEORY);
    else
        str_appendf(&s, "; ", "bandwidth not measured (no theoretical figure: %s)", CEILINGS_NO_BANDWIDTH_THEORY);
}

/* ---- the cache ---- */

int ceilings_path(char *buf, size_t len)
{
    return files_cache_path("ceilings", buf, len);
}

/* A device's key as the cache writes it: its platform name, device name and driver, each
   with control characters (a tab, a newline) as "?". */
enum { PLATFORM_LEN = 256, DEVICE_LEN = 256, DRIVER_LEN = 128 };    /* as in struct device_info */

struct key {
    char platform[PLATFORM_LEN], device[DEVICE_LEN], driver[DRIVER_LEN];
};

static void key_field(char *out, size_t len, const char *in)
{
    str_copy(out, len, in);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static void key_of(const struct device_info *d, struct key *k)
{
    key_field(k->platform, sizeof k->platform, d->platform_name);
    key_field(k->device, sizeof k->device, d->name);
    key_field(k->driver, sizeof k->driver, d->driver);
}

/* One line of the cache, its text fields pointing into the line. */
struct entry {
    const char *platform, *device, *driver;
    double gflops, gbps;
    const char *measured_on;
};

/* A figure as the cache writes it: a positive number (not infinite, not NaN). */
static bool parse_figure(const char *text, double *v)
{
    char *end;

    errno = 0;
    *v = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && *v > 0 && *v < 1e12;
}

/* "2026-11-20T14:03:07Z": digits where the format has them. */
static bool parse_date(const char *text)
{
    static const char form[] = "dddd-dd-ddTdd:dd:ddZ";

    if (strlen(text) != sizeof form - 1)
        return false;
    for (size_t i = 0; form[i]; i++)
        if (form[i] == 'd' ? text[i] < '0' || text[i] > '9' : text[i] != form[i])
            return false;
    return true;
}

/* Splits line (in place) into en: false when it is not a well-formed entry. */
static bool parse_entry(char *line, struct entry *en)
{
    char *field[7];
    size_t n = 0;

    for (char *p = line; n < 7; n++) {
        field[n] = p;
        p = strchr(p, '\t');
        if (!p) {
            n++;
            break;
        }
        *p++ = '\0';
    }
    /* Names no longer than a device's own (struct key): the kept lines stay short. */
    if (n != 6 || !*field[0] || !*field[1] || strlen(field[0]) >= PLATFORM_LEN || strlen(field[1]) >= DEVICE_LEN ||
        strlen(field[2]) >= DRIVER_LEN || !parse_figure(field[3], &en->gflops) ||
        !parse_figure(field[4], &en->gbps) || !parse_date(field[5]))
        return false;
    en->platform = field[0];
    en->device = field[1];
    en->driver = field[2];
    en->measured_on = field[5];
    return true;
}

static bool same_key(const struct entry *en, const struct key *k)
{
    return strcmp(en->platform, k->platform) == 0 && strcmp(en->device, k->device) == 0 &&
           strcmp(en->driver, k->driver) == 0;
}

void ceilings_line(const struct device_info *d, const struct ceilings *c, char *buf, size_t len)
{
    struct key k;

    key_of(d, &k);
    snprintf(buf, len, "%s\t%s\t%s\t%.6g\t%.6g\t%s", k.platform, k.device, k.driver, c->gflops, c->gbps,
             c->measured_on);
}

bool ceilings_parse(const char *line, const struct device_info *d, struct ceilings *c)
{
    char *copy = xstrdup(line);
    struct entry en;
    struct key k;
    bool ours;

    key_of(d, &k);
    ours = parse_entry(copy, &en) && same_key(&en, &k);
    if (ours) {
        c->have = true;
        c->from_cache = true;
        c->gflops = en.gflops;
        c->gbps = en.gbps;
        str_copy(c->measured_on, sizeof c->measured_on, en.measured_on);
        c->took_s = 0;
    }
    free(copy);
    return ours;
}

struct lookup {
    const struct device_info *d;
    struct ceilings *c;
    bool found;
};

static void look_at(char *line, void *ctx)
{
    struct lookup *l = ctx;

    /* The last of d's lines counts, should there be several. */
    l->found |= ceilings_parse(line, l->d, l->c);
}

bool ceilings_load(const char *path, const struct device_info *d, struct ceilings *c)
{
    struct lookup l = { d, c, false };
    struct error e;

    error_init(&e);
    files_read_lines(path, CEILINGS_FILE_MAX, "the cache of measured ceilings", look_at, &l, &e);
    error_clear(&e);
    return l.found;
}

/* The lines a save keeps: those of other devices, the newest CEILINGS_MAX_LINES - 1. */
struct kept {
    struct key k;
    char *lines[CEILINGS_MAX_LINES];
    size_t count;
};

static void keep_line(char *line, void *ctx)
{
    struct kept *kl = ctx;
    char *copy = xstrdup(line);
    struct entry en;

    if (!parse_entry(copy, &en) || same_key(&en, &kl->k)) {
        free(copy);
        return;
    }
    free(copy);
    if (kl->count == CEILINGS_MAX_LINES - 1) {
        free(kl->lines[0]);
        memmove(kl->lines, kl->lines + 1, (kl->count - 1) * sizeof kl->lines[0]);
        kl->count--;
    }
    kl->lines[kl->count++] = xstrdup(line);
}

struct new_file {
    const struct kept *kl;
    const char *line;
};

static int write_cache(FILE *out, void *ctx)
{
    const struct new_file *nf = ctx;

    for (size_t i = 0; i < nf->kl->count; i++)
        fprintf(out, "%s\n", nf->kl->lines[i]);
    fprintf(out, "%s\n", nf->line);
    return ferror(out) ? -1 : 0;
}

int ceilings_save(const char *path, const struct device_info *d, const struct ceilings *c, struct error *e)
{
    struct kept kl;
    char line[1024];
    struct new_file nf = { &kl, line };
    int status;

    memset(&kl, 0, sizeof kl);
    key_of(d, &kl.k);
    if (files_read_lines(path, CEILINGS_FILE_MAX, "the cache of measured ceilings", keep_line, &kl, e) < 0 &&
        errno != ENOENT && errno != EFBIG)
        return -1;      /* not a regular file, or unreadable: left alone */
    error_clear(e);
    ceilings_line(d, c, line, sizeof line);
    files_remove_leftovers(path, FILES_STALE_SECONDS);
    status = file_replace(path, write_cache, &nf, e);
    for (size_t i = 0; i < kl.count; i++)
        free(kl.lines[i]);
    return status;
}

bool ceilings_cached(const struct device_info *d, struct ceilings *c)
{
    char path[4096];

    memset(c, 0, sizeof *c);
    ceilings_theory(d, c);
    return ceilings_path(path, sizeof path) == 0 && ceilings_load(path, d, c);
}

int ceilings_get(struct ocl *cl, bool remeasure, struct ceilings *c, struct error *e)
{
    char path[4096];
    struct error why;

    if (ceilings_cached(cl->device, c) && !remeasure)
        return 0;
    if (ceilings_measure(cl, c, e) < 0) {
        c->have = c->from_cache = false;
        return -1;
    }
    error_init(&why);
    if (ceilings_path(path, sizeof path) < 0)
        snprintf(c->note, sizeof c->note, "not kept: neither XDG_CACHE_HOME nor HOME is set");
    else if (ceilings_save(path, cl->device, c, &why) < 0)
        snprintf(c->note, sizeof c->note, "not kept: %.400s (XDG_CACHE_HOME may name a directory you can write)",
                 why.msg);
    error_clear(&why);
    return 0;
}
