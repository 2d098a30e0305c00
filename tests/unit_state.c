/* unit_state.c: the file that remembers the last lesson, size and device. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "../src/state.h"

static char dir[64];

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

Suite *state_suite(void)
{
    Suite *s = suite_create("state");
    TCase *tc = tcase_create("state");

    tcase_add_test(tc, test_state_round_trip);
    tcase_add_test(tc, test_state_malformed);
    tcase_add_test(tc, test_state_partial);
    suite_add_tcase(s, tc);
    return s;
}
