/* unit_tune.c: the tuner's parameter space, its log path, and the file of tuned parameters. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "units.h"
#include "engine/lesson.h"
#include "engine/str.h"
#include "engine/tune.h"
#include "engine/tuned.h"

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

/* A switch is no part of the space: 3 x 4 configurations still, each with the switches at
   their defaults, and a configuration's index does not depend on them. */
START_TEST(test_tune_space_switches)
{
    static const char text[] =
        "lesson: 6\ntitle: Tiles\nsources: 003\nengine: host\n"
        "switch: PAD = 4 in 4, 0\nparam: TS = 16 in 8, 16, 32\n"
        "switch: VEC = 0 in 0, 1, 2\nparam: WPT = 4 in 1, 2, 4, 8\n---\n";
    static const long long ts[] = { 8, 16, 32 }, wpt[] = { 1, 2, 4, 8 };
    struct lesson l;
    struct param_set ps;
    struct error e;

    error_init(&e);
    ck_assert_msg(lesson_parse("s.lesson", text, NULL, &l, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(tune_space_size(&l), 12);
    for (size_t i = 0; i < 12; i++) {
        tune_space_get(&l, i, &ps);
        ck_assert_int_eq(ps.values[0], 4);
        ck_assert_int_eq(ps.values[1], ts[i / 4]);
        ck_assert_int_eq(ps.values[2], 0);
        ck_assert_int_eq(ps.values[3], wpt[i % 4]);
        ck_assert_uint_eq(tune_space_index(&l, &ps), i);
        ps.values[0] = 0;
        ps.values[2] = 2;
        ck_assert_uint_eq(tune_space_index(&l, &ps), i);
    }
    lesson_free(&l);
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

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int lines = 0;

    ck_assert_ptr_nonnull(f);
    while (fgets(line, sizeof line, f))
        lines++;
    fclose(f);
    return lines;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Saved per device, lesson and size; a new save replaces the entry of its size and keeps
   the others. */
START_TEST(test_tuned_round_trip)
{
    char path[128], command[256];
    struct param_set ps;
    struct tuned_entry got;
    struct error e;
    const struct gemm_size s = { 4096, 4096, 4096 };
    bool kept;

    error_init(&e);
    snprintf(path, sizeof path, "%s/sub/dir/tuned", dir);
    param_set_defaults(&tiles, &ps);
    ck_assert(!tuned_find(path, "gpu", &tiles, s, &got));    /* no file yet */
    ps.values[0] = 32;
    ps.values[1] = 8;
    ck_assert_msg(tuned_save(path, "gpu", &tiles, &ps, 1234.5, s, true, &kept, &e) == 0, "%s", e.msg);
    ck_assert(!kept);
    ps.values[0] = 8;
    ck_assert_msg(tuned_save(path, "cpu", &tiles, &ps, 12.5, s, true, &kept, &e) == 0, "%s", e.msg);
    ps.values[0] = 16;
    ck_assert_msg(tuned_save(path, "gpu", &tiles, &ps, 1300.0, s, false, &kept, &e) == 0, "%s", e.msg);

    ck_assert(tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[0], 16);
    ck_assert_int_eq(got.params.values[1], 8);
    ck_assert(got.gflops == 1300.0);
    ck_assert(got.size.m == 4096 && got.size.n == 4096 && got.size.k == 4096);
    ck_assert(!got.complete);
    ck_assert(tuned_find(path, "cpu", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[0], 8);
    ck_assert(got.complete);
    ck_assert(!tuned_find(path, "other", &tiles, s, &got));

    ck_assert_int_eq(count_lines(path), 2);
    /* Written by rename: beside it only the file and its lock, no temporary file. */
    snprintf(command, sizeof command, "test $(ls '%s/sub/dir' | wc -l) -eq 2", dir);
    ck_assert_int_eq(system(command), 0);
}
END_TEST

/* Tuning at 512 and at 4096 keeps both; each size gets its own. */
START_TEST(test_tuned_sizes)
{
    char path[128];
    struct param_set ps;
    struct tuned_entry got;
    struct error e;
    const struct gemm_size small = { 512, 512, 512 }, large = { 4096, 4096, 4096 };
    bool kept;

    error_init(&e);
    snprintf(path, sizeof path, "%s/tuned", dir);
    param_set_defaults(&tiles, &ps);
    ps.values[0] = 8;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 100.0, small, true, &kept, &e) == 0);
    ps.values[0] = 32;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 900.0, large, true, &kept, &e) == 0);
    ck_assert_int_eq(count_lines(path), 2);
    ck_assert(tuned_find(path, "gpu", &tiles, small, &got));
    ck_assert_int_eq(got.params.values[0], 8);
    ck_assert(tuned_find(path, "gpu", &tiles, large, &got));
    ck_assert_int_eq(got.params.values[0], 32);
    /* Again at 512: that entry alone is replaced. */
    ps.values[0] = 16;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 120.0, small, true, &kept, &e) == 0);
    ck_assert_int_eq(count_lines(path), 2);
    ck_assert(tuned_find(path, "gpu", &tiles, small, &got));
    ck_assert_int_eq(got.params.values[0], 16);
    ck_assert(tuned_find(path, "gpu", &tiles, large, &got));
    ck_assert_int_eq(got.params.values[0], 32);
}
END_TEST

/* A search stopped early does not replace a faster entry found at the same size; a
   complete one does; one at another size is added beside it. */
START_TEST(test_tuned_kept)
{
    char path[128];
    struct param_set ps;
    struct tuned_entry got;
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
    ck_assert(tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[0], 32);
    ck_assert(got.complete);
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 400.0, s, true, &kept, &e) == 0);
    ck_assert(!kept);
    ck_assert(tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[0], 8);
    ps.values[0] = 16;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 100.0, other, false, &kept, &e) == 0);
    ck_assert(!kept);
    ck_assert(tuned_find(path, "gpu", &tiles, other, &got));
    ck_assert_int_eq(got.params.values[0], 16);
    ck_assert(!got.complete);
    ck_assert(tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[0], 8);
}
END_TEST

/* Lines of the earlier format (no search field) count as complete; "partial" is read;
   a line whose fields do not parse is not an entry. */
START_TEST(test_tuned_formats)
{
    char path[128];
    struct tuned_entry got;
    const struct gemm_size s = { 64, 64, 64 };

    snprintf(path, sizeof path, "%s/tuned", dir);
    write_file(path, "6\told\tTS=8 WPT=2\t12.5\t64x64x64\t2026-01-01\n"
                     "6\tnew\tTS=32 WPT=1\t13.5\t64x64x64\t2026-01-02\tpartial\n"
                     "6\tnew2\tTS=32 WPT=2\t14.5\t64x64x64\t2026-01-02\tcomplete\n"
                     "6\tbad\tTS=32 WPT=1\t13.5\t64x64x64\t2026-01-02\tmaybe\n"
                     "6\tbad\tTS=8 WPT=1\tfast\t64x64x64\t2026-01-02\n"
                     "6\tbad\tTS=8 WPT=1\t1.0\t64x64\t2026-01-02\n"
                     "6\tbad\tTS=8 WPT=1\t1.0\t64x64x64\n");
    ck_assert(tuned_find(path, "old", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[0], 8);
    ck_assert_int_eq(got.params.values[1], 2);
    ck_assert(got.gflops == 12.5);
    ck_assert(got.size.m == 64 && got.size.n == 64 && got.size.k == 64);
    ck_assert(got.complete);
    ck_assert(tuned_find(path, "new", &tiles, s, &got));
    ck_assert_int_eq(got.params.values[1], 1);
    ck_assert(!got.complete);
    ck_assert(tuned_find(path, "new2", &tiles, s, &got));
    ck_assert(got.complete);
    ck_assert(!tuned_find(path, "bad", &tiles, s, &got));
}
END_TEST

/* Near: each of M, N and K at least half and at most twice the tuned one. */
START_TEST(test_tuned_near)
{
    const struct gemm_size t = { 1024, 512, 256 };

    ck_assert(tuned_near(t, t));
    ck_assert(tuned_near(t, (struct gemm_size){ 512, 1024, 512 }));
    ck_assert(tuned_near(t, (struct gemm_size){ 2048, 256, 128 }));
    ck_assert(!tuned_near(t, (struct gemm_size){ 2049, 512, 256 }));
    ck_assert(!tuned_near(t, (struct gemm_size){ 1024, 255, 256 }));
    ck_assert(!tuned_near(t, (struct gemm_size){ 1024, 512, 1024 }));
    ck_assert(!tuned_near(t, (struct gemm_size){ 4096, 4096, 4096 }));
}
END_TEST

/* The nearest entry by the logarithms of the sides; a near one before a less distant one
   that is not near; of two equally near, the one saved last. */
START_TEST(test_tuned_nearest)
{
    char path[128];
    struct tuned_entry got;

    snprintf(path, sizeof path, "%s/tuned", dir);
    write_file(path, "6\tgpu\tTS=8 WPT=1\t1.0\t256x256x256\t2026-01-01\tcomplete\n"
                     "6\tgpu\tTS=16 WPT=1\t1.0\t1024x1024x1024\t2026-01-01\tcomplete\n"
                     "6\tgpu\tTS=32 WPT=1\t1.0\t4096x4096x4096\t2026-01-01\tpartial\n"
                     "6\tgpu\tTS=8 WPT=2\t1.0\t1000x1000x2100\t2026-01-01\tcomplete\n"
                     "6\tgpu\tTS=8 WPT=4\t1.0\t1900x1900x1900\t2026-01-01\tcomplete\n");
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 300, 300, 300 }, &got));
    ck_assert_int_eq(got.params.values[0], 8);
    ck_assert_int_eq(got.params.values[1], 1);
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 700, 700, 700 }, &got));
    ck_assert_int_eq(got.params.values[0], 16);
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 3000, 3000, 3000 }, &got));
    ck_assert_int_eq(got.params.values[0], 32);
    /* 2048: 1024 and 4096 are as near, 1900 nearer. */
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 2048, 2048, 2048 }, &got));
    ck_assert_int_eq(got.params.values[1], 4);
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 1000, 1000, 1000 }, &got));
    ck_assert_int_eq(got.params.values[0], 16);
    /* 1000x1000x5000: none near; the least distant is given, and not near. */
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 1000, 1000, 5000 }, &got));
    ck_assert_int_eq(got.params.values[1], 2);
    ck_assert(!tuned_near(got.size, (struct gemm_size){ 1000, 1000, 5000 }));
    /* 1000x1000x1000 without 1024: 1000x1000x2100 is less distant than 1900x1900x1900 but
       not near. */
    write_file(path, "6\tgpu\tTS=8 WPT=2\t1.0\t1000x1000x2100\t2026-01-01\tcomplete\n"
                     "6\tgpu\tTS=8 WPT=4\t1.0\t1900x1900x1900\t2026-01-01\tcomplete\n");
    ck_assert(tuned_find(path, "gpu", &tiles, (struct gemm_size){ 1000, 1000, 1000 }, &got));
    ck_assert_int_eq(got.params.values[1], 4);
}
END_TEST

/* Of equally near entries, the one saved last; a save puts its entry last. */
START_TEST(test_tuned_tie)
{
    char path[128];
    struct param_set ps;
    struct tuned_entry got;
    struct error e;
    const struct gemm_size s512 = { 512, 512, 512 }, s2048 = { 2048, 2048, 2048 }, s1024 = { 1024, 1024, 1024 };
    bool kept;

    error_init(&e);
    snprintf(path, sizeof path, "%s/tuned", dir);
    param_set_defaults(&tiles, &ps);
    ps.values[0] = 8;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 1.0, s512, true, &kept, &e) == 0);
    ps.values[0] = 32;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 1.0, s2048, true, &kept, &e) == 0);
    ck_assert(tuned_find(path, "gpu", &tiles, s1024, &got));
    ck_assert_int_eq(got.params.values[0], 32);
    ps.values[0] = 16;
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 1.0, s512, true, &kept, &e) == 0);
    ck_assert(tuned_find(path, "gpu", &tiles, s1024, &got));
    ck_assert_int_eq(got.params.values[0], 16);
}
END_TEST

/* Lines that are not entries, and entries of other devices, lessons and sizes, are kept
   as they are when the file is rewritten. */
START_TEST(test_tuned_keeps_other_lines)
{
    static const char kept_lines[] =
        "not a line of this file\n"
        "6\tgpu\tTS=8 WPT=1\t1.0\t64x64x64\t2026-01-02\tmaybe\n"
        "6\tgpu\tTS=16 WPT=1\t7.0\t128x128x128\t2026-01-01\n"
        "6\tcpu\tTS=8 WPT=1\t3.0\t64x64x64\t2026-01-01\n"
        "5\tgpu\tTS=8\t3.0\t64x64x64\t2026-01-01\tpartial\n";
    static const char new_entry[] = "6\tgpu\tTS=16 WPT=4\t5.0\t64x64x64\t";
    char path[128], text[2048];
    struct param_set ps;
    struct error e;
    FILE *f;
    size_t n;
    bool kept;

    error_init(&e);
    snprintf(path, sizeof path, "%s/tuned", dir);
    snprintf(text, sizeof text, "%s6\tgpu\tTS=8 WPT=1\t2.0\t64x64x64\t2026-01-01\n", kept_lines);
    write_file(path, text);
    param_set_defaults(&tiles, &ps);
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 5.0, (struct gemm_size){ 64, 64, 64 }, false, &kept, &e) == 0);
    ck_assert(!kept);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_int_eq(strncmp(text, kept_lines, strlen(kept_lines)), 0);
    ck_assert_msg(strncmp(text + strlen(kept_lines), new_entry, strlen(new_entry)) == 0, "%s", text);
    ck_assert_str_eq(text + n - strlen("\tpartial\n"), "\tpartial\n");
    ck_assert_int_eq(count_lines(path), 6);
}
END_TEST

/* An entry whose values the lesson no longer allows is not used. */
START_TEST(test_tuned_stale_entry)
{
    char path[128];
    struct tuned_entry got;
    const struct gemm_size s = { 64, 64, 64 };

    snprintf(path, sizeof path, "%s/tuned", dir);
    write_file(path, "6\tgpu\tTS=64 WPT=8\t1.0\t64x64x64\t2026-01-01\n"
                     "6\tcpu\tTS=8 NOPE=1\t1.0\t64x64x64\t2026-01-01\n"
                     "not a line of this file\n");
    ck_assert(!tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert(!tuned_find(path, "cpu", &tiles, s, &got));
}
END_TEST

/* The whole file, malloc'd; its length in *len. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(1 << 16);

    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(buf);
    *len = fread(buf, 1, (1 << 16) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* A line holding a NUL byte is not an entry, and a rewrite keeps it byte for byte: the
   line after it is neither glued onto it nor lost (tests/hostile/files/tuned-nul). */
START_TEST(test_tuned_nul_byte)
{
    static const char new_entry[] = "6\tgpu\tTS=16 WPT=4\t5.0\t64x64x64\t";
    char path[128], command[512];
    char *before, *after;
    size_t before_len, after_len;
    struct param_set ps;
    struct tuned_entry got;
    struct error e;
    bool kept;

    snprintf(path, sizeof path, "%s/tuned", dir);
    snprintf(command, sizeof command, "cp '%s/tests/hostile/files/tuned-nul' '%s'", CLMM_SRCDIR, path);
    ck_assert_int_eq(system(command), 0);
    before = slurp(path, &before_len);
    /* The second line would be an entry at 256 if its NUL byte ended it. */
    ck_assert(!tuned_find(path, "gpu", &tiles, (struct gemm_size){ 256, 256, 256 }, &got));
    error_init(&e);
    param_set_defaults(&tiles, &ps);
    ck_assert_msg(tuned_save(path, "gpu", &tiles, &ps, 5.0, (struct gemm_size){ 64, 64, 64 }, true, &kept, &e) == 0,
                  "%s", e.msg);
    after = slurp(path, &after_len);
    ck_assert_uint_gt(after_len, before_len);
    ck_assert_msg(memcmp(before, after, before_len) == 0, "the lines before the new entry changed");
    ck_assert_msg(strncmp(after + before_len, new_entry, strlen(new_entry)) == 0, "%s", after + before_len);
    ck_assert_int_eq(count_lines(path), 4);
    ck_assert(tuned_find(path, "cpu", &tiles, (struct gemm_size){ 64, 64, 64 }, &got));
    ck_assert_int_eq(got.params.values[0], 8);
    free(before);
    free(after);
}
END_TEST

/* A FIFO, a device, or a file over TUNED_FILE_MAX at the file's path is not read (never
   waited on, never read without end) and not replaced. */
START_TEST(test_tuned_not_regular)
{
    char path[128];
    struct param_set ps;
    struct tuned_entry got;
    struct error e;
    struct stat st;
    const struct gemm_size s = { 64, 64, 64 };
    FILE *f;
    bool kept;

    snprintf(path, sizeof path, "%s/tuned", dir);
    param_set_defaults(&tiles, &ps);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert(!tuned_find(path, "gpu", &tiles, s, &got));
    error_init(&e);
    ck_assert_int_lt(tuned_save(path, "gpu", &tiles, &ps, 5.0, s, true, &kept, &e), 0);
    ck_assert_msg(strstr(e.msg, "is a FIFO (named pipe), not a regular file") && strstr(e.msg, "left as it is"),
                  "%s", e.msg);
    ck_assert(stat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    ck_assert_int_eq(unlink(path), 0);

    ck_assert_int_eq(symlink("/dev/zero", path), 0);
    ck_assert(!tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert_int_lt(tuned_save(path, "gpu", &tiles, &ps, 5.0, s, true, &kept, &e), 0);
    ck_assert_msg(strstr(e.msg, "is a character device, not a regular file"), "%s", e.msg);
    ck_assert_int_eq(unlink(path), 0);

    /* Past the limit by one byte (a sparse file): refused, and left whole. */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("6\tgpu\tTS=8 WPT=1\t2.0\t64x64x64\t2026-01-01\tcomplete\n", f);
    ck_assert_int_eq(ftruncate(fileno(f), (off_t)TUNED_FILE_MAX + 1), 0);
    fclose(f);
    ck_assert(!tuned_find(path, "gpu", &tiles, s, &got));
    ck_assert_int_lt(tuned_save(path, "gpu", &tiles, &ps, 5.0, s, true, &kept, &e), 0);
    ck_assert_msg(strstr(e.msg, "larger than the 16 MiB the file of tuned parameters may have"), "%s", e.msg);
    ck_assert(stat(path, &st) == 0 && st.st_size == (off_t)TUNED_FILE_MAX + 1);
}
END_TEST

/* Temporaries that a write killed before its rename left are removed by the next write
   (under the lock none can be another's); files of other names are kept, whoever made
   them: those of earlier versions could be a user's copies. */
START_TEST(test_tuned_stale_temporaries)
{
    static const struct {
        const char *name;
        mode_t mode;
        bool removed;
    } files[] = {
        { "tuned.clmm-tutor-4242-Ab3dEf.tmp", 0600, true },     /* this version's */
        { "tuned.Ab3dEf.tmp", 0644, false },    /* an earlier version's, or a user's */
        { "tuned.Xy9AbC", 0600, false },
        { "tuned.backup", 0600, false },
        { "tuned.clmm-tutor-4242-Ab3dEf.tmp.old", 0600, false },
        { "tuned.clmm-tutor-x-Ab3dEf.tmp", 0600, false },
        { "other.clmm-tutor-4242-Ab3dEf.tmp", 0600, false },    /* another file's */
    };
    char path[128], file[256];
    struct param_set ps;
    struct error e;
    bool kept;

    snprintf(path, sizeof path, "%s/tuned", dir);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(file, sizeof file, "%s/%s", dir, files[i].name);
        write_file(file, "6\tgpu\tTS=8 WPT=1\t2.0\t64x64x64\t2026-01-01\tcom");
        ck_assert_int_eq(chmod(file, files[i].mode), 0);
    }
    error_init(&e);
    param_set_defaults(&tiles, &ps);
    ck_assert_msg(tuned_save(path, "gpu", &tiles, &ps, 5.0, (struct gemm_size){ 64, 64, 64 }, true, &kept, &e) == 0,
                  "%s", e.msg);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(file, sizeof file, "%s/%s", dir, files[i].name);
        ck_assert_msg((access(file, F_OK) != 0) == files[i].removed, "%s: %s", files[i].name,
                      files[i].removed ? "left" : "removed");
    }
}
END_TEST

/* A rewrite keeps the mode the user gave the file; a new file is 0644. */
START_TEST(test_tuned_keeps_mode)
{
    char path[128];
    struct param_set ps;
    struct error e;
    struct stat st;
    bool kept;

    snprintf(path, sizeof path, "%s/tuned", dir);
    error_init(&e);
    param_set_defaults(&tiles, &ps);
    ck_assert(tuned_save(path, "gpu", &tiles, &ps, 5.0, (struct gemm_size){ 64, 64, 64 }, true, &kept, &e) == 0);
    ck_assert(stat(path, &st) == 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0644);
    ck_assert_int_eq(chmod(path, 0600), 0);
    ck_assert(tuned_save(path, "cpu", &tiles, &ps, 5.0, (struct gemm_size){ 64, 64, 64 }, true, &kept, &e) == 0);
    ck_assert(stat(path, &st) == 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(count_lines(path), 2);
}
END_TEST

/* ---- the log: appended after it was read, and an interrupted measurement ---- */

/* What a search showed, one step at a time. */
struct seen_steps {
    size_t count;
    size_t index[16];
    bool from_log[16];
    enum run_status status[16];
};

static void record_step(void *ctx, const struct tune_step *st)
{
    struct seen_steps *seen = ctx;

    ck_assert_uint_lt(seen->count, 16);
    seen->index[seen->count] = st->index;
    seen->from_log[seen->count] = st->from_log;
    seen->status[seen->count] = st->result->status;
    seen->count++;
}

/* Searches the host lesson "tiles" at 4x4x4 with a log in the fixture's directory; cancel
   may be NULL. */
static void search(size_t max_configs, const atomic_int *cancel, struct seen_steps *seen,
                   struct tune_result *res)
{
    struct tune_options to = { .max_configs = max_configs, .time_limit_s = 60.0 };
    struct workspace w;
    struct error e;
    char log[128];

    error_init(&e);
    measure_config_defaults(&to.measure);
    to.measure.reps = 1;
    to.measure.cancel = cancel;
    memset(seen, 0, sizeof *seen);
    snprintf(log, sizeof log, "%s/tune.log", dir);
    ck_assert_int_eq(workspace_init(&w, NULL, (struct gemm_size){ 4, 4, 4 }, 1, &e), 0);
    ck_assert_msg(tune_run(&w, &tiles, &to, log, record_step, seen, res, &e) == 0, "%s", e.msg);
    workspace_free(&w);
}

/* The log's lines after its header, NUL-separated in buf; returns how many. */
static size_t log_lines(char *buf, size_t len, const char **lines, size_t max)
{
    char path[128];
    FILE *f;
    size_t n, count = 0;

    snprintf(path, sizeof path, "%s/tune.log", dir);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    ck_assert_msg(n > 0 && buf[n - 1] == '\n', "the log ends with a whole line: \"%s\"", buf);
    for (char *line = strtok(buf, "\n"); line && count < max; line = strtok(NULL, "\n"))
        if (line[0] != '#')
            lines[count++] = line;
    return count;
}

/* A log whose last line was cut short (by a crash) is read, then written: the cut line stays
   a line of its own, and the outcomes of this run follow as whole lines. */
START_TEST(test_tune_log_cut_line)
{
    struct seen_steps seen;
    struct tune_result res;
    char path[128], buf[4096], tail[64];
    const char *lines[16];
    FILE *f;

    search(1, NULL, &seen, &res);               /* the header and the defaults: index 6 */
    tune_result_free(&res);
    snprintf(path, sizeof path, "%s/tune.log", dir);
    f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs("3\tok\t1.5", f);                     /* no reason, no newline: cut short */
    fclose(f);
    search(1, NULL, &seen, &res);
    ck_assert_uint_eq(res.measured, 1);
    ck_assert_uint_eq(seen.count, 2);           /* 6 from the log, then 0 measured */
    ck_assert(seen.from_log[0] && seen.index[0] == 6);
    ck_assert(!seen.from_log[1] && seen.index[1] == 0 && seen.status[1] == RUN_OK);
    tune_result_free(&res);
    ck_assert_uint_eq(log_lines(buf, sizeof buf, lines, 16), 5);
    ck_assert_str_eq(lines[0], "6\tstarted");
    ck_assert_str_eq(lines[2], "3\tok\t1.5");
    ck_assert_str_eq(lines[3], "0\tstarted");
    snprintf(tail, sizeof tail, "%.5s", lines[4]);
    ck_assert_str_eq(tail, "0\tok\t");
}
END_TEST

/* A configuration the previous run started and never ended is recorded as failed, after the
   log was read, as a whole line at its end. */
START_TEST(test_tune_log_unfinished)
{
    struct seen_steps seen;
    struct tune_result res;
    char path[128], buf[4096];
    const char *lines[16];
    FILE *f;

    search(1, NULL, &seen, &res);
    tune_result_free(&res);
    snprintf(path, sizeof path, "%s/tune.log", dir);
    f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs("2\tstarted\n", f);
    fclose(f);
    search(1, NULL, &seen, &res);
    ck_assert_uint_eq(seen.count, 3);
    ck_assert(seen.from_log[1] && seen.index[1] == 2 && seen.status[1] == RUN_ERROR);
    ck_assert(!seen.from_log[2] && seen.index[2] == 0);
    tune_result_free(&res);
    ck_assert_uint_eq(log_lines(buf, sizeof buf, lines, 16), 6);
    ck_assert_str_eq(lines[2], "2\tstarted");
    ck_assert_str_eq(lines[3], "2\terror\t0\tthe previous run ended while measuring this configuration");
    ck_assert_str_eq(lines[4], "0\tstarted");
}
END_TEST

/* An interrupted measurement is a cancellation: logged as such, and measured again by the
   next run, not taken for one that ended the program. */
START_TEST(test_tune_interrupted)
{
    struct seen_steps seen;
    struct tune_result res;
    atomic_int cancel;
    char buf[4096];
    const char *lines[16];

    atomic_init(&cancel, SIGINT);
    search(5, &cancel, &seen, &res);
    ck_assert(res.stopped_by_cancel);
    ck_assert(!res.complete);
    ck_assert_uint_eq(res.done, 0);
    ck_assert_uint_eq(seen.count, 0);
    tune_result_free(&res);
    ck_assert_uint_eq(log_lines(buf, sizeof buf, lines, 16), 2);
    ck_assert_str_eq(lines[0], "6\tstarted");
    ck_assert_str_eq(lines[1], "6\tcancelled");
    atomic_store(&cancel, 0);
    search(1, &cancel, &seen, &res);
    ck_assert_uint_eq(seen.count, 1);
    ck_assert(!seen.from_log[0] && seen.index[0] == 6 && seen.status[0] == RUN_OK);
    ck_assert_uint_eq(res.verified, 1);
    tune_result_free(&res);
}
END_TEST

/* A size beyond what the command line takes (here a number beyond 64 bits, found by the
   fuzzer) is not an entry: it used to overflow the nearness test. */
START_TEST(test_tuned_huge_size)
{
    char path[128];
    struct tuned_entry got;

    snprintf(path, sizeof path, "%s/tuned", dir);
    write_file(path, "6\tgpu\tTS=8 WPT=1\t1.0\t4096x4096x40978888888888888888888888\t2026-01-01\tcomplete\n"
                     "6\tgpu\tTS=8 WPT=1\t1.0\t4096x4096x70000\t2026-01-01\tcomplete\n");
    ck_assert(!tuned_find(path, "gpu", &tiles, (struct gemm_size){ 4096, 4096, 4096 }, &got));
}
END_TEST

Suite *tune_suite(void)
{
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tune");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_tune_space);
    tcase_add_test(tc, test_tune_space_switches);
    tcase_add_test(tc, test_tune_log_path);
    tcase_add_test(tc, test_tuned_path);
    tcase_add_test(tc, test_tuned_round_trip);
    tcase_add_test(tc, test_tuned_sizes);
    tcase_add_test(tc, test_tuned_kept);
    tcase_add_test(tc, test_tuned_formats);
    tcase_add_test(tc, test_tuned_near);
    tcase_add_test(tc, test_tuned_nearest);
    tcase_add_test(tc, test_tuned_tie);
    tcase_add_test(tc, test_tuned_keeps_other_lines);
    tcase_add_test(tc, test_tuned_stale_entry);
    tcase_add_test(tc, test_tuned_nul_byte);
    tcase_add_test(tc, test_tuned_not_regular);
    tcase_add_test(tc, test_tuned_stale_temporaries);
    tcase_add_test(tc, test_tuned_keeps_mode);
    tcase_add_test(tc, test_tuned_huge_size);
    tcase_add_test(tc, test_tune_log_cut_line);
    tcase_add_test(tc, test_tune_log_unfinished);
    tcase_add_test(tc, test_tune_interrupted);
    suite_add_tcase(s, tc);
    return s;
}
