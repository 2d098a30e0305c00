/* unit_geometry.c: padding and launch geometry computed from a lesson's expressions. */
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "engine/geometry.h"

/* geometry never reads the kernel, so any existing file will do: this one. */
static const char *const kernel_dirs[] = { CLMM_SRCDIR "/tests", NULL };

#define HEADER "lesson: 5\ntitle: Tiles\nsources: test\nkernel: unit_geometry.c\nentry: gemm\n"

/* Tiles of TS x TS with WPT results per work-item; two local buffers and one int argument. */
static const char tiles_lesson[] = HEADER
    "args: M N K A B C int(K / TS) local(TS * TS) local(2 * TS * TS)\n"
    "param: TS = 16 in 8, 16, 32\n"
    "param: WPT = 1 in 1, 2, 3, 4\n"
    "global: M / WPT, N\n"
    "local: TS / WPT, TS\n"
    "multiple: M TS, N TS, K TS\n"
    "require: TS % WPT == 0 : TS must be a multiple of WPT\n"
    "---\n";

static struct lesson lesson;
static struct param_set params;

/* Parses text into lesson (replacing the one before) with its parameters at their defaults. */
static void parse(const char *text)
{
    struct error e;

    lesson_free(&lesson);
    error_init(&e);
    ck_assert_msg(lesson_parse("g.lesson", text, kernel_dirs, &lesson, &e) == 0, "parse failed: %s", e.msg);
    param_set_defaults(&lesson, &params);
}

static void teardown(void)
{
    lesson_free(&lesson);
}

static struct gemm_size size(long long m, long long n, long long k)
{
    return (struct gemm_size){ m, n, k };
}

static void compute_ok(struct gemm_size asked, struct geometry *g)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(geometry_compute(&lesson, &params, asked, g, &e) == 0, "%lldx%lldx%lld refused: %s",
                  asked.m, asked.n, asked.k, e.msg);
}

/* Checks that the size is refused with a message holding fragment. */
static void compute_fails(struct gemm_size asked, const char *fragment)
{
    struct geometry g;
    struct error e;

    error_init(&e);
    ck_assert_msg(geometry_compute(&lesson, &params, asked, &g, &e) < 0, "%lldx%lldx%lld accepted",
                  asked.m, asked.n, asked.k);
    ck_assert_msg(strstr(e.msg, fragment) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment);
}

static void assert_size(struct gemm_size s, long long m, long long n, long long k)
{
    ck_assert_msg(s.m == m && s.n == n && s.k == k, "size %lldx%lldx%lld, expected %lldx%lldx%lld",
                  s.m, s.n, s.k, m, n, k);
}

START_TEST(test_geometry_defaults)
{
    parse(tiles_lesson);
    ck_assert_int_eq(params.values[0], 16);
    ck_assert_int_eq(params.values[1], 1);
    ck_assert_int_eq(params.values[2], 0);
}
END_TEST

START_TEST(test_geometry_pads_to_multiples)
{
    struct geometry g;

    parse(tiles_lesson);
    compute_ok(size(100, 70, 30), &g);
    assert_size(g.asked, 100, 70, 30);
    assert_size(g.run, 112, 80, 32);
    ck_assert(g.padded);
}
END_TEST

START_TEST(test_geometry_pads_each_dimension)
{
    struct geometry g;

    parse(tiles_lesson);
    compute_ok(size(128, 65, 64), &g);
    assert_size(g.run, 128, 80, 64);
    ck_assert(g.padded);
    compute_ok(size(1, 1, 1), &g);
    assert_size(g.run, 16, 16, 16);
    params.values[0] = 32;
    compute_ok(size(100, 70, 30), &g);
    assert_size(g.run, 128, 96, 32);
}
END_TEST

START_TEST(test_geometry_exact_multiples)
{
    struct geometry g;

    parse(tiles_lesson);
    compute_ok(size(128, 64, 32), &g);
    assert_size(g.run, 128, 64, 32);
    ck_assert(!g.padded);
}
END_TEST

START_TEST(test_geometry_square)
{
    struct geometry g;

    parse(HEADER "args: M A B C\nparam: TS = 16 in 16, 64\nglobal: M, M\nsquare: yes\n"
          "multiple: M TS\n---\n");
    compute_ok(size(100, 70, 30), &g);
    assert_size(g.run, 112, 112, 112);
    ck_assert(g.padded);
    compute_ok(size(64, 64, 64), &g);
    assert_size(g.run, 64, 64, 64);
    ck_assert(!g.padded);
    /* To the largest side, then to the multiple: 130 -> 192 for all three. */
    params.values[0] = 64;
    compute_ok(size(30, 130, 70), &g);
    assert_size(g.run, 192, 192, 192);
}
END_TEST

START_TEST(test_geometry_square_settles)
{
    struct geometry g;

    /* Padding K moves the largest side, which moves K again. */
    parse(HEADER "args: M A B C\nglobal: M\nsquare: yes\nmultiple: K 64\n---\n");
    compute_ok(size(100, 70, 30), &g);
    assert_size(g.run, 128, 128, 128);
    parse(HEADER "args: M A B C\nglobal: M\nsquare: yes\n---\n");
    compute_ok(size(100, 170, 30), &g);
    assert_size(g.run, 170, 170, 170);
    ck_assert(g.padded);
}
END_TEST

START_TEST(test_geometry_no_pad_refuses)
{
    struct geometry g;

    parse(HEADER "args: M N K A B C\nparam: TS = 16 in 16, 32\nglobal: M, N\nlocal: TS, TS\n"
          "multiple: M TS, N TS, K TS\npad: no\n---\n");
    compute_fails(size(100, 70, 30), "a multiple of 16");
    compute_fails(size(100, 70, 30), "does not pad");
    compute_fails(size(100, 70, 30), "try 112x80x32");
    compute_fails(size(128, 64, 30), "try 128x64x32");
    compute_ok(size(128, 64, 32), &g);
    ck_assert(!g.padded);
}
END_TEST

START_TEST(test_geometry_no_pad_square)
{
    parse(HEADER "args: M A B C\nglobal: M\nsquare: yes\npad: no\n---\n");
    compute_fails(size(100, 70, 30), "M = N = K");
    compute_fails(size(100, 70, 30), "try 100x100x100");
}
END_TEST

START_TEST(test_geometry_require)
{
    struct geometry g;

    parse(tiles_lesson);
    params.values[1] = 3;   /* WPT = 3 does not divide TS = 16 */
    compute_fails(size(96, 96, 96), "TS must be a multiple of WPT");
    params.values[1] = 4;
    compute_ok(size(96, 96, 96), &g);
}
END_TEST

START_TEST(test_geometry_require_after_padding)
{
    struct geometry g;

    /* require lines see the padded sizes. */
    parse(HEADER "args: M N K A B C\nglobal: M, N\nmultiple: M 64\nrequire: M % 64 == 0 : padded\n"
          "require: M <= 128 : too large\n---\n");
    compute_ok(size(100, 70, 30), &g);
    assert_size(g.run, 128, 70, 30);
    compute_fails(size(129, 70, 30), "too large");
}
END_TEST

START_TEST(test_geometry_global_not_multiple_of_local)
{
    struct geometry g;

    parse(HEADER "args: M N K A B C\nglobal: M, N\nlocal: 64, 1\n---\n");
    compute_fails(size(100, 70, 30), "not a multiple of the local size");
    compute_ok(size(128, 70, 30), &g);
    ck_assert_uint_eq(g.launch[0].groups, 2 * 70);
}
END_TEST

START_TEST(test_geometry_launch)
{
    struct geometry g;

    parse(tiles_lesson);
    params.values[1] = 4;   /* WPT */
    compute_ok(size(100, 70, 30), &g);    /* runs 112 x 80 x 32 */
    ck_assert_uint_eq(g.launch[0].dims, 2);
    ck_assert(g.launch[0].has_local);
    ck_assert_uint_eq(g.launch[0].global[0], 112 / 4);
    ck_assert_uint_eq(g.launch[0].global[1], 80);
    ck_assert_uint_eq(g.launch[0].local[0], 16 / 4);
    ck_assert_uint_eq(g.launch[0].local[1], 16);
    ck_assert_uint_eq(g.launch[0].groups, 7 * 5);
    ck_assert_uint_eq(g.launch[0].group_items, 4 * 16);
    ck_assert_uint_eq(g.launch[0].work_items, 28 * 80);
}
END_TEST

START_TEST(test_geometry_arguments)
{
    struct geometry g;

    parse(tiles_lesson);
    compute_ok(size(100, 70, 30), &g);    /* runs 112 x 80 x 32, TS = 16 */
    for (size_t i = 0; i < 6; i++)
        ck_assert_int_eq(g.launch[0].arg_values[i], 0);
    ck_assert_int_eq(g.launch[0].arg_values[6], 32 / 16);         /* int(K / TS), of the padded K */
    ck_assert_int_eq(g.launch[0].arg_values[7], 16 * 16);         /* local(TS * TS), in floats */
    ck_assert_int_eq(g.launch[0].arg_values[8], 2 * 16 * 16);
    ck_assert_uint_eq(g.launch[0].local_bytes, 3 * 16 * 16 * sizeof(float));
    params.values[0] = 32;
    compute_ok(size(100, 70, 30), &g);
    ck_assert_int_eq(g.launch[0].arg_values[6], 1);
    ck_assert_uint_eq(g.launch[0].local_bytes, 3 * 32 * 32 * sizeof(float));
}
END_TEST

START_TEST(test_geometry_without_local)
{
    struct geometry g;

    parse(HEADER "args: M N K A B C\nglobal: M, N, 2\n---\n");
    compute_ok(size(100, 70, 30), &g);
    ck_assert(!g.padded);
    ck_assert(!g.launch[0].has_local);
    ck_assert_uint_eq(g.launch[0].dims, 3);
    ck_assert_uint_eq(g.launch[0].global[2], 2);
    ck_assert_uint_eq(g.launch[0].groups, 0);
    ck_assert_uint_eq(g.launch[0].group_items, 0);
    ck_assert_uint_eq(g.launch[0].work_items, 100 * 70 * 2);
    ck_assert_uint_eq(g.launch[0].local_bytes, 0);
}
END_TEST

START_TEST(test_geometry_bad_values)
{
    parse(HEADER "args: M N K A B C\nglobal: M - 100, N\n---\n");
    compute_fails(size(100, 70, 30), "global size 0");
    parse(HEADER "args: M N K A B C local(K - 30)\nglobal: M\n---\n");
    compute_fails(size(100, 70, 30), "local buffer argument 7");
    parse(HEADER "args: M N K A B C\nglobal: M\nmultiple: M K - 30\n---\n");
    compute_fails(size(100, 70, 30), "not positive");
    parse(HEADER "args: M N K A B C int(M / (N - 70))\nglobal: M\n---\n");
    compute_fails(size(100, 70, 30), "division by zero");
    compute_fails(size(0, 70, 30), "positive");
    compute_fails(size(100, -1, 30), "positive");
}
END_TEST

/* A lesson file may give any multiple: padding stops at GEOMETRY_MAX_SIDE, the largest
   int, with the line to blame, instead of wrapping the sizes, their products and the
   buffers' bytes (a multiple of 2^60 + 1 once had the tool pack A far beyond its buffer). */
START_TEST(test_geometry_pads_within_an_int)
{
    static const struct {
        const char *line, *fragment;
    } refused[] = {
        { "multiple: K 1152921504606846977", "padding K from 64 to a multiple of 1152921504606846977" },
        { "multiple: M 4294967296, N 4294967296", "padding M from 64 to a multiple of 4294967296" },
        { "multiple: N 9223372036854775807", "(multiple: N 9223372036854775807) goes over 2147483647" },
        { "multiple: M 2147483647, N 2147483648", "padding N from 64 to a multiple of 2147483648" },
        { "multiple: M 1073741825, N 1073741824\nsquare: yes",
          "padding N from 1073741825 to a multiple of 1073741824" },
        { "multiple: K 2147483647 * 2", "choose smaller parameters, or a smaller multiple" },
    };
    char text[512];
    struct geometry g;

    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(text, sizeof text, HEADER "args: M N K A B C\nglobal: M, N\n%s\n---\n", refused[i].line);
        parse(text);
        compute_fails(size(64, 64, 64), refused[i].fragment);
    }
    /* Up to the largest int itself. */
    parse(HEADER "args: M N K A B C\nglobal: M, N\nmultiple: M 2147483647, K 1073741824\n---\n");
    compute_ok(size(64, 64, 64), &g);
    assert_size(g.run, 2147483647, 64, 1073741824);
    compute_fails(size(2147483648LL, 64, 64), "has a side over 2147483647");
}
END_TEST

/* The work-items of an NDRange must fit a size_t: 2^32 x 2^32 once wrapped to 0 and was
   launched. */
START_TEST(test_geometry_ndrange_fits)
{
    struct geometry g;

    parse(HEADER "args: M N K A B C\nglobal: 4294967296, 4294967296\nlocal: 1, 1\n---\n");
    compute_fails(size(64, 64, 64), "the global NDRange (4294967296, 4294967296) has more work-items than a "
                  "size_t holds");
    parse(HEADER "args: M N K A B C\nglobal: 2097152, 2097152, 4194304\n---\n");
    compute_fails(size(64, 64, 64), "more work-items than a size_t holds");
    parse(HEADER "args: M N K A B C\nglobal: 2097152, 2097152, 2097152\n---\n");
    compute_ok(size(64, 64, 64), &g);
    ck_assert_uint_eq(g.launch[0].work_items, 1ull << 63);
}
END_TEST

START_TEST(test_geometry_host)
{
    struct geometry g;

    parse("lesson: 0\ntitle: Host\nsources: test\nengine: host\n---\n");
    compute_ok(size(100, 70, 30), &g);
    assert_size(g.asked, 100, 70, 30);
    assert_size(g.run, 100, 70, 30);
    ck_assert(!g.padded);
    ck_assert_uint_eq(g.launch[0].dims, 0);
    ck_assert(!g.launch[0].has_local);
    ck_assert_uint_eq(g.launch[0].work_items, 0);
    ck_assert_uint_eq(g.launch[0].local_bytes, 0);
}
END_TEST

START_TEST(test_geometry_flops)
{
    ck_assert_double_eq(gemm_flops(size(1000, 700, 300)), 4.2e8);
    ck_assert_double_eq(gemm_flops(size(1, 1, 1)), 2.0);
    ck_assert_double_eq(gemm_flops(size(65536, 65536, 65536)), 562949953421312.0);  /* 2^49 */
}
END_TEST

/* Two launches with a scratch buffer: the second's NDRange and arguments at the size, or
   skipped where its then-when line is 0. */
static const char split_lesson[] = HEADER
    "args: M N K A B C W\n"
    "param: SPLIT = 4 in 1, 3, 4\n"
    "global: N, M, SPLIT\n"
    "local: 1, 1, 1\n"
    "scratch: (SPLIT > 1) * SPLIT * M * N\n"
    "then: reduce\n"
    "then-args: M N C W int(SPLIT - 1) local(64)\n"
    "then-global: roundup(M * N, 64)\n"
    "then-local: 64\n"
    "then-when: SPLIT > 1\n"
    "---\n";

START_TEST(test_geometry_launches)
{
    struct geometry g;

    parse(split_lesson);
    compute_ok(size(100, 70, 300), &g);
    ck_assert_uint_eq(g.nlaunches, 2);
    ck_assert_int_eq(g.scratch, 4 * 100 * 70);
    ck_assert(!g.launch[0].skipped);
    ck_assert_uint_eq(g.launch[0].dims, 3);
    ck_assert_uint_eq(g.launch[0].groups, 70 * 100 * 4);
    ck_assert(!g.launch[1].skipped);
    ck_assert_uint_eq(g.launch[1].dims, 1);
    ck_assert_uint_eq(g.launch[1].global[0], 7040);
    ck_assert_uint_eq(g.launch[1].groups, 110);
    ck_assert_uint_eq(g.launch[1].group_items, 64);
    ck_assert_int_eq(g.launch[1].arg_values[4], 3);
    ck_assert_int_eq(g.launch[1].arg_values[5], 64);
    ck_assert_uint_eq(g.launch[1].local_bytes, 256);
    /* The first launch's figures are its own. */
    ck_assert_uint_eq(g.launch[0].local_bytes, 0);
    params.values[0] = 1;
    compute_ok(size(100, 70, 300), &g);
    ck_assert_int_eq(g.scratch, 0);
    ck_assert(g.launch[1].skipped);
    ck_assert_uint_eq(g.launch[1].groups, 0);
}
END_TEST

START_TEST(test_geometry_launch_refusals)
{
    struct geometry g;

    /* A further launch's bad values are refused as the first's are, naming the launch. */
    parse(HEADER "args: M N K A B C\nglobal: M\nthen: two\nthen-args: C\nthen-global: M - 100\n---\n");
    compute_fails(size(64, 64, 64), "of launch 2 (then: two) is -36");
    parse(HEADER "args: M N K A B C\nglobal: M\nthen: two\nthen-args: C\nthen-global: M\nthen-local: 48\n---\n");
    compute_fails(size(64, 64, 64), "global size 0 (M = 64) of launch 2 (then: two) is not a multiple");
    parse(HEADER "args: M N K A B C\nglobal: M\nthen: two\nthen-args: int(M * 1000000000)\nthen-global: M\n---\n");
    compute_fails(size(64, 64, 64), "of launch 2 (then: two) is 64000000000");
    /* The scratch buffer within an int's reach, and not negative. */
    parse(HEADER "args: M N K A B C W\nglobal: M\nscratch: 16 * M * N\n---\n");
    compute_fails(size(16384, 16384, 1), "more than the kernels' int indices reach");
    parse(HEADER "args: M N K A B C W\nglobal: M\nscratch: 10 - M\n---\n");
    compute_fails(size(64, 64, 64), "is -54 floats");
    /* Its counters (scratch-zero) a part of it, from none to all of it. */
    parse(HEADER "args: M N K A B C W\nglobal: M\nscratch: M * N + 4\nscratch-zero: M + N\n---\n");
    compute_ok(size(6, 5, 1), &g);
    ck_assert_int_eq(g.scratch, 34);
    ck_assert_int_eq(g.scratch_zero, 11);
    compute_ok(size(1, 1, 1), &g);
    ck_assert_int_eq(g.scratch_zero, 2);
    parse(HEADER "args: M N K A B C W\nglobal: M\nscratch: M\nscratch-zero: M + 1\n---\n");
    compute_fails(size(64, 64, 64), "scratch-zero (M + 1) is 65 floats at 64x64x64, the scratch buffer 64");
    parse(HEADER "args: M N K A B C W\nglobal: M\nscratch: M\nscratch-zero: 0 - M\n---\n");
    compute_fails(size(64, 64, 64), "is -64 floats");
}
END_TEST

Suite *geometry_suite(void)
{
    Suite *s = suite_create("geometry");
    TCase *tc = tcase_create("geometry");

    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_geometry_defaults);
    tcase_add_test(tc, test_geometry_pads_to_multiples);
    tcase_add_test(tc, test_geometry_pads_each_dimension);
    tcase_add_test(tc, test_geometry_exact_multiples);
    tcase_add_test(tc, test_geometry_square);
    tcase_add_test(tc, test_geometry_square_settles);
    tcase_add_test(tc, test_geometry_no_pad_refuses);
    tcase_add_test(tc, test_geometry_no_pad_square);
    tcase_add_test(tc, test_geometry_require);
    tcase_add_test(tc, test_geometry_require_after_padding);
    tcase_add_test(tc, test_geometry_global_not_multiple_of_local);
    tcase_add_test(tc, test_geometry_launch);
    tcase_add_test(tc, test_geometry_arguments);
    tcase_add_test(tc, test_geometry_without_local);
    tcase_add_test(tc, test_geometry_bad_values);
    tcase_add_test(tc, test_geometry_pads_within_an_int);
    tcase_add_test(tc, test_geometry_ndrange_fits);
    tcase_add_test(tc, test_geometry_host);
    tcase_add_test(tc, test_geometry_flops);
    tcase_add_test(tc, test_geometry_launches);
    tcase_add_test(tc, test_geometry_launch_refusals);
    suite_add_tcase(s, tc);
    return s;
}
