/* figures.c: how a lesson's kernel divides C, in figures: work-groups, work-items, tiles in
   local memory, global traffic, checked against the device. Pure arithmetic on the lesson's
   layout lines (lessons/FORMAT): the drawing (diagram.c), the roofline and the waves use it. */
#include "figures.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

static void warn(struct figures *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct figures *d, const char *fmt, ...)
{
    va_list ap;

    if (d->nwarnings == FIGURES_MAX_WARNINGS)
        return;
    va_start(ap, fmt);
    vsnprintf(d->warnings[d->nwarnings++], sizeof d->warnings[0], fmt, ap);
    va_end(ap);
}

/* One expression of a layout line, at the size the kernel runs at; it must be positive. */
static int eval_positive(const struct lesson *l, const struct param_set *ps, const struct geometry *g,
                         const char *key, const char *expr, long long *v, struct error *e)
{
    if (geometry_eval(l, ps, g->run, expr, v, e) < 0) {
        error_prefix(e, "%s", key);
        return -1;
    }
    if (*v <= 0) {
        error_set(e, "%s: %s is %lld at %lldx%lldx%lld, not positive", key, expr, *v,
                  g->run.m, g->run.n, g->run.k);
        return -1;
    }
    return 0;
}

/* One expression of a layout line that counts, at the size the kernel runs at; it may be 0. */
static int eval_count(const struct lesson *l, const struct param_set *ps, const struct geometry *g,
                      const char *key, const char *expr, long long *v, struct error *e)
{
    if (geometry_eval(l, ps, g->run, expr, v, e) < 0) {
        error_prefix(e, "%s", key);
        return -1;
    }
    if (*v < 0) {
        error_set(e, "%s: %s is %lld at %lldx%lldx%lld, below 0", key, expr, *v, g->run.m, g->run.n, g->run.k);
        return -1;
    }
    return 0;
}

/* A "ROWS, COLS" line, where the lesson has it. */
static int eval_pair(const struct lesson *l, const struct param_set *ps, const struct geometry *g,
                     const char *key, char *const exprs[2], bool *has, long long *rows, long long *cols,
                     struct error *e)
{
    *has = exprs[0] != NULL;
    if (!*has)
        return 0;
    if (eval_positive(l, ps, g, key, exprs[0], rows, e) < 0 ||
        eval_positive(l, ps, g, key, exprs[1], cols, e) < 0)
        return -1;
    return 0;
}

static int read_layout(const struct lesson *l, const struct param_set *ps, struct figures *d,
                       struct error *e)
{
    const struct lesson_layout *y = &l->layout;
    const struct geometry *g = &d->g;
    bool has_run;

    if (eval_pair(l, ps, g, "tile", y->tile, &d->has_tile, &d->tile_rows, &d->tile_cols, e) < 0 ||
        eval_pair(l, ps, g, "item", y->item, &d->has_item, &d->item_rows, &d->item_cols, e) < 0 ||
        eval_pair(l, ps, g, "item-run", y->item_run, &has_run, &d->run_rows, &d->run_cols, e) < 0 ||
        eval_pair(l, ps, g, "local-a", y->local_a, &d->has_local_a, &d->local_a_rows, &d->local_a_cols,
                  e) < 0 ||
        eval_pair(l, ps, g, "local-b", y->local_b, &d->has_local_b, &d->local_b_rows, &d->local_b_cols,
                  e) < 0)
        return -1;
    d->local_copies = 1;
    if (y->local_copies && eval_positive(l, ps, g, "local-copies", y->local_copies, &d->local_copies, e) < 0)
        return -1;
    d->k_split = 1;
    if (y->k_split && eval_positive(l, ps, g, "k-split", y->k_split, &d->k_split, e) < 0)
        return -1;
    d->k_split_groups = -1;     /* k-split each */
    if (y->k_split_groups && eval_count(l, ps, g, "k-split-groups", y->k_split_groups, &d->k_split_groups, e) < 0)
        return -1;
    d->k_split_tiles = -1;      /* all of them, once they are counted */
    if (y->k_split_tiles && eval_count(l, ps, g, "k-split-tiles", y->k_split_tiles, &d->k_split_tiles, e) < 0)
        return -1;
    d->has_loads = y->loads != NULL;
    if (d->has_loads && eval_positive(l, ps, g, "loads", y->loads, &d->loads, e) < 0)
        return -1;
    if (!has_run) {
        d->run_rows = d->item_rows;
        d->run_cols = d->item_cols;
    }
    if (d->has_item && (d->item_rows % d->run_rows != 0 || d->item_cols % d->run_cols != 0)) {
        error_set(e, "item-run: runs of %lldx%lld do not make up the work-item's block of %lldx%lld",
                  d->run_rows, d->run_cols, d->item_rows, d->item_cols);
        return -1;
    }
    return 0;
}

/* The distance between a work-item's runs: the item-stride line, checked against the tile,
   else the runs of all the work-items of the tile's rows (columns) taking turns. */
static int read_stride(const struct lesson *l, const struct param_set *ps, struct figures *d, struct error *e)
{
    char *const *exprs = l->layout.item_stride;

    if (!d->has_tile || !d->has_item)
        return 0;
    d->stride_rows = d->run_rows * d->tile_items_m;     /* at most tile_rows: run <= item */
    d->stride_cols = d->run_cols * d->tile_items_n;
    if (!exprs[0])
        return 0;
    if (geometry_eval(l, ps, d->g.run, exprs[0], &d->stride_rows, e) < 0 ||
        geometry_eval(l, ps, d->g.run, exprs[1], &d->stride_cols, e) < 0) {
        error_prefix(e, "%s:%d: item-stride", l->file, l->layout.item_stride_line);
        return -1;
    }
    if (lesson_check_stride(l, "rows", d->tile_rows, d->item_rows, d->run_rows, d->stride_rows, e) < 0 ||
        lesson_check_stride(l, "columns", d->tile_cols, d->item_cols, d->run_cols, d->stride_cols, e) < 0)
        return -1;
    return 0;
}

/* a * b, refused when it does not fit in 64 bits: a lesson file may give any values. */
static int product(const char *what, long long a, long long b, long long *r, struct error *e)
{
    if (__builtin_mul_overflow(a, b, r)) {
        error_set(e, "%s: %lld x %lld does not fit in 64 bits", what, a, b);
        return -1;
    }
    return 0;
}

/* Floats of local memory per work-group: the tiles and the local(...) arguments, a tile held
   by an argument of exactly its size counted once (lessons/FORMAT). */
static int local_floats(const struct lesson *l, const struct figures *d, unsigned long long *floats,
                        struct error *e)
{
    long long tiles[2] = { d->local_a_floats, d->local_b_floats };

    *floats = 0;
    /* The main launch's, the first (lessons/FORMAT): the layout lines describe it. */
    for (size_t i = 0; i < l->launch[0].nargs; i++) {
        long long v = d->g.launch[0].arg_values[i];
        if (l->launch[0].args[i].kind != ARG_LOCAL)
            continue;
        if (__builtin_add_overflow(*floats, (unsigned long long)v, floats))
            goto too_many;
        for (int t = 0; t < 2; t++)
            if (tiles[t] == v) {
                tiles[t] = 0;
                break;
            }
    }
    for (int t = 0; t < 2; t++)
        if (__builtin_add_overflow(*floats, (unsigned long long)tiles[t], floats))
            goto too_many;
    return 0;
too_many:
    error_set(e, "local memory: the floats of the tiles and local(...) arguments: their sum does not fit in "
                 "64 bits");
    return -1;
}

/* Without a + b - 1, which overflows for a tile near the largest value. */
static long long cdiv(long long a, long long b)
{
    return a / b + (a % b != 0);
}

/* The products of the layout lines, each checked, then the ratios (in doubles). */
static int count(const struct lesson *l, struct figures *d, struct error *e)
{
    const struct geometry *g = &d->g;
    unsigned long long floats;
    long long a;
    double groups, asked, run;

    if (d->has_tile) {
        d->groups_m = cdiv(g->run.m, d->tile_rows);
        d->groups_n = cdiv(g->run.n, d->tile_cols);
        if (product("work-groups", d->groups_m, d->groups_n, &d->tile_groups, e) < 0 ||
            product("tile", d->groups_m, d->tile_rows, &d->cover_rows, e) < 0 ||
            product("tile", d->groups_n, d->tile_cols, &d->cover_cols, e) < 0)
            return -1;
        if (d->k_split_tiles < 0)
            d->k_split_tiles = d->tile_groups;
        if (lesson_split_groups(l, d->tile_groups, d->k_split, d->k_split_tiles, d->k_split_groups,
                                &d->layout_groups, e) < 0)
            return -1;
    }
    if (d->has_item && product("item", d->item_rows, d->item_cols, &d->outputs_per_item, e) < 0)
        return -1;
    if (d->has_tile && d->has_item) {
        d->tile_items_m = d->tile_rows / d->item_rows;
        d->tile_items_n = d->tile_cols / d->item_cols;
    }
    if (d->has_tile && d->has_item && d->tile_rows % d->item_rows == 0 && d->tile_cols % d->item_cols == 0 &&
        product("tile", d->tile_items_m, d->tile_items_n, &d->tile_items, e) < 0)
        return -1;
    if (d->has_local_a && (product("local-a", d->local_copies, d->local_a_rows, &a, e) < 0 ||
                           product("local-a", a, d->local_a_cols, &d->local_a_floats, e) < 0))
        return -1;
    if (d->has_local_b && (product("local-b", d->local_copies, d->local_b_rows, &a, e) < 0 ||
                           product("local-b", a, d->local_b_cols, &d->local_b_floats, e) < 0))
        return -1;
    if (local_floats(l, d, &floats, e) < 0)
        return -1;
    if (floats > ULLONG_MAX / sizeof(float)) {
        error_set(e, "local memory: 4 bytes x %llu floats does not fit in 64 bits", floats);
        return -1;
    }
    d->local_bytes = sizeof(float) * floats;
    groups = g->launch[0].has_local ? (double)g->launch[0].groups : (double)d->layout_groups;
    d->bytes_per_flop = d->has_loads && groups > 0 ? 4.0 * (double)d->loads * groups / gemm_flops(g->run) : -1.0;
    asked = gemm_flops(g->asked);
    run = gemm_flops(g->run);
    d->padding_share = g->padded && run > asked ? 1.0 - asked / run : 0.0;
    return 0;
}

/* Lines of one lesson file that disagree: worth saying, since the drawing trusts them. */
static void check_layout(struct figures *d)
{
    const struct geometry *g = &d->g;

    if (!g->launch[0].has_local || !d->has_tile)
        return;
    /* Every tile once, and the k-split-tiles last ones k-split - 1 times more; or, with
       k-split-groups, the tiles not split once and the split ones in so many groups. */
    if (d->k_split_groups >= 0) {
        if (d->k_split_tiles > d->tile_groups || (unsigned long long)d->layout_groups != g->launch[0].groups)
            warn(d, "%lld tiles of %lldx%lld, the last %lld in %lld work-groups (k-split-tiles, k-split-groups), "
                 "make %lld work-groups, but the NDRange has %zu", d->tile_groups, d->tile_rows, d->tile_cols,
                 d->k_split_tiles, d->k_split_groups, d->layout_groups, g->launch[0].groups);
    } else if ((unsigned long long)d->layout_groups != g->launch[0].groups) {
        if (d->k_split == 1)
            warn(d, "tiles of %lldx%lld make %lld work-groups, but the NDRange has %zu", d->tile_rows,
                 d->tile_cols, d->tile_groups, g->launch[0].groups);
        else if (d->k_split_tiles == d->tile_groups)
            warn(d, "tiles of %lldx%lld, %lld work-groups each (k-split), make %lld x %lld work-groups, but the "
                 "NDRange has %zu", d->tile_rows, d->tile_cols, d->k_split, d->tile_groups, d->k_split,
                 g->launch[0].groups);
        else
            warn(d, "%lld tiles of %lldx%lld, the last %lld of them %lld work-groups each (k-split, "
                 "k-split-tiles), make %lld + %lld x %lld work-groups, but the NDRange has %zu", d->tile_groups,
                 d->tile_rows, d->tile_cols, d->k_split_tiles, d->k_split, d->tile_groups, d->k_split_tiles,
                 d->k_split - 1, g->launch[0].groups);
    }
    if (d->k_split_tiles > d->tile_groups)
        warn(d, "k-split-tiles gives %lld tiles to split, of %lld", d->k_split_tiles, d->tile_groups);
    if (d->has_item && (d->tile_items == 0 || (unsigned long long)d->tile_items != g->launch[0].group_items))
        warn(d, "a tile of %lldx%lld is not %zu work-items of %lldx%lld", d->tile_rows, d->tile_cols,
             g->launch[0].group_items, d->item_rows, d->item_cols);
}

static void check_limits(struct figures *d, const struct figures_limits *lim)
{
    const struct geometry *g = &d->g;

    if (g->launch[0].has_local && lim->max_group && g->launch[0].group_items > lim->max_group)
        warn(d, "work-group of %zu work-items exceeds the device's %zu", g->launch[0].group_items, lim->max_group);
    for (size_t i = 0; g->launch[0].has_local && i < g->launch[0].dims; i++)
        if (lim->max_item_sizes[i] && g->launch[0].local[i] > lim->max_item_sizes[i])
            warn(d, "work-group of %zu work-items in dimension %zu exceeds the device's %zu", g->launch[0].local[i],
                 i, lim->max_item_sizes[i]);
    if (lim->local_mem && d->local_bytes > lim->local_mem)
        warn(d, "%llu bytes of local memory per work-group exceed the device's %llu", d->local_bytes,
             lim->local_mem);
}

int figures_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                    const struct figures_limits *limits, struct figures *d, struct error *e)
{
    memset(d, 0, sizeof *d);
    d->bytes_per_flop = -1.0;
    if (l->engine == ENGINE_HOST) {
        error_set(e, "the host reference runs on one CPU core: no work-groups");
        return -1;
    }
    if (geometry_compute(l, ps, size, &d->g, e) < 0 || read_layout(l, ps, d, e) < 0 ||
        count(l, d, e) < 0 || read_stride(l, ps, d, e) < 0)
        return -1;
    check_layout(d);
    if (limits)
        check_limits(d, limits);
    return 0;
}
