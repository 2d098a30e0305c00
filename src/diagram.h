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
    long long tile_groups;              /* groups_m * groups_n */
    long long cover_rows, cover_cols;   /* groups_m * tile_rows, groups_n * tile_cols: what the groups cover */
    long long tile_items;               /* work-items of item_rows x item_cols in a tile (0: not whole blocks) */
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
    char warnings[DIAGRAM_MAX_WARNINGS][200];   /* beyond the device's limits, or lines that disagree */
    int nwarnings;
};

/* Computes the figures of lesson l at size with parameters ps. Returns -1 with the reason in e
   when the lesson cannot run at this size with these parameters (geometry_compute's reason),
   when a line of the lesson gives a value that is not positive, when a figure (a tile's floats,
   the work-groups, the local memory) does not fit in 64 bits, and for a host lesson, which
   has no work-groups to show. limits may be NULL: no device checks. */
int diagram_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                    const struct diagram_limits *limits, struct diagram *d, struct error *e);

#define DIAGRAM_LINE_BYTES 1024

/* Draws C cut into work-groups (a grid scaled down to fit, the first group highlighted, the
   padding and the part of the edge groups beyond C in their own glyph), one work-group cut
   into its work-items (the first work-item's outputs highlighted, spread out as the kernel
   spreads them) with its tiles of A and B in local memory beside and above it, short labels
   with the real sizes, a legend of the glyphs, then the figures as "label value" lines and
   the warnings. Writes at most max_lines lines of at most width columns into lines (UTF-8
   characters when utf8, ASCII otherwise) and returns their count. Small panes get the
   figures and a compact drawing; 36 x 10 is the smallest that shows both. The glyphs below
   appear nowhere but in the drawing and the legend, so that a screen can colour them (see
   diagram_glyph_at); A's and B's differ without colour too. */
size_t diagram_draw(const struct diagram *d, int width, size_t max_lines, bool utf8,
                    char (*lines)[DIAGRAM_LINE_BYTES]);

#define DIAGRAM_MARK_UTF8 "\xe2\x96\x88"    /* U+2588 FULL BLOCK: the first group, item */
#define DIAGRAM_MARK_ASCII "#"
#define DIAGRAM_TILE_A_UTF8 "\xe2\x96\xa4"  /* U+25A4 SQUARE WITH HORIZONTAL FILL */
#define DIAGRAM_TILE_A_ASCII "="
#define DIAGRAM_TILE_B_UTF8 "\xe2\x96\xa5"  /* U+25A5 SQUARE WITH VERTICAL FILL */
#define DIAGRAM_TILE_B_ASCII "|"
#define DIAGRAM_PAD_UTF8 "\xe2\x95\xb1"     /* U+2571 BOX DRAWINGS LIGHT DIAGONAL */
#define DIAGRAM_PAD_ASCII "~"

/* What a character of the drawing stands for. */
enum diagram_glyph {
    DIAGRAM_GLYPH_TEXT,         /* anything else: text, the other cells */
    DIAGRAM_GLYPH_MARK,         /* the first work-group, the first work-item's outputs */
    DIAGRAM_GLYPH_TILE_A,       /* the tile of A in local memory */
    DIAGRAM_GLYPH_TILE_B,       /* the tile of B */
    DIAGRAM_GLYPH_PAD           /* C beyond the size asked for: padding, or edge groups' overhang */
};

/* The kind of the character that starts at s, in a line diagram_draw wrote with utf8, and
   its length in bytes in *len (0 at the end of the line). */
enum diagram_glyph diagram_glyph_at(const char *s, bool utf8, size_t *len);

#endif
