/* diagram.c: how a lesson's kernel divides C: its figures, checked against the device, and a
   text drawing of C cut into work-groups and of one work-group cut into work-items. */
#include "diagram.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

/* ---- the figures ---- */

static void warn(struct diagram *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct diagram *d, const char *fmt, ...)
{
    va_list ap;

    if (d->nwarnings == DIAGRAM_MAX_WARNINGS)
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

static int read_layout(const struct lesson *l, const struct param_set *ps, struct diagram *d,
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

/* Floats of local memory per work-group: the tiles and the local(...) arguments, a tile held
   by an argument of exactly its size counted once (lessons/FORMAT). */
static unsigned long long local_floats(const struct lesson *l, const struct diagram *d)
{
    long long tiles[2] = {
        d->has_local_a ? d->local_copies * d->local_a_rows * d->local_a_cols : 0,
        d->has_local_b ? d->local_copies * d->local_b_rows * d->local_b_cols : 0,
    };
    unsigned long long floats = 0;

    for (size_t i = 0; i < l->nargs; i++) {
        long long v = d->g.arg_values[i];
        if (l->args[i].kind != ARG_LOCAL)
            continue;
        floats += (unsigned long long)v;
        for (int t = 0; t < 2; t++)
            if (tiles[t] == v) {
                tiles[t] = 0;
                break;
            }
    }
    return floats + (unsigned long long)(tiles[0] + tiles[1]);
}

static long long cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

static void count(const struct lesson *l, struct diagram *d)
{
    const struct geometry *g = &d->g;
    double groups;

    if (d->has_tile) {
        d->groups_m = cdiv(g->run.m, d->tile_rows);
        d->groups_n = cdiv(g->run.n, d->tile_cols);
    }
    d->outputs_per_item = d->has_item ? d->item_rows * d->item_cols : 0;
    d->local_bytes = sizeof(float) * local_floats(l, d);
    groups = g->has_local ? (double)g->groups : (double)(d->groups_m * d->groups_n);
    d->loads_per_flop = d->has_loads && groups > 0 ? (double)d->loads * groups / gemm_flops(g->run) : -1.0;
}

/* Work-items along the rows and the columns of a tile. */
static long long items_m(const struct diagram *d)
{
    return d->tile_rows / d->item_rows;
}

static long long items_n(const struct diagram *d)
{
    return d->tile_cols / d->item_cols;
}

/* Lines of one lesson file that disagree: worth saying, since the drawing trusts them. */
static void check_layout(struct diagram *d)
{
    const struct geometry *g = &d->g;

    if (!g->has_local || !d->has_tile)
        return;
    if ((size_t)(d->groups_m * d->groups_n) != g->groups)
        warn(d, "tiles of %lldx%lld make %lld work-groups, but the NDRange has %zu", d->tile_rows,
             d->tile_cols, d->groups_m * d->groups_n, g->groups);
    if (d->has_item && (d->tile_rows % d->item_rows != 0 || d->tile_cols % d->item_cols != 0 ||
                        (size_t)(items_m(d) * items_n(d)) != g->group_items))
        warn(d, "a tile of %lldx%lld is not %zu work-items of %lldx%lld", d->tile_rows, d->tile_cols,
             g->group_items, d->item_rows, d->item_cols);
}

static void check_limits(struct diagram *d, const struct diagram_limits *lim)
{
    const struct geometry *g = &d->g;

    if (g->has_local && lim->max_group && g->group_items > lim->max_group)
        warn(d, "work-group of %zu work-items exceeds the device's %zu", g->group_items, lim->max_group);
    for (size_t i = 0; g->has_local && i < g->dims; i++)
        if (lim->max_item_sizes[i] && g->local[i] > lim->max_item_sizes[i])
            warn(d, "work-group of %zu work-items in dimension %zu exceeds the device's %zu", g->local[i],
                 i, lim->max_item_sizes[i]);
    if (lim->local_mem && d->local_bytes > lim->local_mem)
        warn(d, "%llu bytes of local memory per work-group exceed the device's %llu", d->local_bytes,
             lim->local_mem);
}

int diagram_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size size,
                    const struct diagram_limits *limits, struct diagram *d, struct error *e)
{
    memset(d, 0, sizeof *d);
    d->loads_per_flop = -1.0;
    if (l->engine == ENGINE_HOST) {
        error_set(e, "the host reference runs on one CPU core: no work-groups");
        return -1;
    }
    if (geometry_compute(l, ps, size, &d->g, e) < 0 || read_layout(l, ps, d, e) < 0)
        return -1;
    count(l, d);
    check_layout(d);
    if (limits)
        check_limits(d, limits);
    return 0;
}

/* ---- the drawing ---- */

#define MAX_COLUMNS 250         /* a character takes at most 4 bytes: a line fits DIAGRAM_LINE_BYTES */
#define MAX_ROWS 200
#define GAP 3                   /* columns between the two panels */
#define GRID_MAX_ROWS 16        /* even a large pane gets a grid that reads at a glance */
#define GRID_MAX_COLUMNS 40
#define COMPACT_COLUMNS 7       /* the grid of the compact drawing */
#define TEXT_LINES 16
#define TEXT_BYTES 256

struct glyphs {
    const char *mark;           /* the first work-group; the first work-item's outputs */
    const char *shade[2];       /* the other cells, alternating so that neighbours stay apart */
    const char *tile;           /* the tiles in local memory */
    const char *more_cols;      /* more cells to the right than are drawn */
    const char *more_rows;      /* more cells below */
};

static const struct glyphs utf8_glyphs = {
    DIAGRAM_MARK_UTF8,
    { "\xe2\x96\x91", "\xe2\x96\x92" },     /* light and medium shade */
    "\xe2\x96\x93",                         /* dark shade */
    "\xe2\x80\xa6",                         /* horizontal ellipsis */
    "\xe2\x8b\xae",                         /* vertical ellipsis */
};
static const struct glyphs ascii_glyphs = { DIAGRAM_MARK_ASCII, { ".", ":" }, "=", ">", "v" };

/* A page of characters, one per column, so that no line can grow past the width. */
struct canvas {
    int rows, cols;
    char (*cell)[5];            /* a UTF-8 character; "" is a blank */
};

static void canvas_init(struct canvas *c, int rows, int cols)
{
    c->rows = rows;
    c->cols = cols;
    c->cell = calloc((size_t)rows * (size_t)cols, sizeof *c->cell);
    if (!c->cell)
        abort();
}

static void canvas_put(struct canvas *c, int row, int col, const char *glyph)
{
    if (row >= 0 && row < c->rows && col >= 0 && col < c->cols)
        snprintf(c->cell[row * c->cols + col], sizeof c->cell[0], "%s", glyph);
}

static void canvas_fill(struct canvas *c, int row, int col, int rows, int cols, const char *glyph)
{
    for (int r = row; r < row + rows; r++)
        for (int k = col; k < col + cols; k++)
            canvas_put(c, r, k, glyph);
}

static void canvas_text(struct canvas *c, int row, int col, const char *text)
{
    while (*text) {
        size_t n = str_prefix(text, 1);
        char glyph[5];
        snprintf(glyph, sizeof glyph, "%.*s", (int)n, text);
        canvas_put(c, row, col++, glyph);
        text += n;
    }
}

/* One row as a line, without trailing blanks. */
static void canvas_line(const struct canvas *c, int row, char *out)
{
    struct str s;
    size_t keep = 0;

    str_init(&s, out, DIAGRAM_LINE_BYTES);
    for (int col = 0; col < c->cols; col++) {
        const char *glyph = c->cell[row * c->cols + col];
        str_appendf(&s, "", "%s", glyph[0] ? glyph : " ");
        if (glyph[0] && strcmp(glyph, " ") != 0)
            keep = s.len;
    }
    out[keep] = '\0';
}

/* Lines of text: labels, figures, warnings. */
struct text {
    char line[TEXT_LINES][TEXT_BYTES];
    int n;
    int width;                  /* columns of the widest line */
};

static void text_add(struct text *t, const char *line)
{
    int columns = (int)str_columns(line, strlen(line));

    if (t->n == TEXT_LINES)
        return;
    snprintf(t->line[t->n++], TEXT_BYTES, "%s", line);
    if (columns > t->width)
        t->width = columns;
}

/* Adds text in lines of at most width columns, broken at blanks; the lines after the first
   start with indent. A word longer than the width is cut where the canvas ends. */
static void text_wrap(struct text *t, const char *text, int width, const char *indent)
{
    char line[TEXT_BYTES];
    struct str s;
    size_t start = 0;           /* where the words of the current line begin */

    str_init(&s, line, sizeof line);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ");
        size_t columns = str_columns(line, s.len) + (s.len > start) + str_columns(p, n);
        if (s.len > start && columns > (size_t)width) {
            text_add(t, line);
            str_init(&s, line, sizeof line);
            str_appendf(&s, "", "%s", indent);
            start = s.len;
        }
        str_appendf(&s, s.len > start ? " " : "", "%.*s", (int)n, p);
        for (p += n; *p == ' '; p++)
            ;
    }
    if (s.len > start)
        text_add(t, line);
}

/* Paints the lines of t from row on; returns the row after them. */
static int paint_text(struct canvas *c, int row, const struct text *t)
{
    for (int i = 0; i < t->n; i++)
        canvas_text(c, row++, 0, t->line[i]);
    return row;
}

/* One side of a grid: its cells along the rows, or along the columns. A cell is marked where
   a MINE row meets a MINE column; MORE stands for the cells not drawn. */
enum segment_kind { MINE, OTHER, MORE };

struct segment {
    enum segment_kind kind;
    int parity;                 /* neighbouring cells get different shades */
    int len;                    /* rows or columns */
};

#define TRACK_SEGMENTS 64

struct track {
    struct segment seg[TRACK_SEGMENTS];
    int n, len;
};

static void track_add(struct track *t, enum segment_kind kind, int parity, int len)
{
    if (t->n == TRACK_SEGMENTS)
        return;
    t->seg[t->n++] = (struct segment){ kind, parity, len };
    t->len += len;
}

/* How many of count cells of len fit in max_len, with room for a MORE mark when not all do. */
static long long cells_shown(long long count, int len, int max_len)
{
    long long shown = count;

    if (count * len > max_len)
        shown = (max_len - 1) / len;
    if (shown > TRACK_SEGMENTS / 2 - 1)
        shown = TRACK_SEGMENTS / 2 - 1;
    return shown > 0 ? shown : 1;
}

/* units cells side by side (work-groups, or work-items of one block each), the first marked
   when mark. */
static void track_units(struct track *t, long long units, int len, bool mark, int max_len)
{
    long long shown = cells_shown(units, len, max_len);

    memset(t, 0, sizeof *t);
    for (long long i = 0; i < shown; i++)
        track_add(t, i == 0 && mark ? MINE : OTHER, (int)(i % 2), len);
    if (shown < units && t->len < max_len)
        track_add(t, MORE, 0, 1);
}

/* A work-item whose block comes in rounds runs (lessons/FORMAT, item-run): in each round its
   run, marked, then those of the other work-items, as one cell. */
static void track_runs(struct track *t, long long rounds, int len, int max_len)
{
    long long shown = cells_shown(rounds, 2 * len, max_len);

    memset(t, 0, sizeof *t);
    for (long long i = 0; i < shown; i++) {
        track_add(t, MINE, 0, len);
        track_add(t, OTHER, 1, len);
    }
    if (shown < rounds && t->len < max_len)
        track_add(t, MORE, 0, 1);
}

static bool track_complete(const struct track *t)
{
    return t->n == 0 || t->seg[t->n - 1].kind != MORE;
}

static void paint_cell(struct canvas *c, int row, int col, const struct segment *r, const struct segment *k,
                       const struct glyphs *g)
{
    if (r->kind == MORE) {
        if (k->kind != MORE)
            canvas_put(c, row, col, g->more_rows);  /* one under each column of cells */
    } else if (k->kind == MORE) {
        canvas_fill(c, row, col, r->len, 1, g->more_cols);
    } else {
        bool mine = r->kind == MINE && k->kind == MINE;
        canvas_fill(c, row, col, r->len, k->len, mine ? g->mark : g->shade[(r->parity + k->parity) % 2]);
    }
}

static void paint_grid(struct canvas *c, int top, int left, const struct track *rows,
                       const struct track *cols, const struct glyphs *g)
{
    int row = top;

    for (int i = 0; i < rows->n; i++) {
        int col = left, last_more = -2;
        for (int j = 0; j < cols->n; j++) {
            /* Under cells one column wide, a mark under every other one reads as "more". */
            if (rows->seg[i].kind != MORE || col - last_more >= 2) {
                paint_cell(c, row, col, &rows->seg[i], &cols->seg[j], g);
                last_more = col;
            }
            col += cols->seg[j].len;
        }
        row += rows->seg[i].len;
    }
}

/* Columns and rows of a cell showing a block of rows x cols. A character is about twice as
   tall as it is wide; the aspect is compressed (square root) so that a row of C, 1 x 1024,
   stays a band without taking the whole pane. */
static void cell_shape(long long rows, long long cols, int *w, int *h)
{
    double ratio = 2.0 * sqrt((double)cols / (double)rows);

    *w = ratio >= 1.0 ? (int)lround(ratio) : 1;
    *h = ratio >= 1.0 ? 1 : (int)lround(1.0 / ratio);
}

/* units_m x units_n cells of w x h, enlarged (up to 3 times) while all of them still fit. */
static void grid_units(struct track *rows, struct track *cols, long long units_m, long long units_n,
                       int w, int h, bool mark, int max_w, int max_h)
{
    if (w > max_w)
        w = max_w;
    if (h > max_h)
        h = max_h;
    for (int scale = 3; scale >= 1; scale--) {
        track_units(rows, units_m, h * scale, mark, max_h);
        track_units(cols, units_n, w * scale, mark, max_w);
        if (track_complete(rows) && track_complete(cols) && rows->len <= max_h && cols->len <= max_w)
            return;
    }
}

/* A panel: a title, a grid under it, and the tiles in local memory left of and above the grid. */
struct panel {
    struct text title;
    struct track rows, cols;
    int a_w, a_h, b_w, b_h;
    int width, height;
};

static int grid_left(const struct panel *p)
{
    return p->a_w > 0 ? p->a_w + 1 : 0;
}

static void panel_measure(struct panel *p)
{
    int grid_w = grid_left(p) + p->cols.len;

    p->width = p->title.width > grid_w ? p->title.width : grid_w;
    p->height = p->title.n + p->b_h + p->rows.len;
}

static void paint_panel(struct canvas *c, int top, int left, const struct panel *p, const struct glyphs *g)
{
    int row = top + p->title.n;

    for (int i = 0; i < p->title.n; i++)
        canvas_text(c, top + i, left, p->title.line[i]);
    canvas_fill(c, row, left + grid_left(p), p->b_h, p->b_w, g->tile);
    row += p->b_h;
    canvas_fill(c, row, left, p->a_h, p->a_w, g->tile);
    paint_grid(c, row, left + grid_left(p), &p->rows, &p->cols, g);
}

/* ---- what the labels say ---- */

/* Whether the lesson says anything of its layout: if not, its __local arrays are unknown. */
static bool describes_layout(const struct diagram *d)
{
    return d->has_tile || d->has_item || d->has_local_a || d->has_local_b || d->has_loads;
}

static bool runs_spread(const struct diagram *d)
{
    return d->has_item && (d->run_rows < d->item_rows || d->run_cols < d->item_cols);
}

static void say_size(const struct diagram *d, char *buf, size_t len)
{
    snprintf(buf, len, "C %lldx%lld", d->g.asked.m, d->g.asked.n);
}

static void say_padding(const struct diagram *d, char *buf, size_t len)
{
    const struct gemm_size *r = &d->g.run;

    snprintf(buf, len, "padded to %lldx%lldx%lld", r->m, r->n, r->k);
}

/* Lessons that handle the edges in the kernel run whole tiles that stick out of C. */
static bool sticks_out(const struct diagram *d)
{
    return d->has_tile &&
           (d->groups_m * d->tile_rows != d->g.run.m || d->groups_n * d->tile_cols != d->g.run.n);
}

static void say_groups(const struct diagram *d, bool brief, char *buf, size_t len)
{
    const char *what = brief ? "groups" : "work-groups";
    struct str s;

    str_init(&s, buf, len);
    if (d->has_tile)
        str_appendf(&s, "", "%lldx%lld %s of %lldx%lld", d->groups_m, d->groups_n, what, d->tile_rows,
                    d->tile_cols);
    else if (d->g.has_local)
        str_appendf(&s, "", "%zu %s", d->g.groups, what);
    else
        str_appendf(&s, "", brief ? "%s left to OpenCL" : "%s of the implementation's choice", what);
    if (!brief && sticks_out(d))
        str_appendf(&s, "", " covering %lldx%lld", d->groups_m * d->tile_rows, d->groups_n * d->tile_cols);
}

static void say_items(const struct diagram *d, bool brief, char *buf, size_t len)
{
    const char *what = brief ? "items" : "work-items";

    if (d->has_item && d->tile_rows % d->item_rows == 0 && d->tile_cols % d->item_cols == 0)
        snprintf(buf, len, "%lldx%lld %s of %lldx%lld", items_m(d), items_n(d), what, d->item_rows,
                 d->item_cols);
    else if (d->g.has_local)
        snprintf(buf, len, "%zu %s", d->g.group_items, what);
    else
        snprintf(buf, len, brief ? "%s left to OpenCL" : "%s of the implementation's choice", what);
}

/* "in runs of 4, 64 apart" or "16 apart": how one work-item's rows (or columns) lie. */
static void say_runs(struct str *s, long long run, long long step)
{
    if (run > 1)
        str_appendf(s, "", " in runs of %lld,", run);
    str_appendf(s, "", " %lld apart", step);
}

/* Where one work-item's outputs lie when they are not one block. */
static void say_spread(const struct diagram *d, char *buf, size_t len)
{
    bool rows = d->run_rows < d->item_rows, cols = d->run_cols < d->item_cols;
    long long step_rows = d->run_rows * items_m(d), step_cols = d->run_cols * items_n(d);
    struct str s;

    str_init(&s, buf, len);
    if (rows && cols && (d->run_rows != d->run_cols || step_rows != step_cols)) {
        str_appendf(&s, "", "a work-item's rows are");
        say_runs(&s, d->run_rows, step_rows);
        str_appendf(&s, "", ", its columns");
        say_runs(&s, d->run_cols, step_cols);
        return;
    }
    str_appendf(&s, "", "a work-item's %s are",
                rows && cols ? "rows and columns" : rows ? "rows" : "columns");
    if (rows)
        say_runs(&s, d->run_rows, step_rows);
    else
        say_runs(&s, d->run_cols, step_cols);
}

static void say_local(const struct diagram *d, bool brief, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    str_appendf(&s, "", "local");
    if (brief && d->local_copies > 1)
        str_appendf(&s, "", " x%lld", d->local_copies);
    str_appendf(&s, "", ":");
    if (d->has_local_a)
        str_appendf(&s, " ", "A %lldx%lld", d->local_a_rows, d->local_a_cols);
    if (d->has_local_b)
        str_appendf(&s, d->has_local_a ? ", " : " ", "B %lldx%lld", d->local_b_rows, d->local_b_cols);
    if (!brief && d->local_copies > 1)
        str_appendf(&s, "", ", %lld copies", d->local_copies);
    if (!d->has_local_a && !d->has_local_b && d->local_bytes)
        str_appendf(&s, " ", "%llu bytes", d->local_bytes);
    else if (!d->has_local_a && !d->has_local_b)
        str_appendf(&s, " ", describes_layout(d) ? "none" : "unknown");
}

/* ---- the panels and the compact drawing ---- */

/* C cut into work-groups, within height and, but for a long word, width; false when the grid
   gets less than two rows. */
static bool plan_c(const struct diagram *d, int width, int height, struct panel *p)
{
    char say[TEXT_BYTES];
    int w, h, max_w = width < GRID_MAX_COLUMNS ? width : GRID_MAX_COLUMNS, max_h;

    memset(p, 0, sizeof *p);
    say_size(d, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    if (d->g.padded) {
        say_padding(d, say, sizeof say);
        text_wrap(&p->title, say, width, "");
    }
    say_groups(d, false, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    max_h = height - p->title.n < GRID_MAX_ROWS ? height - p->title.n : GRID_MAX_ROWS;
    if (max_h < 2 || max_w < 4)
        return false;
    if (d->has_tile) {
        cell_shape(d->tile_rows, d->tile_cols, &w, &h);
        grid_units(&p->rows, &p->cols, d->groups_m, d->groups_n, w, h, true, max_w, max_h);
    } else {
        cell_shape(d->g.run.m, d->g.run.n, &w, &h);
        grid_units(&p->rows, &p->cols, 1, 1, w * max_h / h, max_h, false, max_w, max_h);
    }
    panel_measure(p);
    return true;                /* as wide as its longest word: the caller sees p->width */
}

/* The tracks of one work-group's tile: its work-items, as one block each or in runs. */
static void plan_items(const struct diagram *d, struct panel *p, int max_w, int max_h)
{
    int w, h;

    if (!d->has_item) {
        cell_shape(d->tile_rows, d->tile_cols, &w, &h);
        grid_units(&p->rows, &p->cols, 1, 1, w * max_h / h, max_h, false, max_w, max_h);
        return;
    }
    if (!runs_spread(d)) {
        cell_shape(d->item_rows, d->item_cols, &w, &h);
        grid_units(&p->rows, &p->cols, items_m(d), items_n(d), w, h, true, max_w, max_h);
        return;
    }
    /* Each dimension in runs or as blocks; cells of 2 columns by 1 row, enlarged while all fit. */
    for (int scale = 3; scale >= 1; scale--) {
        if (d->run_rows < d->item_rows)
            track_runs(&p->rows, d->item_rows / d->run_rows, scale, max_h);
        else
            track_units(&p->rows, items_m(d), scale, true, max_h);
        if (d->run_cols < d->item_cols)
            track_runs(&p->cols, d->item_cols / d->run_cols, 2 * scale, max_w);
        else
            track_units(&p->cols, items_n(d), 2 * scale, true, max_w);
        if (track_complete(&p->rows) && track_complete(&p->cols) && p->rows.len <= max_h &&
            p->cols.len <= max_w)
            return;
    }
}

static int clamp(long v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : (int)v;
}

/* A tile of local memory beside the grid: as long as the grid where they share a dimension of
   C, scaled like it along K. */
static void plan_tiles(const struct diagram *d, struct panel *p, int a_max, int b_max)
{
    double per_row = (double)p->rows.len / (double)d->tile_rows;
    double per_col = (double)p->cols.len / (double)d->tile_cols;

    if (d->has_local_a) {
        p->a_w = clamp(lround(per_col * (double)d->local_a_cols), 1, a_max);
        p->a_h = clamp(lround(per_row * (double)d->local_a_rows), 1, p->rows.len);
    }
    if (d->has_local_b) {
        p->b_h = clamp(lround(per_row * (double)d->local_b_rows), 1, b_max);
        p->b_w = clamp(lround(per_col * (double)d->local_b_cols), 1, p->cols.len);
    }
}

/* One work-group cut into its work-items, with its tiles in local memory, within width x
   height; false when it does not fit. */
static bool plan_group(const struct diagram *d, int width, int height, struct panel *p)
{
    char say[TEXT_BYTES];
    int room, a_max = 0, b_max = 0, max_w, max_h;

    memset(p, 0, sizeof *p);
    if (width < 8)
        return false;
    snprintf(say, sizeof say, "one work-group: %lldx%lld of C", d->tile_rows, d->tile_cols);
    text_wrap(&p->title, say, width, "");
    say_items(d, false, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    if (runs_spread(d)) {
        say_spread(d, say, sizeof say);
        text_wrap(&p->title, say, width, "");
    }
    say_local(d, false, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    room = height - p->title.n;
    /* Room for the tiles, in proportion to the tile of C they stand beside. */
    if (d->has_local_b) {
        double share = (double)d->local_b_rows / (double)(d->tile_rows + d->local_b_rows);
        b_max = clamp(lround(room * share), 1, 3);
    }
    if (d->has_local_a) {
        double share = (double)d->local_a_cols / (double)(d->tile_cols + d->local_a_cols);
        a_max = clamp(lround(width * share), 1, width / 3);
    }
    max_h = room - b_max < GRID_MAX_ROWS ? room - b_max : GRID_MAX_ROWS;
    max_w = width - (a_max ? a_max + 1 : 0);
    if (max_w > GRID_MAX_COLUMNS)
        max_w = GRID_MAX_COLUMNS;
    if (max_h < 2 || max_w < 4)
        return false;
    plan_items(d, p, max_w, max_h);
    plan_tiles(d, p, a_max, b_max);
    panel_measure(p);
    return p->width <= width && p->height <= height;
}

/* For a small pane: a few rows of the grid of work-groups, each beside a line of text. */
static int paint_compact(const struct diagram *d, struct canvas *c, int room, const struct glyphs *g)
{
    struct text t = { .n = 0 };
    struct track rows, cols;
    char say[TEXT_BYTES], part[TEXT_BYTES / 2];
    int w, h;

    say_groups(d, true, part, sizeof part);
    snprintf(say, sizeof say, "C: %s", part);
    text_add(&t, say);
    if (d->has_tile) {
        say_items(d, true, part, sizeof part);
        snprintf(say, sizeof say, "group: %s", part);
        text_add(&t, say);
    }
    if (d->g.padded) {
        say_padding(d, say, sizeof say);
        text_add(&t, say);
    }
    say_local(d, true, say, sizeof say);
    text_add(&t, say);
    if (t.n > room)
        t.n = room;
    if (d->has_tile) {
        cell_shape(d->tile_rows, d->tile_cols, &w, &h);
        track_units(&rows, d->groups_m, 1, true, t.n);
        track_units(&cols, d->groups_n, w < COMPACT_COLUMNS ? w : COMPACT_COLUMNS, true, COMPACT_COLUMNS);
    } else {
        track_units(&rows, 1, t.n, false, t.n);
        track_units(&cols, 1, COMPACT_COLUMNS - 1, false, COMPACT_COLUMNS);
    }
    paint_grid(c, 0, 0, &rows, &cols, g);
    for (int i = 0; i < t.n; i++)
        canvas_text(c, i, cols.len + 1, t.line[i]);
    return t.n > rows.len ? t.n : rows.len;
}

/* The drawing, in the first room rows of the canvas; returns the rows it takes. */
static int paint_picture(const struct diagram *d, struct canvas *c, int room, const struct glyphs *g)
{
    struct panel pc, pg;

    if (d->has_tile && plan_c(d, (c->cols - GAP) * 2 / 5, room, &pc) &&
        pc.width + GAP < c->cols && plan_group(d, c->cols - GAP - pc.width, room, &pg)) {
        paint_panel(c, 0, 0, &pc, g);
        paint_panel(c, 0, pc.width + GAP, &pg, g);
        return pc.height > pg.height ? pc.height : pg.height;
    }
    if (!d->has_tile && plan_c(d, c->cols, room, &pc) && pc.width <= c->cols) {
        paint_panel(c, 0, 0, &pc, g);
        return pc.height;
    }
    return paint_compact(d, c, room, g);
}

/* ---- the figures as lines ---- */

static void figure(struct text *t, int width, const char *label, const char *value, const char *brief)
{
    char line[TEXT_BYTES];

    snprintf(line, sizeof line, "%-15s %s", label, value);
    if (brief && (int)str_columns(line, strlen(line)) > width)
        snprintf(line, sizeof line, "%-15s %s", label, brief);
    text_add(t, line);
}

static void say_dims(const size_t *dims, size_t count, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t i = 0; i < count; i++)
        str_appendf(&s, " x ", "%zu", dims[i]);
}

/* "16896 B (16.5 KiB)" */
static void say_bytes(unsigned long long bytes, char *buf, size_t len)
{
    char kib[32];
    size_t n;

    if (bytes == 0) {
        snprintf(buf, len, "none");
        return;
    }
    if (bytes < 1024) {
        snprintf(buf, len, "%llu B", bytes);
        return;
    }
    snprintf(kib, sizeof kib, "%.2f", (double)bytes / 1024.0);
    for (n = strlen(kib); kib[n - 1] == '0'; n--)
        ;
    if (kib[n - 1] == '.')
        n--;
    snprintf(buf, len, "%llu B (%.*s KiB)", bytes, (int)n, kib);
}

/* "0.00781 (1/128)": the fraction where it is exact, as it is for whole tiles. */
static void say_ratio(double ratio, char *buf, size_t len)
{
    double inverse = 1.0 / ratio;

    if (ratio <= 0.5 && fabs(inverse - round(inverse)) < 1e-9 * inverse)
        snprintf(buf, len, "%.3g (1/%.0f)", ratio, inverse);
    else
        snprintf(buf, len, "%.3g", ratio);
}

/* Without layout lines the kernel's own __local arrays are unknown: only the arguments count. */
static void say_local_bytes(const struct diagram *d, struct text *t, int width)
{
    const char *label = "local mem/group";
    char value[TEXT_BYTES / 4], more[TEXT_BYTES / 2], brief[TEXT_BYTES / 2];

    say_bytes(d->local_bytes, value, sizeof value);
    if (describes_layout(d)) {
        figure(t, width, label, value, NULL);
    } else if (d->local_bytes) {
        snprintf(more, sizeof more, "at least %s", value);
        snprintf(brief, sizeof brief, "at least %llu B", d->local_bytes);
        figure(t, width, label, more, brief);
    } else {
        figure(t, width, label, "unknown (no local-a line)", "unknown");
    }
}

static void figure_text(const struct diagram *d, int width, struct text *t)
{
    const struct geometry *g = &d->g;
    const char *choice = "chosen by the implementation", *brief_choice = "implementation's";
    char value[TEXT_BYTES / 2];
    long long groups;

    say_dims(g->global, g->dims, value, sizeof value);
    figure(t, width, "global", value, NULL);
    say_dims(g->local, g->dims, value, sizeof value);
    figure(t, width, "local", g->has_local ? value : choice, brief_choice);
    groups = g->has_local ? (long long)g->groups : d->groups_m * d->groups_n;
    snprintf(value, sizeof value, "%lld", groups);
    figure(t, width, "groups", groups > 0 ? value : choice, brief_choice);
    snprintf(value, sizeof value, "%zu", g->group_items);
    figure(t, width, "items/group", g->has_local ? value : choice, brief_choice);
    say_local_bytes(d, t, width);
    snprintf(value, sizeof value, "%lld (%lld x %lld)", d->outputs_per_item, d->item_rows, d->item_cols);
    figure(t, width, "outputs/item", d->has_item ? value : "unknown (no item line)", "unknown");
    if (d->loads_per_flop >= 0)
        say_ratio(d->loads_per_flop, value, sizeof value);
    figure(t, width, "loads/flop", d->loads_per_flop >= 0 ? value : "unknown (no loads line)", "unknown");
}

static void warning_text(const struct diagram *d, int width, struct text *t)
{
    char line[TEXT_BYTES];

    for (int i = 0; i < d->nwarnings; i++) {
        snprintf(line, sizeof line, "! %s", d->warnings[i]);
        text_wrap(t, line, width, "  ");
    }
}

size_t diagram_draw(const struct diagram *d, int width, size_t max_lines, bool utf8,
                    char (*lines)[DIAGRAM_LINE_BYTES])
{
    const struct glyphs *g = utf8 ? &utf8_glyphs : &ascii_glyphs;
    int cols = width < MAX_COLUMNS ? width : MAX_COLUMNS;
    int rows = max_lines < MAX_ROWS ? (int)max_lines : MAX_ROWS;
    struct text figures = { .n = 0 }, warnings = { .n = 0 };
    struct canvas c;
    int room, used = 0;

    if (cols <= 0 || rows <= 0)
        return 0;
    figure_text(d, cols, &figures);
    warning_text(d, cols, &warnings);
    canvas_init(&c, rows, cols);
    room = rows - figures.n - warnings.n;
    if (room > 0)
        used = paint_picture(d, &c, room, g);
    if (used > 0 && used < room)
        used++;                 /* a blank line before the figures */
    used = paint_text(&c, used, &figures);
    used = paint_text(&c, used, &warnings);
    if (used > rows)
        used = rows;
    for (int i = 0; i < used; i++)
        canvas_line(&c, i, lines[i]);
    free(c.cell);
    return (size_t)used;
}
