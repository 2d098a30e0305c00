/* excommands.c: the command-line modes of the exercises. */
#include "excommands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "engine/datadir.h"
#include "engine/fences.h"
#include "engine/files.h"
#include "engine/isolate.h"
#include "meter.h"
#include "engine/practice.h"
#include "engine/progress.h"
#include "engine/races.h"
#include "report.h"
#include "engine/str.h"
#include "engine/text.h"

int excommands_load(const struct options *opts, const struct lesson_set *lessons, struct exercise_set *set)
{
    char dir[4096];
    struct error e;

    error_init(&e);
    if (opts->exercises_dir)
        snprintf(dir, sizeof dir, "%s", opts->exercises_dir);
    else
        snprintf(dir, sizeof dir, "%s/exercises", datadir_get());
    if (exercise_set_load(dir, lessons, set, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    return EXIT_OK;
}

static void put_printable(FILE *out, const char *s)
{
    char *p = text_printable(s, true);
    fputs(p, out);
    free(p);
}

static const struct exercise *find_exercise(const struct exercise_set *set, int number)
{
    const struct exercise *x = exercise_set_find(set, number);
    struct str s;
    char numbers[400];

    if (!x) {
        str_init(&s, numbers, sizeof numbers);
        for (size_t i = 0; i < set->count; i++)
            str_appendf(&s, " ", "%d", set->items[i].number);
        fprintf(stderr, "clmm-tutor: there is no exercise %d (exercises: %s)\nTry 'clmm-tutor --exercises'.\n",
                number, numbers);
    }
    return x;
}

/* Asks a yes/no question on the terminal; false unless the answer starts with y. */
static bool confirm(const char *question)
{
    char answer[32];

    fprintf(stderr, "%s [y/N] ", question);
    fflush(stderr);
    if (!fgets(answer, sizeof answer, stdin))
        return false;
    return answer[0] == 'y' || answer[0] == 'Y';
}

/* ---- --exercises ---- */

static int list_exercises(const struct options *opts, const struct exercise_set *set)
{
    char path[4096], file[4200], goal[256];
    struct progress p;
    int verified, done;
    bool json = opts->format == FORMAT_JSON;

    if (progress_path(path, sizeof path) < 0)
        path[0] = '\0';
    if (path[0])
        progress_load(path, &p);
    else
        memset(&p, 0, sizeof p);
    verified = progress_count(&p, set, PROGRESS_VERIFIED);
    done = progress_count(&p, set, PROGRESS_DONE);
    if (json) {
        printf("{\"workspace\": ");
        report_json_string(stdout, practice_workspace(opts->workspace));
        printf(", \"progress_file\": ");
        report_json_string(stdout, path);
        printf(", \"total\": %zu, \"verified\": %d, \"done\": %d, \"exercises\": [", set->count, verified, done);
    } else {
        printf("Exercises (your files: %s/; GFLOPS: the best of a verified check)\n", practice_workspace(opts->workspace));
        printf("  #  lesson  %-29s %-20s %6s %8s\n", "title", "status", "checks", "GFLOPS");
    }
    for (size_t i = 0; i < set->count; i++) {
        const struct exercise *x = &set->items[i];
        const struct progress_entry *en = &p.e[x->number];
        char bestg[32] = "-";

        practice_file(practice_workspace(opts->workspace), x, file, sizeof file);
        exercise_goal_describe(x, goal, sizeof goal);
        if (en->best_gflops > 0)
            snprintf(bestg, sizeof bestg, "%.4g", en->best_gflops);
        if (json) {
            printf("%s\n  {\"number\": %d, \"lesson\": %d, \"title\": ", i ? "," : "", x->number, x->lesson);
            report_json_string(stdout, x->l.title);
            printf(", \"file\": ");
            report_json_string(stdout, file);
            printf(", \"goal\": ");
            report_json_string(stdout, goal);
            printf(", \"status\": ");
            report_json_string(stdout, progress_status_name(en->best));
            printf(", \"last_check\": ");
            report_json_string(stdout, progress_status_name(en->last));
            printf(", \"checks\": %d, \"best_gflops\": %.6g, \"hints_revealed\": %d, \"solution_shown\": %s}",
                   en->checks, en->best_gflops, en->hints, en->solution_shown ? "true" : "false");
        } else {
            /* 80 columns: a title longer than its 29 is cut with "...". */
            char *title = text_printable(x->l.short_title, false);
            bool longer = str_columns(title, strlen(title)) > 29;
            size_t cut = str_prefix(title, longer ? 26 : 29);
            int used = (int)str_columns(title, cut) + (longer ? 3 : 0);
            printf("%3d  %6d  %.*s%s%*s %-20s %6d %8s\n", x->number, x->lesson, (int)cut, title, longer ? "..." : "",
                   29 - used, "", progress_status_name(en->best), en->checks, bestg);
            free(title);
        }
    }
    if (json) {
        printf("\n]}\n");
        return EXIT_OK;
    }
    printf("\n%d of %zu exercises verified", verified, set->count);
    if (done != verified)
        printf(", %d with their speed goal reached", done);
    printf(".\n");
    /* Next: the first exercise not verified yet; once all are, the first short of its goal. */
    for (int want = PROGRESS_VERIFIED, found = 0; want <= PROGRESS_DONE && !found; want++)
        for (size_t i = 0; i < set->count && !found; i++)
            if ((int)p.e[set->items[i].number].best < want) {
                printf("Next: clmm-tutor --exercise %d   (or check a file: clmm-tutor --check %d)\n",
                       set->items[i].number, set->items[i].number);
                found = 1;
            }
    if (!path[0])
        printf("(Progress is not kept: neither XDG_STATE_HOME nor HOME is set.)\n");
    return EXIT_OK;
}

/* ---- --check ---- */

/* shipped: the file checked is the starting kernel as shipped (practice_as_shipped): the
   error map's guess at a cause gives way to the line that says so. */
static void print_size(FILE *out, const struct check_size *cs, bool utf8, bool shipped)
{
    char size[96], buf[512];

    snprintf(size, sizeof size, "%lldx%lldx%lld", cs->size.m, cs->size.n, cs->size.k);
    if (cs->verdict == CHECK_VERIFIED) {
        fprintf(out, "  %-16s verified: %d launches, max error %.2g (tolerance %.2g)\n", size, cs->launches,
                cs->max_error, cs->tolerance);
        return;
    }
    fprintf(out, "  %-16s %s: ", size, check_verdict_text(cs->verdict));
    put_printable(out, cs->message);
    fputc('\n', out);
    if (cs->verdict != CHECK_WRONG || cs->map.pattern == ERRMAP_NONE)
        return;
    errmap_summary(&cs->map, buf, sizeof buf);
    fprintf(out, "    %s\n", buf);
    if (!shipped) {
        errmap_hint(&cs->map, buf, sizeof buf);
        fprintf(out, "    Hint: %s\n", buf);
    }
    errmap_cells_describe(&cs->map, buf, sizeof buf);
    fprintf(out, "    C, %s (%s right, %s wrong, ? never written):\n", buf, utf8 ? "\u00b7" : ".",
            utf8 ? "\u2588" : "#");
    for (int row = 0; row < cs->map.grid_rows; row++) {
        errmap_draw_row(&cs->map, row, utf8, buf, sizeof buf);
        fprintf(out, "      %s\n", buf);
    }
}

static void print_speed(FILE *out, const struct check_report *r)
{
    char size[96];

    snprintf(size, sizeof size, "%lldx%lldx%lld", r->speed_size.m, r->speed_size.n, r->speed_size.k);
    switch (r->speed) {
    case CHECK_SPEED_NONE:
        return;
    case CHECK_SPEED_PREDICT_FIRST:
    case CHECK_SPEED_FAILED:
        fprintf(out, "Speed: ");
        put_printable(out, r->speed_message);
        fputc('\n', out);
        return;
    default:
        break;
    }
    fprintf(out, "Speed at %s (median of timed launches): your kernel %.4g GFLOPS, lesson %d %.4g GFLOPS: %.2fx\n",
            size, r->gflops, r->versus, r->versus_gflops, r->ratio);
    if (r->speed == CHECK_SPEED_PREDICTED)
        fprintf(out, "You predicted %.2fx; measured %.2fx (%s).\n", r->prediction, r->ratio,
                r->ratio >= r->prediction * 0.8 && r->ratio <= r->prediction * 1.25 ? "close"
                : r->ratio > r->prediction ? "faster than you expected" : "slower than you expected");
    else if (r->speed == CHECK_SPEED_MET)
        fprintf(out, "Target: at least %.2fx lesson %d: met.\n", r->target, r->versus);
    else if (r->speed == CHECK_SPEED_MISSED)
        fprintf(out, "Target: at least %.2fx lesson %d: not yet.\n", r->target, r->versus);
    else
        fprintf(out, "Target: at least %.2fx lesson %d: not judged.\n", r->target, r->versus);
    if (r->speed_message[0]) {
        fprintf(out, "  (");
        put_printable(out, r->speed_message);
        fprintf(out, ")\n");
    }
}

void excommands_print_check_header(FILE *out, const struct exercise *x, const char *file, const char *device)
{
    fprintf(out, "Exercise %d: ", x->number);
    put_printable(out, x->l.title);
    fprintf(out, " (lesson %d)\nFile: ", x->lesson);
    put_printable(out, file);
    fprintf(out, "\nDevice: ");
    put_printable(out, device);
    fputc('\n', out);
}

void excommands_print_check(FILE *out, const struct check_report *r, const struct exercise *x, bool utf8)
{
    excommands_print_check_header(out, x, r->file, r->device);
    excommands_print_check_body(out, r, x, utf8);
}

void excommands_print_check_body(FILE *out, const struct check_report *r, const struct exercise *x, bool utf8)
{
    int shipped = check_as_shipped(r, x);

    if (shipped > 0)
        fprintf(out, "Your file is the starting kernel as shipped: fill the gap marked TODO (line %d) first.\n",
                shipped);
    else if (shipped < 0)
        fprintf(out, "Your file is the starting kernel as shipped: change it as the task says first.\n");
    if (r->verdict == CHECK_NOT_BUILT) {
        fprintf(out, "Does not build");
        if (r->build_line > 0)
            fprintf(out, " (first error on line %d)", r->build_line);
        fprintf(out, ":\n");
        if (r->build_log)
            put_printable(out, r->build_log);
        else
            put_printable(out, r->message);
        fputc('\n', out);
    } else if ((r->verdict == CHECK_FAILED || r->verdict == CHECK_TIMEOUT || r->verdict == CHECK_CRASHED) &&
               r->nsizes == 0) {
        put_printable(out, r->message);
        fputc('\n', out);
    } else {
        fprintf(out, "Builds. Each size is checked over %d launches on the same inputs:\n", x->repeat);
        for (size_t i = 0; i < r->nsizes; i++)
            print_size(out, &r->sizes[i], utf8, shipped != 0);
        for (size_t i = r->nsizes; i < r->sizes_total; i++) {
            char size[96];
            snprintf(size, sizeof size, "%lldx%lldx%lld", x->sizes[i].m, x->sizes[i].n, x->sizes[i].k);
            fprintf(out, "  %-16s not checked\n", size);
        }
        if ((r->verdict == CHECK_WRONG || r->verdict == CHECK_FENCE) && r->nsizes > 0 &&
            r->sizes[r->nsizes - 1].verdict == CHECK_VERIFIED) {
            fprintf(out, "  ");
            put_printable(out, r->message);
            fputc('\n', out);
        }
        print_speed(out, r);
        if (r->races != RACES_NOT_RUN) {
            fprintf(out, "Under oclgrind (one launch): ");
            put_printable(out, r->races_message);
            fputc('\n', out);
        }
        if (r->barrier_note && (r->races == RACES_NOT_RUN || r->races == RACES_UNAVAILABLE ||
                                r->races == RACES_FAILED))
            fprintf(out, "Note: on this CPU device the work-items of a group run one after another, which hides "
                         "most missing barriers: verified here is no proof that the kernel is free of races "
                         "(a GPU, or oclgrind --data-races, shows them).\n");
    }
    if (check_passed(r))
        fprintf(out, "Result: verified%s.\n", r->speed == CHECK_SPEED_MET ? ", target met"
                                               : r->speed == CHECK_SPEED_PREDICTED ? ", prediction measured"
                                               : r->speed == CHECK_SPEED_NOT_JUDGED
                                                   ? "; the target waits for a GPU (not judged on this device)"
                                                   : "");
    else if (r->verdict == CHECK_VERIFIED)
        fprintf(out, "Result: verified; %s.\n", r->speed == CHECK_SPEED_PREDICT_FIRST ? "now predict, then measure"
                                               : r->speed == CHECK_SPEED_FAILED ? "the speed could not be measured"
                                               : "the speed goal is not reached yet");
    else
        fprintf(out, "Result: not verified yet (%s).\n", check_verdict_text(r->verdict));
    if (!check_passed(r) && x->nhints > 0 && r->verdict != CHECK_VERIFIED)
        fprintf(out, "Stuck? clmm-tutor --hint %d reveals a hint (%zu in all; in the tutor, its hint key).\n",
                x->number, x->nhints);
}

static void json_size(FILE *out, const struct gemm_size *s)
{
    fprintf(out, "\"%lldx%lldx%lld\"", s->m, s->n, s->k);
}

static void json_double(FILE *out, const char *key, double v, bool known)
{
    fprintf(out, ", \"%s\": ", key);
    if (known)
        fprintf(out, "%.6g", v);
    else
        fputs("null", out);
}

void excommands_print_check_json(FILE *out, const struct check_report *r, const struct exercise *x)
{
    static const char *const races_states[] = { "not-run", "none", "races", "bad-access", "unavailable",
                                                "failed" };
    static const char *const speeds[] = { "none", "met", "missed", "not-judged", "predict-first", "predicted",
                                          "failed" };
    bool measured = r->gflops > 0;
    int shipped = check_as_shipped(r, x);

    fprintf(out, "{\"exercise\": %d, \"title\": ", r->exercise);
    report_json_string(out, r->title);
    fprintf(out, ", \"file\": ");
    report_json_string(out, r->file);
    fprintf(out, ", \"device\": ");
    report_json_string(out, r->device);
    fprintf(out, ", \"verdict\": \"%s\", \"passed\": %s, \"as_shipped\": %s, \"todo_line\": ",
            check_verdict_name(r->verdict), check_passed(r) ? "true" : "false", shipped ? "true" : "false");
    if (shipped > 0)
        fprintf(out, "%d", shipped);
    else
        fputs("null", out);
    fprintf(out, ", \"message\": ");
    report_json_string(out, r->message);
    fprintf(out, ", \"build_log\": ");
    if (r->build_log)
        report_json_string(out, r->build_log);
    else
        fputs("null", out);
    fprintf(out, ", \"build_line\": %d, \"sizes\": [", r->build_line);
    for (size_t i = 0; i < r->nsizes; i++) {
        const struct check_size *cs = &r->sizes[i];
        fprintf(out, "%s\n  {\"size\": ", i ? "," : "");
        json_size(out, &cs->size);
        fprintf(out, ", \"verdict\": \"%s\", \"launches\": %d", check_verdict_name(cs->verdict), cs->launches);
        json_double(out, "max_error", cs->max_error, true);
        json_double(out, "tolerance", cs->tolerance, true);
        fprintf(out, ", \"message\": ");
        report_json_string(out, cs->message);
        fprintf(out, ", \"error_pattern\": ");
        if (cs->map.pattern != ERRMAP_NONE && cs->verdict == CHECK_WRONG) {
            report_json_string(out, errmap_pattern_name(cs->map.pattern));
            fprintf(out, ", \"wrong_elements\": %lld, \"unwritten_elements\": %lld, \"map\": [", cs->map.wrong,
                    cs->map.unwritten);
            for (int row = 0; row < cs->map.grid_rows; row++) {
                char buf[3 * ERRMAP_MAX_COLS + 1];
                errmap_draw_row(&cs->map, row, false, buf, sizeof buf);
                fprintf(out, "%s", row ? ", " : "");
                report_json_string(out, buf);
            }
            fprintf(out, "]");
        } else {
            fputs("null", out);
        }
        fprintf(out, ", \"differing_elements\": %lld}", cs->differing);
    }
    fprintf(out, "%s], \"speed\": {\"state\": \"%s\", \"size\": ", r->nsizes ? "\n" : "", speeds[r->speed]);
    if (r->speed_size.m > 0)
        json_size(out, &r->speed_size);
    else
        fputs("null", out);
    fprintf(out, ", \"versus_lesson\": ");
    if (r->speed_size.m > 0)
        fprintf(out, "%d", r->versus);
    else
        fputs("null", out);
    json_double(out, "gflops", r->gflops, measured);
    json_double(out, "versus_gflops", r->versus_gflops, measured);
    json_double(out, "ratio", r->ratio, measured);
    json_double(out, "target", r->target, r->target > 0);
    json_double(out, "prediction", r->prediction, r->prediction > 0);
    fprintf(out, ", \"emulated\": %s, \"message\": ", r->emulated ? "true" : "false");
    report_json_string(out, r->speed_message);
    fprintf(out, "}, \"races_may_hide\": %s, \"oclgrind\": {\"state\": \"%s\", \"message\": ",
            r->barrier_note && r->races != RACES_NONE ? "true" : "false", races_states[r->races]);
    report_json_string(out, r->races_message);
    fprintf(out, "}}\n");
}

/* The student's file: FILE, or the workspace's, created from the start when absent. */
static int student_file(const struct options *opts, const struct exercise *x, char *path, size_t len)
{
    struct error e;
    bool created;

    error_init(&e);
    if (opts->check_file) {
        snprintf(path, len, "%s", opts->check_file);
        return EXIT_OK;
    }
    if (practice_prepare(practice_workspace(opts->workspace), x, path, len, &created, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    if (created)
        fprintf(stderr, "clmm-tutor: created %s from the starting kernel of exercise %d: edit it, then check "
                        "again\n", path, x->number);
    return EXIT_OK;
}

static void record(const struct check_report *r)
{
    char path[4096];
    struct progress_check c;
    struct error e;

    error_init(&e);
    if (r->verdict == CHECK_CANCELLED || progress_path(path, sizeof path) < 0)
        return;
    check_progress(r, &c);
    if (progress_record(path, &c, NULL, &e) < 0)
        fprintf(stderr, "clmm-tutor: your progress was not saved: %s\n", e.msg);
}

/* path is the student's file of x in the workspace (the same file, whatever the path). */
static bool is_workspace_file(const struct options *opts, const struct exercise *x, const char *path)
{
    char own[4200];
    struct stat a, b;

    practice_file(practice_workspace(opts->workspace), x, own, sizeof own);
    return stat(path, &a) == 0 && stat(own, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The progress line of a check on a terminal: the step, its time, its limit. */
struct check_line {
    struct meter meter;
    int lesson;                 /* the exercise's */
    char step[160];
    double allowed_s;
    bool drawn_now;             /* a new step: drawn at once */
};

static void line_waiting(void *ctx, const struct check_step *st, double elapsed_s);

static void line_step(void *ctx, struct check_step *st)
{
    struct check_line *cl = ctx;

    check_step_describe(st, cl->lesson, cl->step, sizeof cl->step);
    cl->allowed_s = st->allowed_s;
    line_waiting(cl, st, 0.0);
}

static void line_waiting(void *ctx, const struct check_step *st, double elapsed_s)
{
    struct check_line *cl = ctx;
    char text[300];

    cl->drawn_now = elapsed_s == 0.0;
    if (cl->allowed_s > 0 && st->kind == CHECK_STEP_LAUNCH)
        snprintf(text, sizeof text, "checking: %s... %.0f s (limit %.0f s; Ctrl-C stops it)", cl->step,
                 elapsed_s, cl->allowed_s);
    else
        snprintf(text, sizeof text, "checking: %s... %.0f s (Ctrl-C stops it)", cl->step, elapsed_s);
    meter_show(&cl->meter, text, cl->drawn_now);
}

/* The check of x on the device of the options, in a child process (isolate.h), with a
   progress line on a terminal and Ctrl-C to stop it. */
static int run_isolated(const struct options *opts, const struct lesson_set *lessons, const struct exercise *x,
                        struct check_options *co, struct check_report *r)
{
    struct sigaction old[CLI_INTERRUPTS];
    struct device_list list;
    const struct device_info *d;
    struct check_line line;
    struct isolate *iso;
    struct error e;
    char device[600];
    int status, rc;

    if ((status = cli_select_device(opts, &list, &d)) != EXIT_OK)
        return status;
    error_init(&e);
    device_describe(d, device, sizeof device);
    if (opts->format != FORMAT_JSON) {
        excommands_print_check_header(stdout, x, co->file, device);
        fflush(stdout);
    }
    memset(&line, 0, sizeof line);
    meter_init(&line.meter, stderr);
    line.lesson = x->lesson;
    co->step = line_step;
    co->waiting = line_waiting;
    co->step_ctx = &line;
    co->measure.cancel = cli_catch_interrupts(old, "\nclmm-tutor: interrupted: the check stops now\n");
    iso = isolate_new(NULL, NULL);
    rc = isolate_check(iso, d, x, lessons, co, opts->check_timeout_s, r, &e);
    isolate_free(iso);
    if (rc == 0) {
        races_run(x, lessons, co, opts->races, r);
        fences_run(x, co, r);
    }
    meter_clear(&line.meter);
    device_list_free(&list);
    if (rc == 0 && r->verdict == CHECK_CANCELLED) {
        fprintf(stderr, "clmm-tutor: the check of exercise %d was stopped while %s; its kernel was ended, and "
                        "nothing is recorded\n", x->number, line.step[0] ? line.step : "starting");
        check_report_free(r);
        cli_release_interrupts(old);   /* ends the program as the signal does */
        return EXIT_RUN_FAILED;
    }
    cli_release_interrupts(old);
    return rc < 0 ? cli_fail(EXIT_ENVIRONMENT, &e) : EXIT_OK;
}

static int check(const struct options *opts, const struct lesson_set *lessons, const struct exercise *x)
{
    struct check_options co = { 0 };
    struct check_report r;
    struct error e;
    char path[4200];
    size_t len;
    char *text;
    int status;

    error_init(&e);
    if (opts->has_prediction && x->speed != SPEED_PREDICT) {
        fprintf(stderr, "clmm-tutor: --predict: exercise %d has no \"predict, then measure\" step\n"
                        "Try 'clmm-tutor --exercises'.\n", x->number);
        return EXIT_USAGE;
    }
    if ((status = student_file(opts, x, path, sizeof path)) != EXIT_OK)
        return status;
    /* A file that cannot be read is the caller's mistake: said before the device opens (and,
       for an autograder, as JSON too). */
    if (!(text = files_read(path, LESSON_KERNEL_MAX, "your kernel", &len, &e))) {
        if (opts->format == FORMAT_JSON) {
            printf("{\"exercise\": %d, \"file\": ", x->number);
            report_json_string(stdout, path);
            printf(", \"verdict\": \"unreadable\", \"passed\": false, \"message\": ");
            report_json_string(stdout, e.msg);
            printf("}\n");
        }
        return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    free(text);
    co.file = path;
    co.has_prediction = opts->has_prediction;
    co.prediction = opts->prediction;
    co.speed_size_given = opts->size_given;
    co.speed_size = opts->sizes[0];
    co.measure = opts->measure;
    if ((status = run_isolated(opts, lessons, x, &co, &r)) != EXIT_OK)
        return status;
    if (opts->format == FORMAT_JSON)
        excommands_print_check_json(stdout, &r, x);
    else
        excommands_print_check_body(stdout, &r, x, false);
    /* Progress is the student's: the checks of their workspace file. A teacher's
       --check N FILE of someone else's work leaves it alone. */
    if (is_workspace_file(opts, x, path))
        record(&r);
    else if (opts->format != FORMAT_JSON)
        printf("(Not recorded in your progress: %s is not your file of exercise %d in the workspace.)\n",
               path, x->number);
    status = check_passed(&r) ? EXIT_OK : EXIT_RUN_FAILED;
    check_report_free(&r);
    return status;
}

/* ---- --reset and --solution ---- */

static int reset(const struct options *opts, const struct exercise *x)
{
    char path[4200], backup[4300], question[8800];
    struct error e;

    error_init(&e);
    practice_file(practice_workspace(opts->workspace), x, path, sizeof path);
    if (access(path, F_OK) == 0 && !opts->yes) {
        if (!isatty(STDIN_FILENO)) {
            fprintf(stderr, "clmm-tutor: --reset %d replaces %s with the starting kernel (yours is kept as a "
                            "numbered backup): add --yes to do it without a terminal to ask on\n", x->number, path);
            return EXIT_USAGE;
        }
        snprintf(question, sizeof question, "Put the starting kernel of exercise %d back in %s? Your file is "
                                            "kept as %s.~N~.", x->number, path, path);
        if (!confirm(question)) {
            fprintf(stderr, "clmm-tutor: nothing changed\n");
            return EXIT_OK;
        }
    }
    if (practice_reset(practice_workspace(opts->workspace), x, backup, sizeof backup, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    if (backup[0])
        printf("%s holds the starting kernel of exercise %d again; your file is kept as %s.\n", path, x->number,
               backup);
    else
        printf("%s holds the starting kernel of exercise %d.\n", path, x->number);
    return EXIT_OK;
}

static int solution(const struct options *opts, const struct lesson_set *lessons, const struct exercise *x)
{
    char path[4096], question[256];
    struct progress p;
    struct lesson sol;
    struct error e;
    size_t len;
    char *text;

    error_init(&e);
    if (progress_path(path, sizeof path) < 0) {
        fprintf(stderr, "clmm-tutor: the solution is shown after a check, and checks are not remembered here "
                        "(neither XDG_STATE_HOME nor HOME is set)\n");
        return EXIT_ENVIRONMENT;
    }
    progress_load(path, &p);
    if (p.e[x->number].checks == 0) {
        fprintf(stderr, "clmm-tutor: check your own kernel first (clmm-tutor --check %d); the solution is "
                        "shown after at least one check\n", x->number);
        return EXIT_RUN_FAILED;
    }
    if (!opts->yes && isatty(STDIN_FILENO)) {
        snprintf(question, sizeof question, "Show the solution of exercise %d?", x->number);
        if (!confirm(question)) {
            fprintf(stderr, "clmm-tutor: not shown\n");
            return EXIT_OK;
        }
    }
    exercise_solution_lesson(x, lessons, &sol);
    if (!(text = files_read(sol.kernel_file, LESSON_KERNEL_MAX, "the solution", &len, &e)))
        return cli_fail(EXIT_ENVIRONMENT, &e);
    printf("==== solution of exercise %d: %s ====\n", x->number, sol.kernel_file);
    put_printable(stdout, text);
    if (len && text[len - 1] != '\n')
        putchar('\n');
    free(text);
    if (progress_note(path, x->number, 0, true, NULL, &e) < 0)
        fprintf(stderr, "clmm-tutor: %s\n", e.msg);
    return EXIT_OK;
}

/* ---- --hint ---- */

/* The first shown hints of x, each on a line. */
static void print_hints(const struct exercise *x, int shown)
{
    for (int i = 0; i < shown && i < (int)x->nhints; i++) {
        printf("Hint %d of %zu: ", i + 1, x->nhints);
        put_printable(stdout, x->hints[i]);
        putchar('\n');
    }
}

static int hint(const struct exercise *x)
{
    char path[4096];
    struct progress p;
    struct error e;
    int shown = (int)x->nhints;

    error_init(&e);
    if (x->nhints == 0) {
        printf("Exercise %d has no hints.\n", x->number);
        return EXIT_OK;
    }
    if (progress_path(path, sizeof path) < 0) {
        fprintf(stderr, "clmm-tutor: neither XDG_STATE_HOME nor HOME is set: every hint is shown, none "
                        "remembered\n");
    } else {
        /* One more than before, kept. */
        progress_load(path, &p);
        if (p.e[x->number].hints < shown)
            shown = p.e[x->number].hints + 1;
        if (shown > p.e[x->number].hints && progress_note(path, x->number, shown, false, NULL, &e) < 0)
            return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    print_hints(x, shown);
    if (shown == (int)x->nhints)
        printf("(That was the last hint; the solution: clmm-tutor --solution %d, after a check.)\n", x->number);
    return EXIT_OK;
}

/* --exercise N without a terminal: the task, then a check of the student's file. */
static int walk_through(const struct options *opts, const struct lesson_set *lessons, const struct exercise *x)
{
    char goal[256], progress[4096];
    int shown = 0;
    int width = cli_terminal_width();

    printf("Exercise %d: ", x->number);
    put_printable(stdout, x->l.title);
    printf(" (lesson %d)\n\n", x->lesson);
    text_print(stdout, x->l.text, width);
    exercise_goal_describe(x, goal, sizeof goal);
    printf("\nGoal: verified at");
    for (size_t i = 0; i < x->nsizes; i++)
        printf("%s %lldx%lldx%lld", i ? "," : "", x->sizes[i].m, x->sizes[i].n, x->sizes[i].k);
    printf("%s%s.\n", goal[0] ? "; " : "", goal);
    if (progress_path(progress, sizeof progress) == 0) {
        struct progress p;
        progress_load(progress, &p);
        shown = p.e[x->number].hints < (int)x->nhints ? p.e[x->number].hints : (int)x->nhints;
    }
    print_hints(x, shown);
    if (shown < (int)x->nhints)
        printf("Hints: %d of %zu shown (clmm-tutor --hint %d reveals the next)\n", shown, x->nhints, x->number);
    putchar('\n');
    fflush(stdout);
    return check(opts, lessons, x);
}

int excommands_run(const struct options *opts, const struct lesson_set *lessons, const struct exercise_set *set)
{
    const struct exercise *x = NULL;

    if (opts->mode == MODE_EXERCISES)
        return list_exercises(opts, set);
    if (!(x = find_exercise(set, opts->exercise)))
        return EXIT_USAGE;
    switch (opts->mode) {
    case MODE_CHECK:
        return check(opts, lessons, x);
    case MODE_RESET:
        return reset(opts, x);
    case MODE_SOLUTION:
        return solution(opts, lessons, x);
    case MODE_HINT:
        return hint(x);
    default:
        return walk_through(opts, lessons, x);
    }
}
