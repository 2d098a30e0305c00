/* device.h: the OpenCL platforms and devices of this machine, and choosing one. */
#ifndef CLMM_DEVICE_H
#define CLMM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "clerror.h"
#include "error.h"

struct device_info {
    cl_platform_id platform;
    cl_device_id id;
    int index;                  /* over all platforms, from 0 */
    int platform_index, device_index;
    char name[256];
    char platform_name[256];
    char vendor[256];
    char version[128];          /* CL_DEVICE_VERSION */
    char driver[128];
    cl_device_type type;
    cl_uint compute_units;
    cl_uint clock_mhz;
    cl_ulong global_mem;
    cl_ulong max_alloc;
    cl_ulong local_mem;
    size_t max_group;           /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_item_sizes[3];
    cl_uint native_float_width;     /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT */
    /* NVIDIA's own facts (cl_nv_device_attribute_query); 0 where the device does not give
       them. A compute capability of 9.0 is an H100 or H200. */
    cl_uint nv_cc_major, nv_cc_minor;
    cl_uint nv_registers;           /* 32-bit registers a work-group may use */
    cl_uint nv_warp;                /* work-items that run in lockstep */
    cl_uint nv_local_per_unit;      /* bytes of local memory a compute unit holds for all the
                                       work-groups resident on it (0: not told) */
    bool nv_compiler_options;       /* cl_nv_compiler_options: -cl-nv-verbose and others */
};

struct device_list {
    struct device_info *items;
    size_t count;
};

/* Gathers every device of every platform. Fails with advice when there is none. */
int device_list_load(struct device_list *list, struct error *e);
void device_list_free(struct device_list *list);

/* spec: NULL or "" for the default (the first GPU, else the first device), an index ("1"),
   "platform:device" ("1:0"), or a case-insensitive fragment of the device, platform or
   vendor name or of the type ("gpu", "cpu"). */
const struct device_info *device_select(const struct device_list *list, const char *spec,
                                        struct error *e);

/* Whether spec names several devices: "all" (any case), or a list "0,1" (items as
   device_select takes them, separated by commas). */
bool device_spec_is_list(const char *spec);

/* A list's syntax: no empty item ("0,,1", "0,"); -1 with a message. */
int device_spec_check(const char *spec, struct error *e);

/* The devices spec names, in its order (every device for "all"), at most max of them; a
   single device's spec gives one. -1 with a message when an item matches no device; -2 with
   a message when the list is malformed, two items name the same device, or there are more
   than max (a mistake of the command line). */
int device_select_many(const struct device_list *list, const char *spec, const struct device_info **out,
                       size_t max, size_t *count, struct error *e);

const char *device_type_name(cl_device_type type);

/* The --devices listing; after each device's lines, more(out, device, ctx) adds its own
   when more is not NULL. */
void device_list_print(FILE *out, const struct device_list *list,
                       void (*more)(FILE *out, const struct device_info *d, void *ctx), void *ctx);

/* One line: "NVIDIA H200 (NVIDIA CUDA, GPU)" */
void device_describe(const struct device_info *d, char *buf, size_t len);

#endif
