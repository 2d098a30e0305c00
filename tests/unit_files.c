/* unit_files.c: replacing a file through a temporary one, and what is removed beside it. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "scratch.h"
#include "units.h"
#include "engine/files.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/clmm-unit-files-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    scratch_remove(dir);
}

/* A file of dir, of that mode, last changed minutes ago. */
static void make_file(const char *name, mode_t mode, int minutes, char *path, size_t len)
{
    struct timeval when[2] = { { time(NULL) - 60 * minutes, 0 }, { time(NULL) - 60 * minutes, 0 } };
    FILE *f;

    snprintf(path, len, "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("the user's\n", f);
    fclose(f);
    ck_assert_int_eq(chmod(path, mode), 0);
    ck_assert_int_eq(utimes(path, when), 0);
}

static size_t files_in_dir(void)
{
    DIR *dh = opendir(dir);
    struct dirent *d;
    size_t n = 0;

    ck_assert_ptr_nonnull(dh);
    while ((d = readdir(dh)) != NULL)
        n += d->d_name[0] != '.';
    closedir(dh);
    return n;
}

static int write_chart(FILE *out, void *ctx)
{
    (void)ctx;
    return fputs("<svg/>\n", out) < 0 ? -1 : 0;
}

static int write_fails(FILE *out, void *ctx)
{
    (void)ctx;
    fputs("<svg", out);
    errno = ENOSPC;
    return -1;
}

/* --plot chart.svg once removed the user's chart.svg.Draft1, chart.svg.Ab12Cd and
   chart.svg.x1y2z3.tmp, older than ten minutes, taking them for temporaries that a killed
   write left: a file the user names is replaced, and nothing else beside it is touched,
   not even a file named like this tool's temporaries. */
START_TEST(test_files_replace_keeps_other_files)
{
    static const char *const others[] = { "chart.svg.Draft1", "chart.svg.Ab12Cd", "chart.svg.x1y2z3.tmp",
                                          "chart.svg.clmm-tutor-1-Ab12Cd.tmp" };
    char path[128], other[128], text[64];
    struct error e;
    FILE *f;

    make_file("chart.svg", 0644, 0, path, sizeof path);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        make_file(others[i], 0600, 20, other, sizeof other);
    error_init(&e);
    ck_assert_msg(file_replace(path, write_chart, NULL, &e) == 0, "%s", e.msg);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        snprintf(other, sizeof other, "%s/%s", dir, others[i]);
        ck_assert_msg(access(other, F_OK) == 0, "%s was removed", others[i]);
    }
    ck_assert_uint_eq(files_in_dir(), 1 + sizeof others / sizeof others[0]);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(text, sizeof text, f));
    fclose(f);
    ck_assert_str_eq(text, "<svg/>\n");
}
END_TEST

/* A write that fails leaves the file as it was and removes its own temporary file. */
START_TEST(test_files_replace_failure)
{
    char path[128];
    struct error e;

    make_file("chart.svg", 0644, 0, path, sizeof path);
    error_init(&e);
    ck_assert_int_lt(file_replace(path, write_fails, NULL, &e), 0);
    ck_assert_msg(strstr(e.msg, "cannot replace") != NULL, "%s", e.msg);
    ck_assert_uint_eq(files_in_dir(), 1);
}
END_TEST

/* Writing to a symbolic link reaches the file it leads to, as a shell's > does; a link that
   leads to nothing is said to be one, with where it points. */
START_TEST(test_files_write_target)
{
    char path[128], link[128], target[4096], real[4096], what[4300];
    struct error e;
    struct stat st;

    error_init(&e);
    make_file("chart.svg", 0644, 0, path, sizeof path);
    ck_assert_ptr_nonnull(realpath(path, real));
    snprintf(link, sizeof link, "%s/link.svg", dir);
    ck_assert_int_eq(symlink("chart.svg", link), 0);
    ck_assert_int_eq(files_write_target(link, target, sizeof target, &e), 0);
    ck_assert_str_eq(target, real);
    ck_assert_msg(file_replace(target, write_chart, NULL, &e) == 0, "%s", e.msg);
    ck_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    ck_assert(stat(link, &st) == 0 && st.st_size == 7);    /* "<svg/>\n" */
    ck_assert_int_eq(files_write_target(path, target, sizeof target, &e), 0);    /* not a link */
    ck_assert_str_eq(target, path);
    snprintf(path, sizeof path, "%s/new.svg", dir);
    ck_assert_int_eq(files_write_target(path, target, sizeof target, &e), 0);    /* not there yet */
    ck_assert_str_eq(target, path);
    /* To nothing, and round in a loop. */
    snprintf(link, sizeof link, "%s/dangling.svg", dir);
    ck_assert_int_eq(symlink("missing.svg", link), 0);
    ck_assert_int_lt(files_write_target(link, target, sizeof target, &e), 0);
    snprintf(what, sizeof what, "%s is a symbolic link to missing.svg, which does not exist", link);
    ck_assert_str_eq(e.msg, what);
    files_describe(link, what, sizeof what);
    ck_assert_str_eq(what, "a symbolic link to missing.svg, which does not exist");
    snprintf(link, sizeof link, "%s/loop.svg", dir);
    ck_assert_int_eq(symlink("loop.svg", link), 0);
    ck_assert_int_lt(files_write_target(link, target, sizeof target, &e), 0);
    ck_assert_msg(strstr(e.msg, "a symbolic link to loop.svg, which leads back to itself") != NULL, "%s", e.msg);
    files_describe(dir, what, sizeof what);
    ck_assert_str_eq(what, "a directory");
}
END_TEST

Suite *files_suite(void)
{
    Suite *s = suite_create("files");
    TCase *tc = tcase_create("files");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_files_replace_keeps_other_files);
    tcase_add_test(tc, test_files_replace_failure);
    tcase_add_test(tc, test_files_write_target);
    suite_add_tcase(s, tc);
    return s;
}
