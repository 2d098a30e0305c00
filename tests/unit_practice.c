/* unit_practice.c: the student's workspace: the start is copied once, never over their file,
   and a reset keeps their file as a numbered backup. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "units.h"
#include "engine/practice.h"

static const char start_text[] = "__kernel void gemm_naive(void) { /* TODO */ }\n";

/* A scratch directory for each test: BASE/start.cl, and an exercise that starts from it. */
static char base_dir[64];
static char start_path[128];
static struct exercise x;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    ck_assert_msg(f != NULL, "cannot create %s", path);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The file's text, or NULL when it cannot be read; the caller frees it. */
static char *read_text(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f)
        return NULL;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

static void assert_text(const char *path, const char *want)
{
    char *got = read_text(path);

    ck_assert_msg(got != NULL, "cannot read %s", path);
    ck_assert_str_eq(got, want);
    free(got);
}

static void setup(void)
{
    strcpy(base_dir, "/tmp/clmm-unit-practice-XXXXXX");
    ck_assert(mkdtemp(base_dir) != NULL);
    snprintf(start_path, sizeof start_path, "%s/start.cl", base_dir);
    write_text(start_path, start_text);
    memset(&x, 0, sizeof x);
    x.number = 4;
    x.start_file = start_path;
    x.start_name = "start.cl";
}

static void teardown(void)
{
    scratch_remove(base_dir);
}

/* The files of dir whose names start with a dot: temporary files left behind. */
static int hidden_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    ck_assert_msg(d != NULL, "cannot open %s", dir);
    while ((de = readdir(d)) != NULL)
        n += de->d_name[0] == '.' && strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

START_TEST(test_prepare_creates_workspace)
{
    char dir[200], path[300], want[300];
    bool created = false;
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/a/b/work", base_dir);
    ck_assert_msg(practice_prepare(dir, &x, path, sizeof path, &created, &e) == 0, "%s", e.msg);
    snprintf(want, sizeof want, "%s/start.cl", dir);
    ck_assert_str_eq(path, want);
    ck_assert(created);
    assert_text(path, start_text);
    ck_assert_int_eq(hidden_files(dir), 0);
    practice_file(dir, &x, want, sizeof want);
    ck_assert_str_eq(path, want);
}
END_TEST

START_TEST(test_prepare_keeps_student_file)
{
    char dir[200], path[300];
    bool created = true;
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/work", base_dir);
    ck_assert(practice_prepare(dir, &x, path, sizeof path, &created, &e) == 0);
    ck_assert(created);
    write_text(path, "my own kernel\n");
    ck_assert_msg(practice_prepare(dir, &x, path, sizeof path, &created, &e) == 0, "%s", e.msg);
    ck_assert(!created);
    assert_text(path, "my own kernel\n");
    ck_assert_int_eq(hidden_files(dir), 0);
}
END_TEST

/* A workspace that is a file is refused with a message, not taken for a student's file. */
START_TEST(test_prepare_workspace_not_a_directory)
{
    char dir[200], path[300];
    bool created = true;
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/plain", base_dir);
    write_text(dir, "a file\n");
    ck_assert(practice_prepare(dir, &x, path, sizeof path, &created, &e) < 0);
    ck_assert(!created);
    ck_assert_msg(strstr(e.msg, dir) != NULL, "message \"%s\" does not name %s", e.msg, dir);
}
END_TEST

START_TEST(test_reset_keeps_numbered_backups)
{
    char dir[200], path[300], backup[400], want[400];
    bool created;
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/work", base_dir);
    ck_assert(practice_prepare(dir, &x, path, sizeof path, &created, &e) == 0);
    write_text(path, "first try\n");
    ck_assert_msg(practice_reset(dir, &x, backup, sizeof backup, &e) == 0, "%s", e.msg);
    snprintf(want, sizeof want, "%s.~1~", path);
    ck_assert_str_eq(backup, want);
    assert_text(backup, "first try\n");
    assert_text(path, start_text);

    write_text(path, "second try\n");
    ck_assert_msg(practice_reset(dir, &x, backup, sizeof backup, &e) == 0, "%s", e.msg);
    snprintf(want, sizeof want, "%s.~2~", path);
    ck_assert_str_eq(backup, want);
    assert_text(backup, "second try\n");
    snprintf(want, sizeof want, "%s.~1~", path);
    assert_text(want, "first try\n");
    assert_text(path, start_text);
    ck_assert_int_eq(hidden_files(dir), 0);
}
END_TEST

START_TEST(test_reset_without_file)
{
    char dir[200], path[300], backup[400] = "stale";
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/new/work", base_dir);
    ck_assert_msg(practice_reset(dir, &x, backup, sizeof backup, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(backup, "");
    practice_file(dir, &x, path, sizeof path);
    assert_text(path, start_text);
    snprintf(backup, sizeof backup, "%s.~1~", path);
    ck_assert_int_ne(access(backup, F_OK), 0);
}
END_TEST

/* A file that holds the start already: nothing to keep, no backup made. */
START_TEST(test_reset_of_the_start)
{
    char dir[200], path[300], backup[400] = "stale";
    bool created;
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/work", base_dir);
    ck_assert(practice_prepare(dir, &x, path, sizeof path, &created, &e) == 0 && created);
    ck_assert_msg(practice_reset(dir, &x, backup, sizeof backup, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(backup, "");
    assert_text(path, start_text);
    snprintf(backup, sizeof backup, "%s.~1~", path);
    ck_assert_int_ne(access(backup, F_OK), 0);
}
END_TEST

/* A starting kernel that cannot be read: an error, and the student's file is untouched. */
START_TEST(test_reset_start_missing)
{
    char dir[200], path[300], backup[400];
    bool created;
    struct error e;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s/work", base_dir);
    ck_assert(practice_prepare(dir, &x, path, sizeof path, &created, &e) == 0);
    write_text(path, "mine\n");
    ck_assert_int_eq(remove(start_path), 0);
    ck_assert(practice_reset(dir, &x, backup, sizeof backup, &e) < 0);
    assert_text(path, "mine\n");
}
END_TEST

Suite *practice_suite(void)
{
    Suite *s = suite_create("practice");
    TCase *tc = tcase_create("workspace");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_prepare_creates_workspace);
    tcase_add_test(tc, test_prepare_keeps_student_file);
    tcase_add_test(tc, test_prepare_workspace_not_a_directory);
    tcase_add_test(tc, test_reset_keeps_numbered_backups);
    tcase_add_test(tc, test_reset_without_file);
    tcase_add_test(tc, test_reset_of_the_start);
    tcase_add_test(tc, test_reset_start_missing);
    suite_add_tcase(s, tc);
    return s;
}
