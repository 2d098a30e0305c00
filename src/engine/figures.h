/* figures.h: how a lesson's kernel divides C among work-groups and work-items, as figures
   (no drawing here: diagram.h draws them). */
#ifndef CLMM_FIGURES_H
#define CLMM_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"

/* What the device allows; 0: unknown, not checked. */
struct figures_limits {
    size_t max_group;                   /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    unsigned long long local_mem;       /* CL_DEVICE_LOCAL_MEM_SIZE, bytes */
    size_t max_item_sizes[3];           /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
};

#define FIGURES_MAX_WARNINGS 4

/* The figures, from the lesson's tile, item, item-run, item-stride, local-a, local-b,
   local-copies and loads lines (lessons/FORMAT); a has_ flag is false where the lesson does not say. */
struct figures {
    struct geometry g;                  /* global and local sizes, groups, items per group, padding */
    bool has_tile, has_item, has_local_a, has_local_b, has_loads;
    long long tile_rows, tile_cols;     /* the block of C of one work-group */
    long long item_rows, item_cols;     /* the block of C of one work-item */
    long long run_rows, run_cols;       /* that block in runs of neighbours (the whole block: one run) */
    /* From the start of one of a work-item's runs to the next: the item-stride line, else
       run * tile_items_m (run * tile_items_n), the runs of the group's work-items taking turns
       over the whole tile (0: no tile or no item). */
    long long stride_rows, stride_cols;
    long long local_a_rows, local_a_cols, local_b_rows, local_b_cols, local_copies;
    long long groups_m, groups_n;       /* work-groups along the rows and the columns of C (0: no tile) */
    long long tile_groups;              /* groups_m * groups_n: the tiles */
    long long k_split;                  /* work-groups per tile, each over a part of K (k-split; 1) */
    long long k_split_tiles;            /* the tiles, the last ones, shared out so (k-split-tiles; all) */
    long long k_split_groups;           /* the groups they take in all (k-split-groups; -1: k-split
                                           each) */
    long long layout_groups;            /* the work-groups all the tiles take, from the lines above
                                           (lesson_split_groups; 0: no tile) */
    long long cover_rows, cover_cols;   /* groups_m * tile_rows, groups_n * tile_cols: what the groups cover */
    long long tile_items;               /* work-items of item_rows x item_cols in a tile (0: not whole blocks) */
    long long tile_items_m, tile_items_n;   /* tile_rows / item_rows, tile_cols / item_cols (with a
                                               tile and an item; 0 otherwise) */
    long long local_a_floats, local_b_floats;   /* copies * rows * cols of each tile */
    unsigned long long local_bytes;     /* per group: 4 * copies * (local-a + local-b) + local(...) arguments */
    long long outputs_per_item;         /* item_rows * item_cols (0: no item) */
    long long loads;                    /* floats one work-group reads from global memory */
    /* Memory traffic, in bytes read from global memory per flop: 4 * loads * groups / (2 M N K
       of the run size); < 0 when unknown. The lessons quote the same unit, bytes per flop,
       because it is the one a student can check against the device: GFLOPS times bytes per
       flop is the bandwidth the kernel asks of memory, in GB/s, and 2/TSM + 2/TSN for a tile
       of TSM x TSN reads the same in the kernel's loop and in this pane. */
    double bytes_per_flop;
    double padding_share;               /* of the kernel's 2 M N K, the part on padding (0: none) */
    char warnings[FIGURES_MAX_WARNINGS][200];   /* beyond the device's limits, or lines that disagree */
    int nwarnings;
};

/* Computes the figures of lesson l at size with parameters ps. Returns -1 with the reason in e
   when the lesson cannot run at this size with these parameters (geometry_compute's reason),
   when a line of the lesson gives a value that is not positive, when the item-stride line
   does not fit the tile (lesson_check_stride's reason), when a figure (a tile's floats,
   the work-groups, the local memory) does not fit in 64 bits, and for a host lesson, which
   has no work-groups to show. limits may be NULL: no device checks. */
int figures_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                    const struct figures_limits *limits, struct figures *d, struct error *e);

#endif
