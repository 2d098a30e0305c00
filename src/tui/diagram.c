/* diagram.c: a text drawing of C cut into work-groups and of one work-group cut into
   work-items, from the lesson's figures (figures.c). */
#include "diagram.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/canvas.h"
#include "engine/str.h"
#include "engine/xalloc.h"

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
    const char *tile_a, *tile_b;    /* the tiles in local memory: unlike without colour */
    const char *pad;            /* C beyond the size asked for */
    const char *more_cols;      /* more cells to the right than are drawn */
    const char *more_rows;      /* more cells below */
};

static const struct glyphs utf8_glyphs = {
    DIAGRAM_MARK_UTF8,
    { "\xe2\x96\x91", "\xe2\x96\x92" },     /* light and medium shade */
    DIAGRAM_TILE_A_UTF8,
    DIAGRAM_TILE_B_UTF8,
    DIAGRAM_PAD_UTF8,
    "\xe2\x80\xa6",                         /* horizontal ellipsis */
    "\xe2\x8b\xae",                         /* vertical ellipsis */
};
static const struct glyphs ascii_glyphs = {
    DIAGRAM_MARK_ASCII, { ".", ":" }, DIAGRAM_TILE_A_ASCII, DIAGRAM_TILE_B_ASCII, DIAGRAM_PAD_ASCII, ">", "v",
};

enum diagram_glyph diagram_glyph_at(const char *s, bool utf8, size_t *len)
{
    const struct glyphs *g = utf8 ? &utf8_glyphs : &ascii_glyphs;
    const struct {
        const char *glyph;
        enum diagram_glyph kind;
    } kinds[] = {
        { g->mark, DIAGRAM_GLYPH_MARK },
        { g->tile_a, DIAGRAM_GLYPH_TILE_A },
        { g->tile_b, DIAGRAM_GLYPH_TILE_B },
        { g->pad, DIAGRAM_GLYPH_PAD },
    };

    *len = str_prefix(s, 1);
    for (size_t i = 0; *len && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strlen(kinds[i].glyph) == *len && memcmp(s, kinds[i].glyph, *len) == 0)
            return kinds[i].kind;
    return DIAGRAM_GLYPH_TEXT;
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

/* v within lo..hi, as an int: a value from a lesson file may be beyond any int. */
static int clamp(double v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : (int)v;
}

/* One side of a grid: its cells along the rows, or along the columns. A cell is marked where
   a MINE row meets a MINE column; MORE stands for the cells not drawn. */
enum segment_kind { MINE, OTHER, MORE };

struct segment {
    enum segment_kind kind;
    int parity;                 /* neighbouring cells get different shades */
    int len;                    /* rows or columns */
    long long first, per;       /* the rows (columns) of C it stands for: per from first; per 0: not told */
};

#define TRACK_SEGMENTS 64

struct track {
    struct segment seg[TRACK_SEGMENTS];
    int n, len;
};

static void track_add(struct track *t, enum segment_kind kind, int parity, int len, long long first,
                      long long per)
{
    if (t->n == TRACK_SEGMENTS)
        return;
    t->seg[t->n++] = (struct segment){ kind, parity, len, first, per };
    t->len += len;
}

/* How many of count cells of len fit in max_len, with room for a MORE mark when not all do. */
static long long cells_shown(long long count, int len, int max_len)
{
    long long shown = count;

    if (count > max_len / len)
        shown = (max_len - 1) / len;
    if (shown > TRACK_SEGMENTS / 2 - 1)
        shown = TRACK_SEGMENTS / 2 - 1;
    return shown > 0 ? shown : 1;
}

/* units cells side by side (work-groups, or work-items of one block each), each standing for
   per rows (columns) of C, the first marked when mark. When not all fit and keep_last, the
   last one is drawn after the MORE mark, so that the edge of C shows. */
static void track_units(struct track *t, long long units, long long per, int len, bool mark, bool keep_last,
                        int max_len)
{
    long long shown = cells_shown(units, len, max_len);
    bool last = keep_last && shown < units && shown >= 2;

    memset(t, 0, sizeof *t);
    for (long long i = 0; i < shown - last; i++)
        track_add(t, i == 0 && mark ? MINE : OTHER, (int)(i % 2), len, i * per, per);
    if (shown < units && t->len < max_len)
        track_add(t, MORE, 0, 1, 0, 0);
    if (last)
        track_add(t, OTHER, (int)((units - 1) % 2), len, (units - 1) * per, per);
}

/* A work-item whose block comes in rounds runs of run rows (columns), stride apart, in a tile
   of tile (lessons/FORMAT, item-run and item-stride): in each round its run, marked, then the
   runs of the other work-items up to its next one, as one cell. Where the runs of the tile's
   work-items take turns over the whole tile, that cell after its last run reaches the tile's
   end. Where they take turns over a part of it (a stride shorter than that), the rest of the
   tile, beyond its last run, is one longer cell (up to 3 times as long, by how many strides it
   holds); no cell stands for a gap of no rows (stride = run). */
static void track_runs(struct track *t, long long rounds, long long run, long long stride, long long tile,
                       int len, int max_len)
{
    long long gap = stride - run, rest = tile - ((rounds - 1) * stride + run), shown;
    int unit = gap > 0 ? 2 * len : len, rest_len = 0;

    memset(t, 0, sizeof *t);
    if (rest == gap) {
        shown = cells_shown(rounds, 2 * len, max_len);
        for (long long i = 0; i < shown; i++) {
            track_add(t, MINE, 0, len, 0, 0);
            track_add(t, OTHER, 1, len, 0, 0);
        }
        if (shown < rounds && t->len < max_len)
            track_add(t, MORE, 0, 1, 0, 0);
        return;
    }
    if (rest > 0)
        rest_len = len * clamp(round((double)rest / (double)stride), 1, 3);
    while (rest_len > len && rest_len + unit > max_len)
        rest_len -= len;
    shown = cells_shown(rounds, unit, max_len - rest_len);
    for (long long i = 0; i < shown; i++) {
        track_add(t, MINE, 0, len, 0, 0);
        if (gap > 0 && i < rounds - 1)
            track_add(t, OTHER, 1, len, 0, 0);
    }
    if (shown < rounds && t->len < max_len - rest_len)
        track_add(t, MORE, 0, 1, 0, 0);
    if (rest_len > 0)
        track_add(t, OTHER, 1, rest_len, 0, 0);
}

static bool track_complete(const struct track *t)
{
    for (int i = 0; i < t->n; i++)
        if (t->seg[i].kind == MORE)
            return false;
    return true;
}

/* Whether the i-th row (column) of a segment lies at or past edge, a row (column) of C;
   edge 0: no edge. */
static bool beyond(const struct segment *s, int i, long long edge)
{
    return edge > 0 && s->per > 0 &&
           (double)s->first + ((double)i + 0.5) * (double)s->per / (double)s->len >= (double)edge;
}

/* C's edges in a grid of work-groups: what lies beyond them is drawn as padding. */
struct edges {
    long long rows, cols;       /* 0: none */
};

static void paint_cell(struct canvas *c, int row, int col, const struct segment *r, const struct segment *k,
                       const struct glyphs *g, const struct edges *edge)
{
    if (r->kind == MORE) {
        if (k->kind != MORE)
            canvas_put(c, row, col, g->more_rows);  /* one under each column of cells */
    } else if (k->kind == MORE) {
        canvas_fill(c, row, col, r->len, 1, g->more_cols);
    } else {
        /* The padding shows in the marked cell too, but for its first character, so that the
           mark stays where the whole cell is padding but for a sliver. */
        bool mine = r->kind == MINE && k->kind == MINE;
        for (int i = 0; i < r->len; i++)
            for (int j = 0; j < k->len; j++)
                canvas_put(c, row + i, col + j,
                           (beyond(r, i, edge->rows) || beyond(k, j, edge->cols)) && (!mine || i + j > 0) ? g->pad
                           : mine ? g->mark
                                  : g->shade[(r->parity + k->parity) % 2]);
    }
}

static void paint_grid(struct canvas *c, int top, int left, const struct track *rows,
                       const struct track *cols, const struct glyphs *g, const struct edges *edge)
{
    int row = top;

    for (int i = 0; i < rows->n; i++) {
        int col = left, last_more = -2;
        for (int j = 0; j < cols->n; j++) {
            /* Under cells one column wide, a mark under every other one reads as "more". */
            if (rows->seg[i].kind != MORE || col - last_more >= 2) {
                paint_cell(c, row, col, &rows->seg[i], &cols->seg[j], g, edge);
                last_more = col;
            }
            col += cols->seg[j].len;
        }
        row += rows->seg[i].len;
    }
}

/* Columns and rows of a cell showing a block of rows x cols. A character is about twice as
   tall as it is wide; the aspect is compressed (square root) so that a row of C, 1 x 1024,
   stays a band without taking the whole pane. Neither is more than a canvas holds, whatever
   the block (a lesson file may give a tile of 1 x 2^62). */
static void cell_shape(long long rows, long long cols, int *w, int *h)
{
    double ratio = 2.0 * sqrt((double)cols / (double)rows);

    *w = ratio >= 1.0 ? clamp(round(ratio), 1, MAX_COLUMNS) : 1;
    *h = ratio >= 1.0 ? 1 : clamp(round(1.0 / ratio), 1, MAX_ROWS);
}

/* units_m x units_n cells of w x h, each standing for per_m x per_n of C, enlarged (up to 3
   times) while all of them still fit. */
static void grid_units(struct track *rows, struct track *cols, long long units_m, long long units_n,
                       long long per_m, long long per_n, int w, int h, bool mark, bool keep_last, int max_w,
                       int max_h)
{
    /* At least 1: a cell stretched to the pane's height, w * max_h / h, can round to 0. */
    w = clamp(w, 1, max_w);
    h = clamp(h, 1, max_h);
    for (int scale = 3; scale >= 1; scale--) {
        track_units(rows, units_m, per_m, h * scale, mark, keep_last, max_h);
        track_units(cols, units_n, per_n, w * scale, mark, keep_last, max_w);
        if (track_complete(rows) && track_complete(cols) && rows->len <= max_h && cols->len <= max_w)
            return;
    }
}

/* A panel: a title, a grid under it, and the tiles in local memory left of and above the grid. */
struct panel {
    struct text title;
    struct track rows, cols;
    struct edges edge;          /* where C ends in a grid of work-groups */
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
    canvas_fill(c, row, left + grid_left(p), p->b_h, p->b_w, g->tile_b);
    row += p->b_h;
    canvas_fill(c, row, left, p->a_h, p->a_w, g->tile_a);
    paint_grid(c, row, left + grid_left(p), &p->rows, &p->cols, g, &p->edge);
}

/* ---- what the labels say ---- */

/* Whether the lesson says anything of its layout: if not, its __local arrays are unknown. */
static bool describes_layout(const struct figures *d)
{
    return d->has_tile || d->has_item || d->has_local_a || d->has_local_b || d->has_loads;
}

static bool runs_spread(const struct figures *d)
{
    return d->has_item && (d->run_rows < d->item_rows || d->run_cols < d->item_cols);
}

/* "60%": never 0% or 100% for a share that is neither. */
static void say_share(double share, char *buf, size_t len)
{
    double percent = 100.0 * share;

    if (percent < 0.5)
        snprintf(buf, len, "under 1%%");
    else if (percent >= 99.5)
        snprintf(buf, len, "over 99%%");
    else
        snprintf(buf, len, "%.0f%%", percent);
}

static void say_size(const struct figures *d, char *buf, size_t len)
{
    snprintf(buf, len, "C %lldx%lld", d->g.asked.m, d->g.asked.n);
}

/* Lessons that handle the edges in the kernel run whole tiles that stick out of C. */
static bool sticks_out(const struct figures *d)
{
    return d->has_tile && (d->cover_rows != d->g.run.m || d->cover_cols != d->g.run.n);
}

/* Whether the grid of work-groups has a part beyond the C asked for. */
static bool beyond_c(const struct figures *d)
{
    return d->has_tile && (d->cover_rows > d->g.asked.m || d->cover_cols > d->g.asked.n);
}

/* The padding's key: "╱ padded to 128x128x32: 60% of the work", or when brief "╱ padding:
   60% of the work"; without the glyph where only K is padded, which the grid cannot show. */
static void say_padding(const struct figures *d, const struct glyphs *g, bool brief, char *buf, size_t len)
{
    const struct gemm_size *r = &d->g.run;
    const char *glyph = beyond_c(d) ? g->pad : "", *blank = beyond_c(d) ? " " : "";
    char share[16];

    say_share(d->padding_share, share, sizeof share);
    if (brief)
        snprintf(buf, len, "%s%spadding: %s of the work", glyph, blank, share);
    else
        snprintf(buf, len, "%s%spadded to %lldx%lldx%lld: %s of the work", glyph, blank, r->m, r->n, r->k, share);
}

static void say_groups(const struct figures *d, bool brief, char *buf, size_t len)
{
    const char *what = brief ? "groups" : "work-groups";
    bool split = d->has_tile && d->k_split > 1 && d->k_split_tiles > 0;
    struct str s;

    str_init(&s, buf, len);
    /* The last tiles in pieces: k-split-groups is not k-split-tiles x k-split (compared by
       division: that product need not fit in 64 bits). */
    if (d->has_tile && d->k_split_groups >= 0 && d->k_split_tiles > 0 &&
        (d->k_split_groups % d->k_split != 0 || d->k_split_groups / d->k_split != d->k_split_tiles))
        str_appendf(&s, "", "%lldx%lld tiles of %lldx%lld, the last %lld in %lld pieces", d->groups_m,
                    d->groups_n, d->tile_rows, d->tile_cols, d->k_split_tiles, d->k_split_groups);
    else if (split && d->k_split_tiles < d->tile_groups)  /* only the last tiles split */
        str_appendf(&s, "", "%lldx%lld tiles of %lldx%lld, the last %lld split %lld ways", d->groups_m,
                    d->groups_n, d->tile_rows, d->tile_cols, d->k_split_tiles, d->k_split);
    else if (split)                         /* several groups per tile, along K */
        str_appendf(&s, "", "%lldx%lldx%lld %s of %lldx%lld", d->groups_m, d->groups_n, d->k_split, what,
                    d->tile_rows, d->tile_cols);
    else if (d->has_tile)
        str_appendf(&s, "", "%lldx%lld %s of %lldx%lld", d->groups_m, d->groups_n, what, d->tile_rows,
                    d->tile_cols);
    else if (d->g.launch[0].has_local)
        str_appendf(&s, "", "%zu %s", d->g.launch[0].groups, what);
    else
        str_appendf(&s, "", brief ? "%s left to OpenCL" : "%s of the implementation's choice", what);
    if (!brief && sticks_out(d))
        str_appendf(&s, "", " covering %lldx%lld", d->cover_rows, d->cover_cols);
}

static void say_items(const struct figures *d, bool brief, char *buf, size_t len)
{
    const char *what = brief ? "items" : "work-items";

    if (d->has_item && d->tile_items > 0)
        snprintf(buf, len, "%lldx%lld %s of %lldx%lld", d->tile_items_m, d->tile_items_n, what, d->item_rows,
                 d->item_cols);
    else if (d->g.launch[0].has_local)
        snprintf(buf, len, "%zu %s", d->g.launch[0].group_items, what);
    else
        snprintf(buf, len, brief ? "%s left to OpenCL" : "%s of the implementation's choice", what);
}

/* "in runs of 4, 64 apart" or "16 apart": how one work-item's rows (or columns) lie, step
   from the start of one run to the next. */
static void say_runs(struct str *s, long long run, long long step)
{
    if (run > 1)
        str_appendf(s, "", " in runs of %lld,", run);
    str_appendf(s, "", " %lld apart", step);
}

/* Where one work-item's outputs lie when they are not one block. */
static void say_spread(const struct figures *d, char *buf, size_t len)
{
    bool rows = d->run_rows < d->item_rows, cols = d->run_cols < d->item_cols;
    long long step_rows = d->stride_rows, step_cols = d->stride_cols;
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

/* "local: ▤ A 128x16, ▥ B 17x128", the tiles' glyphs as their keys; "local: ▤A 128x16,
   ▥B 17x128" when brief. */
static void say_local(const struct figures *d, bool brief, const struct glyphs *g, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    str_appendf(&s, "", "local");
    if (brief && d->local_copies > 1)
        str_appendf(&s, "", " x%lld", d->local_copies);
    str_appendf(&s, "", ":");
    if (d->has_local_a)
        str_appendf(&s, " ", "%s%sA %lldx%lld", g->tile_a, brief ? "" : " ", d->local_a_rows, d->local_a_cols);
    if (d->has_local_b)
        str_appendf(&s, d->has_local_a ? ", " : " ", "%s%sB %lldx%lld", g->tile_b, brief ? "" : " ",
                    d->local_b_rows, d->local_b_cols);
    if (!brief && d->local_copies > 1)
        str_appendf(&s, "", ", %lld copies", d->local_copies);
    if (!d->has_local_a && !d->has_local_b && d->local_bytes)
        str_appendf(&s, " ", "%llu bytes", d->local_bytes);
    else if (!d->has_local_a && !d->has_local_b)
        str_appendf(&s, " ", describes_layout(d) ? "none" : "unknown");
}

/* The legend of the two panels, each glyph before what it stands for, in lines of at most
   width columns: "█ work-group 0 and work-item 0  ▤ A tile 128x16 (local)  ▥ B tile 17x128
   ╱ padding", or when brief "█ group 0, item 0  ▤ A tile 128x16  ▥ B tile 17x128". A key is
   split only when it is wider than a line. */
static void legend_text(const struct figures *d, const struct glyphs *g, bool brief, int width, struct text *t)
{
    char keys[4][TEXT_BYTES / 2], line[TEXT_BYTES], where[48] = "";
    int n = 0;
    struct str s;

    if (d->local_copies > 1)
        snprintf(where, sizeof where, brief ? " (%lld copies each)" : " (local, %lld copies)", d->local_copies);
    else if (!brief)
        snprintf(where, sizeof where, " (local)");
    snprintf(keys[n++], sizeof keys[0], brief ? "%s group 0, item 0" : "%s work-group 0 and work-item 0", g->mark);
    if (d->has_local_a)
        snprintf(keys[n++], sizeof keys[0], "%s A tile %lldx%lld%s", g->tile_a, d->local_a_rows, d->local_a_cols,
                 d->has_local_b && brief ? "" : where);
    if (d->has_local_b)
        snprintf(keys[n++], sizeof keys[0], "%s B tile %lldx%lld%s", g->tile_b, d->local_b_rows, d->local_b_cols,
                 d->has_local_a && !brief ? "" : where);
    if (d->g.padded)
        say_padding(d, g, brief, keys[n++], sizeof keys[0]);
    else if (beyond_c(d))
        snprintf(keys[n++], sizeof keys[0], "%s beyond C's edge", g->pad);
    str_init(&s, line, sizeof line);
    for (int i = 0; i < n; i++) {
        int columns = (int)str_columns(keys[i], strlen(keys[i]));
        if (s.len > 0 && (int)str_columns(line, s.len) + 2 + columns > width) {
            text_add(t, line);
            str_init(&s, line, sizeof line);
        }
        if (columns > width) {
            text_wrap(t, keys[i], width, "  ");
            continue;
        }
        str_appendf(&s, s.len > 0 ? "  " : "", "%s", keys[i]);
    }
    if (s.len > 0)
        text_add(t, line);
}

/* ---- the panels and the compact drawing ---- */

/* C cut into work-groups, within height and, but for a long word, width; false when the grid
   gets less than two rows. What lies beyond the C asked for is drawn as padding; the last
   group is drawn even where the grid ends in an ellipsis, so that this part shows. */
static bool plan_c(const struct figures *d, int width, int height, struct panel *p)
{
    char say[TEXT_BYTES];
    int w, h, max_w = width < GRID_MAX_COLUMNS ? width : GRID_MAX_COLUMNS, max_h;
    bool edge = beyond_c(d);

    memset(p, 0, sizeof *p);
    say_size(d, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    say_groups(d, false, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    max_h = height - p->title.n < GRID_MAX_ROWS ? height - p->title.n : GRID_MAX_ROWS;
    if (max_h < 2 || max_w < 4)
        return false;
    if (d->has_tile) {
        if (edge)
            p->edge = (struct edges){ d->g.asked.m, d->g.asked.n };
        cell_shape(d->tile_rows, d->tile_cols, &w, &h);
        grid_units(&p->rows, &p->cols, d->groups_m, d->groups_n, d->tile_rows, d->tile_cols, w, h, true, edge,
                   max_w, max_h);
    } else {
        cell_shape(d->g.run.m, d->g.run.n, &w, &h);
        grid_units(&p->rows, &p->cols, 1, 1, 0, 0, w * max_h / h, max_h, false, false, max_w, max_h);
    }
    panel_measure(p);
    return true;                /* as wide as its longest word: the caller sees p->width */
}

/* The tracks of one work-group's tile: its work-items, as one block each or in runs. */
static void plan_items(const struct figures *d, struct panel *p, int max_w, int max_h)
{
    int w, h;

    if (!d->has_item || d->tile_items == 0) {
        cell_shape(d->tile_rows, d->tile_cols, &w, &h);
        grid_units(&p->rows, &p->cols, 1, 1, d->tile_rows, d->tile_cols, w * max_h / h, max_h, false, false,
                   max_w, max_h);
        return;
    }
    if (!runs_spread(d)) {
        cell_shape(d->item_rows, d->item_cols, &w, &h);
        grid_units(&p->rows, &p->cols, d->tile_items_m, d->tile_items_n, d->item_rows, d->item_cols, w, h, true, false,
                   max_w, max_h);
        return;
    }
    /* Each dimension in runs or as blocks; cells of 2 columns by 1 row, enlarged while all fit. */
    for (int scale = 3; scale >= 1; scale--) {
        if (d->run_rows < d->item_rows)
            track_runs(&p->rows, d->item_rows / d->run_rows, d->run_rows, d->stride_rows, d->tile_rows, scale,
                       max_h);
        else
            track_units(&p->rows, d->tile_items_m, d->item_rows, scale, true, false, max_h);
        if (d->run_cols < d->item_cols)
            track_runs(&p->cols, d->item_cols / d->run_cols, d->run_cols, d->stride_cols, d->tile_cols,
                       2 * scale, max_w);
        else
            track_units(&p->cols, d->tile_items_n, d->item_cols, 2 * scale, true, false, max_w);
        if (track_complete(&p->rows) && track_complete(&p->cols) && p->rows.len <= max_h &&
            p->cols.len <= max_w)
            return;
    }
}

/* Room for a tile of local memory beside the grid of C, in proportion to the matrices: along
   K it takes span of total (the tile's side along K plus C's side beside it). */
static int tile_room(long long span, long long side, int total)
{
    return clamp(lround((double)total * (double)span / ((double)span + (double)side)), 1, total / 2);
}

/* The scale rule: the panel of one work-group draws C's tile and the tiles of A and B at one
   scale, sx columns of the screen per column of a matrix and sy rows per row, set by the grid
   of work-items (which stands for the whole tile of C even where it ends in an ellipsis):
   sx = cols.len / tile_cols, sy = rows.len / tile_rows. A tile of r x c is then
   round(sy * r) rows by round(sx * c) columns, at least 1 of each, whichever matrix it
   belongs to: so A's rows line up with C's, B's columns with C's, and a tile of A and one of
   B of equal size are drawn at equal size. A side longer than its room (A: a_max columns and
   the grid's rows; B: b_max rows and the grid's columns) is cut there, and tiles of equal
   size are cut alike, so that they still look alike. */
static void plan_tiles(const struct figures *d, struct panel *p, int a_max, int b_max)
{
    double sy = (double)p->rows.len / (double)d->tile_rows, sx = (double)p->cols.len / (double)d->tile_cols;

    if (d->has_local_a) {
        p->a_h = clamp(round(sy * (double)d->local_a_rows), 1, p->rows.len);
        p->a_w = clamp(round(sx * (double)d->local_a_cols), 1, a_max);
    }
    if (d->has_local_b) {
        p->b_h = clamp(round(sy * (double)d->local_b_rows), 1, b_max);
        p->b_w = clamp(round(sx * (double)d->local_b_cols), 1, p->cols.len);
    }
    if (d->has_local_a && d->has_local_b && d->local_a_rows == d->local_b_rows &&
        d->local_a_cols == d->local_b_cols) {
        p->a_h = p->b_h = p->a_h < p->b_h ? p->a_h : p->b_h;
        p->a_w = p->b_w = p->a_w < p->b_w ? p->a_w : p->b_w;
    }
}

/* One work-group cut into its work-items, with its tiles in local memory, within width x
   height; false when it does not fit. When brief, the title leaves out the group's size, which
   the other panel gives. */
static bool plan_group(const struct figures *d, int width, int height, bool brief, const struct glyphs *g,
                       struct panel *p)
{
    char say[TEXT_BYTES];
    int room, a_max = 0, b_max = 0, max_w, max_h;

    memset(p, 0, sizeof *p);
    if (width < 8)
        return false;
    snprintf(say, sizeof say, "one work-group: %lldx%lld of C", d->tile_rows, d->tile_cols);
    if (!brief)
        text_wrap(&p->title, say, width, "");
    say_items(d, false, say, sizeof say);
    text_wrap(&p->title, say, width, "");
    if (runs_spread(d)) {
        say_spread(d, say, sizeof say);
        text_wrap(&p->title, say, width, "");
    }
    if (!d->has_local_a && !d->has_local_b) {   /* the tiles' sizes are in the legend */
        say_local(d, false, g, say, sizeof say);
        text_wrap(&p->title, say, width, "");
    }
    room = height - p->title.n;
    if (d->has_local_b)
        b_max = tile_room(d->local_b_rows, d->tile_rows, room);
    if (d->has_local_a)
        a_max = tile_room(d->local_a_cols, d->tile_cols, width - 1);
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
static int paint_compact(const struct figures *d, struct canvas *c, int room, const struct glyphs *g)
{
    struct text t = { .n = 0 };
    struct track rows, cols;
    char say[TEXT_BYTES], part[TEXT_BYTES / 2];
    int w, h;
    struct edges edge = { 0, 0 };

    say_groups(d, true, part, sizeof part);
    snprintf(say, sizeof say, "C: %s", part);
    text_add(&t, say);
    if (d->has_tile) {
        say_items(d, true, part, sizeof part);
        snprintf(say, sizeof say, "group: %s", part);
        text_add(&t, say);
    }
    if (d->g.padded) {
        say_padding(d, g, true, say, sizeof say);
        text_add(&t, say);
    }
    say_local(d, true, g, say, sizeof say);
    text_add(&t, say);
    if (d->has_tile) {
        snprintf(say, sizeof say, "%s group 0", g->mark);
        text_add(&t, say);
    }
    if (t.n > room)
        t.n = room;
    if (d->has_tile) {
        if (beyond_c(d))
            edge = (struct edges){ d->g.asked.m, d->g.asked.n };
        cell_shape(d->tile_rows, d->tile_cols, &w, &h);
        track_units(&rows, d->groups_m, d->tile_rows, 1, true, beyond_c(d), t.n);
        track_units(&cols, d->groups_n, d->tile_cols, w < COMPACT_COLUMNS ? w : COMPACT_COLUMNS, true,
                    beyond_c(d), COMPACT_COLUMNS);
    } else {
        track_units(&rows, 1, 0, t.n, false, false, t.n);
        track_units(&cols, 1, 0, COMPACT_COLUMNS - 1, false, false, COMPACT_COLUMNS);
    }
    paint_grid(c, 0, 0, &rows, &cols, g, &edge);
    for (int i = 0; i < t.n; i++)
        canvas_text(c, i, cols.len + 1, t.line[i]);
    return t.n > rows.len ? t.n : rows.len;
}

/* The drawing, in the first room rows of the canvas; returns the rows it takes. */
static int paint_picture(const struct figures *d, struct canvas *c, int room, const struct glyphs *g)
{
    struct panel pc, pg;

    /* The legend and the titles in full, else the legend brief, else both, else the compact
       drawing. */
    for (int brief = 0; d->has_tile && brief < 3; brief++) {
        struct text legend = { .n = 0 };
        int panels;
        legend_text(d, g, brief > 0, c->cols, &legend);
        panels = room - legend.n;
        if (panels > 0 && plan_c(d, (c->cols - GAP) * 2 / 5, panels, &pc) && pc.width + GAP < c->cols &&
            plan_group(d, c->cols - GAP - pc.width, panels, brief > 1, g, &pg)) {
            paint_panel(c, 0, 0, &pc, g);
            paint_panel(c, 0, pc.width + GAP, &pg, g);
            return paint_text(c, pc.height > pg.height ? pc.height : pg.height, &legend);
        }
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

/* "0.0312 (1/32)": the fraction where it is exact, as it is for whole tiles. */
static void say_ratio(double ratio, char *buf, size_t len)
{
    double inverse = 1.0 / ratio;

    if (ratio <= 0.5 && fabs(inverse - round(inverse)) < 1e-9 * inverse)
        snprintf(buf, len, "%.3g (1/%.0f)", ratio, inverse);
    else
        snprintf(buf, len, "%.3g", ratio);
}

/* Without layout lines the kernel's own __local arrays are unknown: only the arguments count. */
static void say_local_bytes(const struct figures *d, struct text *t, int width)
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

static void figure_text(const struct figures *d, int width, struct text *t)
{
    const struct geometry *g = &d->g;
    const char *choice = "chosen by the implementation", *brief_choice = "implementation's";
    char value[TEXT_BYTES / 2];
    long long groups;

    /* A lesson of several launches: the figures are those of the first, the main one. */
    if (g->nlaunches > 1) {
        size_t run = 0;
        for (size_t i = 0; i < g->nlaunches; i++)
            run += !g->launch[i].skipped;
        char brief[TEXT_BYTES / 4];
        snprintf(value, sizeof value, "%zu of %zu here; the figures below are the first's", run, g->nlaunches);
        snprintf(brief, sizeof brief, "%zu of %zu, first shown", run, g->nlaunches);
        figure(t, width, "launches", value, brief);
    }
    say_dims(g->launch[0].global, g->launch[0].dims, value, sizeof value);
    figure(t, width, "global", value, NULL);
    say_dims(g->launch[0].local, g->launch[0].dims, value, sizeof value);
    figure(t, width, "local", g->launch[0].has_local ? value : choice, brief_choice);
    groups = g->launch[0].has_local ? (long long)g->launch[0].groups : d->tile_groups;     /* checked in count() */
    snprintf(value, sizeof value, "%lld", groups);
    figure(t, width, "groups", groups > 0 ? value : choice, brief_choice);
    snprintf(value, sizeof value, "%zu", g->launch[0].group_items);
    figure(t, width, "items/group", g->launch[0].has_local ? value : choice, brief_choice);
    say_local_bytes(d, t, width);
    snprintf(value, sizeof value, "%lld (%lld x %lld)", d->outputs_per_item, d->item_rows, d->item_cols);
    figure(t, width, "outputs/item", d->has_item ? value : "unknown (no item line)", "unknown");
    if (d->g.padded) {
        char share[16], brief[TEXT_BYTES / 4];
        say_share(d->padding_share, share, sizeof share);
        snprintf(value, sizeof value, "%s of the work (%lldx%lldx%lld run for %lldx%lldx%lld)", share, g->run.m,
                 g->run.n, g->run.k, g->asked.m, g->asked.n, g->asked.k);
        snprintf(brief, sizeof brief, "%s of the work", share);
        figure(t, width, "padding", value, brief);
    }
    /* Memory traffic in one unit, that of the lessons (see bytes_per_flop in diagram.h). */
    if (d->bytes_per_flop >= 0) {
        char ratio[TEXT_BYTES / 4];
        say_ratio(d->bytes_per_flop, ratio, sizeof ratio);
        snprintf(value, sizeof value, "%s from global memory", ratio);
        figure(t, width, "bytes/flop", value, ratio);
    } else {
        figure(t, width, "bytes/flop", "unknown (no loads line)", "unknown");
    }
}

static void warning_text(const struct figures *d, int width, struct text *t)
{
    char line[TEXT_BYTES];

    for (int i = 0; i < d->nwarnings; i++) {
        snprintf(line, sizeof line, "! %s", d->warnings[i]);
        text_wrap(t, line, width, "  ");
    }
}

size_t diagram_draw(const struct figures *d, int width, size_t max_lines, bool utf8,
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
        canvas_line(&c, i, lines[i], DIAGRAM_LINE_BYTES);
    canvas_free(&c);
    return (size_t)used;
}
