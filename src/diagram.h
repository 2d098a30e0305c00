/* diagram.h: how a lesson's kernel divides C among work-groups and work-items, as figures
   and as a text drawing that any screen can show (no curses here). */
#ifndef CLMM_DIAGRAM_H
#define CLMM_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"

/* What the device allows; 0: unknown, not checked. */
struct diagram_limits {
    size_t max_group;                   /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    unsigned long long local_mem;       /* CL_DEVICE_LOCAL_MEM_SIZE, bytes */
    size_t max_item_sizes[3];           /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
};

#define DIAGRAM_MAX_WARNINGS 4

/* The figures, from the lesson's tile, item, item-run, local-a, local-b, local-copies and
   loads lines (lessons/FORMAT); a has_ flag is false where the lesson does not say. */
struct diagram {
    struct geometry g;                  /* global and local sizes, groups, items per group, padding */
    bool has_tile, has_item, has_local_a, has_local_b, has_loads;
    long long tile_rows, tile_cols;     /* the block of C of one work-group */
    long long item_rows, item_cols;     /* the block of C of one work-item */
    long long run_rows, run_cols;       /* that block in runs of neighbours (the whole block: one run) */
    long long local_a_rows, local_a_cols, local_b_rows, local_b_cols, local_copies;
    long long groups_m, groups_n;       /* work-groups along the rows and the columns of C (0: no tile) */
    unsigned long long local_bytes;     /* per group: 4 * copies * (local-a + local-b) + local(...) arguments */
    long long outputs_per_item;         /* item_rows * item_cols (0: no item) */
    long long loads;                    /* floats one work-group reads from global memory */
    double loads_per_flop;              /* loads * groups / (2 M N K of the run size); < 0 when unknown */
    char warnings[DIAGRAM_MAX_WARNINGS][200];   /* beyond the device's limits, or lines that disagree */
    int nwarnings;
};

/* Computes the figures of lesson l at size with parameters ps. Returns -1 with the reason in e
   when the lesson cannot run at this size with these parameters (geometry_compute's reason),
   when a line of the lesson gives a value that is not positive, and for a host lesson, which
   has no work-groups to show. limits may be NULL: no device checks. */
int diagram_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                    const struct diagram_limits *limits, struct diagram *d, struct error *e);

#define DIAGRAM_LINE_BYTES 1024

/* Draws C cut into work-groups (a grid scaled down to fit, the first group highlighted), one
   work-group cut into its work-items (the first work-item's outputs highlighted, spread out
   as the kernel spreads them) with its tiles of A and B in local memory beside and above it,
   short labels with the real sizes, then the figures as "label value" lines and the
   warnings. Writes at most max_lines lines of at most width columns into lines (UTF-8
   block characters when utf8, ASCII otherwise) and returns their count. Small panes get the
   figures and a compact drawing; 36 x 10 is the smallest that shows both. The highlighted
   cells are the only characters DIAGRAM_MARK_UTF8 (utf8) or DIAGRAM_MARK_ASCII, so that a
   screen can colour them. */
size_t diagram_draw(const struct diagram *d, int width, size_t max_lines, bool utf8,
                    char (*lines)[DIAGRAM_LINE_BYTES]);

#define DIAGRAM_MARK_UTF8 "\xe2\x96\x88"    /* U+2588 FULL BLOCK */
#define DIAGRAM_MARK_ASCII "#"

#endif
