/* unit_waves.c: work-groups per compute unit and waves of shipped lessons on an H200, another
   GPU and POCL's CPU device, each worked out by hand below, and their drawing and JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/str.h"
#include "engine/waves.h"

/* An H200 as the NVIDIA driver describes it: 132 compute units, compute capability 9.0,
   48 KiB of local memory per work-group, 228 KiB per compute unit. */
static const struct device_info h200 = {
    .type = CL_DEVICE_TYPE_GPU, .compute_units = 132, .max_group = 1024, .local_mem = 49152,
    .max_item_sizes = { 1024, 1024, 64 }, .nv_cc_major = 9, .nv_cc_minor = 0, .nv_registers = 65536,
    .nv_warp = 32, .nv_local_per_unit = 233472,
};

/* POCL's CPU device on this machine: 2 compute units, each a core. */
static const struct device_info pocl = {
    .type = CL_DEVICE_TYPE_CPU, .compute_units = 2, .max_group = 4096, .local_mem = 4194304,
    .max_item_sizes = { 4096, 4096, 4096 },
};

/* A GPU that gives no figures beyond OpenCL's. */
static const struct device_info other_gpu = {
    .type = CL_DEVICE_TYPE_GPU, .compute_units = 60, .max_group = 256, .local_mem = 65536,
    .max_item_sizes = { 256, 256, 256 },
};

static const struct gemm_size cube = { 1024, 1024, 1024 }, odd = { 1000, 700, 300 };

/* The figures of lesson number at size with its defaults, one parameter set when name is not NULL. */
static void lesson_figures(int number, struct gemm_size size, const char *name, long long value,
                           struct figures *d)
{
    struct lesson_set set;
    const struct lesson *l;
    struct param_set ps;
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_set_load(CLMM_SRCDIR "/lessons", &set, &e) == 0, "%s", e.msg);
    l = lesson_set_find(&set, number);
    ck_assert_msg(l != NULL, "no lesson %d", number);
    param_set_defaults(l, &ps);
    if (name)
        ps.values[lesson_param_index(l, name)] = value;
    ck_assert_msg(figures_compute(l, &ps, size, NULL, d, &e) == 0, "lesson %d: %s", number, e.msg);
    lesson_set_free(&set);
}

static void compute(const struct figures *d, const struct device_info *dev, int registers,
                    unsigned long long local_bytes, struct waves *w)
{
    struct waves_kernel k = { registers, local_bytes, 0 };
    struct error e;

    error_init(&e);
    ck_assert_msg(waves_compute(d, dev, &k, w, &e) == 0, "%s", e.msg);
}

static void assert_limit(const struct waves *w, enum waves_limit limit, enum waves_basis basis,
                         unsigned long long per_unit, unsigned long long per_group, unsigned long long groups)
{
    const struct waves_bound *b = &w->limits[limit];

    ck_assert_msg(b->basis == basis, "%s: basis %d, not %d", waves_limit_name(limit), b->basis, basis);
    ck_assert_uint_eq(b->per_unit, per_unit);
    ck_assert_uint_eq(b->per_group, per_group);
    ck_assert_uint_eq(b->groups, groups);
}

static void assert_waves(const struct waves *w, unsigned long long groups, unsigned long long resident,
                         unsigned binding, unsigned long long capacity, double waves,
                         unsigned long long full, unsigned long long last, unsigned percent,
                         unsigned long long busy)
{
    ck_assert_uint_eq(w->groups, groups);
    ck_assert_uint_eq(w->resident, resident);
    ck_assert_uint_eq(w->binding, binding);
    ck_assert_uint_eq(w->capacity, capacity);
    ck_assert_double_eq_tol(w->waves, waves, 1e-12);
    ck_assert_uint_eq(w->full_waves, full);
    ck_assert_uint_eq(w->last_groups, last);
    ck_assert_uint_eq(w->last_percent, percent);
    ck_assert_uint_eq(w->last_busy_units, busy);
}

#define BIT(limit) (1u << (limit))

/* Lesson 13 on an H200 with the defaults, TSM = TSN = 128: groups of 16 x 16 = 256 work-items
   (8 warps), 127 registers per work-item, 16656 bytes of local memory as the compiler
   allocated them (the lesson declares 2 x (132 x 8 + 8 x 128) floats, 16640 bytes).
   Per compute unit:
     work-items  2048 / 32 = 64 warps, / 8 per group = 8
     slots       32
     local       16656 + 1024 reserved = 17680, in units of 128: 17792; 233472 / 17792 = 13
     registers   127 x 32 = 4064, in units of 256: 4096 per warp, x 8 = 32768 per group;
                 65536 / 4 sub-partitions = 16384, / 4096 = 4 warps each, 16 in all, / 8 = 2
   2 per compute unit, registers bind: 264 in a wave.
   At 1024: 8 x 8 = 64 groups, 64 / 264 = 0.24 of a wave, 64 of 132 compute units busy.
   At 4096: 32 x 32 = 1024 groups, 1024 / 264 = 3.88 waves: 3 full, the last 1024 - 792 = 232
   of 264 (88%), on all 132 compute units.
   3 per compute unit: 24 warps, 6 per sub-partition, 16384 / 6 = 2730 registers per warp,
   2560 in units of 256, 80 per work-item. */
START_TEST(test_waves_row_major_fast)
{
    struct figures d;
    struct waves w;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &h200, 127, 16656, &w);
    ck_assert(w.device == WAVES_NVIDIA);
    ck_assert(!w.upper_bound);
    ck_assert(w.local_from_kernel);
    assert_limit(&w, WAVES_ITEMS, WAVES_TABLE, 2048, 256, 8);
    assert_limit(&w, WAVES_SLOTS, WAVES_TABLE, 32, 1, 32);
    assert_limit(&w, WAVES_LOCAL, WAVES_TABLE, 233472, 17792, 13);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 32768, 2);
    assert_waves(&w, 64, 2, BIT(WAVES_REGISTERS), 264, 64.0 / 264, 0, 64, 24, 64);
    ck_assert_uint_eq(w.wave_count, 1);
    ck_assert(w.next_possible);
    ck_assert_int_eq(w.next_registers, 80);
    ck_assert_uint_eq(w.next_local, 0);
    ck_assert_uint_eq(w.next_items, 0);

    lesson_figures(13, (struct gemm_size){ 4096, 4096, 4096 }, NULL, 0, &d);
    compute(&d, &h200, 127, 16656, &w);
    assert_waves(&w, 1024, 2, BIT(WAVES_REGISTERS), 264, 1024.0 / 264, 3, 232, 88, 132);
    ck_assert_uint_eq(w.wave_count, 4);
}
END_TEST

/* Lesson 1, 32 registers per work-item, no local memory, at 1000x700x300.
   TS = 16: M and N padded to 1008 x 704, 63 x 44 = 2772 groups of 256 work-items (8 warps).
     work-items 64 / 8 = 8; slots 32; local: only the 1024 reserved, 233472 / 1024 = 228;
     registers 32 x 32 = 1024 per warp, 16384 / 1024 = 16 warps per sub-partition, 64 / 8 = 8.
     8 per compute unit, work-items and registers both: 1056 in a wave; 2772 / 1056 = 2.625
     waves: 2 full, the last 2772 - 2112 = 660 of 1056 (62.5%, 63%).
     9 per compute unit: 64 / 9 = 7 warps, 224 work-items; 72 warps, 18 per sub-partition,
     16384 / 18 = 910 registers per warp, 768 in units of 256, 24 per work-item.
   TS = 32: 1024 x 704, 32 x 22 = 704 groups of 1024 work-items (32 warps).
     work-items 64 / 32 = 2; registers 1024 x 32 = 32768 per group (within 65536), 64 / 32 = 2.
     2 per compute unit: 264 in a wave; 704 / 264 = 2.67 waves, the last 176 of 264 (67%).
     3 per compute unit: 64 / 3 = 21 warps, 672 work-items; 96 warps, 24 per sub-partition,
     16384 / 24 = 682, 512 in units of 256, 16 per work-item. */
START_TEST(test_waves_naive)
{
    struct figures d;
    struct waves w;

    lesson_figures(1, odd, NULL, 0, &d);
    compute(&d, &h200, 32, 0, &w);
    ck_assert(!w.local_from_kernel);
    assert_limit(&w, WAVES_ITEMS, WAVES_TABLE, 2048, 256, 8);
    assert_limit(&w, WAVES_LOCAL, WAVES_TABLE, 233472, 1024, 228);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 8192, 8);
    assert_waves(&w, 2772, 8, BIT(WAVES_ITEMS) | BIT(WAVES_REGISTERS), 1056, 2.625, 2, 660, 63, 132);
    ck_assert(w.next_possible);
    ck_assert_uint_eq(w.next_items, 224);
    ck_assert_int_eq(w.next_registers, 24);

    lesson_figures(1, odd, "TS", 32, &d);
    compute(&d, &h200, 32, 0, &w);
    assert_limit(&w, WAVES_ITEMS, WAVES_TABLE, 2048, 1024, 2);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 32768, 2);
    assert_waves(&w, 704, 2, BIT(WAVES_ITEMS) | BIT(WAVES_REGISTERS), 264, 704.0 / 264, 2, 176, 67, 132);
    ck_assert_uint_eq(w.next_items, 672);
    ck_assert_int_eq(w.next_registers, 16);
}
END_TEST

/* Registers are split among 4 sub-partitions, each holding whole warps. Lesson 1 with TS = 8 at
   1000x700: 125 x 88 = 11000 groups of 64 work-items (2 warps), 40 registers: 1280 per warp,
   16384 / 1280 = 12 warps per sub-partition, 48 in all, 24 groups (the whole file would hold
   65536 / 1280 = 51 warps, 25 groups). Work-items 64 / 2 = 32, slots 32: registers bind at 24,
   3168 in a wave; 11000 / 3168 = 3.47 waves, the last 11000 - 9504 = 1496 of 3168 (47%).
   25 per compute unit: 50 warps, 13 in a sub-partition, 16384 / 13 = 1260, 1024 in units of
   256, 32 registers per work-item. */
START_TEST(test_waves_sub_partitions)
{
    struct figures d;
    struct waves w;

    lesson_figures(1, odd, "TS", 8, &d);
    compute(&d, &h200, 40, 0, &w);
    assert_limit(&w, WAVES_ITEMS, WAVES_TABLE, 2048, 64, 32);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 2560, 24);
    assert_waves(&w, 11000, 24, BIT(WAVES_REGISTERS), 3168, 11000.0 / 3168, 3, 1496, 47, 132);
    ck_assert_int_eq(w.next_registers, 32);
}
END_TEST

/* Lesson 9 at 2048 with the defaults: 16 x 16 = 256 groups of 256 work-items, 128 registers.
   The lesson declares 128 x 16 + 17 x 128 = 4224 floats, 16896 bytes: + 1024 = 17920, exactly
   140 units of 128, 233472 / 17920 = 13. The compiler's 16900 bytes: 17924, 141 units, 18048,
   233472 / 18048 = 12: four bytes cost a work-group of local memory, but registers bind (128 x 32
   = 4096 per warp, 2 as in lesson 13). 264 in a wave; 256 / 264 = 0.97 of a wave, 97%, on all
   132 compute units. */
START_TEST(test_waves_register_blocks)
{
    struct figures d;
    struct waves w;

    lesson_figures(9, (struct gemm_size){ 2048, 2048, 2048 }, NULL, 0, &d);
    ck_assert_uint_eq(d.local_bytes, 16896);
    compute(&d, &h200, 128, 0, &w);
    assert_limit(&w, WAVES_LOCAL, WAVES_TABLE, 233472, 17920, 13);
    compute(&d, &h200, 128, 16900, &w);
    assert_limit(&w, WAVES_LOCAL, WAVES_TABLE, 233472, 18048, 12);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 32768, 2);
    assert_waves(&w, 256, 2, BIT(WAVES_REGISTERS), 264, 256.0 / 264, 0, 256, 97, 132);
}
END_TEST

/* Local memory binds: lesson 13 with 40 registers (1280 per warp, 12 per sub-partition, 48
   warps, 6 groups) and a kernel that allocates 40000 bytes: 41024, in units of 128 41088,
   233472 / 41088 = 5. Registers allow 6 per compute unit, so only local memory need change for
   6: 233472 / 6 = 38912, a multiple of 128, less the 1024 reserved: 37888 bytes. */
START_TEST(test_waves_local_binds)
{
    struct figures d;
    struct waves w;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &h200, 40, 40000, &w);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 10240, 6);
    assert_limit(&w, WAVES_LOCAL, WAVES_TABLE, 233472, 41088, 5);
    ck_assert_uint_eq(w.resident, 5);
    ck_assert_uint_eq(w.binding, BIT(WAVES_LOCAL));
    ck_assert_uint_eq(w.next_local, 37888);
    ck_assert_int_eq(w.next_registers, 0);
}
END_TEST

/* Without the register count the registers may bind unseen: at most 8, the work-items' figure. */
START_TEST(test_waves_registers_unknown)
{
    struct figures d;
    struct waves w;

    lesson_figures(13, cube, NULL, 0, &d);
    ck_assert_int_eq(waves_compute(&d, &h200, NULL, &w, &(struct error){ 0 }), 0);
    ck_assert(w.upper_bound);
    ck_assert_int_eq(w.registers, -1);
    ck_assert_uint_eq(w.local_bytes, 16640);
    ck_assert(w.limits[WAVES_REGISTERS].basis == WAVES_UNKNOWN);
    assert_limit(&w, WAVES_LOCAL, WAVES_TABLE, 233472, 17664, 13);
    assert_waves(&w, 64, 8, BIT(WAVES_ITEMS), 1056, 64.0 / 1056, 0, 64, 6, 64);
}
END_TEST

/* POCL: each of the 2 cores runs one work-group at a time. Lesson 13 at 1024: 64 groups,
   2 in a wave, 32 waves, all full. Lesson 1 at 1000x700: 2772 groups, 1386 waves. */
START_TEST(test_waves_cpu)
{
    struct figures d;
    struct waves w;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &pocl, -1, 0, &w);
    ck_assert(w.device == WAVES_CPU);
    ck_assert(!w.upper_bound);
    assert_limit(&w, WAVES_SLOTS, WAVES_ONE_PER_CORE, 1, 1, 1);
    ck_assert(w.limits[WAVES_REGISTERS].basis == WAVES_NONE);
    assert_waves(&w, 64, 1, BIT(WAVES_SLOTS), 2, 32.0, 32, 2, 100, 2);
    ck_assert_uint_eq(w.wave_count, 32);
    ck_assert(!w.next_possible);

    lesson_figures(1, odd, NULL, 0, &d);
    compute(&d, &pocl, -1, 0, &w);
    assert_waves(&w, 2772, 1, BIT(WAVES_SLOTS), 2, 1386.0, 1386, 2, 100, 2);
}
END_TEST

/* A GPU with OpenCL's figures only: 256 work-items and 64 KiB of local memory a work-group
   may use, taken as a compute unit's. Lesson 13: 256 / 256 = 1, 65536 / 16640 = 3 (the
   lesson's figure: no kernel's); at most 1, 60 in a wave, 64 / 60 = 1.07 waves: 1 full, the
   last 4 of 60 (7%) on 4 compute units. An NVIDIA compute capability missing from the table
   is treated the same way, and said. */
START_TEST(test_waves_other_gpu)
{
    struct device_info future = h200;
    struct figures d;
    struct waves w;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &other_gpu, -1, 0, &w);
    ck_assert(w.device == WAVES_OTHER_GPU);
    ck_assert(w.upper_bound);
    assert_limit(&w, WAVES_ITEMS, WAVES_ASSUMED, 256, 256, 1);
    assert_limit(&w, WAVES_LOCAL, WAVES_ASSUMED, 65536, 16640, 3);
    ck_assert(w.limits[WAVES_SLOTS].basis == WAVES_UNKNOWN);
    assert_waves(&w, 64, 1, BIT(WAVES_ITEMS), 60, 64.0 / 60, 1, 4, 7, 4);
    ck_assert(!w.capability_unknown);

    future.nv_cc_major = 12;
    compute(&d, &future, 127, 16656, &w);
    ck_assert(w.device == WAVES_OTHER_GPU);
    ck_assert(w.capability_unknown);
    assert_limit(&w, WAVES_ITEMS, WAVES_ASSUMED, 1024, 256, 4);
    assert_limit(&w, WAVES_LOCAL, WAVES_ASSUMED, 49152, 16656, 2);
    ck_assert_uint_eq(w.resident, 2);
    ck_assert_uint_eq(w.binding, BIT(WAVES_LOCAL));
}
END_TEST

/* A work-group that cannot launch: 255 registers for 1024 work-items need 8192 x 32 registers,
   beyond the 65536 a work-group may use; local memory beyond the 48 KiB a group may use; and, on
   a device whose work-groups may use 32768 registers, 96 registers for a group of 288 work-items
   (9 warps): 3072 x 9 = 27648 registers, but the hardware counts warps in fours, one for each
   sub-partition, and 3072 x 12 = 36864 is too many (the register file alone would hold
   16384 / 3072 = 5 warps a sub-partition, 20 in all, 2 groups). */
START_TEST(test_waves_does_not_fit)
{
    struct device_info half_file = h200;
    struct figures d;
    struct waves w;

    lesson_figures(1, odd, "TS", 32, &d);
    compute(&d, &h200, 255, 0, &w);
    ck_assert_uint_eq(w.limits[WAVES_REGISTERS].groups, 0);
    ck_assert_uint_eq(w.resident, 0);
    ck_assert_uint_eq(w.binding, BIT(WAVES_REGISTERS));
    ck_assert_uint_eq(w.capacity, 0);
    ck_assert(!w.next_possible);
    half_file.nv_registers = 32768;
    compute(&d, &h200, 32, 49153, &w);
    ck_assert_uint_eq(w.resident, 0);
    ck_assert_uint_eq(w.binding, BIT(WAVES_LOCAL));
    d.g.launch[0].group_items = 288;
    compute(&d, &half_file, 96, 0, &w);
    assert_limit(&w, WAVES_REGISTERS, WAVES_TABLE, 65536, 27648, 0);
}
END_TEST

START_TEST(test_waves_refusals)
{
    struct device_info none = h200;
    struct figures d;
    struct waves w;
    struct error e;

    lesson_figures(13, cube, NULL, 0, &d);
    none.compute_units = 0;
    error_init(&e);
    ck_assert_int_eq(waves_compute(&d, &none, NULL, &w, &e), -1);
    ck_assert_str_eq(e.msg, "the device reports no compute units");
    d.g.launch[0].has_local = false;
    ck_assert_int_eq(waves_compute(&d, &h200, NULL, &w, &e), -1);
    ck_assert(strstr(e.msg, "no work-group size") != NULL);
}
END_TEST

/* ---- the drawing ---- */

static char lines[64][WAVES_LINE_BYTES];

static size_t draw(const struct waves *w, int width, size_t max_lines, bool utf8)
{
    size_t n = waves_draw(w, width, max_lines, utf8, lines);

    ck_assert_uint_le(n, max_lines);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(str_columns(lines[i], strlen(lines[i])) <= (size_t)width, "%d columns, line %zu: %s",
                      width, i, lines[i]);
        for (const char *p = lines[i]; !utf8 && *p; p++)
            ck_assert_msg((unsigned char)*p < 0x80, "not ASCII: %s", lines[i]);
    }
    return n;
}

/* The line that holds text, or -1. */
static int find(size_t n, const char *text)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(lines[i], text))
            return (int)i;
    return -1;
}

static void assert_shows(size_t n, const char *text)
{
    ck_assert_msg(find(n, text) >= 0, "no line with \"%s\"", text);
}

START_TEST(test_waves_draw_fits)
{
    const int widths[] = { 1, 10, 20, 30, 38, 50, 80, 120, 400 };
    struct waves w[4];
    struct figures d;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &h200, 127, 16656, &w[0]);
    compute(&d, &pocl, -1, 0, &w[1]);
    lesson_figures(1, odd, NULL, 0, &d);
    compute(&d, &h200, 32, 0, &w[2]);
    compute(&d, &other_gpu, -1, 0, &w[3]);
    for (size_t i = 0; i < 4; i++)
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++)
            for (size_t max = 0; max <= 20; max += 5) {
                draw(&w[i], widths[k], max, true);
                draw(&w[i], widths[k], max, false);
            }
}
END_TEST

/* The figures of the worked example in a pane of 38 columns. */
START_TEST(test_waves_draw_figures)
{
    struct figures d;
    struct waves w;
    size_t n;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &h200, 127, 16656, &w);
    n = draw(&w, 38, 20, true);
    ck_assert_str_eq(lines[0], "64 work-groups, 2 per compute unit");
    ck_assert_str_eq(lines[1], "registers bind: 127 per work-item");
    ck_assert(strncmp(lines[2], "wave 1 \xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x91", 22) == 0);
    assert_shows(n, "64 of 264 (24%)");
    assert_shows(n, "0.24 of a wave: 64 of 132 units busy");
    assert_shows(n, "3 per compute unit would need");
    assert_shows(n, "<= 80 registers per work-item");
    assert_shows(n, "> registers       2  65536 / 32768");
    assert_shows(n, "  local memory   13  233472 / 17792 B");
    assert_shows(n, "  work-items      8  2048 / 256");
    assert_shows(n, "  group slots    32");
    n = draw(&w, 80, 20, false);
    assert_shows(n, "0.24 of one wave: 64 of 132 compute units busy");
    assert_shows(n, "3 per compute unit would need <= 80 registers per work-item");
    ck_assert(strncmp(lines[2], "wave 1 #", 8) == 0);
    /* The most telling first: three lines say the groups, what binds and the wave. */
    n = draw(&w, 38, 3, false);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(lines[0], "64 work-groups, 2 per compute unit");
    assert_shows(n, "64 of 264 (24%)");

    lesson_figures(13, (struct gemm_size){ 4096, 4096, 4096 }, NULL, 0, &d);
    compute(&d, &h200, 127, 16656, &w);
    n = draw(&w, 38, 20, false);
    assert_shows(n, "3.88 waves: 3 full, last 88%");
    ck_assert_int_eq(find(n, "wave 4"), find(n, "wave 1") + 3);
    assert_shows(n, "232 of 264 (88%)");
    assert_shows(n, "264 of 264 (100%)");
}
END_TEST

/* Many waves: the first, a mark, the last. */
START_TEST(test_waves_draw_many)
{
    struct figures d;
    struct waves w;
    size_t n;
    int first;

    lesson_figures(1, odd, NULL, 0, &d);
    compute(&d, &pocl, -1, 0, &w);
    n = draw(&w, 38, 20, false);
    ck_assert_str_eq(lines[0], "2772 work-groups, 1 per compute unit");
    ck_assert_str_eq(lines[1], "one work-group at a time per core");
    first = find(n, "wave 1 ");
    ck_assert_int_ge(first, 0);
    ck_assert(strstr(lines[first + 1], ":") != NULL);
    ck_assert(strncmp(lines[first + 2], "wave 1386", 9) == 0);
    assert_shows(n, "1386.00 waves, all full");
    assert_shows(n, "> group slots     1  one per core");
}
END_TEST

/* What is not known says so. */
START_TEST(test_waves_draw_unknown)
{
    struct device_info future = h200;
    struct figures d;
    struct waves w;
    size_t n;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &h200, -1, 16656, &w);
    n = draw(&w, 50, 20, false);
    ck_assert_str_eq(lines[0], "64 work-groups, at most 8 per compute unit");
    assert_shows(n, "  registers       ?  unknown");
    n = draw(&w, 30, 20, false);
    ck_assert_str_eq(lines[0], "64 groups, <= 8 per unit");

    compute(&d, &other_gpu, -1, 0, &w);
    n = draw(&w, 50, 20, false);
    assert_shows(n, "work-items bind (assumed): 256 per group");
    assert_shows(n, "> work-items      1  256 / 256 assumed");

    future.nv_cc_major = 12;
    compute(&d, &future, 127, 16656, &w);
    n = draw(&w, 80, 20, false);
    assert_shows(n, "compute capability 12.0: not in the table, OpenCL's figures only");

    lesson_figures(1, odd, "TS", 32, &d);
    compute(&d, &h200, 255, 0, &w);
    n = draw(&w, 50, 20, false);
    ck_assert_str_eq(lines[0], "704 work-groups: none fits a compute unit");
    ck_assert_str_eq(lines[1], "registers: one work-group does not fit");
    ck_assert_int_lt(find(n, "wave"), 0);
}
END_TEST

START_TEST(test_waves_json)
{
    struct figures d;
    struct waves w;
    char *text = NULL;
    size_t len = 0;
    FILE *out;

    lesson_figures(13, cube, NULL, 0, &d);
    compute(&d, &h200, 127, 16656, &w);
    out = open_memstream(&text, &len);
    ck_assert(out != NULL);
    waves_json(out, &w);
    fclose(out);
    ck_assert(strstr(text, "\"work_groups\":64,") != NULL);
    ck_assert(strstr(text, "\"registers_per_item\":127,") != NULL);
    ck_assert(strstr(text, "\"local_bytes\":16656,\"local_from\":\"kernel\"") != NULL);
    ck_assert(strstr(text, "\"registers\":{\"basis\":\"table\",\"groups\":2,\"per_unit\":65536,"
                           "\"per_group\":32768,\"binds\":true}") != NULL);
    ck_assert(strstr(text, "\"resident_per_unit\":2,\"upper_bound\":false,\"capacity\":264,\"waves\":0.2424,")
              != NULL);
    ck_assert(strstr(text, "\"last_wave_groups\":64,\"last_wave_percent\":24,\"last_wave_busy_units\":64") != NULL);
    ck_assert(strstr(text, "\"next\":{\"per_unit\":3,\"max_registers_per_item\":80,\"max_local_bytes\":null")
              != NULL);
    ck_assert(text[0] == '{' && text[len - 1] == '}');
    free(text);
}
END_TEST

Suite *waves_suite(void)
{
    Suite *s = suite_create("waves");
    TCase *counts = tcase_create("waves_compute");
    TCase *drawing = tcase_create("waves_draw");

    tcase_add_test(counts, test_waves_row_major_fast);
    tcase_add_test(counts, test_waves_naive);
    tcase_add_test(counts, test_waves_sub_partitions);
    tcase_add_test(counts, test_waves_register_blocks);
    tcase_add_test(counts, test_waves_local_binds);
    tcase_add_test(counts, test_waves_registers_unknown);
    tcase_add_test(counts, test_waves_cpu);
    tcase_add_test(counts, test_waves_other_gpu);
    tcase_add_test(counts, test_waves_does_not_fit);
    tcase_add_test(counts, test_waves_refusals);
    suite_add_tcase(s, counts);
    tcase_add_test(drawing, test_waves_draw_fits);
    tcase_add_test(drawing, test_waves_draw_figures);
    tcase_add_test(drawing, test_waves_draw_many);
    tcase_add_test(drawing, test_waves_draw_unknown);
    tcase_add_test(drawing, test_waves_json);
    suite_add_tcase(s, drawing);
    return s;
}
