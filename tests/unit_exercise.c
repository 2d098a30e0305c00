/* unit_exercise.c: exercise files (exercises/FORMAT) and the exercise directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "units.h"
#include "engine/errmap.h"
#include "engine/exercise.h"
#include "engine/str.h"

/* A scratch directory for each test, holding start.cl and sol.cl, inside a root made once. */
static char root_dir[64];
static char base_dir[96];
static const char *kernel_dirs[2];
static struct lesson_set shipped;       /* the repository's lessons */

static void scratch_setup(void)
{
    snprintf(base_dir, sizeof base_dir, "%s/test-XXXXXX", root_dir);
    ck_assert_msg(mkdtemp(base_dir) != NULL, "mkdtemp in %s failed", root_dir);
    scratch_write(base_dir, "start.cl", "__kernel void gemm_naive(void) {}\n");
    scratch_write(base_dir, "sol.cl", "__kernel void gemm_naive(void) { /* solved */ }\n");
    kernel_dirs[0] = base_dir;
    kernel_dirs[1] = NULL;
}

static void scratch_teardown(void)
{
    scratch_remove(base_dir);
}

static void root_setup(void)
{
    strcpy(root_dir, "/tmp/clmm-unit-exercise-XXXXXX");
    if (!mkdtemp(root_dir))
        perror("mkdtemp");
}

static void root_teardown(void)
{
    scratch_remove(root_dir);
}

/* The lessons of the source tree: top_srcdir from `make check`, else the configured one. */
static void lessons_setup(void)
{
    const char *top = getenv("top_srcdir");
    char dir[4096];
    struct error e;

    root_setup();
    error_init(&e);
    snprintf(dir, sizeof dir, "%s/lessons", top ? top : CLMM_SRCDIR);
    if (lesson_set_load(dir, &shipped, &e) < 0)
        fprintf(stderr, "exercise: %s\n", e.msg);
}

static void lessons_teardown(void)
{
    lesson_set_free(&shipped);
    root_teardown();
}

/* A complete exercise using every exercise key; its line numbers matter to the tests below. */
static const char full_exercise[] =
    "# An exercise for the tests\n"                                 /*  1 */
    "exercise: 7\n"                                                 /*  2 */
    "title: Store it\n"                                             /*  3 */
    "lesson: 1\n"                                                   /*  4 */
    "kernel: start.cl\n"                                            /*  5 */
    "solution: sol.cl\n"                                            /*  6 */
    "sizes: 64, 1000x700x300\n"                                     /*  7 */
    "repeat: 5\n"                                                   /*  8 */
    "hint: first, C is column-major\n"                              /*  9 */
    "hint: second\n"                                                /* 10 */
    "target: 1.2 x lesson 5 at 2048\n"                              /* 11 */
    "entry: gemm_naive\n"                                           /* 12 */
    "args: M N K A B C\n"                                           /* 13 */
    "order: column-major\n"                                         /* 14 */
    "param: TS = 16 in 16\n"                                        /* 15 */
    "global: M, N\n"                                                /* 16 */
    "local: TS, TS\n"                                               /* 17 */
    "---\n"                                                         /* 18 */
    "Write the store.\n";                                           /* 19 */

/* full_exercise with line number `line` replaced by replacement (which ends in '\n', or is ""
   to delete the line). */
static char *full_exercise_with(int line, const char *replacement)
{
    return scratch_replace_line(full_exercise, line, replacement);
}

static void parse_ok(const char *text, struct exercise *x)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(exercise_parse("t.exercise", text, kernel_dirs, x, &e) == 0, "parse failed: %s", e.msg);
}

/* The text is refused with "t.exercise:LINE:" and fragment in the message. */
static void parse_fails(const char *text, int line, const char *fragment)
{
    struct exercise x;
    struct error e;
    char prefix[64];

    error_init(&e);
    ck_assert_msg(exercise_parse("t.exercise", text, kernel_dirs, &x, &e) < 0,
                  "parsed, expected an error with \"%s\"", fragment);
    snprintf(prefix, sizeof prefix, "t.exercise:%d: ", line);
    ck_assert_msg(strncmp(e.msg, prefix, strlen(prefix)) == 0, "message \"%s\" does not start with \"%s\"",
                  e.msg, prefix);
    ck_assert_msg(strstr(e.msg, fragment) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment);
}

START_TEST(test_exercise_full)
{
    struct exercise x;
    char path[256];

    parse_ok(full_exercise, &x);
    ck_assert_int_eq(x.number, 7);
    ck_assert_int_eq(x.l.number, 7);
    ck_assert_int_eq(x.lesson, 1);
    ck_assert_str_eq(x.l.title, "Store it");
    snprintf(path, sizeof path, "%s/start.cl", base_dir);
    ck_assert_str_eq(x.start_file, path);
    ck_assert_str_eq(x.l.kernel_file, path);
    ck_assert_str_eq(x.start_name, "start.cl");
    snprintf(path, sizeof path, "%s/sol.cl", base_dir);
    ck_assert_str_eq(x.solution_file, path);
    ck_assert_uint_eq(x.nsizes, 2);
    ck_assert_int_eq(x.sizes[0].m, 64);
    ck_assert_int_eq(x.sizes[0].n, 64);
    ck_assert_int_eq(x.sizes[0].k, 64);
    ck_assert_int_eq(x.sizes[1].m, 1000);
    ck_assert_int_eq(x.sizes[1].n, 700);
    ck_assert_int_eq(x.sizes[1].k, 300);
    ck_assert_int_eq(x.repeat, 5);
    ck_assert_uint_eq(x.nhints, 2);
    ck_assert_str_eq(x.hints[0], "first, C is column-major");
    ck_assert_str_eq(x.hints[1], "second");
    ck_assert_int_eq(x.speed, SPEED_TARGET);
    ck_assert_double_eq_tol(x.ratio, 1.2, 1e-12);
    ck_assert_int_eq(x.versus, 5);
    ck_assert_int_eq(x.speed_size.m, 2048);
    ck_assert_int_eq(x.speed_size.n, 2048);
    ck_assert_int_eq(x.speed_size.k, 2048);
    ck_assert_str_eq(x.l.launch[0].entry, "gemm_naive");
    ck_assert_str_eq(x.l.text, "Write the store.\n");
    exercise_free(&x);
}
END_TEST

/* repeat defaults to 3; `solution: lesson` leaves the file to the lesson; no goal. */
START_TEST(test_exercise_defaults)
{
    struct exercise x;

    parse_ok(full_exercise_with(8, "# no repeat\n"), &x);
    ck_assert_int_eq(x.repeat, EXERCISE_DEFAULT_REPEAT);
    ck_assert_int_eq(x.repeat, 3);
    exercise_free(&x);
    parse_ok(full_exercise_with(6, "solution: lesson\n"), &x);
    ck_assert_ptr_null(x.solution_file);
    exercise_free(&x);
    parse_ok(full_exercise_with(11, "\n"), &x);
    ck_assert_int_eq(x.speed, SPEED_NONE);
    exercise_free(&x);
}
END_TEST

/* uses: names what a hint may name; race-check: yes, no, or the size to run it at. */
START_TEST(test_exercise_uses_and_race_check)
{
    struct exercise x;

    parse_ok(full_exercise, &x);
    ck_assert(!x.uses_given);
    ck_assert(!x.race_check);
    exercise_free(&x);
    parse_ok(full_exercise_with(9, "uses: local-memory, barriers\n"), &x);
    ck_assert(x.uses_given);
    ck_assert_uint_eq(x.uses, USES_LOCAL_MEMORY | USES_BARRIERS);
    exercise_free(&x);
    parse_ok(full_exercise_with(9, "uses: none\n"), &x);
    ck_assert(x.uses_given);
    ck_assert_uint_eq(x.uses, 0);
    exercise_free(&x);
    parse_ok(full_exercise_with(9, "race-check: yes\n"), &x);
    ck_assert(x.race_check);
    ck_assert_int_eq(x.race_size.m, 0);
    exercise_free(&x);
    parse_ok(full_exercise_with(9, "race-check: 128x64x32\n"), &x);
    ck_assert(x.race_check);
    ck_assert_int_eq(x.race_size.m, 128);
    ck_assert_int_eq(x.race_size.n, 64);
    ck_assert_int_eq(x.race_size.k, 32);
    exercise_free(&x);
    parse_ok(full_exercise_with(9, "race-check: no\n"), &x);
    ck_assert(!x.race_check);
    exercise_free(&x);
    parse_fails(full_exercise_with(9, "uses: registers\n"), 9, "\"registers\" is not local-memory, barriers, "
                                                               "local-id, fragments or none");
    parse_fails(full_exercise_with(9, "uses: ,\n"), 9, "uses: empty");
    parse_fails(full_exercise_with(9, "race-check: maybe\n"), 9, "race-check: \"maybe\" is not yes, no or a size");
}
END_TEST

START_TEST(test_exercise_predict)
{
    struct exercise x;

    parse_ok(full_exercise_with(11, "predict: lesson 3 at 96x32x160\n"), &x);
    ck_assert_int_eq(x.speed, SPEED_PREDICT);
    ck_assert_int_eq(x.versus, 3);
    ck_assert_int_eq(x.speed_size.m, 96);
    ck_assert_int_eq(x.speed_size.n, 32);
    ck_assert_int_eq(x.speed_size.k, 160);
    exercise_free(&x);
}
END_TEST

/* A required key that is missing is reported where the header ends ("---" moves from line 18
   to 17 when a line is deleted). */
START_TEST(test_exercise_missing_keys)
{
    static const struct {
        int line;
        const char *key;
    } required[] = { { 2, "exercise" }, { 4, "lesson" }, { 7, "sizes" }, { 6, "solution" } };

    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char fragment[64];
        snprintf(fragment, sizeof fragment, "no \"%s:\" line", required[i].key);
        parse_fails(full_exercise_with(required[i].line, ""), 17, fragment);
    }
}
END_TEST

START_TEST(test_exercise_bad_values)
{
    parse_fails(full_exercise_with(2, "exercise: 0\n"), 2, "not an integer from 1 to 99");
    parse_fails(full_exercise_with(2, "exercise: 100\n"), 2, "not an integer from 1 to 99");
    parse_fails(full_exercise_with(2, "exercise: seven\n"), 2, "not an integer from 1 to 99");
    parse_fails(full_exercise_with(4, "lesson: 100\n"), 4, "not a lesson number from 0 to 99");
    parse_fails(full_exercise_with(7, "sizes: 64, 12x\n"), 7, "sizes: ");
    parse_fails(full_exercise_with(7, "sizes: 0\n"), 7, "sizes: ");
    parse_fails(full_exercise_with(7, "sizes: 1, 2, 3, 4, 5, 6, 7, 8, 9\n"), 7, "at most 8 sizes, found 9");
    parse_fails(full_exercise_with(8, "repeat: 0\n"), 8, "not a number of launches from 1 to 20");
    parse_fails(full_exercise_with(8, "repeat: 21\n"), 8, "not a number of launches from 1 to 20");
    parse_fails(full_exercise_with(10, "hint: \n"), 10, "hint: empty");
}
END_TEST

START_TEST(test_exercise_eight_sizes_and_hints)
{
    struct exercise x;

    parse_ok(full_exercise_with(7, "sizes: 1, 2, 3, 4, 5, 6, 7, 8\n"), &x);
    ck_assert_uint_eq(x.nsizes, 8);
    ck_assert_int_eq(x.sizes[7].k, 8);
    exercise_free(&x);
    parse_ok(full_exercise_with(10, "hint: 2\nhint: 3\nhint: 4\nhint: 5\nhint: 6\nhint: 7\nhint: 8\n"), &x);
    ck_assert_uint_eq(x.nhints, 8);
    ck_assert_str_eq(x.hints[7], "8");
    exercise_free(&x);
    parse_fails(full_exercise_with(10, "hint: 2\nhint: 3\nhint: 4\nhint: 5\nhint: 6\nhint: 7\nhint: 8\nhint: 9\n"),
                17, "at most 8 hints");
}
END_TEST

START_TEST(test_exercise_bad_goal)
{
    parse_fails(full_exercise_with(11, "target: 1.2 lesson 5 at 2048\n"), 11, "expected \"R x lesson L at SIZE\"");
    parse_fails(full_exercise_with(11, "target: 0.05 x lesson 5 at 2048\n"), 11, "from 0.1 to 100");
    parse_fails(full_exercise_with(11, "target: 101 x lesson 5 at 2048\n"), 11, "from 0.1 to 100");
    parse_fails(full_exercise_with(11, "target: 1.2 x lesson 5 by 2048\n"), 11, "lesson L at SIZE");
    parse_fails(full_exercise_with(11, "target: 1.2 x lesson 5 at 0\n"), 11, "target: ");
    parse_fails(full_exercise_with(11, "predict: lesson x at 64\n"), 11, "lesson L at SIZE");
    parse_fails(full_exercise_with(11, "target: 1.2 x lesson 5 at 2048\npredict: lesson 3 at 64\n"), 12,
                "at most one target or predict line");
    parse_fails(full_exercise_with(11, "predict: lesson 3 at 64\npredict: lesson 3 at 64\n"), 12,
                "at most one target or predict line");
}
END_TEST

START_TEST(test_exercise_repeated_keys)
{
    parse_fails(full_exercise_with(3, "title: Store it\nexercise: 8\n"), 4, "\"exercise\" is given twice");
    parse_fails(full_exercise_with(3, "title: Store it\nlesson: 2\n"), 5, "\"lesson\" is given twice");
    parse_fails(full_exercise_with(8, "repeat: 5\nsizes: 64\n"), 9, "\"sizes\" is given twice");
    parse_fails(full_exercise_with(8, "repeat: 5\nrepeat: 4\n"), 9, "\"repeat\" is given twice");
    parse_fails(full_exercise_with(8, "repeat: 5\nsolution: lesson\n"), 9, "\"solution\" is given twice");
}
END_TEST

START_TEST(test_exercise_files)
{
    parse_fails(full_exercise_with(6, "solution: ../sol.cl\n"), 6, "without a /");
    parse_fails(full_exercise_with(6, "solution: /etc/passwd\n"), 6, "without a /");
    parse_fails(full_exercise_with(6, "solution: missing.cl\n"), 6, "no file \"missing.cl\"");
    parse_fails(full_exercise_with(5, "kernel: missing.cl\n"), 5, "\"missing.cl\" not found");
}
END_TEST

/* A solution that is a symbolic link out of the exercise directory is refused: --solution
   would print whatever it leads to. */
START_TEST(test_exercise_solution_link_outside)
{
    char link_path[512], outside[512];

    snprintf(outside, sizeof outside, "%s/outside.cl", root_dir);
    scratch_write(root_dir, "outside.cl", "__kernel void gemm_naive(void) {}\n");
    snprintf(link_path, sizeof link_path, "%s/linked.cl", base_dir);
    ck_assert_int_eq(symlink(outside, link_path), 0);
    parse_fails(full_exercise_with(6, "solution: linked.cl\n"), 6, "outside the exercise directory");
}
END_TEST

START_TEST(test_exercise_engine_host)
{
    parse_fails(full_exercise_with(12, "engine: host\nentry: gemm_naive\n"), 12, "\"engine: host\" is not allowed");
}
END_TEST

/* ---- exercise_set_load ---- */

/* What is wrong between files, or with the lessons, is said at the line that says it. */

static const char set_exercise[] =
    "exercise: %d\n"
    "title: Exercise %d\n"
    "lesson: %d\n"
    "kernel: %s\n"
    "solution: lesson\n"
    "sizes: 64\n"
    "entry: gemm_naive\n"
    "args: M N K A B C\n"
    "global: M, N\n"
    "---\n"
    "Task.\n";

static void write_exercise(const char *name, int number, int lesson, const char *kernel)
{
    char text[1024];

    snprintf(text, sizeof text, set_exercise, number, number, lesson, kernel);
    scratch_write(base_dir, name, text);
}

static void load_fails(const char *fragment)
{
    struct exercise_set set;
    struct error e;

    error_init(&e);
    ck_assert_msg(exercise_set_load(base_dir, &shipped, &set, &e) < 0, "loaded, expected \"%s\"", fragment);
    ck_assert_msg(strstr(e.msg, fragment) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment);
    ck_assert_uint_eq(set.count, 0);
}

START_TEST(test_exercise_set_sorted)
{
    struct exercise_set set;
    struct error e;

    scratch_write(base_dir, "b.cl", "__kernel void gemm_naive(void) {}\n");
    write_exercise("10-ten.exercise", 10, 5, "start.cl");
    write_exercise("02-two.exercise", 2, 1, "b.cl");
    scratch_write(base_dir, "README", "not an exercise\n");
    error_init(&e);
    ck_assert_msg(exercise_set_load(base_dir, &shipped, &set, &e) == 0, "load failed: %s", e.msg);
    ck_assert_uint_eq(set.count, 2);
    ck_assert_int_eq(set.items[0].number, 2);
    ck_assert_int_eq(set.items[1].number, 10);
    ck_assert_int_eq(exercise_set_index(&set, 10), 1);
    ck_assert_int_eq(exercise_set_index(&set, 3), -1);
    ck_assert_ptr_eq(exercise_set_find(&set, 2), &set.items[0]);
    ck_assert_ptr_null(exercise_set_find(&set, 7));
    exercise_set_free(&set);
}
END_TEST

START_TEST(test_exercise_set_duplicate_number)
{
    scratch_write(base_dir, "b.cl", "__kernel void gemm_naive(void) {}\n");
    write_exercise("03-a.exercise", 3, 1, "start.cl");
    write_exercise("03-b.exercise", 3, 1, "b.cl");
    load_fails(".exercise:1: exercise 3 is also defined in");
}
END_TEST

START_TEST(test_exercise_set_same_start)
{
    write_exercise("03-a.exercise", 3, 1, "start.cl");
    write_exercise("04-b.exercise", 4, 1, "start.cl");
    load_fails(".exercise:4: exercise ");
    load_fails(" starts from start.cl, as exercise ");
}
END_TEST

START_TEST(test_exercise_set_unknown_lesson)
{
    write_exercise("03-a.exercise", 3, 77, "start.cl");
    load_fails("03-a.exercise:3: exercise 3 belongs to lesson 77, which the lesson set does not have");
}
END_TEST

START_TEST(test_exercise_set_unknown_versus)
{
    char text[1024];

    snprintf(text, sizeof text, "predict: lesson 77 at 64\n%s", set_exercise);
    {
        char full[1200];
        snprintf(full, sizeof full, text, 3, 3, 1, "start.cl");
        scratch_write(base_dir, "03-a.exercise", full);
    }
    load_fails("03-a.exercise:1: exercise 3 compares with lesson 77, which the lesson set does not have");
}
END_TEST

/* `solution: lesson` needs a lesson with a kernel: lesson 0 runs on the host. */
START_TEST(test_exercise_set_host_solution)
{
    write_exercise("03-a.exercise", 3, 0, "start.cl");
    load_fails("03-a.exercise:5: \"solution: lesson\" names lesson 0, which has no kernel");
}
END_TEST

START_TEST(test_exercise_set_malformed_file)
{
    write_exercise("03-a.exercise", 3, 1, "start.cl");
    scratch_write(base_dir, "04-b.exercise", "exercise: 4\nrepeat: 0\n---\n");
    load_fails("04-b.exercise:2: repeat: ");
}
END_TEST

START_TEST(test_exercise_set_empty_dir)
{
    load_fails("no *.exercise files in");
}
END_TEST

START_TEST(test_exercise_set_no_dir)
{
    struct exercise_set set;
    struct error e;
    char dir[200];

    snprintf(dir, sizeof dir, "%s/none", base_dir);
    error_init(&e);
    ck_assert(exercise_set_load(dir, &shipped, &set, &e) < 0);
    ck_assert_msg(strstr(e.msg, "cannot open the exercise directory") != NULL, "%s", e.msg);
}
END_TEST

/* A start written as a gap file: made at load from the lesson's kernel, named .cl in the
   workspace; a gap that no longer applies to the lesson's kernel is refused at load, with the
   gap file's line. */
START_TEST(test_exercise_set_gap_file)
{
    struct exercise_set set;
    struct error e;
    size_t len;
    char *text;

    scratch_write(base_dir, "01-fill.gap", "# the store left out\n\n"
                                           "@@ replace\n    C[col * M + row] = acc;\n"
                                           "@@ with\n    /* TODO: store acc */\n@@ end\n");
    write_exercise("01-fill.exercise", 1, 1, "01-fill.gap");
    error_init(&e);
    ck_assert_msg(exercise_set_load(base_dir, &shipped, &set, &e) == 0, "load failed: %s", e.msg);
    ck_assert_str_eq(set.items[0].start_name, "01-fill.cl");
    text = exercise_start_text(&set.items[0], &len, &e);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, strlen(text));
    ck_assert_ptr_nonnull(strstr(text, "__kernel void gemm_naive("));
    ck_assert_ptr_nonnull(strstr(text, "    /* TODO: store acc */\n"));
    ck_assert_ptr_null(strstr(text, "C[col * M + row] = acc;"));
    free(text);
    exercise_set_free(&set);
    /* The lesson's kernel no longer holds the text to replace. */
    scratch_write(base_dir, "01-fill.gap", "\n@@ replace\n    C[row * N + col] = acc;\n@@ with\n@@ end\n");
    load_fails("01-fill.gap:2: the text to replace is not in");
}
END_TEST

/* Every shipped exercise whose start is a gap file loads (its edits apply to its lesson's
   kernel as it is now), and its start has a TODO. */
START_TEST(test_exercise_set_shipped_gaps)
{
    char dir[4200];
    const char *top = getenv("top_srcdir");
    struct exercise_set set;
    struct error e;
    int gaps = 0;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/exercises", top ? top : CLMM_SRCDIR);
    ck_assert_msg(exercise_set_load(dir, &shipped, &set, &e) == 0, "%s", e.msg);
    for (size_t i = 0; i < set.count; i++) {
        const struct exercise *x = &set.items[i];
        if (!x->start_text)
            continue;
        gaps++;
        ck_assert_msg(strstr(x->start_text, "TODO") != NULL, "exercise %d: no TODO in its start", x->number);
        ck_assert_msg(str_has_suffix(x->start_name, ".cl"), "%s", x->start_name);
    }
    ck_assert_int_ge(gaps, 12);
    exercise_set_free(&set);
}
END_TEST

START_TEST(test_exercise_goal_describe)
{
    struct exercise x;
    char buf[256];

    parse_ok(full_exercise, &x);
    exercise_goal_describe(&x, buf, sizeof buf);
    ck_assert_str_eq(buf, "at least 1.20x lesson 5 at 2048x2048x2048");
    exercise_free(&x);
    parse_ok(full_exercise_with(11, ""), &x);
    exercise_goal_describe(&x, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    exercise_free(&x);
}
END_TEST

Suite *exercise_suite(void)
{
    Suite *s = suite_create("exercise");
    TCase *parse = tcase_create("exercise_parse");
    TCase *load = tcase_create("exercise_set_load");

    tcase_add_unchecked_fixture(parse, root_setup, root_teardown);
    tcase_add_checked_fixture(parse, scratch_setup, scratch_teardown);
    tcase_add_test(parse, test_exercise_full);
    tcase_add_test(parse, test_exercise_defaults);
    tcase_add_test(parse, test_exercise_predict);
    tcase_add_test(parse, test_exercise_uses_and_race_check);
    tcase_add_test(parse, test_exercise_missing_keys);
    tcase_add_test(parse, test_exercise_bad_values);
    tcase_add_test(parse, test_exercise_eight_sizes_and_hints);
    tcase_add_test(parse, test_exercise_bad_goal);
    tcase_add_test(parse, test_exercise_repeated_keys);
    tcase_add_test(parse, test_exercise_files);
    tcase_add_test(parse, test_exercise_solution_link_outside);
    tcase_add_test(parse, test_exercise_engine_host);
    tcase_add_test(parse, test_exercise_goal_describe);
    suite_add_tcase(s, parse);

    tcase_add_unchecked_fixture(load, lessons_setup, lessons_teardown);
    tcase_add_checked_fixture(load, scratch_setup, scratch_teardown);
    tcase_add_test(load, test_exercise_set_sorted);
    tcase_add_test(load, test_exercise_set_duplicate_number);
    tcase_add_test(load, test_exercise_set_same_start);
    tcase_add_test(load, test_exercise_set_unknown_lesson);
    tcase_add_test(load, test_exercise_set_unknown_versus);
    tcase_add_test(load, test_exercise_set_host_solution);
    tcase_add_test(load, test_exercise_set_malformed_file);
    tcase_add_test(load, test_exercise_set_empty_dir);
    tcase_add_test(load, test_exercise_set_no_dir);
    tcase_add_test(load, test_exercise_set_gap_file);
    tcase_add_test(load, test_exercise_set_shipped_gaps);
    suite_add_tcase(s, load);
    return s;
}
