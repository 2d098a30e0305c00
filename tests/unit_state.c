/* unit_state.c: the file that remembers the last lesson, size and device. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "units.h"
#include "engine/files.h"
#include "engine/state.h"

static char dir[64];

/* The tests link the engine statically, so every fsync of this program comes here first:
   a test can see that a directory was synced. Each test runs in a process of its own. */
static int directories_synced;

int fsync(int fd)
{
    struct stat st;

    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        directories_synced++;
    return (int)syscall(SYS_fsync, fd);
}

static void in_temp_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/clmm-state-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("XDG_STATE_HOME", dir, 1);
}

START_TEST(test_state_round_trip)
{
    struct tutor_state st = { true, true, true, 9, { 1000, 700, 300 }, "NVIDIA H200 (NVIDIA CUDA, GPU)" };
    struct tutor_state back;
    struct error e;
    char path[512];
    DIR *d;
    struct dirent *ent;
    int files = 0;

    in_temp_dir();
    error_init(&e);
    ck_assert_int_eq(state_path(path, sizeof path), 0);
    ck_assert_str_eq(path + strlen(dir), "/clmm-tutor/state");
    /* The directory is created; nothing but the file is left beside it. */
    ck_assert_int_eq(state_save(path, &st, &e), 0);
    st.lesson = 10;
    ck_assert_int_eq(state_save(path, &st, &e), 0);
    state_load(path, &back);
    ck_assert(back.has_lesson && back.has_size && back.has_device);
    ck_assert_int_eq(back.lesson, 10);
    ck_assert_int_eq(back.size.m, 1000);
    ck_assert_int_eq(back.size.n, 700);
    ck_assert_int_eq(back.size.k, 300);
    ck_assert_str_eq(back.device, st.device);
    *strrchr(path, '/') = '\0';
    d = opendir(path);
    ck_assert_ptr_nonnull(d);
    while ((ent = readdir(d)))
        files += ent->d_name[0] != '.';
    closedir(d);
    ck_assert_int_eq(files, 1);
}
END_TEST

/* Lines that do not parse are ignored; the others still count. */
START_TEST(test_state_malformed)
{
    struct tutor_state st;
    char path[512];
    FILE *f;

    in_temp_dir();
    snprintf(path, sizeof path, "%s/state", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    /* A side beyond what --size accepts is refused too. */
    fputs("lesson=nine\nsize=0x10x10\nfuture=1\ndevice=pthread-cpu\nsize 512\nsize=1x1x9999999999\n", f);
    fclose(f);
    state_load(path, &st);
    ck_assert(!st.has_lesson);
    ck_assert(!st.has_size);
    ck_assert(st.has_device);
    ck_assert_str_eq(st.device, "pthread-cpu");
    state_load("/nonexistent/state", &st);
    ck_assert(!st.has_lesson && !st.has_size && !st.has_device);
}
END_TEST

/* A field not set is not written. */
START_TEST(test_state_partial)
{
    struct tutor_state st = { true, false, false, 3, { 0, 0, 0 }, "" }, back;
    struct error e;
    char path[512];

    in_temp_dir();
    error_init(&e);
    snprintf(path, sizeof path, "%s/sub/state", dir);
    ck_assert_int_eq(state_save(path, &st, &e), 0);
    state_load(path, &back);
    ck_assert(back.has_lesson && !back.has_size && !back.has_device);
    ck_assert_int_eq(back.lesson, 3);
}
END_TEST

/* A FIFO, a device or an oversized file at the state file's path is not read: the state
   is empty, at once (a FIFO is not waited on, /dev/zero not read without end). */
START_TEST(test_state_not_regular)
{
    struct tutor_state st;
    char path[512];
    FILE *f;

    in_temp_dir();
    snprintf(path, sizeof path, "%s/state", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    state_load(path, &st);
    ck_assert(!st.has_lesson && !st.has_size && !st.has_device);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(symlink("/dev/zero", path), 0);
    state_load(path, &st);
    ck_assert(!st.has_lesson && !st.has_size && !st.has_device);
    ck_assert_int_eq(unlink(path), 0);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson=4\n", f);
    ck_assert_int_eq(ftruncate(fileno(f), STATE_FILE_MAX + 1), 0);
    fclose(f);
    state_load(path, &st);
    ck_assert(!st.has_lesson);
    /* At the limit it is read; a line holding a NUL byte does not count. */
    ck_assert_int_eq(truncate(path, STATE_FILE_MAX), 0);
    state_load(path, &st);
    ck_assert(st.has_lesson);
    ck_assert_int_eq(st.lesson, 4);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fwrite("device=a\0b\nlesson=5\n", 1, 20, f);
    fclose(f);
    state_load(path, &st);
    ck_assert(!st.has_device && st.has_lesson);
    ck_assert_int_eq(st.lesson, 5);
}
END_TEST

/* A rewrite keeps the file's mode, makes the rename durable (its directory is synced),
   and removes a temporary that a killed write left once it is old enough not to be
   another writer's; a file of another name, as old, is not the tool's and stays. */
START_TEST(test_state_rewrite)
{
    struct tutor_state st = { true, false, false, 3, { 0, 0, 0 }, "" };
    struct error e;
    struct stat sb;
    struct timeval old[2] = { { 0, 0 }, { 0, 0 } };
    char path[512], stale[600], fresh[600], other[600];

    in_temp_dir();
    error_init(&e);
    snprintf(path, sizeof path, "%s/clmm-tutor/state", dir);
    ck_assert_int_eq(state_save(path, &st, &e), 0);
    ck_assert(stat(path, &sb) == 0);
    ck_assert_uint_eq(sb.st_mode & 0777, 0644);
    ck_assert_int_eq(chmod(path, 0600), 0);
    snprintf(stale, sizeof stale, "%s.clmm-tutor-4242-Ab3dEf.tmp", path);
    snprintf(fresh, sizeof fresh, "%s.clmm-tutor-4243-Gh5iJk.tmp", path);
    snprintf(other, sizeof other, "%s.Ab3dEf.tmp", path);
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(i == 0 ? stale : i == 1 ? fresh : other, "w");
        ck_assert_ptr_nonnull(f);
        fputs("lesson=", f);
        fclose(f);
    }
    old[0].tv_sec = old[1].tv_sec = time(NULL) - 2 * FILES_STALE_SECONDS;
    ck_assert_int_eq(utimes(stale, old), 0);
    ck_assert_int_eq(utimes(other, old), 0);
    directories_synced = 0;
    ck_assert_int_eq(state_save(path, &st, &e), 0);
    ck_assert_int_eq(directories_synced, 1);
    ck_assert(stat(path, &sb) == 0);
    ck_assert_uint_eq(sb.st_mode & 0777, 0600);
    ck_assert(access(stale, F_OK) != 0);
    ck_assert(access(fresh, F_OK) == 0);
    ck_assert(access(other, F_OK) == 0);
}
END_TEST

Suite *state_suite(void)
{
    Suite *s = suite_create("state");
    TCase *tc = tcase_create("state");

    tcase_add_test(tc, test_state_round_trip);
    tcase_add_test(tc, test_state_malformed);
    tcase_add_test(tc, test_state_partial);
    tcase_add_test(tc, test_state_not_regular);
    tcase_add_test(tc, test_state_rewrite);
    suite_add_tcase(s, tc);
    return s;
}
