/* device.c: enumerating OpenCL devices and choosing one. */
#include "device.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "str.h"
#include "xalloc.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64
/* CL_PLATFORM_NOT_FOUND_KHR, from the ICD extension: the loader found no platform. */
#define PLATFORM_NOT_FOUND (-1001)

static void info_string(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    if (clGetDeviceInfo(d, what, len, buf, NULL) != CL_SUCCESS)
        snprintf(buf, len, "?");
    buf[len - 1] = '\0';
    /* Some drivers pad names with blanks. */
    for (size_t n = strlen(buf); n > 0 && isspace((unsigned char)buf[n - 1]); n--)
        buf[n - 1] = '\0';
}

/* cl_nv_device_attribute_query's names, from its specification. */
#define NV_COMPUTE_CAPABILITY_MAJOR 0x4000
#define NV_COMPUTE_CAPABILITY_MINOR 0x4001
#define NV_REGISTERS_PER_BLOCK 0x4002
#define NV_WARP_SIZE 0x4003
#define NV_MAX_LOCAL_MEMORY_PER_SM 0x400B

/* Whether the device's extension list holds name, as a whole word. */
static bool has_extension(cl_device_id d, const char *name)
{
    size_t size = 0, n = strlen(name);
    char *list;
    bool found = false;

    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return false;
    list = xmalloc(size + 1);
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, size, list, NULL) == CL_SUCCESS) {
        list[size] = '\0';
        for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
            if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ')) {
                found = true;
                break;
            }
    }
    free(list);
    return found;
}

static void gather_nvidia(struct device_info *d)
{
    if (!has_extension(d->id, "cl_nv_device_attribute_query"))
        return;
    if (clGetDeviceInfo(d->id, NV_COMPUTE_CAPABILITY_MAJOR, sizeof d->nv_cc_major, &d->nv_cc_major, NULL) ||
        clGetDeviceInfo(d->id, NV_COMPUTE_CAPABILITY_MINOR, sizeof d->nv_cc_minor, &d->nv_cc_minor, NULL))
        d->nv_cc_major = d->nv_cc_minor = 0;
    if (clGetDeviceInfo(d->id, NV_REGISTERS_PER_BLOCK, sizeof d->nv_registers, &d->nv_registers, NULL))
        d->nv_registers = 0;
    if (clGetDeviceInfo(d->id, NV_WARP_SIZE, sizeof d->nv_warp, &d->nv_warp, NULL))
        d->nv_warp = 0;
    if (clGetDeviceInfo(d->id, NV_MAX_LOCAL_MEMORY_PER_SM, sizeof d->nv_local_per_unit, &d->nv_local_per_unit, NULL))
        d->nv_local_per_unit = 0;
}

static void gather(struct device_info *d)
{
    info_string(d->id, CL_DEVICE_NAME, d->name, sizeof d->name);
    info_string(d->id, CL_DEVICE_VENDOR, d->vendor, sizeof d->vendor);
    info_string(d->id, CL_DEVICE_VERSION, d->version, sizeof d->version);
    info_string(d->id, CL_DRIVER_VERSION, d->driver, sizeof d->driver);
    if (clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof d->platform_name, d->platform_name, NULL))
        snprintf(d->platform_name, sizeof d->platform_name, "?");
    clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units, &d->compute_units, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof d->clock_mhz, &d->clock_mhz, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof d->local_mem, &d->local_mem, NULL);
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_group, &d->max_group, NULL);
    {
        /* A device may have more than three dimensions; the lessons use at most three. */
        size_t sizes[16] = { 0 };
        cl_uint dims = 0;
        clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL);
        if (dims > 16)
            dims = 16;
        if (dims < 3 || clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof sizes[0], sizes, NULL))
            sizes[0] = sizes[1] = sizes[2] = d->max_group;   /* not told: the group limit applies */
        memcpy(d->max_item_sizes, sizes, sizeof d->max_item_sizes);
    }
    clGetDeviceInfo(d->id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof d->native_float_width,
                    &d->native_float_width, NULL);
    d->nv_compiler_options = has_extension(d->id, "cl_nv_compiler_options");
    gather_nvidia(d);
}

int device_list_load(struct device_list *list, struct error *e)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint nplatforms = 0;
    cl_int rc;

    list->items = NULL;
    list->count = 0;
    rc = clGetPlatformIDs(MAX_PLATFORMS, platforms, &nplatforms);
    if (rc == PLATFORM_NOT_FOUND || (rc == CL_SUCCESS && nplatforms == 0)) {
        error_set(e, "no OpenCL platform is installed. For the CPU, install POCL "
                     "(Debian/Ubuntu: apt-get install pocl-opencl-icd); for a GPU, its vendor's "
                     "OpenCL driver. \"clinfo -l\" shows what the loader finds");
        return -1;
    }
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clGetPlatformIDs", rc);
        return -1;
    }
    if (nplatforms > MAX_PLATFORMS)     /* the count is of all platforms, not of those returned */
        nplatforms = MAX_PLATFORMS;
    for (cl_uint p = 0; p < nplatforms; p++) {
        cl_device_id ids[MAX_DEVICES];
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &n) != CL_SUCCESS)
            continue;   /* a platform without devices is not an error */
        if (n > MAX_DEVICES)
            n = MAX_DEVICES;
        list->items = xreallocarray(list->items, list->count + n, sizeof *list->items);
        for (cl_uint i = 0; i < n; i++) {
            struct device_info *d = &list->items[list->count];
            memset(d, 0, sizeof *d);
            d->platform = platforms[p];
            d->id = ids[i];
            d->index = (int)list->count;
            d->platform_index = (int)p;
            d->device_index = (int)i;
            gather(d);
            list->count++;
        }
    }
    if (list->count == 0) {
        error_set(e, "%u OpenCL platform(s) found but no device; for the CPU, install POCL "
                     "(apt-get install pocl-opencl-icd)", nplatforms);
        return -1;
    }
    return 0;
}

void device_list_free(struct device_list *list)
{
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

const char *device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (type & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "other";
}

void device_describe(const struct device_info *d, char *buf, size_t len)
{
    snprintf(buf, len, "%s (%s, %s)", d->name, d->platform_name, device_type_name(d->type));
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static void list_choices(const struct device_list *list, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t i = 0; i < list->count; i++)
        str_appendf(&s, "; ", "%d (%d:%d) %s", list->items[i].index, list->items[i].platform_index,
                    list->items[i].device_index, list->items[i].name);
}

const struct device_info *device_select(const struct device_list *list, const char *spec,
                                        struct error *e)
{
    char choices[2048];
    const char *colon;

    if (spec && device_spec_is_list(spec)) {
        error_set(e, "\"%s\" names several devices: only --bench measures on several (--device all, or 0,1)",
                  spec);
        return NULL;
    }
    if (!spec || !*spec) {
        for (size_t i = 0; i < list->count; i++)
            if (list->items[i].type & CL_DEVICE_TYPE_GPU)
                return &list->items[i];
        return &list->items[0];
    }
    colon = strchr(spec, ':');
    if (all_digits(spec)) {
        long i = strtol(spec, NULL, 10);
        if (i >= 0 && (size_t)i < list->count)
            return &list->items[i];
    } else if (colon && colon != spec && all_digits(colon + 1) &&
               strspn(spec, "0123456789") == (size_t)(colon - spec)) {
        long p = strtol(spec, NULL, 10), d = strtol(colon + 1, NULL, 10);
        for (size_t i = 0; i < list->count; i++)
            if (list->items[i].platform_index == p && list->items[i].device_index == d)
                return &list->items[i];
    } else {
        for (size_t i = 0; i < list->count; i++) {
            const struct device_info *d = &list->items[i];
            if (strcasestr(d->name, spec) || strcasestr(d->platform_name, spec) ||
                strcasestr(d->vendor, spec) || strcasecmp(device_type_name(d->type), spec) == 0)
                return d;
        }
    }
    list_choices(list, choices, sizeof choices);
    error_set(e, "no OpenCL device matches \"%s\"; devices: %s", spec, choices);
    return NULL;
}

bool device_spec_is_list(const char *spec)
{
    return strcasecmp(spec, "all") == 0 || strchr(spec, ',') != NULL;
}

int device_spec_check(const char *spec, struct error *e)
{
    size_t n = strlen(spec);

    if (spec[0] == ',' || (n > 0 && spec[n - 1] == ',') || strstr(spec, ",,")) {
        error_set(e, "--device %s: an empty item in the list (write the devices as 0,1 or cpu,gpu)", spec);
        return -1;
    }
    if (strchr(spec, ',')) {
        for (const char *p = spec; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
            if (strncasecmp(p, "all", 3) == 0 && (p[3] == ',' || p[3] == '\0')) {
                error_set(e, "--device %s: all is every device already, not an item of a list (write --device "
                             "all, or the devices as 0,1)", spec);
                return -1;
            }
    }
    return 0;
}

int device_select_many(const struct device_list *list, const char *spec, const struct device_info **out,
                       size_t max, size_t *count, struct error *e)
{
    char *copy, *save = NULL;
    bool failed = false, d_usage = false;

    *count = 0;
    if (!spec || !device_spec_is_list(spec)) {
        if (!(out[0] = device_select(list, spec, e)))
            return -1;
        *count = 1;
        return 0;
    }
    if (strcasecmp(spec, "all") == 0) {
        if (list->count > max) {
            error_set(e, "--device all: this machine has %zu devices, at most %zu are measured side by side; "
                         "name them (--device 0,1)", list->count, max);
            return -2;
        }
        for (size_t i = 0; i < list->count; i++)
            out[(*count)++] = &list->items[i];
        return 0;
    }
    if (device_spec_check(spec, e) < 0)
        return -2;
    copy = xstrdup(spec);
    for (char *item = strtok_r(copy, ",", &save); item && !failed; item = strtok_r(NULL, ",", &save)) {
        const struct device_info *d = device_select(list, item, e);
        failed = d == NULL;
        for (size_t i = 0; i < *count && !failed; i++)
            if (out[i] == d) {
                error_set(e, "--device %s: \"%s\" is device [%d] again (%s): name each device once", spec,
                          item, d->index, d->name);
                failed = d_usage = true;
            }
        if (!failed && *count == max) {
            error_set(e, "--device %s: at most %zu devices are measured side by side", spec, max);
            failed = d_usage = true;
        }
        if (!failed)
            out[(*count)++] = d;
    }
    free(copy);
    return failed ? (d_usage ? -2 : -1) : 0;
}

void device_list_print(FILE *out, const struct device_list *list,
                       void (*more)(FILE *out, const struct device_info *d, void *ctx), void *ctx)
{
    int last_platform = -1;

    for (size_t i = 0; i < list->count; i++) {
        const struct device_info *d = &list->items[i];
        if (d->platform_index != last_platform) {
            fprintf(out, "%sPlatform %d: %s\n", i ? "\n" : "", d->platform_index, d->platform_name);
            last_platform = d->platform_index;
        }
        fprintf(out, "  [%d] %d:%d  %s\n", d->index, d->platform_index, d->device_index, d->name);
        fprintf(out, "        type %s, %u compute units at %u MHz, %s\n", device_type_name(d->type),
                d->compute_units, d->clock_mhz, d->version);
        fprintf(out, "        global memory %.1f GiB (largest buffer %.1f GiB), local memory %lu KiB\n",
                (double)d->global_mem / (1 << 30), (double)d->max_alloc / (1 << 30),
                (unsigned long)(d->local_mem / 1024));
        fprintf(out, "        work-group at most %zu work-items (%zu x %zu x %zu), driver %s\n",
                d->max_group, d->max_item_sizes[0], d->max_item_sizes[1], d->max_item_sizes[2],
                d->driver);
        if (more)
            more(out, d, ctx);
    }
}
