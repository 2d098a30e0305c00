/* unit_lesson.c: lesson files, the lesson directory and the shipped lessons. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "units.h"
#include "engine/lesson.h"

/* A scratch tree for each test: BASE/kernels/tiles.cl and an empty BASE/lessons, with BASE
   inside a root made once, which is removed even when a failed test leaves its tree. */
static char root_dir[64];
static char base_dir[96];
static char kernels_dir[128];
static char lessons_dir[128];
static const char *kernel_dirs[2];

static void scratch_setup(void)
{
    snprintf(base_dir, sizeof base_dir, "%s/test-XXXXXX", root_dir);
    ck_assert_msg(mkdtemp(base_dir) != NULL, "mkdtemp in %s failed", root_dir);
    snprintf(kernels_dir, sizeof kernels_dir, "%s/kernels", base_dir);
    snprintf(lessons_dir, sizeof lessons_dir, "%s/lessons", base_dir);
    ck_assert_int_eq(mkdir(kernels_dir, 0700), 0);
    ck_assert_int_eq(mkdir(lessons_dir, 0700), 0);
    scratch_write(kernels_dir, "tiles.cl", "__kernel void gemm_tiles(void) {}\n");
    kernel_dirs[0] = kernels_dir;
    kernel_dirs[1] = NULL;
}

static void scratch_teardown(void)
{
    scratch_remove(base_dir);
}

static void root_setup(void)
{
    strcpy(root_dir, "/tmp/clmm-unit-lesson-XXXXXX");
    if (!mkdtemp(root_dir))
        perror("mkdtemp");
}

static void root_teardown(void)
{
    scratch_remove(root_dir);
}

/* A complete lesson using every header key; its line numbers matter to the tests below. */
static const char full_lesson[] =
    "# A lesson for the tests\n"                                    /*  1 */
    "lesson: 7\n"                                                   /*  2 */
    "title: Tiles in local memory\n"                                /*  3 */
    "sources: 003 (kernel 2); 000\n"                                /*  4 */
    "\n"                                                            /*  5 */
    "kernel: tiles.cl\n"                                            /*  6 */
    "entry: gemm_tiles\n"                                           /*  7 */
    "args: M N K A B C int(K / TS) local(TS * (TS + 1))\n"          /*  8 */
    "order: column-major\n"                                         /*  9 */
    "b-transposed: yes\n"                                           /* 10 */
    "param: TS = 16 in 8, 16, 32\n"                                 /* 11 */
    "param: WPT = 4 in 1, 2, 4, 8\n"                                /* 12 */
    "options: -cl-mad-enable\n"                                     /* 13 */
    "global: M / WPT, N\n"                                          /* 14 */
    "local: TS / WPT, TS\n"                                         /* 15 */
    "multiple: M TS, N TS, K 2 * TS\n"                              /* 16 */
    "require: TS % WPT == 0 : TS must be a multiple of WPT\n"       /* 17 */
    "require: TS * TS <= 1024 : a tile is at most 1024 floats\n"    /* 18 */
    "---\n"                                                         /* 19 */
    "## Why tiles\n"
    "Each work-group loads a tile of A: key: value.\n";

static const char host_lesson[] =
    "lesson: 0\n"
    "title: The host triple loop\n"
    "sources: 000\n"
    "engine: host\n"
    "---\n"
    "The plain loop on one core.\n";

/* Parses text, which must succeed. */
static void parse_ok(const char *text, struct lesson *l)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_parse("t.lesson", text, kernel_dirs, l, &e) == 0, "parse failed: %s", e.msg);
}

/* Parses text, which must fail with "t.lesson:LINE: " followed by a message holding
   fragment (and fragment2 unless NULL). */
static void parse_fails2(const char *text, int line, const char *fragment, const char *fragment2)
{
    struct error e;
    struct lesson l;
    char prefix[64];

    error_init(&e);
    ck_assert_msg(lesson_parse("t.lesson", text, kernel_dirs, &l, &e) < 0,
                  "parsed, expected an error at line %d with \"%s\"", line, fragment);
    snprintf(prefix, sizeof prefix, "t.lesson:%d: ", line);
    ck_assert_msg(strncmp(e.msg, prefix, strlen(prefix)) == 0, "message \"%s\" does not start with \"%s\"",
                  e.msg, prefix);
    ck_assert_msg(strstr(e.msg, fragment) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment);
    if (fragment2)
        ck_assert_msg(strstr(e.msg, fragment2) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment2);
}

static void parse_fails(const char *text, int line, const char *fragment)
{
    parse_fails2(text, line, fragment, NULL);
}

/* full_lesson with line number `line` replaced by replacement (which ends in '\n', or is ""
   to delete the line). */
static char *full_lesson_with(int line, const char *replacement)
{
    return scratch_replace_line(full_lesson, line, replacement);
}

START_TEST(test_lesson_full_header)
{
    struct lesson l;
    char kernel_path[256];

    parse_ok(full_lesson, &l);
    ck_assert_int_eq(l.number, 7);
    ck_assert_str_eq(l.title, "Tiles in local memory");
    ck_assert_str_eq(l.sources, "003 (kernel 2); 000");
    ck_assert_str_eq(l.file, "t.lesson");
    ck_assert_int_eq(l.engine, ENGINE_OPENCL);
    snprintf(kernel_path, sizeof kernel_path, "%s/tiles.cl", kernels_dir);
    ck_assert_str_eq(l.kernel_file, kernel_path);
    ck_assert_str_eq(l.launch[0].entry, "gemm_tiles");
    ck_assert_str_eq(l.options, "-cl-mad-enable");
    ck_assert(l.column_major);
    ck_assert(l.b_transposed);
    ck_assert(!l.square);
    ck_assert(l.pad);                   /* the default */
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_full_args)
{
    static const enum arg_kind kinds[] = { ARG_M, ARG_N, ARG_K, ARG_A, ARG_B, ARG_C, ARG_INT, ARG_LOCAL };
    struct lesson l;

    parse_ok(full_lesson, &l);
    ck_assert_uint_eq(l.launch[0].nargs, 8);
    for (size_t i = 0; i < 8; i++)
        ck_assert_msg(l.launch[0].args[i].kind == kinds[i], "argument %zu has kind %d", i, (int)l.launch[0].args[i].kind);
    for (size_t i = 0; i < 6; i++)
        ck_assert_ptr_null(l.launch[0].args[i].expr);
    ck_assert_str_eq(l.launch[0].args[6].expr, "K / TS");
    ck_assert_str_eq(l.launch[0].args[7].expr, "TS * (TS + 1)");
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_full_params)
{
    struct lesson l;

    parse_ok(full_lesson, &l);
    ck_assert_uint_eq(l.nparams, 2);
    ck_assert_str_eq(l.params[0].name, "TS");
    ck_assert_int_eq(l.params[0].def, 16);
    ck_assert_uint_eq(l.params[0].nvalues, 3);
    ck_assert_int_eq(l.params[0].values[0], 8);
    ck_assert_int_eq(l.params[0].values[1], 16);
    ck_assert_int_eq(l.params[0].values[2], 32);
    ck_assert_str_eq(l.params[1].name, "WPT");
    ck_assert_int_eq(l.params[1].def, 4);
    ck_assert_uint_eq(l.params[1].nvalues, 4);
    ck_assert_int_eq(l.params[1].values[3], 8);
    ck_assert_int_eq(lesson_param_index(&l, "WPT"), 1);
    ck_assert_int_eq(lesson_param_index(&l, "TS"), 0);
    ck_assert_int_eq(lesson_param_index(&l, "T"), -1);
    ck_assert(lesson_param_allows(&l.params[0], 32));
    ck_assert(!lesson_param_allows(&l.params[0], 64));
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_full_launch)
{
    struct lesson l;

    parse_ok(full_lesson, &l);
    ck_assert_uint_eq(l.launch[0].dims, 2);
    ck_assert_str_eq(l.launch[0].global[0], "M / WPT");
    ck_assert_str_eq(l.launch[0].global[1], "N");
    ck_assert_uint_eq(l.launch[0].local_dims, 2);
    ck_assert_str_eq(l.launch[0].local[0], "TS / WPT");
    ck_assert_str_eq(l.launch[0].local[1], "TS");
    ck_assert_uint_eq(l.nmultiples, 3);
    ck_assert_int_eq(l.multiples[0].dim, 'M');
    ck_assert_str_eq(l.multiples[0].expr, "TS");
    ck_assert_int_eq(l.multiples[1].dim, 'N');
    ck_assert_int_eq(l.multiples[2].dim, 'K');
    ck_assert_str_eq(l.multiples[2].expr, "2 * TS");
    ck_assert_uint_eq(l.nrequires, 2);
    ck_assert_str_eq(l.requires[0].expr, "TS % WPT == 0");
    ck_assert_str_eq(l.requires[0].message, "TS must be a multiple of WPT");
    ck_assert_str_eq(l.requires[1].expr, "TS * TS <= 1024");
    ck_assert_str_eq(l.requires[1].message, "a tile is at most 1024 floats");
    ck_assert_str_eq(l.text, "## Why tiles\nEach work-group loads a tile of A: key: value.\n");
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_defaults)
{
    static const char minimal[] =
        "lesson: 1\ntitle: Naive\nsources: 003\nkernel: tiles.cl\nentry: gemm\n"
        "args: M N K A B C\nglobal: M, N\n---\n";
    struct lesson l;

    parse_ok(minimal, &l);
    ck_assert(!l.column_major);
    ck_assert(!l.b_transposed);
    ck_assert(!l.square);
    ck_assert(l.pad);
    ck_assert_ptr_null(l.options);
    ck_assert_uint_eq(l.launch[0].local_dims, 0);
    ck_assert_uint_eq(l.nparams, 0);
    ck_assert_uint_eq(l.nmultiples, 0);
    ck_assert_uint_eq(l.nrequires, 0);
    ck_assert_str_eq(l.text, "");
    ck_assert_str_eq(l.short_title, "Naive");   /* the title, when no short line */
    ck_assert_ptr_null(l.branch);               /* the main line */
    lesson_free(&l);
}
END_TEST

/* A short title is for tables and charts: at most 28 columns, counted in characters. */
START_TEST(test_lesson_short_title)
{
    struct lesson l;

    parse_ok(full_lesson_with(5, "short: Tiles \xc3\x97 local: 28 columns...\n"), &l);
    ck_assert_str_eq(l.short_title, "Tiles \xc3\x97 local: 28 columns...");
    ck_assert_str_eq(l.title, "Tiles in local memory");
    lesson_free(&l);
    parse_fails(full_lesson_with(5, "short: Tiles in local memory, 29 col\n"), 5, "longer than 28");
    parse_fails(full_lesson_with(5, "short: twice\nshort: again\n"), 6, "twice");
}
END_TEST

/* A branch line puts the lesson on a side branch of the ladder, named in at most 28
   columns; lessons without one are on the main line. */
START_TEST(test_lesson_branch)
{
    struct lesson l;

    parse_ok(full_lesson_with(5, "branch: row per work-item\n"), &l);
    ck_assert_str_eq(l.branch, "row per work-item");
    lesson_free(&l);
    ck_assert_ptr_null(l.branch);               /* lesson_free clears it */
    parse_ok(full_lesson_with(5, "branch: \xc3\x97 is one column, 28 of them.\n"), &l);
    ck_assert_str_eq(l.branch, "\xc3\x97 is one column, 28 of them.");
    lesson_free(&l);
    parse_fails(full_lesson_with(5, "branch: twenty-nine columns, one too many\n"), 5, "longer than 28");
    parse_fails(full_lesson_with(5, "branch:\n"), 5, "names no branch");
    parse_fails(full_lesson_with(5, "branch: one\nbranch: two\n"), 6, "twice");
}
END_TEST

/* precision and units: their two values each, the defaults, anything else an error. */
START_TEST(test_lesson_precision_units)
{
    struct lesson l;
    char longer[3000];

    parse_ok(full_lesson, &l);
    ck_assert_int_eq(l.precision, PRECISION_FP32);
    ck_assert_int_eq(l.units, UNITS_FP32);
    ck_assert(!l.needs.nvidia);
    lesson_free(&l);
    parse_ok(full_lesson_with(5, "precision: tf32\nunits: tensor\n"), &l);
    ck_assert_int_eq(l.precision, PRECISION_TF32);
    ck_assert_int_eq(l.units, UNITS_TENSOR);
    lesson_free(&l);
    parse_ok(full_lesson_with(5, "precision: fp32\nunits: tensor\n"), &l);   /* 3xTF32: FP32 on tensor cores */
    ck_assert_int_eq(l.precision, PRECISION_FP32);
    ck_assert_int_eq(l.units, UNITS_TENSOR);
    lesson_free(&l);
    parse_fails(full_lesson_with(5, "precision: TF32\n"), 5, "precision must be fp32 or tf32, found \"TF32\"");
    parse_fails(full_lesson_with(5, "units: tensor cores\n"), 5, "units must be fp32 or tensor");
    parse_fails(full_lesson_with(5, "precision: tf32\nprecision: fp32\n"), 6, "\"precision\" is given twice");
    /* A long value is quoted cut, never overflowing. */
    memset(longer, 'x', sizeof longer);
    strcpy(longer + sizeof longer - 2, "\n");
    memcpy(longer, "units: ", 7);
    parse_fails(full_lesson_with(5, longer), 5, "units must be fp32 or tensor");
}
END_TEST

START_TEST(test_lesson_needs)
{
    struct lesson l;

    parse_ok(full_lesson_with(5, "needs: nvidia 8.0 : tensor cores with TF32: mma.sync\n"), &l);
    ck_assert(l.needs.nvidia);
    ck_assert_uint_eq(l.needs.major, 8);
    ck_assert_uint_eq(l.needs.minor, 0);
    ck_assert_str_eq(l.needs.why, "tensor cores with TF32: mma.sync");
    lesson_free(&l);
    ck_assert_ptr_null(l.needs.why);            /* lesson_free clears it */
    parse_ok(full_lesson_with(5, "needs: nvidia  12.10:why\n"), &l);
    ck_assert_uint_eq(l.needs.major, 12);
    ck_assert_uint_eq(l.needs.minor, 10);
    ck_assert_str_eq(l.needs.why, "why");
    lesson_free(&l);
}
END_TEST

/* Each bad form of a needs line is an error of its line. */
START_TEST(test_lesson_needs_errors)
{
    static const struct {
        const char *line, *fragment;
    } bad[] = {
        { "needs: amd 8.0 : why\n", "expected \"nvidia MAJOR.MINOR : WHY\"" },
        { "needs: nvidia\n", "expected \"nvidia MAJOR.MINOR : WHY\"" },
        { "needs: nvidia 8 : why\n", "is not MAJOR.MINOR" },
        { "needs: nvidia eight.0 : why\n", "is not MAJOR.MINOR" },
        { "needs: nvidia 8.x : why\n", "is not MAJOR.MINOR" },
        { "needs: nvidia 8.0.1 : why\n", "is not MAJOR.MINOR" },
        { "needs: nvidia -8.0 : why\n", "is not MAJOR.MINOR" },
        { "needs: nvidia 99999999999999999999.0 : why\n", "is not MAJOR.MINOR" },
        { "needs: nvidia 8.0 why\n", "no \": WHY\"" },
        { "needs: nvidia 8.0\n", "no \": WHY\"" },
        { "needs: nvidia 8.0 :\n", "the reason after \":\" is empty" },
    };
    char why[300];

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        parse_fails(full_lesson_with(5, bad[i].line), 5, bad[i].fragment);
    parse_fails(full_lesson_with(5, "needs: nvidia 8.0 : a\nneeds: nvidia 9.0 : b\n"), 6,
                "\"needs\" is given twice");
    memset(why, 'w', sizeof why);
    memcpy(why, "needs: nvidia 8.0 : ", 20);
    strcpy(why + 250, "\n");
    parse_fails(full_lesson_with(5, why), 5, "longer than 200 bytes");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nneeds: nvidia 8.0 : why\n---\n", 5,
                "a host lesson");
}
END_TEST

/* Without a short line, a long title is cut after a whole word (a lone long word at a
   character, never inside one) and marked with "...". */
START_TEST(test_lesson_short_title_default)
{
    struct lesson l;

    parse_ok(full_lesson_with(3, "title: Broken: last column never written\n"), &l);
    ck_assert_str_eq(l.short_title, "Broken: last column...");
    lesson_free(&l);
    parse_ok(full_lesson_with(3, "title: \xc3\x97\xc3\x97\xc3\x97" "abcdefghijklmnopqrstuvwxyz\n"), &l);
    ck_assert_str_eq(l.short_title, "\xc3\x97\xc3\x97\xc3\x97" "abcdefghijklmnopqrstuv...");
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_yes_no_keys)
{
    struct lesson l;

    parse_ok(full_lesson_with(10, "square: yes\npad: no\nb-transposed: no\n"), &l);
    ck_assert(l.square);
    ck_assert(!l.pad);
    ck_assert(!l.b_transposed);
    ck_assert(l.column_major);
    lesson_free(&l);
    parse_ok(full_lesson_with(9, "order: row-major\n"), &l);
    ck_assert(!l.column_major);
    ck_assert(l.b_transposed);
    lesson_free(&l);
    parse_fails(full_lesson_with(10, "pad: maybe\n"), 10, "expected yes or no");
    parse_fails(full_lesson_with(9, "order: diagonal\n"), 9, "row-major or column-major");
}
END_TEST

START_TEST(test_lesson_host)
{
    struct lesson l;

    parse_ok(host_lesson, &l);
    ck_assert_int_eq(l.number, 0);
    ck_assert_int_eq(l.engine, ENGINE_HOST);
    ck_assert_str_eq(l.title, "The host triple loop");
    ck_assert_ptr_null(l.kernel_file);
    ck_assert_ptr_null(l.launch[0].entry);
    ck_assert_uint_eq(l.launch[0].nargs, 0);
    ck_assert_uint_eq(l.launch[0].dims, 0);
    ck_assert_str_eq(l.text, "The plain loop on one core.\n");
    lesson_free(&l);
}
END_TEST

/* A host lesson's kernel line names the C source it shows; nothing about launching a kernel
   is taken. */
START_TEST(test_lesson_host_shows_its_source)
{
    struct lesson l;
    char kernel_path[256];

    scratch_write(kernels_dir, "loop.c", "static void loop(void) {}\n");
    parse_ok("lesson: 0\ntitle: T\nsources: S\nengine: host\nkernel: loop.c\n---\n", &l);
    ck_assert_int_eq(l.engine, ENGINE_HOST);
    snprintf(kernel_path, sizeof kernel_path, "%s/loop.c", kernels_dir);
    ck_assert_str_eq(l.kernel_file, kernel_path);
    ck_assert_ptr_null(l.launch[0].entry);
    lesson_free(&l);
    /* The source must be there, as a kernel must. */
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nkernel: none.c\n---\n", 5,
                "kernel file \"none.c\" not found");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nkernel: loop.c\nentry: loop\n---\n", 7,
                "takes no entry");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nkernel: loop.c\nargs: M N K A B C\n---\n", 7,
                "takes no entry, options, args");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nglobal: M, N\n---\n", 6, "global");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: cpu\n---\n", 4, "engine must be");
}
END_TEST

START_TEST(test_lesson_unknown_key)
{
    parse_fails(full_lesson_with(13, "colour: blue\n"), 13, "unknown key \"colour\"");
    parse_fails("lesson: 1\ntitle: T\nthis line has no colon\n---\n", 3, "expected \"key: value\"");
}
END_TEST

START_TEST(test_lesson_missing_separator)
{
    static const char text[] = "lesson: 1\ntitle: T\nsources: S\nengine: host\n";
    struct error e;
    struct lesson l;

    error_init(&e);
    ck_assert_int_lt(lesson_parse("t.lesson", text, kernel_dirs, &l, &e), 0);
    /* At the end of the file: after its fourth and last line. */
    ck_assert_msg(strncmp(e.msg, "t.lesson:4: ", 12) == 0 || strncmp(e.msg, "t.lesson:5: ", 12) == 0,
                  "message \"%s\" is not at the end of the file", e.msg);
    ck_assert_msg(strstr(e.msg, "---") != NULL, "message \"%s\" does not mention ---", e.msg);
}
END_TEST

/* A switch is a parameter the tuner leaves alone: parsed as one, counted among them, in
   file order, and marked. */
START_TEST(test_lesson_switch)
{
    struct lesson l;

    parse_ok(full_lesson_with(12, "switch: WPT = 1 in 1, 0\n"), &l);
    ck_assert_uint_eq(l.nparams, 2);
    ck_assert(!l.params[0].is_switch);
    ck_assert(l.params[1].is_switch);
    ck_assert_str_eq(l.params[1].name, "WPT");
    ck_assert_int_eq(l.params[1].def, 1);
    ck_assert_uint_eq(l.params[1].nvalues, 2);
    ck_assert_int_eq(l.params[1].values[1], 0);
    ck_assert_int_eq(lesson_param_index(&l, "WPT"), 1);
    lesson_free(&l);
    /* Repeatable, and checked as a param line is. */
    parse_ok(full_lesson_with(13, "switch: PAD = 4 in 4, 0\nswitch: VEC = 0 in 0, 1\n"), &l);
    ck_assert_uint_eq(l.nparams, 4);
    ck_assert(l.params[2].is_switch && l.params[3].is_switch);
    ck_assert_str_eq(l.params[3].name, "VEC");
    lesson_free(&l);
    parse_fails(full_lesson_with(12, "switch: WPT = 2 in 1, 0\n"), 12, "not among its allowed values");
    parse_fails(full_lesson_with(12, "switch: TS = 1 in 1, 0\n"), 12, "declared twice");
}
END_TEST

START_TEST(test_lesson_param_errors)
{
    parse_fails(full_lesson_with(11, "param: TS = 12 in 8, 16, 32\n"), 11, "not among its allowed values");
    parse_fails(full_lesson_with(11, "param: TS = 16\n"), 11, "NAME = DEFAULT in");
    parse_fails(full_lesson_with(11, "param: TS = x in 8, 16\n"), 11, "not an integer");
    parse_fails(full_lesson_with(11, "param: TS = 16 in 8, 1x6\n"), 11, "\"1x6\" is not an integer");
    parse_fails(full_lesson_with(11, "param: 2TS = 16 in 16\n"), 11, "not an identifier");
    parse_fails(full_lesson_with(11, "param: M = 16 in 16\n"), 11, "shadows a size");
    parse_fails(full_lesson_with(12, "param: TS = 16 in 16\n"), 12, "declared twice");
}
END_TEST

/* "in LOW to HIGH": every integer between, both ends included; the tuner does not search it. */
START_TEST(test_lesson_param_range)
{
    struct lesson l;
    char text[64];

    parse_ok(full_lesson_with(12, "param: WPT = 4 in 1, 2, 4, 8\nparam: WAVE = 132 in 1 to 4096\n"), &l);
    const struct lesson_param *p = &l.params[lesson_param_index(&l, "WAVE")];
    ck_assert(p->is_range);
    ck_assert(!lesson_param_searched(p));
    ck_assert(lesson_param_searched(&l.params[lesson_param_index(&l, "TS")]));
    ck_assert(lesson_param_allows(p, 1) && lesson_param_allows(p, 4096) && lesson_param_allows(p, 133));
    ck_assert(!lesson_param_allows(p, 0) && !lesson_param_allows(p, 4097));
    ck_assert_uint_eq(lesson_param_count(p), 4096);
    ck_assert_int_eq(lesson_param_value(p, 0), 1);
    ck_assert_int_eq(lesson_param_value(p, 4095), 4096);
    lesson_param_describe(p, text, sizeof text);
    ck_assert_str_eq(text, "1 to 4096");
    lesson_param_describe(&l.params[lesson_param_index(&l, "TS")], text, sizeof text);
    ck_assert_str_eq(text, "8, 16, 32");
    lesson_free(&l);
    parse_fails(full_lesson_with(12, "param: WAVE = 0 in 1 to 4096\n"), 12, "not among its allowed values");
    parse_fails(full_lesson_with(12, "param: WAVE = 5 in 9 to 4\n"), 12, "is empty: LOW must not be above HIGH");
    parse_fails(full_lesson_with(12, "param: WAVE = 5 in 1 to many\n"), 12, "expected \"LOW to HIGH\", each an integer");
}
END_TEST

/* A parameter's values fit an int, as the kernels take them: a range of all of long long
   once overflowed in lesson_param_value when the tutor's t key stepped it (UBSan). */
START_TEST(test_lesson_param_bounds)
{
    static const char *const refused[] = {
        "param: TS = 16 in -9223372036854775808 to 9223372036854775807\n",
        "param: TS = 16 in -2147483649 to 16\n",
        "param: TS = 16 in 16 to 2147483648\n",
        "param: TS = 16 in 8, 16, 2147483648\n",
        "param: TS = 2147483648 in 16 to 32\n",
        "switch: TS = 16 in -2147483649, 16\n",
    };
    struct lesson l;
    const struct lesson_param *p;

    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        parse_fails(full_lesson_with(11, refused[i]), 11, "an integer from -2147483648 to 2147483647");
    /* The widest range: every value counted, the last one reached by stepping. */
    parse_ok(full_lesson_with(11, "param: TS = 16 in -2147483648 to 2147483647\n"), &l);
    p = &l.params[lesson_param_index(&l, "TS")];
    ck_assert_uint_eq(lesson_param_count(p), 4294967296ULL);
    ck_assert_int_eq(lesson_param_value(p, 0), -2147483648LL);
    ck_assert_int_eq(lesson_param_value(p, 2147483648ULL + 17), 17);
    ck_assert_int_eq(lesson_param_value(p, lesson_param_count(p) - 1), 2147483647LL);
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_unknown_arg)
{
    parse_fails(full_lesson_with(8, "args: M N K A B D\n"), 8, "unknown argument \"D\"");
    parse_fails(full_lesson_with(8, "args: M N K A B C float(TS)\n"), 8, "unknown argument \"float(TS)\"");
    parse_fails(full_lesson_with(8, "args: M N K A B C int()\n"), 8, "unknown argument");
    parse_fails(full_lesson_with(8, "args:\n"), 8, "args is empty");
}
END_TEST

/* ints(EXPR, ...): a __global int buffer of values; each value an expression checked as the
   others, at most LESSON_MAX_INTS of them in a launch's ints arguments together. */
START_TEST(test_lesson_ints_arg)
{
    struct lesson l;
    char *text;

    parse_ok(full_lesson_with(8, "args: C A B ints(K)\n"), &l);
    ck_assert_uint_eq(l.launch[0].nargs, 4);
    ck_assert_int_eq(l.launch[0].args[3].kind, ARG_INTS);
    ck_assert_ptr_null(l.launch[0].args[3].expr);
    ck_assert_uint_eq(l.launch[0].args[3].nvalues, 1);
    ck_assert_str_eq(l.launch[0].args[3].values[0], "K");
    lesson_free(&l);

    /* Commas inside a call belong to it; blanks around the values go; the text as written. */
    parse_ok(full_lesson_with(8, "args: C A B ints( K / TS , min(M, N),7) M\n"), &l);
    ck_assert_uint_eq(l.launch[0].nargs, 5);
    ck_assert_uint_eq(l.launch[0].args[3].nvalues, 3);
    ck_assert_str_eq(l.launch[0].args[3].values[0], "K / TS");
    ck_assert_str_eq(l.launch[0].args[3].values[1], "min(M, N)");
    ck_assert_str_eq(l.launch[0].args[3].values[2], "7");
    ck_assert_int_eq(l.launch[0].args[4].kind, ARG_M);
    text = lesson_arg_text(&l.launch[0].args[3]);
    ck_assert_str_eq(text, "ints(K / TS, min(M, N), 7)");
    free(text);
    text = lesson_arg_text(&l.launch[0].args[4]);
    ck_assert_str_eq(text, "M");
    free(text);
    lesson_free(&l);

    /* Sixteen values in all is the most, over two arguments too. */
    parse_ok(full_lesson_with(8, "args: ints(1,2,3,4,5,6,7,8) ints(1,2,3,4,5,6,7,8)\n"), &l);
    ck_assert_uint_eq(l.launch[0].args[1].nvalues, 8);
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_ints_errors)
{
    struct lesson l;

    parse_fails(full_lesson_with(8, "args: C A B ints()\n"), 8, "ints() holds no value: write ints(EXPR, ...)");
    parse_fails(full_lesson_with(8, "args: C A B ints( )\n"), 8, "ints() holds no value");
    parse_fails(full_lesson_with(8, "args: C A B ints(K,)\n"), 8, "ints(K,) has an empty value");
    parse_fails(full_lesson_with(8, "args: C A B ints(,K)\n"), 8, "has an empty value");
    parse_fails(full_lesson_with(8, "args: C A B ints(K\n"), 8, "argument \"ints(K\" lacks a closing parenthesis");
    parse_fails(full_lesson_with(8, "args: C A B ints(K))\n"), 8,
                "argument \"ints(K))\" closes a parenthesis it did not open");
    parse_fails(full_lesson_with(8, "args: C A B ints(K)x\n"), 8, "unknown argument \"ints(K)x\"");
    parse_fails(full_lesson_with(8, "args: C A B ints K\n"), 8, "unknown argument \"ints\"");
    parse_fails(full_lesson_with(8, "args: C A B int(K, M)\n"), 8,
                "int(K, M) holds one expression; several ints in a __global buffer are ints(EXPR, ...)");
    parse_fails(full_lesson_with(8, "args: C A B local(K, M)\n"), 8, "local(K, M) holds one expression");
    parse_ok(full_lesson_with(8, "args: C A B int(min(K, M))\n"), &l);
    lesson_free(&l);
    parse_fails2(full_lesson_with(8, "args: C A B ints[K]\n"), 8, "unknown argument \"ints[K]\"",
                 "ints(EXPR, ...)");
    parse_fails(full_lesson_with(8, "args: ints(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)\n"), 8,
                "hold at most 16 values in all");
    parse_fails(full_lesson_with(8, "args: ints(1,2,3,4,5,6,7,8,9) ints(1,2,3,4,5,6,7,8)\n"), 8,
                "hold at most 16 values in all");
    /* Each value is an expression, checked once the header is read, at the args line. */
    parse_fails2(full_lesson_with(8, "args: C A B ints(K, Q)\n"), 8, "unknown name", "\"Q\"");
    parse_fails(full_lesson_with(8, "args: C A B ints(K +)\n"), 8, "\"K +\"");
    parse_fails(full_lesson_with(8, "args: C A B ints(K / 0)\n"), 8, "division by zero");
}
END_TEST

START_TEST(test_lesson_expression_errors)
{
    /* Expressions are checked once the header is read, and reported at their own line. */
    parse_fails(full_lesson_with(14, "global: M / WPTX, N\n"), 14, "unknown name");
    parse_fails(full_lesson_with(14, "global: M / WPTX, N\n"), 14, "\"M / WPTX\"");
    parse_fails(full_lesson_with(8, "args: M N K A B C int(K / TSS) local(TS)\n"), 8, "unknown name");
    parse_fails(full_lesson_with(16, "multiple: M TS, N TS, K (TS\n"), 16, "')'");
    parse_fails(full_lesson_with(17, "require: TS % * WPT : bad\n"), 17, "unexpected character");
    parse_fails(full_lesson_with(18, "require: TS / 0 == 1 : never\n"), 18, "division by zero");
    parse_fails(full_lesson_with(18, "require: TS > 1\n"), 18, "EXPR : MESSAGE");
    parse_fails(full_lesson_with(16, "multiple: Q TS\n"), 16, "\"M EXPR\"");
    parse_fails(full_lesson_with(14, "global: M, , N\n"), 14, "empty");
    parse_fails(full_lesson_with(14, "global: M, N, K, 1\n"), 14, "at most 3 dimensions");
}
END_TEST

/* A multiple is any expression (lessons/FORMAT), functions of two arguments included: the
   comma inside min(...) does not end the "K EXPR" item, as it does not in global: lines. */
START_TEST(test_lesson_multiple_with_function)
{
    struct lesson l;

    parse_ok(full_lesson_with(16, "multiple: M max(TS, 8), K roundup(TS, 32)\n"), &l);
    ck_assert_uint_eq(l.nmultiples, 2);
    ck_assert_int_eq(l.multiples[0].dim, 'M');
    ck_assert_str_eq(l.multiples[0].expr, "max(TS, 8)");
    ck_assert_int_eq(l.multiples[1].dim, 'K');
    ck_assert_str_eq(l.multiples[1].expr, "roundup(TS, 32)");
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_local_dims_mismatch)
{
    /* The mismatch is found at the end of the header; it is the local line that is wrong. */
    parse_fails(full_lesson_with(15, "local: TS\n"), 15, "different number of dimensions");
}
END_TEST

START_TEST(test_lesson_missing_keys)
{
    static const struct {
        int line;
        const char *key;
    } required[] = {
        { 2, "lesson" }, { 3, "title" }, { 4, "sources" }, { 6, "kernel" }, { 7, "entry" },
        { 8, "args" }, { 14, "global" },
    };

    /* Reported where the header ends: deleting a line moves "---" from line 19 to 18. */
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char fragment[64];
        snprintf(fragment, sizeof fragment, "no \"%s:\" line", required[i].key);
        parse_fails(full_lesson_with(required[i].line, ""), 18, fragment);
    }
}
END_TEST

START_TEST(test_lesson_kernel_not_found)
{
    parse_fails(full_lesson_with(6, "kernel: missing.cl\n"), 6, "kernel file \"missing.cl\" not found");
    parse_fails(full_lesson_with(6, "kernel: missing.cl\n"), 6, kernels_dir);
    parse_fails(full_lesson_with(6, "kernel: /nonexistent/tiles.cl\n"), 6, "not found");
}
END_TEST

/* A byte-order mark at the start of the file is skipped; one at the start of a later line
   is named. */
START_TEST(test_lesson_byte_order_mark)
{
    char text[4096];
    struct lesson l;

    snprintf(text, sizeof text, "\xEF\xBB\xBF%s", full_lesson);
    parse_ok(text, &l);
    ck_assert_int_eq(l.number, 7);
    ck_assert_str_eq(l.title, "Tiles in local memory");
    lesson_free(&l);
    parse_fails(full_lesson_with(3, "\xEF\xBB\xBFtitle: Tiles\n"), 3, "byte-order mark (the bytes EF BB BF");
}
END_TEST

/* A kernel must lie in the lesson's directories, after symbolic links: not a file of the
   user's elsewhere, by a relative path, an absolute one or a link. */
START_TEST(test_lesson_kernel_confined)
{
    char line[512], secret[256];
    struct lesson l;

    scratch_write(base_dir, "secret.txt", "not a kernel\n");
    snprintf(secret, sizeof secret, "%s/secret.txt", base_dir);
    parse_fails2(full_lesson_with(6, "kernel: ../secret.txt\n"), 6,
                 ", outside the lesson directory and the kernels directory beside it: put the kernel in ",
                 kernels_dir);
    parse_fails(full_lesson_with(6, "kernel: ../secret.txt\n"), 6, secret);
    snprintf(line, sizeof line, "kernel: %s\n", secret);
    parse_fails(full_lesson_with(6, line), 6, "outside the lesson directory");
    parse_fails(full_lesson_with(6, "kernel: ../../../../../../../../etc/passwd\n"), 6, "is /etc/passwd, outside");
    ck_assert_int_eq(symlink("../secret.txt", strcat(strcpy(line, kernels_dir), "/link.cl")), 0);
    parse_fails(full_lesson_with(6, "kernel: link.cl\n"), 6, "outside the lesson directory");
    /* Inside, whichever way it is named. */
    parse_ok(full_lesson_with(6, "kernel: ../kernels/./tiles.cl\n"), &l);
    lesson_free(&l);
    snprintf(line, sizeof line, "kernel: %s/tiles.cl\n", kernels_dir);
    parse_ok(full_lesson_with(6, line), &l);
    lesson_free(&l);
    ck_assert_int_eq(symlink("tiles.cl", strcat(strcpy(line, kernels_dir), "/same.cl")), 0);
    parse_ok(full_lesson_with(6, "kernel: same.cl\n"), &l);
    ck_assert_str_eq(strrchr(l.kernel_file, '/'), "/tiles.cl");
    lesson_free(&l);
}
END_TEST

/* A kernel path that is not a kernel's file says what it is. */
START_TEST(test_lesson_kernel_not_a_file)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof path, "%s/dir.cl", kernels_dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    parse_fails(full_lesson_with(6, "kernel: dir.cl\n"), 6, "dir.cl is a directory");
    snprintf(path, sizeof path, "%s/loop.cl", kernels_dir);
    ck_assert_int_eq(symlink("loop.cl", path), 0);
    parse_fails(full_lesson_with(6, "kernel: loop.cl\n"), 6, "loop.cl is a loop of symbolic links");
    snprintf(path, sizeof path, "%s/gone.cl", kernels_dir);
    ck_assert_int_eq(symlink("nothing-here.cl", path), 0);
    parse_fails(full_lesson_with(6, "kernel: gone.cl\n"), 6, "gone.cl is a symbolic link to a file that does not exist");
    snprintf(path, sizeof path, "%s/fifo.cl", kernels_dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    parse_fails(full_lesson_with(6, "kernel: fifo.cl\n"), 6, "fifo.cl is a FIFO (named pipe), not a regular file");
    snprintf(path, sizeof path, "%s/zero.cl", kernels_dir);
    ck_assert_int_eq(symlink("/dev/zero", path), 0);
    parse_fails(full_lesson_with(6, "kernel: zero.cl\n"), 6, "zero.cl is a character device");
    snprintf(path, sizeof path, "%s/huge.cl", kernels_dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ftruncate(fileno(f), LESSON_KERNEL_MAX + 1), 0);
    fclose(f);
    parse_fails(full_lesson_with(6, "kernel: huge.cl\n"), 6, "huge.cl is larger than the 4 MiB a kernel may have");
}
END_TEST

START_TEST(test_lesson_duplicate_key)
{
    parse_fails2(full_lesson_with(5, "title: Again\n"), 5, "title", "twice");
    parse_fails2(full_lesson_with(13, "entry: other\n"), 13, "entry", "twice");
    parse_fails2(full_lesson_with(13, "kernel: tiles.cl\n"), 13, "kernel", "twice");
    parse_fails2(full_lesson_with(13, "args: M N K A B C\n"), 13, "args", "twice");
    parse_fails2(full_lesson_with(5, "global: M\n"), 14, "global", "twice");
    parse_fails2(full_lesson_with(5, "local: 1, 1\n"), 15, "local", "twice");
}
END_TEST

/* Only param and require are repeatable (lessons/FORMAT): a second "lesson:" or "order:"
   line must be refused like a second "title:", not silently replace the first. */
START_TEST(test_lesson_duplicate_single_value_key)
{
    static const struct {
        const char *line5;      /* put in place of the blank line 5 */
        int line;               /* where the second occurrence is */
        const char *key;
    } cases[] = {
        { "lesson: 8\n", 5, "lesson" },      /* the first is on line 2 */
        { "order: row-major\n", 9, "order" },
        { "b-transposed: no\n", 10, "b-transposed" },
        { "engine: opencl\nengine: opencl\n", 6, "engine" },
        { "square: no\nsquare: yes\n", 6, "square" },
        { "pad: yes\npad: no\n", 6, "pad" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        parse_fails2(full_lesson_with(5, cases[i].line5), cases[i].line, cases[i].key, "twice");
}
END_TEST

/* The keys of the work-group diagram, put in place of the blank line 5. */
static const char layout_keys[] =
    "tile: TS, TS\n"
    "item: 1, WPT\n"
    "item-run: 1, min(WPT, 2)\n"
    "local-a: TS, TS + 1\n"
    "local-b: TS, TS\n"
    "local-copies: 2\n"
    "loads: (TS + TS) * K\n";

START_TEST(test_lesson_layout)
{
    struct lesson l;
    const struct lesson_layout *y = &l.layout;

    parse_ok(full_lesson_with(5, layout_keys), &l);
    ck_assert_str_eq(y->tile[0], "TS");
    ck_assert_str_eq(y->tile[1], "TS");
    ck_assert_str_eq(y->item[0], "1");
    ck_assert_str_eq(y->item[1], "WPT");
    ck_assert_str_eq(y->item_run[0], "1");
    ck_assert_str_eq(y->item_run[1], "min(WPT, 2)");     /* the comma of a call is no separator */
    ck_assert_str_eq(y->local_a[0], "TS");
    ck_assert_str_eq(y->local_a[1], "TS + 1");
    ck_assert_str_eq(y->local_b[1], "TS");
    ck_assert_str_eq(y->local_copies, "2");
    ck_assert_str_eq(y->loads, "(TS + TS) * K");
    lesson_free(&l);
}
END_TEST

/* Every key is optional: without them nothing is set, and the diagram shows what it can. */
START_TEST(test_lesson_layout_optional)
{
    struct lesson l;
    const struct lesson_layout *y = &l.layout;

    parse_ok(full_lesson, &l);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_ptr_null(y->tile[i]);
        ck_assert_ptr_null(y->item[i]);
        ck_assert_ptr_null(y->item_run[i]);
        ck_assert_ptr_null(y->local_a[i]);
        ck_assert_ptr_null(y->local_b[i]);
    }
    ck_assert_ptr_null(y->local_copies);
    ck_assert_ptr_null(y->loads);
    lesson_free(&l);
    parse_ok(full_lesson_with(5, "loads: 2 * K * TS\n"), &l);
    ck_assert_str_eq(y->loads, "2 * K * TS");
    ck_assert_ptr_null(y->tile[0]);
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_layout_errors)
{
    /* Pairs take two expressions, the others one. */
    parse_fails(full_lesson_with(5, "tile: TS\n"), 5, "expected two expressions (ROWS, COLS), found 1");
    parse_fails(full_lesson_with(5, "item: 1, WPT, 1\n"), 5, "found 3");
    parse_fails(full_lesson_with(5, "local-b: TS TS\n"), 5, "two expressions");
    parse_fails(full_lesson_with(5, "loads: K, TS\n"), 5, "expected one expression, found 2");
    parse_fails(full_lesson_with(5, "local-copies: 2, 2\n"), 5, "one expression");
    parse_fails(full_lesson_with(5, "local-a: , TS\n"), 5, "empty item");
    /* Checked like the other expressions, at their own line. */
    parse_fails(full_lesson_with(5, "tile: TS, TS\nlocal-a: TS, TSK\n"), 6, "unknown name");
    parse_fails(full_lesson_with(5, "loads: K / (TS - 16)\n"), 5, "division by zero");
    parse_fails(full_lesson_with(5, "item: 1, (WPT\n"), 5, "')'");
    /* Given once. */
    parse_fails2(full_lesson_with(5, "tile: TS, TS\ntile: TS, 2 * TS\n"), 6, "tile", "twice");
    parse_fails2(full_lesson_with(5, "loads: K\nitem: 1, 1\nloads: K\n"), 7, "loads", "twice");
    parse_fails2(full_lesson_with(5, "local-copies: 2\nlocal-a: TS, TS\nlocal-copies: 1\n"), 7,
                 "local-copies", "twice");
    /* What they refer to must be there; reported at their own line, found at the end. */
    parse_fails(full_lesson_with(5, "local-copies: 2\n"), 5, "local-copies needs a local-a or local-b line");
    parse_fails(full_lesson_with(5, "tile: TS, TS\nitem-run: 1, 1\n"), 6, "item-run needs an item line");
}
END_TEST

/* item-stride: runs of 4 x 4 in a tile of 128 x 128, 4 * WPT = 16 rows and 32 columns apart:
   lines 5 to 8 in place of the blank line 5. */
#define STRIDED(stride) "tile: 8 * TS, 8 * TS\nitem: 8, 8\nitem-run: 4, 4\nitem-stride: " stride "\n"

START_TEST(test_lesson_item_stride)
{
    struct lesson l;

    parse_ok(full_lesson_with(5, STRIDED("4 * WPT, 32")), &l);
    ck_assert_str_eq(l.layout.item_stride[0], "4 * WPT");
    ck_assert_str_eq(l.layout.item_stride[1], "32");
    ck_assert_int_eq(l.layout.item_stride_line, 8);
    lesson_free(&l);
    /* The runs may reach the tile's end, no further: (2 - 1) * 124 + 4 = 128. */
    parse_ok(full_lesson_with(5, STRIDED("124, 4")), &l);
    lesson_free(&l);
    parse_ok(full_lesson, &l);
    ck_assert_ptr_null(l.layout.item_stride[0]);
    ck_assert_int_eq(l.layout.item_stride_line, 0);
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_item_stride_errors)
{
    struct lesson l;
    struct error e;

    parse_fails(full_lesson_with(5, STRIDED("16")), 8, "expected two expressions (ROWS, COLS)");
    parse_fails(full_lesson_with(5, STRIDED("16, 4 * NOPE")), 8, "unknown name");
    /* A positive multiple of the run, checked with the parameters at their defaults. */
    parse_fails2(full_lesson_with(5, STRIDED("18, 32")), 8, "item-stride: 18 rows",
                 "not a multiple of its runs of 4");
    parse_fails2(full_lesson_with(5, STRIDED("16, 30")), 8, "30 columns", "not a multiple");
    parse_fails2(full_lesson_with(5, STRIDED("16, WPT - 4")), 8, "0 columns", "not positive");
    /* Its runs must fit in the tile: (2 - 1) * 128 + 4 > 128. */
    parse_fails2(full_lesson_with(5, STRIDED("128, 32")), 8, "2 runs of 4 rows, 128 apart",
                 "do not fit in the work-group's tile of 128 rows");
    parse_fails2(full_lesson_with(5, STRIDED("16, 2 * TS * WPT")), 8, "128 apart", "tile of 128 columns");
    /* It needs the runs and the tile it spaces them in; reported at its own line. */
    parse_fails(full_lesson_with(5, "tile: TS, TS\nitem: 2, 2\nitem-stride: 2, 2\n"), 7,
                "item-stride needs an item-run line");
    parse_fails(full_lesson_with(5, "item: 2, 2\nitem-run: 1, 1\nitem-stride: 2, 2\n"), 7,
                "item-stride needs a tile line");
    parse_fails2(full_lesson_with(5, STRIDED("16, 32\nitem-stride: 16, 32")), 9, "item-stride", "twice");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nitem-stride: 1, 1\n---\n", 6, "item-stride");
    /* The same check at other values (the figures use it): by dimension, the message names the
       lesson file's line. */
    parse_ok(full_lesson_with(5, STRIDED("4 * WPT, 32")), &l);
    error_init(&e);
    ck_assert_int_eq(lesson_check_stride(&l, "rows", 128, 8, 4, 16, &e), 0);
    ck_assert_int_eq(lesson_check_stride(&l, "rows", 128, 4, 4, 1000, &e), 0);   /* one run: any stride */
    ck_assert_int_eq(lesson_check_stride(&l, "columns", 64, 16, 4, 20, &e), 0);  /* 3 * 20 + 4 = 64 */
    ck_assert_int_lt(lesson_check_stride(&l, "columns", 64, 16, 4, 24, &e), 0);
    ck_assert_str_eq(e.msg, "t.lesson:8: item-stride: 4 runs of 4 columns, 24 apart, do not fit in the "
                            "work-group's tile of 64 columns");
    ck_assert_int_lt(lesson_check_stride(&l, "rows", 128, 8, 4, 6, &e), 0);
    ck_assert_str_eq(e.msg, "t.lesson:8: item-stride: 6 rows between the starts of a work-item's runs is not a "
                            "multiple of its runs of 4");
    ck_assert_int_lt(lesson_check_stride(&l, "rows", 128, 8, 4, -4, &e), 0);
    ck_assert_int_lt(lesson_check_stride(&l, "rows", 1LL << 62, 12, 4, 1LL << 62, &e), 0);  /* 2 * 2^62: no overflow */
    ck_assert_msg(strstr(e.msg, "do not fit") != NULL, "%s", e.msg);
    lesson_free(&l);
}
END_TEST

/* The work-groups of the k-split lines must fit in 64 bits: huge values once overflowed in the
   figures and the diagram (signed overflow under UBSan). At 1024, with TS = 16, there are
   64 x 64 = 4096 tiles; lines 5 to 7 in place of the blank line 5. */
START_TEST(test_lesson_split_too_many)
{
    struct lesson l;
    struct error e;
    long long groups;

    parse_fails2(full_lesson_with(5, "tile: TS, TS\nk-split-tiles: 1\nk-split-groups: 9223372036854775807\n"), 7,
                 "k-split-groups: 4096 tiles, the last 1 of them in 9223372036854775807 work-groups",
                 "do not fit in 64 bits");
    parse_fails2(full_lesson_with(5, "tile: TS, TS\nk-split: 9223372036854775807\n"), 6,
                 "k-split: 4096 tiles, the last 4096 of them in 9223372036854775807 work-groups each",
                 "do not fit in 64 bits");
    parse_fails2(full_lesson_with(5, "tile: TS, TS\nk-split: 2\nk-split-tiles: 9223372036854775807\n"), 7,
                 "k-split-tiles: 4096 tiles, the last 9223372036854775807", "do not fit in 64 bits");
    /* The largest that fit: 4095 + (2^63 - 4096) groups. */
    parse_ok(full_lesson_with(5, "tile: TS, TS\nk-split-tiles: 1\nk-split-groups: 9223372036854775807 - 4095\n"),
             &l);
    error_init(&e);
    ck_assert_int_eq(lesson_split_groups(&l, 4096, 1, 1, 9223372036854775807LL - 4095, &groups, &e), 0);
    ck_assert_int_eq(groups, 9223372036854775807LL);
    /* At other sizes the figures ask the same, and the message names the line. */
    ck_assert_int_lt(lesson_split_groups(&l, 4097, 1, 1, 9223372036854775807LL - 4095, &groups, &e), 0);
    ck_assert_str_eq(e.msg, "t.lesson:7: k-split-groups: 4097 tiles, the last 1 of them in 9223372036854771712 "
                            "work-groups: the work-groups do not fit in 64 bits; make k-split-groups smaller");
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_layout_host)
{
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\ntile: 1, 1\n---\n", 6, "takes no entry");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nloads: 2 * M * N * K\n---\n", 6,
                "loads");
}
END_TEST

START_TEST(test_lesson_set_load)
{
    struct lesson_set set;
    struct error e;
    char expected[256];

    scratch_write(lessons_dir, "03-three.lesson", full_lesson_with(2, "lesson: 3\n"));
    scratch_write(lessons_dir, "00-host.lesson", host_lesson);
    scratch_write(lessons_dir, "README", "not a lesson\n");
    scratch_write(lessons_dir, "02-two.lesson",
               "lesson: 2\ntitle: Two\nsources: S\nkernel: tiles.cl\nentry: e\nargs: M N K A B C\n"
               "global: M, N\n---\n");
    /* Found beside the lessons, in ../kernels, and shown without the "..". */
    snprintf(expected, sizeof expected, "%s/tiles.cl", kernels_dir);
    error_init(&e);
    ck_assert_msg(lesson_set_load(lessons_dir, &set, &e) == 0, "load failed: %s", e.msg);
    ck_assert_uint_eq(set.count, 3);
    ck_assert_int_eq(set.items[0].number, 0);
    ck_assert_int_eq(set.items[1].number, 2);
    ck_assert_int_eq(set.items[2].number, 3);
    ck_assert_str_eq(set.items[1].title, "Two");
    ck_assert_str_eq(set.items[2].kernel_file, expected);
    ck_assert_ptr_null(set.items[0].kernel_file);
    ck_assert_ptr_eq(lesson_set_find(&set, 3), &set.items[2]);
    ck_assert_ptr_null(lesson_set_find(&set, 1));
    lesson_set_free(&set);
    ck_assert_uint_eq(set.count, 0);
}
END_TEST

START_TEST(test_lesson_set_kernel_beside_lessons)
{
    struct lesson_set set;
    struct error e;
    char expected[256];

    scratch_write(lessons_dir, "04-four.lesson", full_lesson_with(2, "lesson: 4\n"));
    scratch_write(lessons_dir, "tiles.cl", "__kernel void gemm_tiles(void) {}\n");
    error_init(&e);
    ck_assert_msg(lesson_set_load(lessons_dir, &set, &e) == 0, "load failed: %s", e.msg);
    ck_assert_uint_eq(set.count, 1);
    snprintf(expected, sizeof expected, "%s/tiles.cl", lessons_dir);
    ck_assert_str_eq(set.items[0].kernel_file, expected);
    lesson_set_free(&set);
}
END_TEST

START_TEST(test_lesson_set_duplicate_number)
{
    struct lesson_set set;
    struct error e;

    scratch_write(lessons_dir, "02-a.lesson", full_lesson_with(2, "lesson: 2\n"));
    scratch_write(lessons_dir, "02-b.lesson", full_lesson_with(2, "lesson: 2\n"));
    error_init(&e);
    ck_assert_int_lt(lesson_set_load(lessons_dir, &set, &e), 0);
    ck_assert_msg(strstr(e.msg, "lesson 2 is also defined in") != NULL, "message: %s", e.msg);
    ck_assert_msg(strstr(e.msg, "02-a.lesson") && strstr(e.msg, "02-b.lesson"), "message: %s", e.msg);
    ck_assert_uint_eq(set.count, 0);
}
END_TEST

START_TEST(test_lesson_set_errors)
{
    struct lesson_set set;
    struct error e;
    char missing[256];

    error_init(&e);
    ck_assert_int_lt(lesson_set_load(lessons_dir, &set, &e), 0);
    ck_assert_msg(strstr(e.msg, "no *.lesson files") != NULL, "message: %s", e.msg);
    snprintf(missing, sizeof missing, "%s/nowhere", base_dir);
    ck_assert_int_lt(lesson_set_load(missing, &set, &e), 0);
    ck_assert_msg(strstr(e.msg, "cannot open") != NULL, "message: %s", e.msg);
    scratch_write(lessons_dir, "05-bad.lesson", full_lesson_with(13, "colour: blue\n"));
    ck_assert_int_lt(lesson_set_load(lessons_dir, &set, &e), 0);
    ck_assert_msg(strstr(e.msg, "05-bad.lesson:13: unknown key") != NULL, "message: %s", e.msg);
}
END_TEST

/* Only regular files of at most LESSON_FILE_MAX bytes, without NUL bytes, are read as
   lessons: a FIFO is not waited on, /dev/zero not read without end. */
START_TEST(test_lesson_set_not_regular)
{
    static const char *const cases[][2] = {
        { "fifo", "is a FIFO (named pipe), not a regular file" },
        { "zero", "is a character device, not a regular file" },
        { "dir", "is a directory, not a regular file" },
        { "huge", "is 1048577 bytes, larger than the 1 MiB a lesson file may have" },
        { "nul", "holds a NUL byte (at byte 9): a lesson file is text" },
    };
    struct lesson_set set;
    struct error e;
    char path[256];
    FILE *f;

    snprintf(path, sizeof path, "%s/01-hostile.lesson", lessons_dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *kind = cases[i][0];
        if (strcmp(kind, "fifo") == 0) {
            ck_assert_int_eq(mkfifo(path, 0600), 0);
        } else if (strcmp(kind, "zero") == 0) {
            ck_assert_int_eq(symlink("/dev/zero", path), 0);
        } else if (strcmp(kind, "dir") == 0) {
            ck_assert_int_eq(mkdir(path, 0700), 0);
        } else {
            f = fopen(path, "w");
            ck_assert_ptr_nonnull(f);
            fwrite("lesson: 1\0\n", 1, 11, f);
            if (strcmp(kind, "huge") == 0)
                ck_assert_int_eq(ftruncate(fileno(f), LESSON_FILE_MAX + 1), 0);
            fclose(f);
        }
        error_init(&e);
        ck_assert_msg(lesson_set_load(lessons_dir, &set, &e) < 0, "%s: loaded", kind);
        ck_assert_msg(strstr(e.msg, "01-hostile.lesson ") && strstr(e.msg, cases[i][1]), "%s: %s", kind, e.msg);
        ck_assert_int_eq(remove(path), 0);
    }
}
END_TEST

/* The lessons shipped in the source tree (top_srcdir is set by `make check`). */
START_TEST(test_lesson_shipped)
{
    const char *top = getenv("top_srcdir");
    struct lesson_set set;
    struct error e;
    char dir[4096];

    snprintf(dir, sizeof dir, "%s/lessons", top);
    error_init(&e);
    ck_assert_msg(lesson_set_load(dir, &set, &e) == 0, "%s", e.msg);
    for (size_t i = 0; i < set.count; i++) {
        const struct lesson *l = &set.items[i];
        ck_assert_msg(l->number == (int)i, "lessons are not numbered 0, 1, 2, ...: %s is lesson %d at "
                      "place %zu", l->file, l->number, i);
        const struct source *cited[1];
        /* Every lesson shows its source, the host lesson its C loop included. */
        ck_assert_msg(l->kernel_file && access(l->kernel_file, R_OK) == 0,
                      "%s: kernel %s is not readable", l->file, l->kernel_file);
        /* A lesson that goes beyond the documents says so; every other one cites one. */
        ck_assert_msg(sources_cited(&set.sources, l->sources, cited, 1) > 0 ||
                      strncmp(l->sources, "beyond the documents", 20) == 0,
                      "%s cites no document of lessons/SOURCES and does not say it goes beyond them", l->file);
        if (l->engine != ENGINE_OPENCL)
            continue;
        /* Optional in the format, but the shipped lessons all have their diagram. */
        ck_assert_msg(l->layout.tile[0] && l->layout.item[0] && l->layout.loads,
                      "%s lacks a tile, item or loads line", l->file);
    }
    lesson_set_free(&set);
}
END_TEST

/* A lesson of two launches: the product in parts, then their sum, with a scratch buffer. Its
   line numbers matter to the tests below. */
static const char split_lesson[] =
    "lesson: 15\n"                                                  /*  1 */
    "title: Split\n"                                                /*  2 */
    "sources: test\n"                                               /*  3 */
    "kernel: tiles.cl\n"                                            /*  4 */
    "entry: gemm_tiles\n"                                           /*  5 */
    "args: M N K A B C W\n"                                         /*  6 */
    "param: SPLIT = 4 in 1, 2, 4\n"                                 /*  7 */
    "global: N, M, SPLIT\n"                                         /*  8 */
    "local: 16, 16, 1\n"                                            /*  9 */
    "scratch: (SPLIT > 1) * SPLIT * M * N\n"                        /* 10 */
    "then: reduce\n"                                                /* 11 */
    "then-args: M N C W int(SPLIT)\n"                               /* 12 */
    "then-global: roundup(M * N, 64)\n"                             /* 13 */
    "then-local: 64\n"                                              /* 14 */
    "then-when: SPLIT > 1\n"                                        /* 15 */
    "---\n";                                                        /* 16 */

static char *split_lesson_with(int line, const char *replacement)
{
    return scratch_replace_line(split_lesson, line, replacement);
}

START_TEST(test_lesson_launches)
{
    struct lesson l;

    parse_ok(split_lesson, &l);
    ck_assert_uint_eq(l.nlaunches, 2);
    ck_assert_str_eq(l.launch[0].entry, "gemm_tiles");
    ck_assert_int_eq(l.launch[0].line, 5);
    ck_assert_uint_eq(l.launch[0].nargs, 7);
    ck_assert_int_eq(l.launch[0].args[6].kind, ARG_W);
    ck_assert_uint_eq(l.launch[0].dims, 3);
    ck_assert_ptr_null(l.launch[0].when);
    ck_assert_str_eq(l.scratch, "(SPLIT > 1) * SPLIT * M * N");
    ck_assert_str_eq(l.launch[1].entry, "reduce");
    ck_assert_int_eq(l.launch[1].line, 11);
    ck_assert_uint_eq(l.launch[1].nargs, 5);
    ck_assert_int_eq(l.launch[1].args[2].kind, ARG_C);
    ck_assert_int_eq(l.launch[1].args[3].kind, ARG_W);
    ck_assert_str_eq(l.launch[1].args[4].expr, "SPLIT");
    ck_assert_uint_eq(l.launch[1].dims, 1);
    ck_assert_str_eq(l.launch[1].global[0], "roundup(M * N, 64)");
    ck_assert_uint_eq(l.launch[1].local_dims, 1);
    ck_assert_str_eq(l.launch[1].when, "SPLIT > 1");
    lesson_free(&l);
    /* A lesson of one launch has one; a host lesson none. */
    parse_ok(full_lesson, &l);
    ck_assert_uint_eq(l.nlaunches, 1);
    ck_assert_ptr_null(l.scratch);
    lesson_free(&l);
    parse_ok(host_lesson, &l);
    ck_assert_uint_eq(l.nlaunches, 0);
    lesson_free(&l);
    /* Up to three further launches, each with its own lines; then-local and then-when are
       optional. */
    parse_ok(split_lesson_with(16, "then: third\nthen-args: C\nthen-global: M\n"
                                   "then: fourth\nthen-args: W\nthen-global: N\n---\n"), &l);
    ck_assert_uint_eq(l.nlaunches, 4);
    ck_assert_str_eq(l.launch[3].entry, "fourth");
    ck_assert_uint_eq(l.launch[2].local_dims, 0);
    ck_assert_ptr_null(l.launch[3].when);
    lesson_free(&l);
}
END_TEST

START_TEST(test_lesson_launch_errors)
{
    /* A then line's lines before any then line, or twice for one launch. */
    parse_fails(split_lesson_with(11, ""), 11, "then-args comes before any then line");
    parse_fails(split_lesson_with(9, "local: 16, 16, 1\nthen-when: SPLIT > 1\n"), 10, "then-when comes before");
    parse_fails(split_lesson_with(14, "then-local: 64\nthen-local: 32\n"), 15,
                "\"then-local\" is given twice for the launch of line 11");
    parse_fails(split_lesson_with(13, "then-global: M\nthen-global: N\n"), 14, "given twice");
    /* A launch without arguments or NDRange, or with ranges that disagree: at its then line. */
    parse_fails(split_lesson_with(12, ""), 11, "has no then-args line");
    parse_fails(split_lesson_with(13, ""), 11, "has no then-global line");
    parse_fails(split_lesson_with(16, "then: more\nthen-args: M\n---\n"), 16, "(more) has no then-global");
    parse_fails(split_lesson_with(14, "then-local: 64, 1\n"), 11, "different number of dimensions");
    /* A then line that names no identifier; a fifth launch. */
    parse_fails(split_lesson_with(11, "then:\n"), 11, "not a C identifier");
    parse_fails(split_lesson_with(11, "then: 2nd kernel\n"), 11, "not a C identifier");
    parse_fails(split_lesson_with(16, "then: a\nthen-args: M\nthen-global: M\nthen: b\nthen-args: M\n"
                                      "then-global: M\nthen: c\nthen-args: M\nthen-global: M\n---\n"),
                22, "at most 3 further launches");
    /* W without a scratch line, at the args line that takes it; a scratch line no launch takes. */
    parse_fails(split_lesson_with(10, ""), 6, "argument W is the scratch buffer");
    parse_fails(scratch_replace_line(split_lesson_with(6, "args: M N K A B C\n"), 10, ""), 11,
                "argument W is the scratch buffer");
    parse_fails(scratch_replace_line(split_lesson_with(6, "args: M N K A B C\n"), 12, "then-args: M N C\n"), 10,
                "a scratch buffer that no launch takes");
    parse_fails(split_lesson_with(6, "args: M N K A B C X\n"), 6, "expected M, N, K, A, B, C, W,");
    parse_fails(split_lesson_with(10, "scratch: 1\nscratch: 2\n"), 11, "\"scratch\" is given twice");
    /* Counters at the start of the scratch buffer: only with one, once. */
    parse_fails(scratch_replace_line(scratch_replace_line(split_lesson_with(6, "args: M N K A B C\n"), 10,
                                                          "scratch-zero: M\n"), 12, "then-args: M N C\n"),
                10, "scratch-zero names the first floats of the scratch buffer, and the header has no scratch line");
    parse_fails(split_lesson_with(10, "scratch: 4 * M\nscratch-zero: M\nscratch-zero: N\n"), 12,
                "\"scratch-zero\" is given twice");
    /* Their expressions are checked as the others, at their lines. */
    parse_fails(split_lesson_with(15, "then-when: SPLITS > 1\n"), 15, "unknown name");
    parse_fails(split_lesson_with(10, "scratch: M * (N\n"), 10, "')'");
    parse_fails(split_lesson_with(12, "then-args: M N C W int(Q)\n"), 12, "unknown name");
    /* A host lesson launches nothing. */
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nthen: x\nthen-args: M\nthen-global: M\n---\n", 8,
                "then, scratch");
    parse_fails("lesson: 0\ntitle: T\nsources: S\nengine: host\nscratch: 4\n---\n", 6, "then, scratch");
}
END_TEST

Suite *lesson_suite(void)
{
    Suite *s = suite_create("lesson");
    TCase *parse = tcase_create("lesson_parse");
    TCase *load = tcase_create("lesson_set_load");

    tcase_add_unchecked_fixture(parse, root_setup, root_teardown);
    tcase_add_checked_fixture(parse, scratch_setup, scratch_teardown);
    tcase_add_test(parse, test_lesson_full_header);
    tcase_add_test(parse, test_lesson_full_args);
    tcase_add_test(parse, test_lesson_full_params);
    tcase_add_test(parse, test_lesson_switch);
    tcase_add_test(parse, test_lesson_full_launch);
    tcase_add_test(parse, test_lesson_defaults);
    tcase_add_test(parse, test_lesson_short_title);
    tcase_add_test(parse, test_lesson_branch);
    tcase_add_test(parse, test_lesson_short_title_default);
    tcase_add_test(parse, test_lesson_yes_no_keys);
    tcase_add_test(parse, test_lesson_host);
    tcase_add_test(parse, test_lesson_host_shows_its_source);
    tcase_add_test(parse, test_lesson_unknown_key);
    tcase_add_test(parse, test_lesson_missing_separator);
    tcase_add_test(parse, test_lesson_param_errors);
    tcase_add_test(parse, test_lesson_param_range);
    tcase_add_test(parse, test_lesson_unknown_arg);
    tcase_add_test(parse, test_lesson_ints_arg);
    tcase_add_test(parse, test_lesson_ints_errors);
    tcase_add_test(parse, test_lesson_expression_errors);
    tcase_add_test(parse, test_lesson_multiple_with_function);
    tcase_add_test(parse, test_lesson_local_dims_mismatch);
    tcase_add_test(parse, test_lesson_missing_keys);
    tcase_add_test(parse, test_lesson_kernel_not_found);
    tcase_add_test(parse, test_lesson_byte_order_mark);
    tcase_add_test(parse, test_lesson_kernel_confined);
    tcase_add_test(parse, test_lesson_kernel_not_a_file);
    tcase_add_test(parse, test_lesson_duplicate_key);
    tcase_add_test(parse, test_lesson_duplicate_single_value_key);
    tcase_add_test(parse, test_lesson_layout);
    tcase_add_test(parse, test_lesson_layout_optional);
    tcase_add_test(parse, test_lesson_layout_errors);
    tcase_add_test(parse, test_lesson_layout_host);
    tcase_add_test(parse, test_lesson_item_stride);
    tcase_add_test(parse, test_lesson_item_stride_errors);
    tcase_add_test(parse, test_lesson_split_too_many);
    tcase_add_test(parse, test_lesson_param_bounds);
    tcase_add_test(parse, test_lesson_launches);
    tcase_add_test(parse, test_lesson_launch_errors);
    tcase_add_test(parse, test_lesson_precision_units);
    tcase_add_test(parse, test_lesson_needs);
    tcase_add_test(parse, test_lesson_needs_errors);
    suite_add_tcase(s, parse);

    tcase_add_unchecked_fixture(load, root_setup, root_teardown);
    tcase_add_checked_fixture(load, scratch_setup, scratch_teardown);
    tcase_add_test(load, test_lesson_set_load);
    tcase_add_test(load, test_lesson_set_kernel_beside_lessons);
    tcase_add_test(load, test_lesson_set_duplicate_number);
    tcase_add_test(load, test_lesson_set_errors);
    tcase_add_test(load, test_lesson_set_not_regular);
    if (getenv("top_srcdir"))
        tcase_add_test(load, test_lesson_shipped);
    else
        fprintf(stderr, "lesson: top_srcdir is not set: skipping the shipped lessons\n");
    suite_add_tcase(s, load);
    return s;
}
