/* unit_progress.c: the progress file and the check log: how a check moves an entry on, what
   is read back, and two writers at once. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scratch.h"
#include "units.h"
#include "engine/progress.h"

static char base_dir[64];
static char path[128];

static void setup(void)
{
    strcpy(base_dir, "/tmp/clmm-unit-progress-XXXXXX");
    ck_assert(mkdtemp(base_dir) != NULL);
    /* A directory that does not exist yet: progress_record makes it. */
    snprintf(path, sizeof path, "%s/state/clmm-tutor/progress", base_dir);
}

static void teardown(void)
{
    scratch_remove(base_dir);
}

/* Writes the progress file by hand, making its directory first. */
static void write_bytes(const char *p, const char *bytes, size_t n)
{
    char dir[128];
    FILE *f;

    snprintf(dir, sizeof dir, "%s/state", base_dir);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/state/clmm-tutor", base_dir);
    mkdir(dir, 0700);
    f = fopen(p, "w");

    ck_assert_msg(f != NULL, "cannot create %s", p);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

static void record(int exercise, enum progress_status status, double gflops, double ratio, double prediction,
                   struct progress *p)
{
    struct progress_check c = { .exercise = exercise, .status = status, .gflops = gflops, .ratio = ratio,
                                .prediction = prediction };
    struct error e;

    snprintf(c.verdict, sizeof c.verdict, "%s", status >= PROGRESS_VERIFIED ? "verified" : "wrong");
    snprintf(c.device, sizeof c.device, "Test device 1");
    error_init(&e);
    ck_assert_msg(progress_record(path, &c, p, &e) == 0, "%s", e.msg);
}

static int count_lines(const char *p)
{
    FILE *f = fopen(p, "r");
    int n = 0, c;

    ck_assert_msg(f != NULL, "cannot open %s", p);
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

START_TEST(test_missing_file)
{
    struct progress p;

    memset(&p, 0xff, sizeof p);
    progress_load(path, &p);
    for (int i = 0; i < PROGRESS_MAX_EXERCISES; i++) {
        ck_assert_int_eq(p.e[i].best, PROGRESS_NOT_STARTED);
        ck_assert_int_eq(p.e[i].last, PROGRESS_NOT_STARTED);
        ck_assert_int_eq(p.e[i].checks, 0);
        ck_assert(!p.e[i].solution_shown);
    }
    ck_assert_str_eq(progress_status_name(PROGRESS_NOT_STARTED), "not started");
    ck_assert_str_eq(progress_status_name(PROGRESS_VERIFIED), "verified");
}
END_TEST

/* best is the furthest status reached; last the newest; a later wrong check keeps best. */
START_TEST(test_record_best_and_last)
{
    struct progress p, again;

    record(3, PROGRESS_NOT_BUILT, 0, 0, 0, &p);
    ck_assert_int_eq(p.e[3].best, PROGRESS_NOT_BUILT);
    ck_assert_int_eq(p.e[3].last, PROGRESS_NOT_BUILT);
    record(3, PROGRESS_VERIFIED, 0, 0, 0, &p);
    ck_assert_int_eq(p.e[3].best, PROGRESS_VERIFIED);
    ck_assert_int_eq(p.e[3].last, PROGRESS_VERIFIED);
    record(3, PROGRESS_BUILDS, 0, 0, 0, &p);
    ck_assert_int_eq(p.e[3].best, PROGRESS_VERIFIED);
    ck_assert_int_eq(p.e[3].last, PROGRESS_BUILDS);
    ck_assert_int_eq(p.e[3].checks, 3);
    ck_assert(p.e[3].last_time > 0);
    ck_assert_int_eq(p.e[4].checks, 0);
    /* What the file holds is what was returned. */
    progress_load(path, &again);
    ck_assert_int_eq(again.e[3].best, PROGRESS_VERIFIED);
    ck_assert_int_eq(again.e[3].last, PROGRESS_BUILDS);
    ck_assert_int_eq(again.e[3].checks, 3);
    ck_assert_int_eq(again.e[3].last_time, p.e[3].last_time);
}
END_TEST

/* The best speed counts verified checks only: a wrong kernel can be fast. */
START_TEST(test_record_gflops_of_verified_only)
{
    struct progress p;

    record(5, PROGRESS_BUILDS, 900.0, 0, 0, &p);
    ck_assert_double_eq(p.e[5].best_gflops, 0.0);
    record(5, PROGRESS_VERIFIED, 50.5, 0, 0, &p);
    ck_assert_double_eq_tol(p.e[5].best_gflops, 50.5, 1e-9);
    record(5, PROGRESS_VERIFIED, 30.0, 0, 0, &p);
    ck_assert_double_eq_tol(p.e[5].best_gflops, 50.5, 1e-9);
    record(5, PROGRESS_DONE, 70.25, 0, 0, &p);
    ck_assert_double_eq_tol(p.e[5].best_gflops, 70.25, 1e-9);
    record(5, PROGRESS_NOT_BUILT, 1000.0, 0, 0, &p);
    ck_assert_double_eq_tol(p.e[5].best_gflops, 70.25, 1e-9);
    progress_load(path, &p);
    ck_assert_double_eq_tol(p.e[5].best_gflops, 70.25, 1e-9);
}
END_TEST

/* The newest ratio and prediction are kept; a check that measured none leaves them. */
START_TEST(test_record_ratio_and_prediction)
{
    struct progress p;

    record(2, PROGRESS_DONE, 10.0, 1.25, 2.0, &p);
    ck_assert_double_eq_tol(p.e[2].last_ratio, 1.25, 1e-9);
    ck_assert_double_eq_tol(p.e[2].prediction, 2.0, 1e-9);
    record(2, PROGRESS_VERIFIED, 0, 0, 0, &p);
    ck_assert_double_eq_tol(p.e[2].last_ratio, 1.25, 1e-9);
    ck_assert_double_eq_tol(p.e[2].prediction, 2.0, 1e-9);
    record(2, PROGRESS_DONE, 12.0, 0.8, 1.5, &p);
    ck_assert_double_eq_tol(p.e[2].last_ratio, 0.8, 1e-9);
    ck_assert_double_eq_tol(p.e[2].prediction, 1.5, 1e-9);
    progress_load(path, &p);
    ck_assert_double_eq_tol(p.e[2].last_ratio, 0.8, 1e-9);
    ck_assert_double_eq_tol(p.e[2].prediction, 1.5, 1e-9);
}
END_TEST

START_TEST(test_note_never_goes_back)
{
    struct progress p;
    struct error e;

    error_init(&e);
    ck_assert_msg(progress_note(path, 7, 2, false, &p, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(p.e[7].hints, 2);
    ck_assert(!p.e[7].solution_shown);
    ck_assert_int_eq(p.e[7].checks, 0);
    ck_assert(progress_note(path, 7, 1, true, &p, &e) == 0);
    ck_assert_int_eq(p.e[7].hints, 2);
    ck_assert(p.e[7].solution_shown);
    ck_assert(progress_note(path, 7, 3, false, &p, &e) == 0);
    ck_assert_int_eq(p.e[7].hints, 3);
    ck_assert(p.e[7].solution_shown);
    /* A check does not hide what was revealed. */
    record(7, PROGRESS_BUILDS, 0, 0, 0, &p);
    ck_assert_int_eq(p.e[7].hints, 3);
    ck_assert(p.e[7].solution_shown);
    progress_load(path, &p);
    ck_assert_int_eq(p.e[7].hints, 3);
    ck_assert(p.e[7].solution_shown);
    ck_assert_int_eq(p.e[7].best, PROGRESS_BUILDS);
    ck_assert(progress_note(path, 100, 1, false, &p, &e) < 0);
    ck_assert(progress_note(path, -1, 1, false, &p, &e) < 0);
}
END_TEST

/* Lines that do not parse in full are ignored; the others are read. */
START_TEST(test_load_ignores_malformed_lines)
{
    static const char text[] =
        "exercise 1 best=verified last=builds checks=4 gflops=12.5 ratio=0 prediction=0 hints=1 solution=0 "
        "time=100\n"
        "exercise 2 best=great last=builds checks=4\n"          /* an unknown status */
        "exercise 3 best=done last=done checks=x\n"             /* not a number */
        "exercise 4 best=done last=done colour=3\n"             /* an unknown key */
        "exercise 5 best=done last=done checks=-3\n"            /* negative */
        "exercise 100 best=done last=done checks=1\n"           /* out of range */
        "exercise -1 best=done last=done checks=1\n"
        "exercise 99999999999999999999 best=done checks=1\n"
        "lesson 6 best=done last=done checks=1\n"
        "exercise 7 best=done last=done checks\n"               /* no '=' */
        "exercise 8 best=done last=done checks=1e300\n"
        "exercise 9 best=done last=done checks=2\n";
    struct progress p;

    write_bytes(path, text, sizeof text - 1);
    progress_load(path, &p);
    ck_assert_int_eq(p.e[1].best, PROGRESS_VERIFIED);
    ck_assert_int_eq(p.e[1].last, PROGRESS_BUILDS);
    ck_assert_int_eq(p.e[1].checks, 4);
    ck_assert_double_eq_tol(p.e[1].best_gflops, 12.5, 1e-9);
    ck_assert_int_eq(p.e[1].hints, 1);
    ck_assert_int_eq(p.e[1].last_time, 100);
    for (int i = 2; i <= 8; i++) {
        ck_assert_msg(p.e[i].best == PROGRESS_NOT_STARTED && p.e[i].checks == 0, "line of exercise %d was read", i);
    }
    ck_assert_int_eq(p.e[0].checks, 0);
    ck_assert_int_eq(p.e[9].best, PROGRESS_DONE);
    ck_assert_int_eq(p.e[9].checks, 2);
}
END_TEST

/* A line with a NUL byte is not read (its text would end early and still parse). */
START_TEST(test_load_ignores_nul_bytes)
{
    static const char text[] = "exercise 1 best=done last=done checks=2\0 garbage\n"
                               "exercise 2 best=verified last=verified checks=1\n";
    struct progress p;

    write_bytes(path, text, sizeof text - 1);
    progress_load(path, &p);
    ck_assert_int_eq(p.e[1].best, PROGRESS_NOT_STARTED);
    ck_assert_int_eq(p.e[1].checks, 0);
    ck_assert_int_eq(p.e[2].best, PROGRESS_VERIFIED);
    ck_assert_int_eq(p.e[2].checks, 1);
}
END_TEST

/* A progress file that no longer parses is not an error: its lines are dropped on the next
   record, and the check is kept. */
START_TEST(test_record_over_malformed_file)
{
    struct progress p;

    write_bytes(path, "garbage\n\xff\xfe\n", 10);
    record(1, PROGRESS_VERIFIED, 0, 0, 0, &p);
    progress_load(path, &p);
    ck_assert_int_eq(p.e[1].best, PROGRESS_VERIFIED);
    ck_assert_int_eq(count_lines(path), 1);
}
END_TEST

/* The file is replaced, not written in place: nothing but the file, its log and its lock is
   left in the directory; the log has one line per check and none per note. */
START_TEST(test_files_left)
{
    char dir[128], log[160];
    struct progress p;
    struct dirent *de;
    struct error e;
    DIR *d;
    int entries = 0;

    error_init(&e);
    record(1, PROGRESS_BUILDS, 0, 0, 0, &p);
    record(1, PROGRESS_VERIFIED, 0, 0, 0, &p);
    record(2, PROGRESS_DONE, 5.0, 1.5, 2.0, &p);
    ck_assert(progress_note(path, 2, 1, true, &p, &e) == 0);
    snprintf(dir, sizeof dir, "%s/state/clmm-tutor", base_dir);
    d = opendir(dir);
    ck_assert(d != NULL);
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        entries++;
        ck_assert_msg(strcmp(de->d_name, "progress") == 0 || strcmp(de->d_name, "progress.log") == 0 ||
                      strcmp(de->d_name, "progress.lock") == 0, "left behind: %s", de->d_name);
    }
    closedir(d);
    ck_assert_int_eq(entries, 3);
    ck_assert_int_eq(count_lines(path), 2);
    snprintf(log, sizeof log, "%s.log", path);
    ck_assert_int_eq(count_lines(log), 3);
}
END_TEST

/* The log line names the exercise, the verdict and the device, with no space inside it. */
START_TEST(test_log_line)
{
    char log[160], line[512];
    struct progress p;
    FILE *f;

    record(4, PROGRESS_DONE, 5.5, 1.5, 2.0, &p);
    snprintf(log, sizeof log, "%s.log", path);
    f = fopen(log, "r");
    ck_assert(f != NULL);
    ck_assert(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    ck_assert_msg(strstr(line, " exercise=4 verdict=verified gflops=5.5 ratio=1.5 prediction=2 "
                               "device=Test_device_1\n") != NULL, "log line: %s", line);
}
END_TEST

/* Two processes recording at once: every check is counted (the lock serialises them). */
/* "N of M verified": counted over the exercises of the set only, at a status or beyond. */
START_TEST(test_count)
{
    struct exercise items[3];
    struct exercise_set set = { items, 3, NULL };
    struct progress p;

    memset(items, 0, sizeof items);
    memset(&p, 0, sizeof p);
    items[0].number = 1;
    items[1].number = 4;
    items[2].number = 7;
    p.e[1].best = PROGRESS_DONE;
    p.e[4].best = PROGRESS_VERIFIED;
    p.e[7].best = PROGRESS_BUILDS;
    p.e[9].best = PROGRESS_DONE;        /* not in the set */
    ck_assert_int_eq(progress_count(&p, &set, PROGRESS_VERIFIED), 2);
    ck_assert_int_eq(progress_count(&p, &set, PROGRESS_DONE), 1);
    ck_assert_int_eq(progress_count(&p, &set, PROGRESS_NOT_BUILT), 3);
}
END_TEST

START_TEST(test_two_writers)
{
    char log[160];
    struct progress p;
    pid_t child[2];

    for (int w = 0; w < 2; w++) {
        child[w] = fork();
        ck_assert(child[w] >= 0);
        if (child[w] == 0) {
            for (int i = 0; i < 50; i++) {
                struct progress_check c = { .exercise = 6, .status = PROGRESS_BUILDS };
                struct error e;
                error_init(&e);
                snprintf(c.verdict, sizeof c.verdict, "wrong");
                if (progress_record(path, &c, NULL, &e) < 0)
                    _exit(1);
            }
            _exit(0);
        }
    }
    for (int w = 0; w < 2; w++) {
        int status;
        ck_assert(waitpid(child[w], &status, 0) == child[w]);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    progress_load(path, &p);
    ck_assert_int_eq(p.e[6].checks, 100);
    snprintf(log, sizeof log, "%s.log", path);
    ck_assert_int_eq(count_lines(log), 100);
}
END_TEST

Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("progress");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_count);
    tcase_add_test(tc, test_record_best_and_last);
    tcase_add_test(tc, test_record_gflops_of_verified_only);
    tcase_add_test(tc, test_record_ratio_and_prediction);
    tcase_add_test(tc, test_note_never_goes_back);
    tcase_add_test(tc, test_load_ignores_malformed_lines);
    tcase_add_test(tc, test_load_ignores_nul_bytes);
    tcase_add_test(tc, test_record_over_malformed_file);
    tcase_add_test(tc, test_files_left);
    tcase_add_test(tc, test_log_line);
    tcase_add_test(tc, test_two_writers);
    suite_add_tcase(s, tc);
    return s;
}
