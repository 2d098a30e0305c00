/* unit_tune.c: the tuner's parameter space, its log path, and the file of tuned parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "../src/lesson.h"
#include "../src/str.h"
#include "../src/tune.h"
#include "../src/tuned.h"

static const char tiles_lesson[] =
    "lesson: 6\ntitle: Tiles\nsources: 003\nengine: host\n"
    "param: TS = 16 in 8, 16, 32\nparam: WPT = 4 in 1, 2, 4, 8\n---\n";

static struct lesson tiles;
static char dir[64];

static void setup(void)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_parse("t.lesson", tiles_lesson, NULL, &tiles, &e) == 0, "%s", e.msg);
    snprintf(dir, sizeof dir, "/tmp/clmm-unit-tune-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char command[128];

    lesson_free(&tiles);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}

/* 3 x 4 configurations, the last parameter varying fastest. */
START_TEST(test_tune_space)
{
    struct param_set ps;

    ck_assert_uint_eq(tune_space_size(&tiles), 12);
    tune_space_get(&tiles, 0, &ps);
    ck_assert_int_eq(ps.values[0], 8);
    ck_assert_int_eq(ps.values[1], 1);
    tune_space_get(&tiles, 1, &ps);
    ck_assert_int_eq(ps.values[0], 8);
    ck_assert_int_eq(ps.values[1], 2);
    tune_space_get(&tiles, 6, &ps);
    ck_assert_int_eq(ps.values[0], 16);
    ck_assert_int_eq(ps.values[1], 4);
    tune_space_get(&tiles, 11, &ps);
    ck_assert_int_eq(ps.values[0], 32);
    ck_assert_int_eq(ps.values[1], 8);
    for (size_t i = 0; i < 12; i++) {
        tune_space_get(&tiles, i, &ps);
        ck_assert_uint_eq(tune_space_index(&tiles, &ps), i);
    }
    param_set_defaults(&tiles, &ps);        /* TS=16 WPT=4 */
    ck_assert_uint_eq(tune_space_index(&tiles, &ps), 6);
}
END_TEST

/* The log is under XDG_STATE_HOME, named after the device (as a file name), lesson and size. */
START_TEST(test_tune_log_path)
{
    char path[512];
    const struct gemm_size s = { 1000, 700, 300 };

    setenv("XDG_STATE_HOME", "/x/state", 1);
    ck_assert_int_eq(tune_log_path("NVIDIA H200 (GPU)", 9, s, path, sizeof path), 0);
    ck_assert_str_eq(path, "/x/state/clmm-tutor/tune/NVIDIA-H200--GPU--lesson-9-1000x700x300.log");
    unsetenv("XDG_STATE_HOME");
    setenv("HOME", "/home/u", 1);
    ck_assert_int_eq(tune_log_path("cpu", 1, s, path, sizeof path), 0);
    ck_assert_str_eq(path, "/home/u/.local/state/clmm-tutor/tune/cpu-lesson-1-1000x700x300.log");
}
END_TEST

START_TEST(test_tuned_path)
{
    char path[512];

    setenv("XDG_DATA_HOME", "/x/data", 1);
    ck_assert_int_eq(tuned_path(path, sizeof path), 0);
    ck_assert_str_eq(path, "/x/data/clmm-tutor/tuned");
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "/home/u", 1);
    ck_assert_int_eq(tuned_path(path, sizeof path), 0);
    ck_assert_str_eq(path, "/home/u/.local/share/clmm-tutor/tuned");
}
END_TEST

/* Saved per device and lesson; a new save replaces the entry and keeps the others. */
START_TEST(test_tuned_round_trip)
{
    char path[128], command[256];
    struct param_set ps, got;
    struct error e;
    const struct gemm_size s = { 4096, 4096, 4096 };
    bool kept;
    FILE *f;
    char line[256];
    int lines = 0;

    error_init(&e);
    snprintf(path, sizeof path, "%s/sub/dir/tuned", dir);
    param_set_defaults(&tiles, &ps);
    ck_assert(!tuned_load(path, "gpu", &tiles, &ps));    /* no file yet */
    ps.values[0] = 32;
    ps.values[1] = 8;
    ck_assert_msg(tuned_save(path, "gpu", &tiles, &ps, 1234.5, s, true, &kept, &e) == 0, "%s", e.msg);
    ck_assert(!kept);
    ps.values[0] = 8;
    ck_assert_msg(tuned_save(path, "cpu", &tiles, &ps, 12.5, s, true, &kept, &e) == 0, "%s", e.msg);
    ps.values[0] = 16;
    ck_assert_msg(tuned_save(path, "gpu", &tiles, &ps, 1300.0, s, true, &kept, &e) == 0, "%s", e.msg);

    param_set_defaults(&tiles, &got);
    ck_assert(tuned_load(path, "gpu", &tiles, &got));
    ck_assert_int_eq(got.values[0], 16);
    ck_assert_int_eq(got.values[1], 8);
    param_set_defaults(&tiles, &got);
    ck_assert(tuned_load(path, "cpu", &tiles, &got));
    ck_assert_int_eq(got.values[0], 8);
    ck_assert(!tuned_load(path, "other", &tiles, &got));

    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    while (fgets(line, sizeof line, f))
        lines++;
    fclose(f);
    ck_assert_int_eq(lines, 2);
    /* Written by rename: beside it only the file and its lock, no temporary file. */
    snprintf(command, sizeof command, "test $(ls '%s/sub/dir' | wc -l) -eq 2", dir);
    ck_assert_int_eq(system(command), 0);
}
END_TEST

/* A search stopped early does not replace a faster entry found at the same size; a
   complete one, or one at another size, does. */
START_TEST(test_tuned_kept)
{
    char path[128];
    struct param_set ps, got;
    struct error e;
    const struct gemm_size s = { 1024, 1024, 1024 }, other = { 2048, 2048, 2048 };
    bool kept;

    error_init(&e);
    snprintf(path, sizeof path, "%s/tuned", dir);
    param_set_defaults(&tiles, &ps);
    ps.values[0] = 32;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 500.0, s, true, &kept, &e) == 0);
    ps.values[0] = 8;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 400.0, s, false, &kept, &e) == 0);
    ck_assert(kept);
    param_set_defaults(&tiles, &got);
    ck_assert(tuned_load(path, "gpu", &tiles, &got));
    ck_assert_int_eq(got.values[0], 32);
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 400.0, s, true, &kept, &e) == 0);
    ck_assert(!kept);
    ck_assert(tuned_load(path, "gpu", &tiles, &got));
    ck_assert_int_eq(got.values[0], 8);
    ps.values[0] = 16;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 100.0, other, false, &kept, &e) == 0);
    ck_assert(!kept);
    ck_assert(tuned_load(path, "gpu", &tiles, &got));
    ck_assert_int_eq(got.values[0], 16);
}
END_TEST

/* An entry whose values the lesson no longer allows is not used. */
START_TEST(test_tuned_stale_entry)
{
    char path[128];
    struct param_set ps;
    FILE *f;

    snprintf(path, sizeof path, "%s/tuned", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("6\tgpu\tTS=64 WPT=8\t1.0\t64x64x64\t2026-01-01\n", f);
    fputs("6\tcpu\tTS=8 NOPE=1\t1.0\t64x64x64\t2026-01-01\n", f);
    fputs("not a line of this file\n", f);
    fclose(f);
    param_set_defaults(&tiles, &ps);
    ck_assert(!tuned_load(path, "gpu", &tiles, &ps));
    ck_assert(!tuned_load(path, "cpu", &tiles, &ps));
    ck_assert_int_eq(ps.values[0], 16);     /* left at the defaults */
    ck_assert_int_eq(ps.values[1], 4);
}
END_TEST

Suite *tune_suite(void)
{
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tune");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_tune_space);
    tcase_add_test(tc, test_tune_log_path);
    tcase_add_test(tc, test_tuned_path);
    tcase_add_test(tc, test_tuned_round_trip);
    tcase_add_test(tc, test_tuned_kept);
    tcase_add_test(tc, test_tuned_stale_entry);
    suite_add_tcase(s, tc);
    return s;
}
