/* unit_diagram.c: the work-group figures of the shipped lessons, worked out by hand from their
   kernels, the device checks, and the drawing in panes from 36 x 10 to 120 x 40. */
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "tui/diagram.h"
#include "engine/str.h"

static struct lesson_set lessons;

static void setup(void)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_set_load(CLMM_SRCDIR "/lessons", &lessons, &e) == 0, "%s", e.msg);
}

static void teardown(void)
{
    lesson_set_free(&lessons);
}

static const struct lesson *lesson(int number)
{
    const struct lesson *l = lesson_set_find(&lessons, number);

    ck_assert_msg(l != NULL, "no lesson %d", number);
    return l;
}

static const struct gemm_size cube = { 1024, 1024, 1024 }, odd = { 1000, 700, 300 };

/* The figures of a lesson with its defaults, one parameter changed when name is not NULL. */
static void compute(int number, struct gemm_size size, const char *name, long long value,
                    const struct figures_limits *limits, struct figures *d)
{
    const struct lesson *l = lesson(number);
    struct param_set ps;
    struct error e;

    param_set_defaults(l, &ps);
    if (name)
        ps.values[lesson_param_index(l, name)] = value;
    error_init(&e);
    ck_assert_msg(figures_compute(l, &ps, size, limits, d, &e) == 0, "lesson %d: %s", number, e.msg);
}

static void assert_figures(const struct figures *d, long long groups_m, long long groups_n,
                           size_t group_items, unsigned long long local_bytes, long long outputs,
                           double bytes_per_flop)
{
    ck_assert_int_eq(d->groups_m, groups_m);
    ck_assert_int_eq(d->groups_n, groups_n);
    ck_assert_uint_eq(d->g.launch[0].groups, (size_t)(groups_m * groups_n));
    ck_assert_uint_eq(d->g.launch[0].group_items, group_items);
    ck_assert_uint_eq(d->local_bytes, local_bytes);
    ck_assert_int_eq(d->outputs_per_item, outputs);
    ck_assert_double_eq_tol(d->bytes_per_flop, bytes_per_flop, 1e-12);
    ck_assert_int_eq(d->nwarnings, 0);
}

/* Lesson 1, TS = 16: a work-item per element of C, each reading a row of A and a column of B,
   2K floats (8K bytes) for 2K flops: 4 bytes per flop. No local memory. At 1000x700 M and N are padded to 1008x704 (the
   multiples of 16), K stays 300. */
START_TEST(test_diagram_naive)
{
    struct figures d;

    compute(1, cube, NULL, 0, NULL, &d);
    assert_figures(&d, 64, 64, 256, 0, 1, 4.0);
    ck_assert(!d.g.padded);
    ck_assert(d.padding_share == 0.0);
    compute(1, odd, NULL, 0, NULL, &d);
    assert_figures(&d, 63, 44, 256, 0, 1, 4.0);
    ck_assert(d.g.padded);
    ck_assert_double_eq_tol(d.padding_share, 1.0 - 1000.0 * 700 / (1008.0 * 704), 1e-12);
    ck_assert_int_eq(d.g.run.m, 1008);
    ck_assert_int_eq(d.g.run.n, 704);
    ck_assert_int_eq(d.g.run.k, 300);
}
END_TEST

/* Lesson 4, WG = 32, a 1-D NDRange of N work-items: a group computes 32 whole rows of C (one
   per work-item), reads its 32 rows of A once (32N floats) and every column of B once into
   bcol (N*N), which is the local(N) argument: 4N bytes. Bytes per flop 4 (32N + N*N) * N/32 /
   (2N^3) = (32 + N) / (16 N). 1000x700x300 is padded to the square 1024. */
START_TEST(test_diagram_row_local_b)
{
    struct figures d;

    compute(4, cube, NULL, 0, NULL, &d);
    assert_figures(&d, 32, 1, 32, 4 * 1024, 1024, (32.0 + 1024) / (16.0 * 1024));
    ck_assert_int_eq(d.tile_rows, 32);
    ck_assert_int_eq(d.tile_cols, 1024);
    ck_assert_int_eq(d.local_b_rows, 1024);
    ck_assert_int_eq(d.local_b_cols, 1);
    ck_assert(!d.has_local_a);
    ck_assert_uint_eq(d.g.launch[0].dims, 1);
    compute(4, odd, NULL, 0, NULL, &d);
    assert_figures(&d, 32, 1, 32, 4 * 1024, 1024, (32.0 + 1024) / (16.0 * 1024));
    ck_assert(d.g.padded);
    ck_assert_int_eq(d.g.run.k, 1024);
}
END_TEST

/* Lesson 5, TS = 16: Atile and Btile of 16x16 floats, 2 KiB; per step of 16 along K a group
   reads both tiles, 2*16*K floats (4 bytes each) for 2*16*16*K flops: 1/4 byte per flop.
   Padded to 1008x704x304. */
START_TEST(test_diagram_local_tiles)
{
    struct figures d;

    compute(5, cube, NULL, 0, NULL, &d);
    assert_figures(&d, 64, 64, 256, 2048, 1, 1.0 / 4);
    compute(5, odd, NULL, 0, NULL, &d);
    assert_figures(&d, 63, 44, 256, 2048, 1, 1.0 / 4);
    ck_assert_int_eq(d.g.run.k, 304);
}
END_TEST

/* Lesson 9, 128x128 tiles, TSK = 16, 8x8 per work-item: 16x16 work-items, Atile[16][128] and
   Btile[128][16 + 1] (padded), 4 * (2048 + 2176) = 16896 bytes; (128 + 128) K floats for
   2*128*128*K flops: 1/128 float, 1/32 byte per flop. Rows lr + wm*16: runs of 1. Padded to 1024x768x304. */
START_TEST(test_diagram_register_blocks)
{
    struct figures d;

    compute(9, cube, NULL, 0, NULL, &d);
    assert_figures(&d, 8, 8, 256, 16896, 64, 1.0 / 32);
    ck_assert_int_eq(d.run_rows, 1);
    ck_assert_int_eq(d.run_cols, 1);
    ck_assert_int_eq(d.local_b_rows, 17);
    compute(9, odd, NULL, 0, NULL, &d);
    assert_figures(&d, 8, 6, 256, 16896, 64, 1.0 / 32);
    ck_assert_int_eq(d.g.run.m, 1024);
    ck_assert_int_eq(d.g.run.n, 768);
    ck_assert_int_eq(d.g.run.k, 304);
}
END_TEST

/* Lesson 13, TSK = 8: two buffers of Atile[8][128/4 + 1] and Btile[8][128/4] float4s,
   2 * 16 * (8*33 + 8*32) = 16640 bytes. No padding by the engine: at 1000x700x300 the grid is
   cdiv(1000, 128) = 8 by cdiv(700, 128) = 6 groups, and the groups read only what lies inside
   A and B: A's 1000 rows of 300 once per column of groups, B's 300 rows of 700 once per row
   of groups, 300 * (1000*6 + 700*8) = 3480000 floats of 4 bytes for 2*1000*700*300 flops. */
START_TEST(test_diagram_row_major_fast)
{
    struct figures d;

    compute(13, cube, NULL, 0, NULL, &d);
    assert_figures(&d, 8, 8, 256, 16640, 64, 1.0 / 32);
    ck_assert_int_eq(d.local_copies, 2);
    ck_assert_int_eq(d.run_rows, 4);
    compute(13, odd, NULL, 0, NULL, &d);
    assert_figures(&d, 8, 6, 256, 16640, 64, 4 * 3480000.0 / (2.0 * 1000 * 700 * 300));
    ck_assert(!d.g.padded);
    ck_assert_int_eq(d.loads, 3480000 / 48);
}
END_TEST

static bool has_warning(const struct figures *d, const char *fragment)
{
    for (int i = 0; i < d->nwarnings; i++)
        if (strstr(d->warnings[i], fragment))
            return true;
    return false;
}

START_TEST(test_diagram_limits)
{
    const struct figures_limits small = { 256, 16384, { 256, 256, 64 } };
    const struct figures_limits h200 = { 1024, 49152, { 1024, 1024, 64 } };
    const struct figures_limits unknown = { 0, 0, { 0, 0, 0 } };
    struct figures d;

    compute(1, cube, "TS", 32, &small, &d);         /* 32 x 32 work-items */
    ck_assert_int_eq(d.nwarnings, 1);
    ck_assert_msg(has_warning(&d, "work-group of 1024 work-items exceeds the device's 256"), "%s",
                  d.warnings[0]);
    compute(11, cube, NULL, 0, &small, &d);         /* 32 KiB of tiles */
    ck_assert_int_eq(d.nwarnings, 1);
    ck_assert_msg(has_warning(&d, "32768 bytes of local memory per work-group exceed the device's 16384"),
                  "%s", d.warnings[0]);
    compute(2, cube, "WG", 256, &(struct figures_limits){ 1024, 0, { 128, 1, 1 } }, &d);
    ck_assert_msg(has_warning(&d, "256 work-items in dimension 0 exceeds the device's 128"), "%s",
                  d.warnings[0]);
    compute(1, cube, "TS", 32, &h200, &d);
    ck_assert_int_eq(d.nwarnings, 0);
    compute(11, cube, NULL, 0, &h200, &d);
    ck_assert_int_eq(d.nwarnings, 0);
    compute(11, cube, NULL, 0, &unknown, &d);
    ck_assert_int_eq(d.nwarnings, 0);
}
END_TEST

START_TEST(test_diagram_refusals)
{
    const struct gemm_size big = { 8192, 8192, 8192 };
    struct param_set ps;
    struct figures d;
    struct error e;

    error_init(&e);
    param_set_defaults(lesson(0), &ps);
    ck_assert_int_lt(figures_compute(lesson(0), &ps, cube, NULL, &d, &e), 0);
    ck_assert_msg(strstr(e.msg, "no work-groups") != NULL, "%s", e.msg);
    /* geometry_compute's reasons: lesson 3 keeps a row of at most KMAX = 4096 floats. */
    param_set_defaults(lesson(3), &ps);
    ck_assert_int_lt(figures_compute(lesson(3), &ps, big, NULL, &d, &e), 0);
    ck_assert_msg(strstr(e.msg, "KMAX") != NULL, "%s", e.msg);
}
END_TEST

/* A lesson of the tests, parsed from text; geometry never reads the kernel. */
static void parse(const char *text, struct lesson *l)
{
    static const char *const kernel_dirs[] = { CLMM_SRCDIR "/tests", NULL };
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_parse("d.lesson", text, kernel_dirs, l, &e) == 0, "%s", e.msg);
}

#define HEADER "lesson: 50\ntitle: T\nsources: S\nkernel: unit_diagram.c\nentry: gemm\n" \
               "param: TS = 16 in 8, 16\nglobal: M, N\nlocal: TS, TS\nmultiple: M TS, N TS\n"

START_TEST(test_diagram_lines_that_disagree)
{
    struct lesson l;
    struct param_set ps;
    struct figures d;
    struct error e;

    error_init(&e);
    parse(HEADER "args: M N K A B C\ntile: TS, 2 * TS\nitem: 1, 1\n---\n", &l);
    param_set_defaults(&l, &ps);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_msg(has_warning(&d, "make 2048 work-groups, but the NDRange has 4096"), "%s", d.warnings[0]);
    ck_assert_msg(has_warning(&d, "is not 256 work-items of 1x1"), "%s", d.warnings[1]);
    lesson_free(&l);
    parse(HEADER "args: M N K A B C\ntile: TS, TS\nitem: 2, 2\nitem-run: 3, 1\n---\n", &l);
    ck_assert_int_lt(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_msg(strstr(e.msg, "item-run") != NULL, "%s", e.msg);
    lesson_free(&l);
    /* 2048 tiles, the last 1024 split 3 ways: 2048 + 1024 x 2 = 4096 groups, as launched. */
    parse(HEADER "args: M N K A B C\ntile: TS, 2 * TS\nk-split: 3\nk-split-tiles: 1024\n---\n", &l);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_int_eq(d.nwarnings, 0);
    lesson_free(&l);
    parse(HEADER "args: M N K A B C\ntile: TS, TS\nk-split: 2\nk-split-tiles: 5000\n---\n", &l);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert(has_warning(&d, "k-split-tiles gives 5000 tiles to split, of 4096"));
    ck_assert(has_warning(&d, "the last 5000 of them 2 work-groups each"));
    lesson_free(&l);
    /* The last 10 tiles in 10 groups (pieces): as launched; in 30, not. */
    parse(HEADER "args: M N K A B C\ntile: TS, TS\nk-split-tiles: 10\nk-split-groups: 10\n---\n", &l);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_int_eq(d.nwarnings, 0);
    lesson_free(&l);
    parse(HEADER "args: M N K A B C\ntile: TS, TS\nk-split-tiles: 10\nk-split-groups: 30\n---\n", &l);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert(has_warning(&d, "the last 10 in 30 work-groups (k-split-tiles, k-split-groups), make 4116 work-groups"));
    lesson_free(&l);
    parse(HEADER "args: M N K A B C\ntile: TS - 16, TS\n---\n", &l);
    ck_assert_int_lt(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_msg(strstr(e.msg, "tile: TS - 16 is 0") != NULL, "%s", e.msg);
    lesson_free(&l);
}
END_TEST

/* A group of 16x16 work-items of 8x8 in runs of 4x4, 128x128 of C: its runs take turns over
   the whole tile (64 apart) unless an item-stride line says otherwise (as in lesson 14, 16
   rows and 32 columns apart within a warp tile). No other layout lines: the grid of the group
   is the only one that starts at the column of its title. */
#define STRIDED "lesson: 51\ntitle: T\nsources: S\nkernel: unit_diagram.c\nentry: gemm\nargs: M N K A B C\n" \
                "param: TS = 16 in 8, 16\nglobal: M / 8, N / 8\nlocal: TS, TS\nmultiple: M 8 * TS, N 8 * TS\n" \
                "tile: 8 * TS, 8 * TS\nitem: 8, 8\nitem-run: 4, 4\n"

START_TEST(test_diagram_item_stride)
{
    struct lesson l;
    struct param_set ps;
    struct figures d;
    struct error e;

    error_init(&e);
    parse(STRIDED "---\n", &l);
    param_set_defaults(&l, &ps);
    ck_assert_msg(figures_compute(&l, &ps, cube, NULL, &d, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(d.nwarnings, 0);
    ck_assert_int_eq(d.stride_rows, 64);
    ck_assert_int_eq(d.stride_cols, 64);
    lesson_free(&l);
    parse(STRIDED "item-stride: 16, 2 * TS\n---\n", &l);
    ck_assert_msg(figures_compute(&l, &ps, cube, NULL, &d, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(d.nwarnings, 0);
    ck_assert_int_eq(d.stride_rows, 16);
    ck_assert_int_eq(d.stride_cols, 32);
    /* With TS = 8 the tile is 64 columns, the stride 16, not the 32 of the default: checked at
       these values, with the lesson file's line. */
    ps.values[0] = 8;
    ck_assert_msg(figures_compute(&l, &ps, cube, NULL, &d, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(d.stride_cols, 16);
    lesson_free(&l);
    parse(STRIDED "item-stride: 16, 512 / TS\n---\n", &l);
    ps.values[0] = 8;       /* 2 runs of 4 columns, 32 apart at TS = 16, 64 apart here: beyond the tile */
    ck_assert_int_lt(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_str_eq(e.msg, "d.lesson:14: item-stride: 2 runs of 4 columns, 64 apart, do not fit in the "
                            "work-group's tile of 64 columns");
    lesson_free(&l);
    /* The shipped lessons: 13 without the line, 14 with it (4 * WIM rows, 128 / WIM columns). */
    compute(13, cube, NULL, 0, NULL, &d);
    ck_assert_int_eq(d.stride_rows, 64);
    ck_assert_int_eq(d.stride_cols, 64);
    compute(14, cube, NULL, 0, NULL, &d);
    ck_assert_int_eq(d.stride_rows, 16);
    ck_assert_int_eq(d.stride_cols, 32);
    compute(14, cube, "WIM", 8, NULL, &d);
    ck_assert_int_eq(d.stride_rows, 32);    /* a work-item's 4 rows are one run: no stride shown */
    ck_assert_int_eq(d.stride_cols, 16);
}
END_TEST

/* Without layout lines the diagram shows what the geometry tells; a local(...) argument that
   holds a tile of exactly its size is counted once, another one in full. */
START_TEST(test_diagram_without_layout)
{
    struct lesson l;
    struct param_set ps;
    struct figures d;
    struct error e;

    error_init(&e);
    parse(HEADER "args: M N K A B C local(TS * TS)\n---\n", &l);
    param_set_defaults(&l, &ps);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert(!d.has_tile && !d.has_item && !d.has_loads);
    ck_assert_int_eq(d.groups_m, 0);
    ck_assert_uint_eq(d.local_bytes, 4 * 16 * 16);
    ck_assert(d.bytes_per_flop < 0);
    ck_assert_int_eq(d.nwarnings, 0);
    lesson_free(&l);
    parse(HEADER "args: M N K A B C local(TS * TS) local(7)\nlocal-b: TS, TS\nlocal-copies: 1\n---\n", &l);
    ck_assert_int_eq(figures_compute(&l, &ps, cube, NULL, &d, &e), 0);
    ck_assert_uint_eq(d.local_bytes, 4 * (16 * 16 + 7));
    lesson_free(&l);
}
END_TEST

/* The layout lines of every shipped lesson agree with its NDRange for every allowed value of
   every parameter (the others at their defaults), at a multiple and at an odd size. */
START_TEST(test_diagram_shipped_agree)
{
    const struct gemm_size sizes[] = { { 1024, 1024, 1024 }, { 1000, 700, 300 }, { 64, 4096, 48 } };

    for (size_t i = 1; i < lessons.count; i++) {
        const struct lesson *l = &lessons.items[i];
        for (size_t p = 0; p < l->nparams; p++)
            for (size_t v = 0; v < l->params[p].nvalues; v++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    struct param_set ps;
                    struct figures d;
                    struct error e;
                    param_set_defaults(l, &ps);
                    ps.values[p] = l->params[p].values[v];
                    error_init(&e);
                    if (figures_compute(l, &ps, sizes[s], NULL, &d, &e) < 0)
                        continue;   /* refused by a require line */
                    ck_assert_msg(d.nwarnings == 0, "lesson %d, %s=%lld: %s", l->number, l->params[p].name,
                                  ps.values[p], d.warnings[0]);
                    ck_assert(d.has_tile && d.has_item && d.has_loads);
                }
    }
}
END_TEST

/* ---- the drawing ---- */

static char lines[64][DIAGRAM_LINE_BYTES];

static bool ascii_only(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s > 0x7e || (unsigned char)*s < 0x20)
            return false;
    return true;
}

/* Draws d and checks the lines: within the pane, ASCII when asked, the mark drawn, the
   figures at the end. Returns the count. */
static size_t draw_checked(const struct figures *d, int width, size_t height, bool utf8, const char *what)
{
    const char *mark = utf8 ? DIAGRAM_MARK_UTF8 : DIAGRAM_MARK_ASCII;
    size_t n = diagram_draw(d, width, height, utf8, lines);
    bool marked = false;

    ck_assert_msg(n > 0 && n <= height, "%s at %dx%zu: %zu lines", what, width, height, n);
    for (size_t i = 0; i < n; i++) {
        size_t columns = str_columns(lines[i], strlen(lines[i]));
        ck_assert_msg(columns <= (size_t)width, "%s at %dx%zu, %s: line %zu has %zu columns: %s", what,
                      width, height, utf8 ? "UTF-8" : "ASCII", i, columns, lines[i]);
        ck_assert_msg(utf8 || ascii_only(lines[i]), "%s: line %zu is not ASCII: %s", what, i, lines[i]);
        marked = marked || strstr(lines[i], mark) != NULL;
    }
    ck_assert_msg(marked, "%s at %dx%zu, %s: no highlighted cell", what, width, height,
                  utf8 ? "UTF-8" : "ASCII");
    ck_assert_msg(strncmp(lines[n - 1], "bytes/flop ", 11) == 0, "%s at %dx%zu ends with: %s", what, width,
                  height, lines[n - 1]);
    return n;
}

START_TEST(test_diagram_draw_fits)
{
    const struct gemm_size sizes[] = { { 1024, 1024, 1024 }, { 1000, 700, 300 }, { 4096, 64, 512 },
                                       { 1, 1, 1 } };
    const int widths[] = { 36, 60, 80, 120 };
    const size_t heights[] = { 10, 24, 40 };

    for (size_t i = 1; i < lessons.count; i++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            struct figures d;
            char what[64];
            compute(lessons.items[i].number, sizes[s], NULL, 0, NULL, &d);
            snprintf(what, sizeof what, "lesson %d at %lldx%lldx%lld", lessons.items[i].number, sizes[s].m,
                     sizes[s].n, sizes[s].k);
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
                for (size_t h = 0; h < sizeof heights / sizeof heights[0]; h++) {
                    draw_checked(&d, widths[w], heights[h], true, what);
                    draw_checked(&d, widths[w], heights[h], false, what);
                }
        }
}
END_TEST

static bool drawn(size_t n, const char *fragment)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(lines[i], fragment))
            return true;
    return false;
}

/* The labels carry the real sizes, and every figure has its line even in the smallest pane. */
START_TEST(test_diagram_draw_labels)
{
    static const char *const labels[] = { "global ", "local ", "groups ", "items/group ", "local mem/group ",
                                          "outputs/item ", "bytes/flop " };
    struct figures d;
    size_t n;

    compute(9, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 20, true, "lesson 9");
    ck_assert(drawn(n, "C 1024x1024"));
    ck_assert(drawn(n, "8x8 work-groups of 128x128"));
    ck_assert(drawn(n, "16x16 work-items of 8x8"));
    ck_assert(drawn(n, "16 apart"));
    ck_assert(drawn(n, "A tile 128x16"));
    ck_assert(drawn(n, "B tile 17x128"));
    ck_assert(drawn(n, "local mem/group 16896 B (16.5 KiB)"));
    ck_assert(drawn(n, "bytes/flop      0.0312 (1/32) from global memory"));
    n = draw_checked(&d, 36, 10, false, "lesson 9");
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        ck_assert_msg(drawn(n, labels[i]), "no \"%s\" at 36x10", labels[i]);
    ck_assert(drawn(n, "8x8 groups of 128x128"));
    compute(9, odd, NULL, 0, NULL, &d);
    n = draw_checked(&d, 60, 24, true, "lesson 9 padded");
    ck_assert(drawn(n, "padded to 1024x768x304: 12% of the work"));
    compute(13, odd, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 24, true, "lesson 13 at the edges");
    ck_assert(drawn(n, "covering 1024x768"));
    ck_assert(drawn(n, "in runs of 4,"));
    compute(2, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 60, 24, true, "lesson 2");
    ck_assert(drawn(n, "32x1 work-items of 1x1024"));
    ck_assert(drawn(n, "global          1024"));
}
END_TEST

/* The lengths of the runs of marked ('#') and other cells of a line of n ASCII cells, from a
   marked one: "##..##......" gives 2 2 2 6. Returns their count. */
static int mark_runs(const char *cells, size_t n, int *lens, int max)
{
    int count = 0;

    ck_assert_msg(n > 0 && cells[0] == '#', "the grid does not start with work-item 0: %.*s", (int)n, cells);
    for (size_t i = 0; i < n && count < max; count++) {
        size_t j = i;
        while (j < n && (cells[j] == '#') == (cells[i] == '#'))
            j++;
        lens[count] = (int)(j - i);
        i = j;
    }
    return count;
}

/* The group's grid in an ASCII drawing of a lesson without local tiles: under its title, from
   the title's column, its first line into cols and its first column, top down, into rows. */
static void group_grid(size_t n, char *rows, size_t *nrows, char *cols, size_t *ncols)
{
    size_t at = 0, first = 0;

    for (size_t i = 0; i < n && first == 0; i++)
        if (strstr(lines[i], "one work-group:")) {
            at = (size_t)(strstr(lines[i], "one work-group:") - lines[i]);
            first = i + 1;
        }
    ck_assert(first > 0);
    while (first < n && (strlen(lines[first]) <= at || lines[first][at] != '#'))
        first++;        /* the rest of the title */
    ck_assert(first < n);
    *ncols = strspn(lines[first] + at, "#.:");
    memcpy(cols, lines[first] + at, *ncols);
    for (*nrows = 0; first + *nrows < n && strlen(lines[first + *nrows]) > at &&
                     strchr("#.:", lines[first + *nrows][at]); (*nrows)++)
        rows[*nrows] = lines[first + *nrows][at];
}

/* Work-item 0's runs drawn where they lie: two runs of 4 a stride apart, in lesson 13's way
   (the stride half the tile: run, others, run, others up to the tile's end) or, at a shorter
   stride, with the rest of the tile after the second run as a longer cell: 128 - 20 rows and
   128 - 36 columns, about 3 strides each. The text gives the strides. */
START_TEST(test_diagram_draw_item_stride)
{
    static const char *const strides[] = { "", "item-stride: 16, 32\n" };
    char text[1024], rows[64], cols[DIAGRAM_LINE_BYTES];
    int lens[8], count;
    size_t n, nrows, ncols;

    for (int i = 0; i < 2; i++) {
        struct lesson l;
        struct param_set ps;
        struct figures d;
        struct error e;
        error_init(&e);
        snprintf(text, sizeof text, STRIDED "%s---\n", strides[i]);
        parse(text, &l);
        param_set_defaults(&l, &ps);
        ck_assert_msg(figures_compute(&l, &ps, cube, NULL, &d, &e) == 0, "%s", e.msg);
        n = draw_checked(&d, 120, 40, false, strides[i]);
        ck_assert(drawn(n, i == 0 ? "a work-item's rows and columns are in runs of 4, 64 apart"
                                  : "a work-item's rows are in runs of 4, 16 apart, its columns in runs of 4, 32 "
                                    "apart"));
        group_grid(n, rows, &nrows, cols, &ncols);
        count = mark_runs(rows, nrows, lens, 8);
        ck_assert_int_eq(count, 4);
        ck_assert_msg(lens[1] == lens[0] && lens[2] == lens[0] && lens[3] == (i == 0 ? 1 : 3) * lens[0],
                      "rows %.*s", (int)nrows, rows);
        count = mark_runs(cols, ncols, lens, 8);
        ck_assert_int_eq(count, 4);
        ck_assert_msg(lens[1] == lens[0] && lens[2] == lens[0] && lens[3] == (i == 0 ? 1 : 3) * lens[0],
                      "columns %.*s", (int)ncols, cols);
        lesson_free(&l);
    }
}
END_TEST

/* Warnings come after the figures, wrapped to the pane; the mark is the highlight alone. */
START_TEST(test_diagram_draw_warnings)
{
    const struct figures_limits small = { 256, 16384, { 0, 0, 0 } };
    struct figures d;
    size_t n;

    compute(11, cube, "WPTM", 4, &small, &d);      /* 32x16 work-items and 32 KiB */
    ck_assert_int_eq(d.nwarnings, 2);
    for (int w = 36; w <= 120; w += 42) {
        n = diagram_draw(&d, w, 24, true, lines);
        ck_assert(drawn(n, "! work-group of 512"));
        ck_assert(drawn(n, "exceed"));
        for (size_t i = 0; i < n; i++)
            ck_assert(str_columns(lines[i], strlen(lines[i])) <= (size_t)w);
    }
    compute(9, cube, NULL, 0, NULL, &d);
    n = diagram_draw(&d, 80, 20, false, lines);
    for (size_t i = n - 7; i < n; i++)
        ck_assert_msg(strpbrk(lines[i], DIAGRAM_MARK_ASCII DIAGRAM_TILE_A_ASCII DIAGRAM_TILE_B_ASCII
                                        DIAGRAM_PAD_ASCII) == NULL,
                      "a figure line holds a glyph: %s", lines[i]);
}
END_TEST

/* A lesson that describes nothing still gets its figures and a drawing, within the pane. */
START_TEST(test_diagram_draw_without_layout)
{
    struct lesson l;
    struct param_set ps;
    struct figures d;
    struct error e;
    size_t n;

    error_init(&e);
    parse("lesson: 50\ntitle: T\nsources: S\nkernel: unit_diagram.c\nentry: gemm\nargs: M N K A B C\n"
          "global: M, N\n---\n", &l);
    param_set_defaults(&l, &ps);
    ck_assert_int_eq(figures_compute(&l, &ps, odd, NULL, &d, &e), 0);
    for (int w = 36; w <= 120; w += 42) {
        n = diagram_draw(&d, w, 10, true, lines);
        ck_assert(n == 10);
        ck_assert(drawn(n, "bytes/flop      unknown"));
        for (size_t i = 0; i < n; i++)
            ck_assert(str_columns(lines[i], strlen(lines[i])) <= (size_t)w);
    }
    lesson_free(&l);
}
END_TEST

/* The legend names each glyph: the highlighted group and item, the tiles of A and B with their
   sizes, in UTF-8 and in ASCII, in full where there is room and brief where there is less. */
START_TEST(test_diagram_draw_legend)
{
    struct figures d;
    size_t n;

    compute(9, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 9");
    ck_assert(drawn(n, DIAGRAM_MARK_UTF8 " work-group 0 and work-item 0"));
    ck_assert(drawn(n, DIAGRAM_TILE_A_UTF8 " A tile 128x16 (local)"));
    ck_assert(drawn(n, DIAGRAM_TILE_B_UTF8 " B tile 17x128"));
    n = draw_checked(&d, 80, 30, false, "lesson 9");
    ck_assert(drawn(n, "# work-group 0 and work-item 0"));
    ck_assert(drawn(n, "= A tile 128x16 (local)"));
    ck_assert(drawn(n, "| B tile 17x128"));
    n = draw_checked(&d, 52, 15, true, "lesson 9 in the pane of 120x40");
    ck_assert_msg(drawn(n, DIAGRAM_MARK_UTF8 " group 0, item 0  " DIAGRAM_TILE_A_UTF8 " A tile 128x16  "
                           DIAGRAM_TILE_B_UTF8 " B tile 17x128"), "%s", lines[7]);
    compute(13, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 13");
    ck_assert(drawn(n, DIAGRAM_TILE_A_UTF8 " A tile 132x8 (local, 2 copies)"));
    ck_assert(drawn(n, DIAGRAM_TILE_B_UTF8 " B tile 8x128"));
    n = draw_checked(&d, 40, 12, false, "lesson 13 compact");
    ck_assert(drawn(n, "local x2: =A 132x8, |B 8x128"));
}
END_TEST

/* The first line of the legend (it starts with the mark's key), or n. */
static size_t legend_line(size_t n, bool utf8)
{
    const char *key = utf8 ? DIAGRAM_MARK_UTF8 " " : DIAGRAM_MARK_ASCII " ";

    for (size_t i = 0; i < n; i++)
        if (strncmp(lines[i], key, strlen(key)) == 0)
            return i;
    return n;
}

/* The bounding box of the cells drawn with glyph; false when there are none. A box whose cells
   are not all the glyph's is a failure. */
static bool glyph_box(size_t n, const char *glyph, int *w, int *h)
{
    int top = -1, bottom = -1, left = 1 << 30, right = -1, cells = 0;

    for (size_t i = 0; i < n; i++) {
        const char *p = lines[i];
        for (int col = 0; *p; col++) {
            size_t len = str_prefix(p, 1);
            if (strncmp(p, glyph, len) == 0 && strlen(glyph) == len) {
                if (top < 0)
                    top = (int)i;
                bottom = (int)i;
                left = col < left ? col : left;
                right = col > right ? col : right;
                cells++;
            }
            p += len;
        }
    }
    if (top < 0)
        return false;
    *w = right - left + 1;
    *h = bottom - top + 1;
    ck_assert_msg(cells == *w * *h, "%d cells of %s in a box of %dx%d", cells, glyph, *w, *h);
    return true;
}

/* The tiles of A and B have glyphs of their own, in UTF-8 and in ASCII, which a screen tells
   apart without colour, and which no text uses. */
START_TEST(test_diagram_draw_tiles_distinct)
{
    static const struct {
        bool utf8;
        const char *a, *b;
    } sets[] = { { true, DIAGRAM_TILE_A_UTF8, DIAGRAM_TILE_B_UTF8 },
                 { false, DIAGRAM_TILE_A_ASCII, DIAGRAM_TILE_B_ASCII } };
    struct figures d;
    size_t len;
    int w, h;

    compute(5, cube, NULL, 0, NULL, &d);
    for (size_t i = 0; i < 2; i++) {
        size_t n = draw_checked(&d, 80, 30, sets[i].utf8, "lesson 5");
        ck_assert_str_ne(sets[i].a, sets[i].b);
        ck_assert_msg(glyph_box(legend_line(n, sets[i].utf8), sets[i].a, &w, &h) && w * h > 1, "no tile of A");
        ck_assert_msg(glyph_box(legend_line(n, sets[i].utf8), sets[i].b, &w, &h) && w * h > 1, "no tile of B");
        ck_assert_int_eq(diagram_glyph_at(sets[i].a, sets[i].utf8, &len), DIAGRAM_GLYPH_TILE_A);
        ck_assert_uint_eq(len, strlen(sets[i].a));
        ck_assert_int_eq(diagram_glyph_at(sets[i].b, sets[i].utf8, &len), DIAGRAM_GLYPH_TILE_B);
        ck_assert_int_eq(diagram_glyph_at(sets[i].utf8 ? DIAGRAM_MARK_UTF8 : DIAGRAM_MARK_ASCII, sets[i].utf8,
                                          &len),
                         DIAGRAM_GLYPH_MARK);
        ck_assert_int_eq(diagram_glyph_at(sets[i].utf8 ? DIAGRAM_PAD_UTF8 : DIAGRAM_PAD_ASCII, sets[i].utf8, &len),
                         DIAGRAM_GLYPH_PAD);
        ck_assert_int_eq(diagram_glyph_at("A tile", sets[i].utf8, &len), DIAGRAM_GLYPH_TEXT);
        for (size_t k = n - 7; k < n; k++)      /* the figures */
            for (const char *p = lines[k]; *p; p += len)
                ck_assert_msg(diagram_glyph_at(p, sets[i].utf8, &len) == DIAGRAM_GLYPH_TEXT,
                              "a glyph in a figure: %s", lines[k]);
    }
}
END_TEST

/* The scale rule: a tile of A and a tile of B of the same size come out the same size, in
   every pane that shows them (lessons 5 to 7 keep two tiles of TS x TS). */
START_TEST(test_diagram_draw_equal_tiles)
{
    static const int numbers[] = { 5, 6, 7 };
    static const long long ts[] = { 8, 16, 32 };
    static const int sizes[][2] = { { 52, 15 }, { 60, 24 }, { 80, 30 }, { 120, 40 }, { 118, 60 } };
    int shown = 0;

    for (size_t l = 0; l < 3; l++)
        for (size_t t = 0; t < 3; t++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                struct figures d;
                int aw, ah, bw, bh;
                size_t n;
                compute(numbers[l], cube, "TS", ts[t], NULL, &d);
                ck_assert_int_eq(d.local_a_rows, d.local_b_rows);
                ck_assert_int_eq(d.local_a_cols, d.local_b_cols);
                n = legend_line(draw_checked(&d, sizes[s][0], (size_t)sizes[s][1], true, "equal tiles"), true);
                if (!glyph_box(n, DIAGRAM_TILE_A_UTF8, &aw, &ah))
                    continue;           /* the compact drawing */
                ck_assert(glyph_box(n, DIAGRAM_TILE_B_UTF8, &bw, &bh));
                ck_assert_msg(aw == bw && ah == bh, "lesson %d, TS=%lld at %dx%d: A %dx%d, B %dx%d", numbers[l],
                              ts[t], sizes[s][0], sizes[s][1], aw, ah, bw, bh);
                shown++;
            }
    ck_assert_int_gt(shown, 20);
}
END_TEST

/* Padding shows in the figures, with its share of the work, and in the drawing, in a glyph of
   its own beyond the C asked for; none when nothing is padded. */
START_TEST(test_diagram_draw_padding)
{
    const struct gemm_size small = { 100, 70, 30 }, tiny = { 1, 1, 1 };
    struct figures d;
    size_t n;

    /* 100x70x30 runs as 128x128x32: 210000 of 524288 multiply-adds count, 60% are padding. */
    compute(9, small, NULL, 0, NULL, &d);
    ck_assert_double_eq_tol(d.padding_share, 1.0 - 100.0 * 70 * 30 / (128.0 * 128 * 32), 1e-12);
    n = draw_checked(&d, 80, 30, true, "lesson 9 at 100x70x30");
    ck_assert(drawn(n, "padding         60% of the work (128x128x32 run for 100x70x30)"));
    ck_assert(drawn(n, DIAGRAM_PAD_UTF8 " padded to 128x128x32: 60% of the work"));
    ck_assert(drawn(n, "C 100x70"));
    n = draw_checked(&d, 80, 30, false, "lesson 9 at 100x70x30");
    ck_assert(drawn(n, "~ padded to 128x128x32: 60% of the work"));
    ck_assert_msg(strstr(lines[3], "~") != NULL && strstr(lines[3], "#") != NULL, "%s", lines[3]);
    n = draw_checked(&d, 36, 12, true, "lesson 9 at 100x70x30, compact");
    ck_assert(drawn(n, "padding         60% of the work"));
    ck_assert(drawn(n, DIAGRAM_PAD_UTF8 " padding: 60% of the work"));
    /* A single element of a 16x16 group of lesson 1. */
    compute(1, tiny, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 1 at 1x1x1");
    ck_assert(drawn(n, "padding         over 99% of the work"));
    /* Nothing padded: no such line, no such glyph. */
    compute(1, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 1");
    ck_assert(!drawn(n, "padding"));
    ck_assert(!drawn(n, DIAGRAM_PAD_UTF8));
    /* Lesson 13 pads nothing, but its edge groups reach past C. */
    compute(13, small, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 13 at 100x70x30");
    ck_assert(!drawn(n, "padding"));
    ck_assert(drawn(n, DIAGRAM_PAD_UTF8 " beyond C's edge"));
}
END_TEST

/* Memory traffic in one unit, bytes read from global memory per flop, said in words. */
START_TEST(test_diagram_draw_unit)
{
    struct figures d;
    size_t n;

    compute(1, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 1");
    ck_assert(drawn(n, "bytes/flop      4 from global memory"));
    compute(5, cube, NULL, 0, NULL, &d);
    n = draw_checked(&d, 80, 30, true, "lesson 5");
    ck_assert(drawn(n, "bytes/flop      0.25 (1/4) from global memory"));
    n = draw_checked(&d, 36, 10, true, "lesson 5");
    ck_assert(drawn(n, "bytes/flop      0.25 (1/4)"));
    ck_assert(!drawn(n, "loads"));
}
END_TEST

/* Values from a lesson file whose products do not fit in 64 bits are refused, not wrapped. */
START_TEST(test_diagram_overflow)
{
    static const char *const lines_of[] = {
        "tile: TS, TS\nitem: 1, 1\nlocal-a: 4000000000, 4000000000\nlocal-copies: 2\n",
        "tile: TS, TS\nitem: 1, 1\nlocal-b: 3037000500, 3037000500\n",
        "tile: TS, TS\nitem: 3037000500, 3037000500\n",
        "tile: 4611686018427387904, 4611686018427387904\nitem: 1, 1\n",
        "tile: TS, TS\nitem: 1, 1\nlocal-a: 3000000000, 1000000000\nlocal-b: 3000000000, 1000000000\n",
    };
    char text[1024];

    for (size_t i = 0; i < sizeof lines_of / sizeof lines_of[0]; i++) {
        struct lesson l;
        struct param_set ps;
        struct figures d;
        struct error e;
        error_init(&e);
        snprintf(text, sizeof text, HEADER "args: M N K A B C\n%s---\n", lines_of[i]);
        parse(text, &l);
        param_set_defaults(&l, &ps);
        ck_assert_msg(figures_compute(&l, &ps, cube, NULL, &d, &e) < 0, "%s", lines_of[i]);
        ck_assert_msg(strstr(e.msg, "fit in 64 bits") != NULL, "%s", e.msg);
        lesson_free(&l);
    }
}
END_TEST

/* The largest values a lesson file may give its layout lines, where their products fit:
   the figures are computed and the drawing fits its pane, with no signed overflow on the
   way (a cell's shape once came out of a tile of 1 x 2^62 as an int that overflowed when
   scaled to the pane). Run under UBSan, this finds any that is left. */
START_TEST(test_diagram_hostile_values)
{
    static const char *const lines_of[] = {
        "tile: 1, 9223372036854775807\n",
        "tile: 9223372036854775807, 1\n",
        "tile: 1, 2250000000000000000\n",
        "tile: 1, 4611686018427387904\nitem: 1, 4611686018427387904\n",
        "tile: 1, 4611686018427387904\nitem: 1, 4611686018427387904\nitem-run: 1, 1\n",
        "tile: 4611686018427387904, 1\nitem: 4611686018427387904, 1\nitem-run: 1, 1\n",
        "tile: TS, TS\nitem: 1, 1\nlocal-a: 1152921504606846976, 1\nlocal-b: 1, 1152921504606846976\n",
        "tile: TS, TS\nitem: 1, 1\nlocal-a: 1, 1152921504606846976\nlocal-b: 1152921504606846976, 1\n",
        "tile: 1, 1\nitem: 1, 1\nlocal-a: 1000000000, 1000000000\nloads: 9223372036854775807\n",
        "tile: 2, 2\nitem: 2, 2\nitem-run: 1, 1\nlocal-a: 1, 1\nlocal-copies: 1152921504606846976\n",
        "tile: 3, 9223372036854775807\nitem: 3, 1\nlocal-b: 1152921504606846976, 1\n",
        "item: 1, 9223372036854775807\n",
        "loads: 9223372036854775807\n",
        /* k-split-tiles x k-split overflows, and is not the count of anything here. */
        "tile: 1, 1\nk-split: 4\nk-split-tiles: 4611686018427387904\nk-split-groups: 10\n",
        /* Groups that fit at 1024, not at 65536. */
        "tile: TS, TS\nk-split-tiles: 1\nk-split-groups: (M > 1024) * 9223372036854775807\n",
        "tile: TS, TS\nk-split: 1 + (M > 1024) * 9223372036854775806\n",
    };
    const int widths[] = { 36, 80, 250 };
    const size_t heights[] = { 10, 24, 64 };
    const struct gemm_size sizes[] = { { 1024, 1024, 1024 }, { 1, 1, 1 }, { 65536, 65536, 65536 } };
    char text[1024];

    for (size_t i = 0; i < sizeof lines_of / sizeof lines_of[0]; i++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            struct lesson l;
            struct param_set ps;
            struct figures d;
            struct error e;
            error_init(&e);
            snprintf(text, sizeof text, HEADER "args: M N K A B C\n%s---\n", lines_of[i]);
            parse(text, &l);
            param_set_defaults(&l, &ps);
            if (figures_compute(&l, &ps, sizes[s], NULL, &d, &e) < 0) {
                ck_assert_msg(strstr(e.msg, "fit in 64 bits") != NULL, "%s: %s", lines_of[i], e.msg);
                lesson_free(&l);
                continue;
            }
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
                for (size_t h = 0; h < sizeof heights / sizeof heights[0]; h++)
                    for (int utf8 = 0; utf8 < 2; utf8++) {
                        size_t n = diagram_draw(&d, widths[w], heights[h], utf8, lines);
                        ck_assert_msg(n > 0 && n <= heights[h], "%s: %zu lines", lines_of[i], n);
                        for (size_t k = 0; k < n; k++)
                            ck_assert_msg(str_columns(lines[k], strlen(lines[k])) <= (size_t)widths[w],
                                          "%s at %dx%zu: %s", lines_of[i], widths[w], heights[h], lines[k]);
                    }
            lesson_free(&l);
        }
}
END_TEST

/* tests/hostile/sizes/diagram-tile: a tile of 2^63 - 1 rows by 1 column, with which the tutor
   once died of SIGFPE as it drew the lesson. */
START_TEST(test_diagram_hostile_lesson_file)
{
    struct lesson_set set;
    struct param_set ps;
    struct figures d;
    struct error e;
    const struct lesson *l;

    error_init(&e);
    ck_assert_msg(lesson_set_load(CLMM_SRCDIR "/tests/hostile/sizes/diagram-tile", &set, &e) == 0, "%s", e.msg);
    l = lesson_set_find(&set, 65);
    ck_assert_ptr_nonnull(l);
    param_set_defaults(l, &ps);
    ck_assert_msg(figures_compute(l, &ps, (struct gemm_size){ 64, 64, 64 }, NULL, &d, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(d.groups_m, 1);
    ck_assert_int_eq(d.groups_n, 64);
    ck_assert_int_eq(d.cover_rows, 9223372036854775807LL);
    draw_checked(&d, 52, 16, true, "a tile of 2^63 - 1 rows");
    draw_checked(&d, 120, 40, false, "a tile of 2^63 - 1 rows");
    ck_assert(drawn(draw_checked(&d, 80, 24, true, "a tile of 2^63 - 1 rows"),
                    "one work-group: 9223372036854775807x1 of C"));
    lesson_set_free(&set);
}
END_TEST

/* Lesson 15, split-K: the groups along K counted with the tiles, its figures those of the
   first launch, and how many launches run at this size. */
START_TEST(test_diagram_split_k)
{
    struct figures d;
    size_t n;

    compute(15, cube, NULL, 0, NULL, &d);
    ck_assert_int_eq(d.k_split, 4);
    ck_assert_int_eq(d.tile_groups, 64);
    ck_assert_uint_eq(d.g.launch[0].groups, 256);
    ck_assert_int_eq(d.nwarnings, 0);
    n = draw_checked(&d, 80, 24, true, "lesson 15");
    ck_assert(drawn(n, "8x8x4 work-groups of 128x128"));
    ck_assert(drawn(n, "launches        2 of 2 here; the figures below are the first's"));
    ck_assert(drawn(n, "groups          256"));
    /* Each group reads a quarter of lesson 14's floats: the same bytes per flop. */
    {
        struct figures d14;
        compute(14, cube, NULL, 0, NULL, &d14);
        ck_assert_int_eq(d.loads * 4, d14.loads);
        ck_assert(d.bytes_per_flop == d14.bytes_per_flop);
    }
    compute(15, cube, "SPLIT", 1, NULL, &d);
    n = draw_checked(&d, 80, 24, true, "lesson 15, SPLIT=1");
    ck_assert(drawn(n, "8x8 work-groups of 128x128"));
    ck_assert(drawn(n, "launches        1 of 2 here"));
}
END_TEST

/* Lesson 19 at 8192 with SPLIT = 15 (PIECES = 0, its default without a device): 32 x 64 tiles of 256 x 128, 2048 % 132 = 68 of them, the
   last, split: 2048 + 68 x 14 = 3000 groups, which the layout lines agree with. */
START_TEST(test_diagram_last_wave)
{
    const struct gemm_size big = { 8192, 8192, 8192 };
    struct figures d;
    size_t n;

    compute(19, big, "SPLIT", 15, NULL, &d);
    ck_assert_int_eq(d.k_split, 15);
    ck_assert_int_eq(d.tile_groups, 2048);
    ck_assert_int_eq(d.k_split_tiles, 68);
    ck_assert_uint_eq(d.g.launch[0].groups, 3000);
    ck_assert_int_eq(d.nwarnings, 0);
    n = draw_checked(&d, 100, 24, true, "lesson 19");
    ck_assert(drawn(n, "32x64 tiles of 256x128, the last"));
    ck_assert(drawn(n, "the last 68") && drawn(n, "split 15 ways"));
    /* Lesson 19 at 4096 in pieces (PIECES = 1): 512 tiles, 116 left, 132 shares: 396 whole tiles and at
       most 132 + 115 pieces, as many groups as launched. */
    compute(19, (struct gemm_size){ 4096, 4096, 4096 }, "PIECES", 1, NULL, &d);
    ck_assert_int_eq(d.k_split_tiles, 116);
    ck_assert_int_eq(d.k_split_groups, 247);
    ck_assert_uint_eq(d.g.launch[0].groups, 643);
    ck_assert_int_eq(d.nwarnings, 0);
    n = draw_checked(&d, 100, 24, true, "lesson 19, PIECES=1");
    ck_assert(drawn(n, "16x32 tiles of 256x128, the last 116"));
    ck_assert(drawn(n, "in 247 pieces"));
    /* Nothing split: the tiles alone, none of them counted as split. */
    compute(19, big, NULL, 0, NULL, &d);
    ck_assert_int_eq(d.k_split_tiles, 0);
    ck_assert_uint_eq(d.g.launch[0].groups, 2048);
    ck_assert_int_eq(d.nwarnings, 0);
    n = draw_checked(&d, 100, 24, true, "lesson 19, SPLIT=1");
    ck_assert(drawn(n, "32x64 work-groups of 256x128"));
    ck_assert(!drawn(n, "the last"));
}
END_TEST

Suite *diagram_suite(void)
{
    Suite *s = suite_create("diagram");
    TCase *figures = tcase_create("figures_compute");
    TCase *drawing = tcase_create("diagram_draw");

    tcase_add_checked_fixture(figures, setup, teardown);
    tcase_add_test(figures, test_diagram_naive);
    tcase_add_test(figures, test_diagram_row_local_b);
    tcase_add_test(figures, test_diagram_local_tiles);
    tcase_add_test(figures, test_diagram_register_blocks);
    tcase_add_test(figures, test_diagram_row_major_fast);
    tcase_add_test(figures, test_diagram_limits);
    tcase_add_test(figures, test_diagram_refusals);
    tcase_add_test(figures, test_diagram_lines_that_disagree);
    tcase_add_test(figures, test_diagram_without_layout);
    tcase_add_test(figures, test_diagram_item_stride);
    tcase_add_test(figures, test_diagram_shipped_agree);
    tcase_add_test(figures, test_diagram_overflow);
    tcase_add_test(figures, test_diagram_hostile_values);
    tcase_add_test(figures, test_diagram_hostile_lesson_file);
    suite_add_tcase(s, figures);

    tcase_add_checked_fixture(drawing, setup, teardown);
    tcase_add_test(drawing, test_diagram_draw_fits);
    tcase_add_test(drawing, test_diagram_draw_labels);
    tcase_add_test(drawing, test_diagram_split_k);
    tcase_add_test(drawing, test_diagram_draw_item_stride);
    tcase_add_test(drawing, test_diagram_draw_warnings);
    tcase_add_test(drawing, test_diagram_draw_without_layout);
    tcase_add_test(drawing, test_diagram_draw_legend);
    tcase_add_test(drawing, test_diagram_draw_tiles_distinct);
    tcase_add_test(drawing, test_diagram_draw_equal_tiles);
    tcase_add_test(drawing, test_diagram_draw_padding);
    tcase_add_test(drawing, test_diagram_draw_unit);
    tcase_add_test(drawing, test_diagram_last_wave);
    suite_add_tcase(s, drawing);
    return s;
}
