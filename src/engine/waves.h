/* waves.h: how many of a launch's work-groups a compute unit holds at once, which limit
   decides it, and the waves of work-groups the device runs the launch in; with a text
   drawing of them that any screen can show (no curses here). */
#ifndef CLMM_WAVES_H
#define CLMM_WAVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "device.h"
#include "error.h"
#include "figures.h"

/* What the compiled kernel reports, where it is known. */
struct waves_kernel {
    int registers;                      /* per work-item, from NVIDIA's verbose build log; -1 unknown */
    unsigned long long local_bytes;     /* CL_KERNEL_LOCAL_MEM_SIZE; 0 unknown */
    unsigned long long private_bytes;   /* CL_KERNEL_PRIVATE_MEM_SIZE; 0 unknown */
};

/* The resources of a compute unit that bound the work-groups it holds at once. */
enum waves_limit {
    WAVES_ITEMS,                /* work-items (on NVIDIA: warps of them) */
    WAVES_SLOTS,                /* work-groups, whatever their size */
    WAVES_LOCAL,                /* local memory */
    WAVES_REGISTERS,            /* registers */
    WAVES_LIMITS
};

/* Where a limit's figure comes from. */
enum waves_basis {
    WAVES_UNKNOWN,              /* no figure: the limit may bind, unseen */
    WAVES_NONE,                 /* does not bound the groups (nothing used, or a CPU) */
    WAVES_TABLE,                /* NVIDIA's figures for the compute capability */
    WAVES_ASSUMED,              /* a per-work-group figure of OpenCL taken as the compute unit's */
    WAVES_ONE_PER_CORE          /* a CPU: a compute unit (a core) runs one work-group at a time */
};

struct waves_bound {
    enum waves_basis basis;
    unsigned long long per_unit;        /* what a compute unit holds: work-items, groups, bytes, registers */
    unsigned long long per_group;       /* what one work-group takes of it, rounded as allocated */
    unsigned long long groups;          /* the work-groups it allows per compute unit (with a figure) */
};

enum waves_device { WAVES_NVIDIA, WAVES_CPU, WAVES_OTHER_GPU };

struct waves {
    enum waves_device device;
    bool capability_unknown;            /* NVIDIA, but a compute capability missing from the table */
    unsigned cc_major, cc_minor;
    unsigned long long groups;          /* work-groups of the launch */
    size_t group_items;                 /* work-items per group */
    unsigned long long compute_units;
    int registers;                      /* per work-item; -1 unknown */
    unsigned long long local_bytes;     /* per group, as the kernel reports it, else as the lesson declares it */
    bool local_from_kernel;
    unsigned long long private_bytes;   /* per work-item; 0 unknown */
    struct waves_bound limits[WAVES_LIMITS];
    /* Work-groups a compute unit holds at once: the smallest figure of the limits (0: one
       work-group does not fit). binding has bit 1 << limit for each limit that gives it. */
    unsigned long long resident;
    unsigned binding;
    bool upper_bound;                   /* a limit is unknown or assumed: resident is at most this */
    unsigned long long capacity;        /* resident * compute_units: one wave */
    double waves;                       /* groups / capacity */
    unsigned long long full_waves;      /* waves in which every slot has a work-group */
    unsigned long long wave_count;      /* waves started: full_waves, and one more when the last is not full */
    unsigned long long last_groups;     /* the work-groups of the last wave started */
    unsigned last_percent;              /* of capacity, rounded */
    unsigned long long last_busy_units; /* compute units with a work-group in the last wave, the
                                           groups spread one per unit before any gets two */
    /* What one more work-group per compute unit would take, each figure with the rest as it
       is; 0 where that limit already allows it or no change of this one does. */
    bool next_possible;                 /* false: the group slots, or unknown figures, forbid it */
    int next_registers;                 /* at most this many registers per work-item */
    unsigned long long next_local;      /* at most this many bytes of local memory per group */
    size_t next_items;                  /* at most this many work-items per group */
};

/* The waves of the launch of figures d (the work-groups of its NDRange) on device dev, with
   what the compiled kernel reports in k (NULL: nothing). Returns -1 with the reason in e when
   the lesson gives no work-group size (the implementation chooses one, so nothing can be
   counted), when there are no work-groups, or when the device gives no compute units. */
int waves_compute(const struct figures *d, const struct device_info *dev, const struct waves_kernel *k,
                  struct waves *w, struct error *e);

/* The name of a limit, for text ("registers") and for JSON ("registers", "work_items"). */
const char *waves_limit_name(enum waves_limit limit);
const char *waves_limit_key(enum waves_limit limit);

#define WAVES_LINE_BYTES 1024

/* Draws the waves: the work-groups and how many a compute unit holds, what binds, a bar per
   wave showing how full it is (the first, a mark and the last when there are many), the share
   of the device the last wave keeps busy, what one more group per compute unit would take,
   and each limit's figure. Writes at most max_lines lines of at most width columns into lines
   (block characters when utf8, ASCII otherwise), the most telling first, and returns their
   count. Written for a pane of about 38 columns. */
size_t waves_draw(const struct waves *w, int width, size_t max_lines, bool utf8,
                  char (*lines)[WAVES_LINE_BYTES]);

/* The waves as one JSON object (no newline), unknown figures as null. */
void waves_json(FILE *out, const struct waves *w);

#endif
