/* commands.c: the command-line modes: list, devices, ceilings, show, bench and the lesson
   walk-through. */
#include "commands.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/ceilings.h"
#include "engine/datadir.h"
#include "engine/figures.h"
#include "engine/files.h"
#include "engine/hostcode.h"
#include "engine/inside.h"
#include "excommands.h"
#include "engine/device.h"
#include "engine/measure.h"
#include "meter.h"
#include "engine/needs.h"
#include "engine/ocl.h"
#include "engine/params.h"
#include "engine/plot.h"
#include "engine/reference.h"
#include "engine/runner_clblast.h"
#include "engine/str.h"
#include "engine/text.h"
#include "engine/tune.h"
#include "engine/tuned.h"
#include "report.h"
#include "engine/xalloc.h"

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "clmm-tutor: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'clmm-tutor --help'.\n");
    return EXIT_USAGE;
}

/* The lesson directory: --lessons DIR, else the installed (or source tree) lessons. */
static void lessons_dir(const struct options *opts, char *dir, size_t len)
{
    if (opts->lessons_dir)
        snprintf(dir, len, "%s", opts->lessons_dir);
    else
        snprintf(dir, len, "%s/lessons", datadir_get());
}

static int load_lessons(const struct options *opts, struct lesson_set *set)
{
    char dir[4096];
    struct error e;

    error_init(&e);
    lessons_dir(opts, dir, sizeof dir);
    if (lesson_set_load(dir, set, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    return EXIT_OK;
}

static void list_numbers(const struct lesson_set *set, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t i = 0; i < set->count; i++)
        str_appendf(&s, " ", "%d", set->items[i].number);
}

static const struct lesson *find_lesson(const struct lesson_set *set, int number)
{
    const struct lesson *l = lesson_set_find(set, number);
    char numbers[512];

    if (!l) {
        list_numbers(set, numbers, sizeof numbers);
        fprintf(stderr, "clmm-tutor: there is no lesson %d (lessons: %s)\nTry 'clmm-tutor --list'.\n",
                number, numbers);
    }
    return l;
}

/* What choosing a lesson's parameters needs from the command line; path holds the file
   of tuned parameters (none when neither XDG_DATA_HOME nor HOME is set). */
static void params_request_init(const struct options *opts, char *path, size_t len, struct params_request *req)
{
    req->overrides = opts->params;
    req->noverrides = opts->nparams;
    req->no_tuned = opts->no_tuned;
    req->tuned_path = tuned_path(path, len) == 0 ? path : NULL;
}

/* Every --param must name a parameter of at least one selected lesson. */
static int check_param_names(const struct options *opts, const struct lesson_set *set, int lesson)
{
    for (size_t i = 0; i < opts->nparams; i++) {
        int known = 0;
        for (size_t j = 0; j < set->count; j++)
            if ((lesson < 0 || set->items[j].number == lesson) &&
                lesson_param_index(&set->items[j], opts->params[i].name) >= 0)
                known = 1;
        if (!known)
            return usage_error(lesson < 0 ? "--param: no lesson has a parameter called %s"
                                          : "--param: the lesson has no parameter called %s (--show lists them)",
                               opts->params[i].name);
    }
    return 0;
}

static int measure_ceilings(struct ocl *cl, struct ceilings *c, struct error *e);

/* --show N --host-code: the launch at the size asked for, with the lesson's defaults and
   --param over them (no device is opened, so not the tuner's). */
static int host_code(const struct options *opts, const struct lesson *l)
{
    const struct params_request req = { opts->params, opts->nparams, true, NULL };
    struct param_set ps;
    struct param_origin origin;
    struct error e;
    char *text;

    if (l->engine == ENGINE_HOST) {
        fprintf(stderr, "clmm-tutor: lesson %d runs on the host: it launches no kernel\n"
                        "Try 'clmm-tutor --list'.\n", l->number);
        return EXIT_USAGE;
    }
    error_init(&e);
    if (params_choose(&req, l, NULL, opts->sizes[0], &ps, &origin, &e) < 0)
        return cli_fail(EXIT_USAGE, &e);
    if (origin.rules_unapplied)
        fprintf(stderr, "clmm-tutor: lesson %d chooses some parameters by rule from the device's compute units; "
                        "without a device this code has their defaults (set them with --param; "
                        "--bench shows the values its rules choose)\n", l->number);
    if (!(text = hostcode_generate(l, &ps, opts->sizes[0], &e))) {
        error_prefix(&e, "lesson %d at %lldx%lldx%lld", l->number, opts->sizes[0].m, opts->sizes[0].n,
                     opts->sizes[0].k);
        return cli_fail(EXIT_RUN_FAILED, &e);
    }
    fputs(text, stdout);
    free(text);
    return EXIT_OK;
}

/* The device's ceilings for the percentages: from the cache, else measured now (said on
   stderr, since it takes a moment); without them the report has no percentages. */
static void bench_ceilings(struct ocl *cl, struct ceilings *c)
{
    struct error e;

    error_init(&e);
    if (!ceilings_cached(cl->device, c) && measure_ceilings(cl, c, &e) < 0) {
        fprintf(stderr, "clmm-tutor: the device's ceilings could not be measured: %s (no percentages of them)\n",
                e.msg);
        c->have = false;
    }
    error_clear(&e);
}

/* CLBlast's tuned parameters for the reference row: from --clblast-params, else from the
   files of CLMM_TUTOR_CLBLAST_PARAMS (for --bench and the tutor, with the reference row, in
   a build with CLBlast). *tuned is NULL when there are none (CLBlast's defaults), else cp.
   Which of several files of one kernel was kept is said on stderr. Returns EXIT_OK, or
   EXIT_ENVIRONMENT after printing why a file cannot be used. */
static int load_clblast_params(const struct options *opts, struct clblast_params *cp,
                               const struct clblast_params **tuned)
{
    const char *env = getenv(CLBLAST_PARAMS_ENV), *paths[CLBLAST_PARAMS_MAX_FILES + 1];
    char *list = NULL;
    size_t n = 0;
    struct error e;
    int rc;

    *tuned = NULL;
#ifndef HAVE_CLBLAST
    return EXIT_OK;             /* no reference row; --clblast-params was refused already */
#endif
    if (opts->no_reference || (opts->mode != MODE_BENCH && opts->mode != MODE_TUTOR))
        return EXIT_OK;
    if (opts->nclblast_files > 0) {
        for (; n < opts->nclblast_files; n++)
            paths[n] = opts->clblast_files[n];
    } else if (env && *env) {
        list = xstrdup(env);
        for (char *p = list, *save = NULL; (p = strtok_r(p, ":", &save)) && n <= CLBLAST_PARAMS_MAX_FILES; p = NULL)
            paths[n++] = p;
    }
    if (n == 0)
        return EXIT_OK;
    error_init(&e);
    rc = clblast_params_load(cp, paths, n, &e);
    free(list);
    if (rc < 0) {
        error_prefix(&e, "%s", opts->nclblast_files ? "--clblast-params" : CLBLAST_PARAMS_ENV);
        return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    if (cp->notes[0])
        fprintf(stderr, "clmm-tutor: of several files of one CLBlast kernel, the fastest is applied:\n%s",
                cp->notes);
    *tuned = cp;
    return EXIT_OK;
}

/* What a --bench run shows as it goes: the progress line on a terminal, and the chart of
   --plot, which takes every row the table prints. */
struct bench_view {
    struct meter meter;
    struct plot plot;
    struct isolate *apart;      /* where the lessons run when they are not the installed ones */
    struct measure_config mc;   /* opts->measure, with the progress line as its hook */
    size_t step, steps;         /* the rows measured so far, and in all */
    size_t nsizes;
};

/* The next row begins: "lesson 5, 6 of 26, at 1024x1024x1024 (size 1 of 3)". */
static void bench_step(struct bench_view *bv, const char *who, size_t size, struct gemm_size sz)
{
    char what[256], of_sizes[64] = "";

    if (bv->nsizes > 1)
        snprintf(of_sizes, sizeof of_sizes, " (size %zu of %zu)", size + 1, bv->nsizes);
    snprintf(what, sizeof what, "%s, %zu of %zu, at %lldx%lldx%lld%s", who, bv->step + 1, bv->steps, sz.m, sz.n,
             sz.k, of_sizes);
    meter_start(&bv->meter, what, bv->steps - bv->step - 1);
}

/* A row measured: the line is blanked before the table prints it, and the chart keeps it. */
static void bench_row(struct bench_view *bv, struct report *rep, int size, const struct run_result *r)
{
    meter_finish(&bv->meter);
    meter_clear(&bv->meter);
    bv->step++;
    report_row(rep, r);
    plot_add_result(&bv->plot, size, r);
}

/* Measures the selected lessons at every size on one device, into rep; a failing lesson does
   not stop the others. */
static int bench_device(const struct options *opts, const struct lesson_set *set, int lesson, struct ocl *cl,
                        const struct clblast_params *tuned, struct report *rep, struct bench_view *bv)
{
    char path[4096];
    struct params_request req;
    int status = EXIT_OK;

    params_request_init(opts, path, sizeof path, &req);
    for (size_t s = 0; s < opts->nsizes; s++) {
        struct workspace w;
        struct error e;
        bool ready;
        int at = plot_size(&bv->plot, opts->sizes[s]);

        error_init(&e);
        report_size_begin(rep, opts->sizes[s]);
        /* A size the device cannot hold is refused for each lesson, in every format. */
        ready = workspace_init(&w, cl, opts->sizes[s], opts->measure.seed, &e) == 0;
        if (ready && bv->apart)
            isolate_attach(bv->apart, &w);
        for (size_t i = 0; i < set->count; i++) {
            const struct lesson *l = &set->items[i];
            struct param_set ps;
            struct param_origin origin;
            struct run_result r;
            struct error why;
            bool chosen;
            char who[32];
            if (lesson >= 0 && l->number != lesson)
                continue;
            snprintf(who, sizeof who, "lesson %d", l->number);
            bench_step(bv, who, s, opts->sizes[s]);
            run_result_init(&r);
            error_init(&why);
            /* The tuner's parameters depend on the size; --param was checked before. */
            chosen = params_choose(&req, l, cl->device, opts->sizes[s], &ps, &origin, &why) == 0;
            if (chosen && ready)
                measure_lesson(&w, l, &ps, &bv->mc, &r);
            else
                measure_refused(l, &ps, opts->sizes[s], chosen ? &e : &why, &r);
            r.origin = origin;
            error_clear(&why);
            bench_row(bv, rep, at, &r);
            if (r.status != RUN_OK)
                status = EXIT_RUN_FAILED;
            run_result_free(&r);
        }
        for (size_t k = 0; !opts->no_reference && k < reference_count(); k++) {
            struct reference_settings rs = { tuned };
            struct run_result r;
            if (!ready) {
                bv->step++;     /* not measured at a size the device cannot hold */
                continue;
            }
            run_result_init(&r);
            bench_step(bv, reference_at(k)->name, s, opts->sizes[s]);
            reference_measure(reference_at(k), &w, &rs, &bv->mc, &r);
            bench_row(bv, rep, at, &r);
            run_result_free(&r);
        }
        meter_clear(&bv->meter);
        if (ready)
            workspace_free(&w);
        report_size_end(rep);
    }
    return status;
}

/* The saved run of --compare into c: *saved is c, or NULL without --compare. Returns
   EXIT_OK, or EXIT_ENVIRONMENT after printing why the file cannot be used. */
static int load_compare(const struct options *opts, struct compare *c, struct compare **saved)
{
    struct error e;

    *saved = NULL;
    if (!opts->compare_file)
        return EXIT_OK;
    error_init(&e);
    if (compare_load(c, opts->compare_file, &e) < 0) {
        error_prefix(&e, "--compare");
        return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    *saved = c;
    return EXIT_OK;
}

/* After a run beside a saved one: the saved rows that were not shown, on stderr. */
static void compare_notes(const struct compare *c)
{
    char rows[1024];
    size_t n = compare_unused(c, rows, sizeof rows);

    if (c->other_devices)
        fprintf(stderr, "clmm-tutor: --compare: %zu row%s of %s %s of another device than %s, and %s left out\n",
                c->other_devices, c->other_devices == 1 ? "" : "s", c->file, c->other_devices == 1 ? "is" : "are",
                c->device, c->other_devices == 1 ? "is" : "are");
    if (n > 0) {
        char *printable = text_printable(rows, false);
        fprintf(stderr, "clmm-tutor: --compare: %zu row%s of %s match%s no lesson at a size of this run, "
                        "and %s not shown (%s)\n", n, n == 1 ? "" : "s", c->file, n == 1 ? "es" : "",
                n == 1 ? "is" : "are", printable);
        free(printable);
    }
}

/* Measures the selected lessons at every size on each of n devices, one after the other;
   side: in a table of a column per device even for one (they were asked for as a list). */
static int bench_on(const struct options *opts, const struct lesson_set *set, int lesson, struct ocl *cls,
                    size_t n, bool side)
{
    const struct device_info *devices[REPORT_MAX_DEVICES];
    struct ceilings ceilings[REPORT_MAX_DEVICES];
    struct report rep;
    struct clblast_params *cp = xcalloc(1, sizeof *cp);
    struct compare saved_run, *saved;
    const struct clblast_params *tuned;
    struct bench_view *bv;
    char device[600];
    size_t lessons = 0, references = opts->no_reference ? 0 : reference_count();
    int status;

    /* The CLBlast row's parameters and the saved run, before anything is measured. */
    if ((status = load_clblast_params(opts, cp, &tuned)) != EXIT_OK ||
        (status = load_compare(opts, &saved_run, &saved)) != EXIT_OK) {
        free(cp);
        return status;
    }
    for (size_t d = 0; d < n && tuned; d++) {
        struct error e;
        error_init(&e);
        if (clblast_apply(&cls[d], tuned, &e) < 0) {
            free(cp);
            if (saved)
                compare_free(saved);
            return cli_fail(EXIT_ENVIRONMENT, &e);
        }
    }
    for (size_t d = 0; d < n; d++) {
        devices[d] = cls[d].device;
        bench_ceilings(&cls[d], &ceilings[d]);
    }
    /* The progress line and the chart (of one device: --plot takes no list). */
    bv = xcalloc(1, sizeof *bv);
    device_describe(cls[0].device, device, sizeof device);
    plot_init(&bv->plot, device, time(NULL), "clmm-tutor --bench", NULL);
    lesson_emulation_note(cls[0].device, bv->plot.emulated_note, sizeof bv->plot.emulated_note);
    for (size_t i = 0; i < set->count; i++)
        lessons += lesson < 0 || set->items[i].number == lesson;
    bv->nsizes = opts->nsizes;
    bv->steps = n * opts->nsizes * (lessons + references);
    meter_init(&bv->meter, stderr);
    bv->apart = cli_apart(opts);
    bv->mc = opts->measure;
    bv->mc.progress = meter_progress;
    bv->mc.progress_ctx = &bv->meter;
    report_begin(&rep, stdout, opts->format, devices, ceilings, (int)n, side, &opts->measure, tuned, saved);
    for (size_t d = 0; d < n; d++) {
        report_device(&rep, (int)d);
        if (bench_device(opts, set, lesson, &cls[d], tuned, &rep, bv) != EXIT_OK)
            status = EXIT_RUN_FAILED;
    }
    report_end(&rep);
    if (opts->plot_file) {
        struct error e;
        error_init(&e);
        if (plot_save(&bv->plot, opts->plot_file, &e) < 0) {
            error_prefix(&e, "--plot");
            status = cli_fail(EXIT_ENVIRONMENT, &e);
        } else {
            fprintf(stderr, "clmm-tutor: the chart is in %s\n", opts->plot_file);
        }
    }
    plot_free(&bv->plot);
    isolate_free(bv->apart);
    free(bv);
    if (saved) {
        compare_notes(saved);
        compare_free(saved);
    }
    free(cp);
    return status;
}

/* Measures on the one device chosen, in the table of one device. */
static int bench(const struct options *opts, const struct lesson_set *set, int lesson, struct ocl *cl)
{
    return bench_on(opts, set, lesson, cl, 1, false);
}

/* What a --tune run shows as it goes: each configuration's line, and the progress line on a
   terminal. */
struct tune_view {
    const struct lesson *l;
    struct gemm_size size;
    struct meter meter;
    size_t max_configs, logged, measured;
};

/* The configuration to come: "lesson 9 at 1024x1024x1024: configuration 5 of 100", of those
   this run measures at most (the log's replayed ones left out). */
static void tune_next(struct tune_view *tv, size_t space, size_t done)
{
    size_t left = space - done, run = tv->max_configs - tv->measured;
    size_t after = (left < run ? left : run), total = tv->measured + after;
    char what[256];

    if (after == 0)
        return;
    snprintf(what, sizeof what, "lesson %d at %lldx%lldx%lld: configuration %zu of %zu", tv->l->number, tv->size.m,
             tv->size.n, tv->size.k, tv->measured + 1, total);
    meter_start(&tv->meter, what, after - 1);
}

static void print_step(void *ctx, const struct tune_step *st)
{
    struct tune_view *tv = ctx;

    if (!st->from_log) {
        meter_finish(&tv->meter);
        tv->measured++;
    }
    meter_clear(&tv->meter);
    report_tune_step(stdout, tv->l, st);
    fflush(stdout);
    tune_next(tv, st->space, st->done);
}

/* Searches one lesson's parameters and saves the best for this device. */
/* The flag an interrupt sets while the tuner runs (cli_catch_interrupts). */
static const atomic_int *tune_cancel;

static int tune(const struct options *opts, const struct lesson_set *set, int lesson, struct ocl *cl)
{
    const struct lesson *l = lesson_set_find(set, lesson);
    struct tune_options to = { opts->measure, opts->max_configs, opts->time_limit_s, opts->restart };
    char device[600], log_path[4096], saved[4096], *title;
    struct tune_result res;
    struct tune_view tv = { l, opts->sizes[0], { 0 }, opts->max_configs, 0, 0 };
    struct isolate *apart = NULL;
    struct workspace w;
    struct error e;
    bool kept = false;
    int status, rc;

    error_init(&e);
    if (l->nparams == 0) {
        fprintf(stderr, "clmm-tutor: lesson %d has no parameters to tune (--show %d lists a lesson's)\n",
                l->number, l->number);
        return EXIT_USAGE;
    }
    if (!opts->budget_given)
        to.measure.budget_s = 0.25;     /* many configurations: a shorter look at each */
    device_describe(cl->device, device, sizeof device);
    if (tune_log_path(device, l->number, opts->sizes[0], log_path, sizeof log_path) < 0 ||
        tuned_path(saved, sizeof saved) < 0) {
        error_set(&e, "the tuner keeps its files under XDG_STATE_HOME and XDG_DATA_HOME, or HOME: set one");
        return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    /* Refused as measuring it is (tune_run would say the same, as an error of the tuner). */
    if (lesson_device_check(l, cl->device, &e) < 0 ||
        workspace_init(&w, cl, opts->sizes[0], opts->measure.seed, &e) < 0)
        return cli_fail(EXIT_RUN_FAILED, &e);
    if ((apart = cli_apart(opts)))
        isolate_attach(apart, &w);
    title = text_printable(l->short_title, false);
    printf("Tuning lesson %d (%s) at %lldx%lldx%lld\non %s\n", l->number, title,
           opts->sizes[0].m, opts->sizes[0].n, opts->sizes[0].k, device);
    free(title);
    printf("%zu configurations; this run measures at most %zu and starts none after %g s\n",
           tune_space_size(l), to.max_configs, to.time_limit_s);
    printf("Log (to resume): %s\n\n", log_path);
    fflush(stdout);
    to.measure.cancel = tune_cancel;    /* caught by the caller (cli_catch_interrupts) */
    meter_init(&tv.meter, stderr);
    tv.meter.deadline_s = to.time_limit_s;
    to.measure.progress = meter_progress;
    to.measure.progress_ctx = &tv.meter;
    tune_next(&tv, tune_space_size(l), 0);
    rc = tune_run(&w, l, &to, log_path, print_step, &tv, &res, &e);
    meter_clear(&tv.meter);
    workspace_free(&w);
    isolate_free(apart);
    if (rc < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    report_tune_summary(stdout, l, &res, opts->restart);
    status = res.verified > 0 ? EXIT_OK : EXIT_RUN_FAILED;
    if (res.verified > 0 &&
        tuned_save(saved, device, l, &res.best, res.best_gflops, opts->sizes[0], res.complete, &kept, &e) < 0)
        status = cli_fail(EXIT_ENVIRONMENT, &e);
    else if (kept)
        printf("Not saved: %s holds faster parameters found at this size; finish the search to\n"
               "replace them.\n", saved);
    else if (res.verified > 0)
        printf("Saved in %s%s: later runs of lesson %d on this device at\n"
               "sizes near %lldx%lldx%lld (M, N and K each within a factor of 2) use these parameters\n"
               "(--no-tuned or --param for the lesson's defaults).\n", saved,
               res.complete ? "" : " as a partial search", l->number, opts->sizes[0].m, opts->sizes[0].n,
               opts->sizes[0].k);
    tune_result_free(&res);
    return status;
}

/* The directory a new file path would go to, when it cannot be made there: says why, as an
   error of option (a usage error), and returns false. */
static bool dir_writable(const char *option, const char *path)
{
    struct stat st;
    char dir[4096];
    const char *slash = strrchr(path, '/');

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0)
        return true;
    fprintf(stderr, "clmm-tutor: %s: %s cannot be created: %s %s; give a file in a directory you "
                    "can write\nTry 'clmm-tutor --help'.\n", option, path, dir,
            stat(dir, &st) != 0 ? "does not exist" : !S_ISDIR(st.st_mode) ? "is not a directory"
                                                                           : "cannot be written");
    return false;
}

/* --binary FILE: refused when FILE exists, whatever it is (a file, a directory, a link):
   the program binary goes to a new file, never over one; and before the build, when the
   directory it would go to is not one that can be written. */
static int check_binary_file(const char *path)
{
    struct stat st;
    char what[4200];

    if (!path)
        return EXIT_OK;
    if (lstat(path, &st) != 0)
        return dir_writable("--binary", path) ? EXIT_OK : EXIT_USAGE;
    files_describe(path, what, sizeof what);
    if (S_ISLNK(st.st_mode))
        fprintf(stderr, "clmm-tutor: --binary: %s is %s; give a new file name: a link is never written "
                        "through\nTry 'clmm-tutor --help'.\n", path, what);
    else
        fprintf(stderr, "clmm-tutor: --binary: %s exists (%s); give a new file name: an existing file is never "
                        "replaced\nTry 'clmm-tutor --help'.\n", path, S_ISREG(st.st_mode) ? "a file" : what);
    return EXIT_USAGE;
}

/* --plot FILE: before anything is measured, refused when FILE could not be written: its
   directory missing or not writable, FILE something other than a regular file (a regular
   one is replaced, as a shell's > would; a symbolic link is written through, its target
   replaced), a symbolic link that leads nowhere, or the saved run that --compare reads. */
static int check_plot_file(const struct options *opts)
{
    const char *path = opts->plot_file;
    struct stat st, saved;
    char target[4096], what[4200];
    struct error e;
    bool exists;

    if (!path)
        return EXIT_OK;
    error_init(&e);
    if (files_write_target(path, target, sizeof target, &e) < 0) {
        fprintf(stderr, "clmm-tutor: --plot: %s; give the name of a file to write\nTry 'clmm-tutor --help'.\n",
                e.msg);
        error_clear(&e);
        return EXIT_USAGE;
    }
    exists = stat(target, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        files_describe(path, what, sizeof what);
        fprintf(stderr, "clmm-tutor: --plot: %s is %s; give the name of a file to write\n"
                        "Try 'clmm-tutor --help'.\n", path, what);
        return EXIT_USAGE;
    }
    if (exists && opts->compare_file && stat(opts->compare_file, &saved) == 0 && saved.st_dev == st.st_dev &&
        saved.st_ino == st.st_ino) {
        fprintf(stderr, "clmm-tutor: --plot: %s is the saved run that --compare reads, and the chart would "
                        "replace it; give the chart another file name\nTry 'clmm-tutor --help'.\n", path);
        return EXIT_USAGE;
    }
    return dir_writable("--plot", target) ? EXIT_OK : EXIT_USAGE;
}

/* Writes the program binary to a new file (O_EXCL: one made meanwhile is not replaced). */
static int save_binary(const struct inside *in, const char *path, struct error *e)
{
    int fd;

    if (!in->binary) {
        error_set(e, "--binary: the platform gives no program binary; nothing saved");
        return -1;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        error_set(e, "--binary: cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    if (files_write_all(fd, in->binary, in->binary_size) < 0) {
        error_set(e, "--binary: cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(path);
        return -1;
    }
    if (close(fd) != 0) {
        error_set(e, "--binary: cannot write %s: %s", path, strerror(errno));
        unlink(path);
        return -1;
    }
    return 0;
}

/* Looks inside one lesson's built kernel and prints what was found. */
static int inside(const struct options *opts, const struct lesson_set *set, int lesson, struct ocl *cl)
{
    const struct lesson *l = lesson_set_find(set, lesson);
    char path[4096], origin_text[256];
    struct params_request req;
    struct param_set ps;
    struct param_origin origin;
    struct figures d;
    struct inside in;
    struct waves_kernel k;
    struct waves w;
    struct error e, why;
    bool saved = false, has_waves;
    int status = EXIT_OK;

    error_init(&e);
    params_request_init(opts, path, sizeof path, &req);
    if (params_choose(&req, l, cl->device, opts->sizes[0], &ps, &origin, &e) < 0)
        return cli_fail(EXIT_USAGE, &e);
    params_origin_describe(&origin, origin_text, sizeof origin_text);
    if (figures_compute(l, &ps, opts->sizes[0], NULL, &d, &e) < 0) {
        error_prefix(&e, "lesson %d at %lldx%lldx%lld", l->number, opts->sizes[0].m, opts->sizes[0].n,
                     opts->sizes[0].k);
        return cli_fail(EXIT_RUN_FAILED, &e);
    }
    if (inside_examine(cl, l, &ps, d.has_item ? d.outputs_per_item : 0, &in, &e) < 0) {
        status = cli_fail(EXIT_RUN_FAILED, &e);
        error_clear(&e);
        return status;
    }
    if (opts->binary_file) {
        if (save_binary(&in, opts->binary_file, &e) < 0)
            status = cli_fail(in.binary ? EXIT_ENVIRONMENT : EXIT_RUN_FAILED, &e);
        else
            saved = true;
    }
    /* The waves of work-groups this kernel makes on the device at this size. */
    inside_waves_kernel(&in, &k);
    error_init(&why);
    has_waves = waves_compute(&d, cl->device, &k, &w, &why) == 0;
    if (opts->format == FORMAT_JSON) {
        report_inside_json(stdout, &in, opts->sizes[0], origin_text, saved ? opts->binary_file : NULL,
                           has_waves ? &w : NULL);
    } else {
        static char lines[200][INSIDE_LINE_BYTES];
        size_t n = inside_describe(&in, cli_terminal_width(), lines, 200);
        printf("At %lldx%lldx%lld%s%s%s\n", opts->sizes[0].m, opts->sizes[0].n, opts->sizes[0].k,
               origin_text[0] ? " (parameters: " : "", origin_text, origin_text[0] ? ")" : "");
        for (size_t i = 0; i < n; i++) {
            char *printable = text_printable(lines[i], false);
            printf("%s\n", printable);
            free(printable);
        }
        printf("\nWaves of work-groups on %s:\n", cl->device->name);
        if (has_waves) {
            static char wave_lines[16][WAVES_LINE_BYTES];
            n = waves_draw(&w, cli_terminal_width(), 16, false, wave_lines);   /* ASCII: any terminal, any pipe */
            for (size_t i = 0; i < n; i++)
                printf("%s\n", wave_lines[i]);
        } else {
            printf("%s\n", why.msg);
        }
        if (saved)
            printf("\nThe program binary (%zu bytes%s) is saved in %s.\n", in.binary_size,
                   in.binary_is_ptx ? ", PTX text" : "", opts->binary_file);
    }
    error_clear(&why);
    inside_free(&in);
    return status;
}

typedef int device_action(const struct options *, const struct lesson_set *, int, struct ocl *);

static int with_device(const struct options *opts, const struct lesson_set *set, int lesson,
                       device_action *action)
{
    struct device_list list;
    struct ocl cl;
    int status = cli_open_device(opts, &list, &cl);

    if (status != EXIT_OK)
        return status;
    status = action(opts, set, lesson, &cl);
    ocl_close(&cl);
    device_list_free(&list);
    return status;
}

/* --bench on the devices --device names: all, a list, or one. */
static int bench_devices(const struct options *opts, const struct lesson_set *set, int lesson)
{
    const char *spec = opts->device ? opts->device : getenv("CLMM_TUTOR_DEVICE");
    const struct device_info *chosen[REPORT_MAX_DEVICES];
    struct ocl cls[REPORT_MAX_DEVICES];
    struct device_list list;
    struct error e;
    size_t n = 0, opened = 0;
    int status = EXIT_OK, rc;

    if (!spec || !device_spec_is_list(spec))
        return with_device(opts, set, lesson, bench);
    error_init(&e);
    if (device_list_load(&list, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    if ((rc = device_select_many(&list, spec, chosen, REPORT_MAX_DEVICES, &n, &e)) < 0)
        status = cli_fail(rc == -2 ? EXIT_USAGE : EXIT_ENVIRONMENT, &e);
    for (; status == EXIT_OK && opened < n; opened++)
        if (ocl_open(&cls[opened], chosen[opened], &e) < 0) {
            error_prefix(&e, "[%d] %s", chosen[opened]->index, chosen[opened]->name);
            status = cli_fail(EXIT_ENVIRONMENT, &e);
            break;
        }
    if (status == EXIT_OK)
        status = bench_on(opts, set, lesson, cls, n, true);
    while (opened > 0)
        ocl_close(&cls[--opened]);
    device_list_free(&list);
    return status;
}

/* ---- the device's ceilings ---- */

#define CEILINGS_WIDTH 88       /* columns of the figures' lines, their indent included */

/* text (made printable) wrapped to CEILINGS_WIDTH columns, each line after indent blanks. */
static void print_wrapped(FILE *out, int indent, const char *text)
{
    char *printable = text_printable(text, false);
    struct text_lines lines;

    text_layout(printable, CEILINGS_WIDTH - indent, &lines);
    for (size_t i = 0; i < lines.count; i++)
        fprintf(out, "%*s%s\n", indent, "", lines.items[i].text);
    text_lines_free(&lines);
    free(printable);
}

/* Measures the device's ceilings now and keeps them, saying so on stderr (and why they
   were not kept); -1 with the reason in e. */
static int measure_ceilings(struct ocl *cl, struct ceilings *c, struct error *e)
{
    fflush(stdout);
    fprintf(stderr, "clmm-tutor: measuring the FP32 peak and bandwidth of [%d] %s...\n", cl->device->index,
            cl->device->name);
    if (ceilings_get(cl, true, c, e) < 0)
        return -1;
    if (c->note[0])
        fprintf(stderr, "clmm-tutor: the figures of [%d] were %s\n", cl->device->index, c->note);
    return 0;
}

/* --devices: a device's ceilings under its facts, from the cache or measured now; a
   device that cannot be measured gets the reason. */
static void print_device_ceilings(FILE *out, const struct device_info *d, void *ctx)
{
    bool *unkept = ctx;
    struct ceilings c;
    struct error e;
    char text[1024];

    error_init(&e);
    if (!ceilings_cached(d, &c)) {
        struct ocl cl;
        if (ocl_open(&cl, d, &e) == 0) {
            if (measure_ceilings(&cl, &c, &e) == 0 && c.note[0])
                *unkept = true;
            ocl_close(&cl);
        }
    }
    ceilings_describe(&c, text, sizeof text);
    print_wrapped(out, 8, text);
    if (!c.have) {
        snprintf(text, sizeof text, "(the measurement failed: %.900s)", e.msg);
        print_wrapped(out, 8, text);
    }
    error_clear(&e);
}

static int devices(void)
{
    struct device_list list;
    struct error e;
    char path[4096];
    bool unkept = false;

    error_init(&e);
    if (device_list_load(&list, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    device_list_print(stdout, &list, print_device_ceilings, &unkept);
    if (unkept)
        printf("\nFP32 peak and bandwidth: measured now, and not kept (the reason is above): each run\n"
               "measures them again.\n");
    else if (ceilings_path(path, sizeof path) == 0)
        printf("\nFP32 peak and bandwidth: measured once per device and driver, kept in\n%s\n"
               "(--ceilings --device D measures again).\n", path);
    device_list_free(&list);
    return EXIT_OK;
}

static void print_ceilings_json(const struct ceilings *c, const struct device_info *d, const char *path)
{
    char device[600];

    device_describe(d, device, sizeof device);
    printf("{\"device\": ");
    report_json_string(stdout, device);
    printf(", \"driver\": ");
    report_json_string(stdout, d->driver);
    printf(", \"measured_on\": ");
    report_json_string(stdout, c->measured_on);
    printf(", \"seconds\": %.3g, \"fp32_gflops\": %.6g, \"fp32_theory_gflops\": ", c->took_s, c->gflops);
    if (c->theory_gflops > 0)
        printf("%.6g", c->theory_gflops);
    else
        printf("null");
    printf(", \"fp32_theory\": ");
    report_json_string(stdout, c->theory);
    printf(", \"bandwidth_gbps\": %.6g, \"bandwidth_method\": \"copy\", \"bandwidth_theory_gbps\": null, "
           "\"bandwidth_theory\": ", c->gbps);
    report_json_string(stdout, CEILINGS_NO_BANDWIDTH_THEORY);
    printf(", \"cache\": ");
    if (path && !c->note[0])
        report_json_string(stdout, path);
    else
        printf("null");
    printf(", \"note\": ");
    report_json_string(stdout, c->note);
    printf("}\n");
}

/* --ceilings: measures the chosen device now and keeps the figures. */
static int ceilings(const struct options *opts)
{
    struct device_list list;
    struct ocl cl;
    struct ceilings c;
    struct error e;
    char path[4096], device[600], text[1024];
    int status = cli_open_device(opts, &list, &cl);

    if (status != EXIT_OK)
        return status;
    error_init(&e);
    if (measure_ceilings(&cl, &c, &e) < 0) {
        error_prefix(&e, "the ceilings of [%d] %s were not measured", cl.device->index, cl.device->name);
        status = cli_fail(EXIT_RUN_FAILED, &e);
    } else if (opts->format == FORMAT_JSON) {
        print_ceilings_json(&c, cl.device, ceilings_path(path, sizeof path) == 0 ? path : NULL);
    } else {
        device_describe(cl.device, device, sizeof device);
        printf("[%d] %s\nmeasured %s, in %.1f s:\n", cl.device->index, device, c.measured_on, c.took_s);
        ceilings_describe(&c, text, sizeof text);
        print_wrapped(stdout, 2, text);
        if (!c.note[0] && ceilings_path(path, sizeof path) == 0)
            printf("Kept in %s for --devices and the tutor.\n", path);
    }
    ocl_close(&cl);
    device_list_free(&list);
    return status;
}

/* The screen, with CLBlast's tuned parameters and the saved run of --compare loaded for it. */
static int open_screen(const struct options *opts, const struct lesson_set *set, const struct exercise_set *xs,
                       commands_screen *screen)
{
    struct clblast_params *cp = xcalloc(1, sizeof *cp);
    struct compare *run = xcalloc(1, sizeof *run), *saved = NULL;
    const struct clblast_params *tuned = NULL;
    int status;

    if ((status = load_clblast_params(opts, cp, &tuned)) == EXIT_OK &&
        (status = load_compare(opts, run, &saved)) == EXIT_OK) {
        struct screen_start start;
        memset(&start, 0, sizeof start);
        start.session.measure = opts->measure;
        start.session.budget_given = opts->budget_given;
        start.session.device = opts->device;
        start.session.params = (struct params_request){ opts->params, opts->nparams, opts->no_tuned, NULL };
        start.session.max_configs = opts->max_configs;
        start.session.time_limit_s = opts->time_limit_s;
        start.session.clblast = tuned;
        start.session.lessons_apart = opts->lessons_dir != NULL;
        start.session.check_timeout_s = opts->check_timeout_s;
        start.lesson = opts->lesson;
        start.exercise = opts->exercise;
        start.size_given = opts->size_given;
        start.size = opts->sizes[0];
        start.no_color = opts->no_color;
        start.demo_s = opts->demo_s;
        start.workspace = opts->workspace;
        start.lessons_dir = opts->lessons_dir;
        status = screen(&start, set, xs, saved);
    }
    if (saved)
        compare_free(saved);
    free(run);
    free(cp);
    return status;
}

/* The exercise modes, and the tutor opened on an exercise. */
static int exercises(const struct options *opts, const struct lesson_set *set, commands_screen *screen)
{
    struct exercise_set xs;
    int status = excommands_load(opts, set, &xs);

    if (status != EXIT_OK)
        return status;
    if (opts->mode == MODE_TUTOR && screen && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) &&
        exercise_set_find(&xs, opts->exercise))
        status = open_screen(opts, set, &xs, screen);
    else
        status = excommands_run(opts, set, &xs);
    exercise_set_free(&xs);
    return status;
}

/* After a lesson printed and measured: its exercises, where it has some, and the lesson
   after it. */
static void print_next(const struct options *opts, const struct lesson_set *set, int lesson)
{
    struct exercise_set xs;
    struct error e;
    char dir[4096], numbers[400];
    struct str s;
    int first = -1, n = 0;

    error_init(&e);
    snprintf(dir, sizeof dir, "%s", opts->exercises_dir ? opts->exercises_dir : "");
    if (!opts->exercises_dir)
        snprintf(dir, sizeof dir, "%s/exercises", datadir_get());
    str_init(&s, numbers, sizeof numbers);
    if (exercise_set_load(dir, set, &xs, &e) == 0) {
        for (size_t i = 0; i < xs.count; i++)
            if (xs.items[i].lesson == lesson) {
                first = first < 0 ? xs.items[i].number : first;
                n++;
            }
        for (size_t i = 0, k = 0; i < xs.count; i++)
            if (xs.items[i].lesson == lesson)
                str_appendf(&s, k++ == 0 ? "" : k == (size_t)n ? " and " : ", ", "%d", xs.items[i].number);
        exercise_set_free(&xs);
    }
    error_clear(&e);
    if (first >= 0)
        printf("\nNext: practise lesson %d with clmm-tutor --exercise %d (exercise%s %s)%s", lesson, first,
               n > 1 ? "s" : "", numbers, lesson_set_find(set, lesson + 1) ? ", then" : "\n");
    else if (lesson_set_find(set, lesson + 1))
        printf("\nNext:");
    if (lesson_set_find(set, lesson + 1))
        printf(" clmm-tutor --lesson %d   (all lessons: clmm-tutor --list)\n", lesson + 1);
}

/* ---- the modes: one function each, in the table below ---- */

static int mode_help(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)opts, (void)set, (void)lesson, (void)screen;
    options_usage(stdout);
    return EXIT_OK;
}

static int mode_version(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)opts, (void)set, (void)lesson, (void)screen;
    printf("clmm-tutor %s\n", PACKAGE_VERSION);
    return EXIT_OK;
}

static int mode_devices(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)opts, (void)set, (void)lesson, (void)screen;
    return devices();
}

static int mode_ceilings(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)set, (void)lesson, (void)screen;
    return ceilings(opts);
}

static int mode_exercises(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)lesson;
    return exercises(opts, set, screen);
}

static int mode_list(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)opts, (void)lesson, (void)screen;
    report_list(stdout, set);
    return EXIT_OK;
}

static int mode_show(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    (void)screen;
    if (opts->host_code)
        return host_code(opts, lesson_set_find(set, lesson));
    report_show(stdout, lesson_set_find(set, lesson), &set->sources, cli_terminal_width());
    return EXIT_OK;
}

static int mode_sources(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    char dir[4096];

    (void)lesson, (void)screen;
    lessons_dir(opts, dir, sizeof dir);
    report_sources(stdout, &set->sources, dir, cli_terminal_width());
    return EXIT_OK;
}

static int mode_bench(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    int status;

    (void)screen;
    if ((status = check_plot_file(opts)) == EXIT_OK)
        status = bench_devices(opts, set, lesson == LESSON_UNSET ? LESSON_ALL : lesson);
    return status;
}

static int mode_inside(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    int status;

    (void)screen;
    if (lesson_set_find(set, lesson)->engine == ENGINE_HOST) {
        fprintf(stderr, "clmm-tutor: lesson %d runs on the host: it has no kernel to look inside\n"
                        "Try 'clmm-tutor --list'.\n", lesson);
        return EXIT_USAGE;
    }
    if ((status = check_binary_file(opts->binary_file)) == EXIT_OK)
        status = with_device(opts, set, lesson, inside);
    return status;
}

static int mode_tune(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    struct sigaction old[CLI_INTERRUPTS];
    int status;

    (void)screen;
    tune_cancel = cli_catch_interrupts(old, "\nclmm-tutor: interrupted: the search stops after the running "
                                            "launch (interrupt again to end at once; this configuration is "
                                            "then skipped as one that did not finish)\n");
    status = with_device(opts, set, lesson, tune);
    cli_release_interrupts(old);
    return status;
}

/* The tutor on a terminal; elsewhere the lesson, then its measurement, as text. */
static int mode_tutor(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen)
{
    int status;

    if (screen && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        struct exercise_set xs;
        /* The exercises, for the key that opens them: without the installed ones the
           lessons still work; a --exercises-dir that cannot be read is refused. */
        if ((status = excommands_load(opts, set, &xs)) != EXIT_OK) {
            if (opts->exercises_dir)
                return status;
            memset(&xs, 0, sizeof xs);
        }
        status = open_screen(opts, set, &xs, screen);
        exercise_set_free(&xs);
        return status;
    }
    if (opts->demo_s > 0) {
        fprintf(stderr, "clmm-tutor: --demo needs a terminal\n");
        return EXIT_USAGE;
    }
    report_show(stdout, lesson_set_find(set, lesson), &set->sources, cli_terminal_width());
    printf("\n");
    fflush(stdout);
    status = with_device(opts, set, lesson, bench);
    print_next(opts, set, lesson);
    return status;
}

/* What a mode needs before it runs. */
enum mode_needs {
    NEEDS_NOTHING,              /* no lessons */
    NEEDS_LESSONS,              /* the lesson set, read */
    NEEDS_LESSON,               /* the set, the lesson asked for found in it, --param checked */
};

/* The command line's modes (enum mode): what each needs, and the function that runs it with
   the lesson set (NULL for NEEDS_NOTHING) and the lesson asked for. A new mode is a function
   and a line here, and its option in options.c. */
static const struct mode_ops {
    enum mode mode;
    enum mode_needs needs;
    int (*run)(const struct options *opts, const struct lesson_set *set, int lesson, commands_screen *screen);
} modes[] = {
    {MODE_HELP, NEEDS_NOTHING, mode_help},
    {MODE_VERSION, NEEDS_NOTHING, mode_version},
    {MODE_DEVICES, NEEDS_NOTHING, mode_devices},
    {MODE_CEILINGS, NEEDS_NOTHING, mode_ceilings},
    {MODE_EXERCISES, NEEDS_LESSONS, mode_exercises},
    {MODE_CHECK, NEEDS_LESSONS, mode_exercises},
    {MODE_RESET, NEEDS_LESSONS, mode_exercises},
    {MODE_SOLUTION, NEEDS_LESSONS, mode_exercises},
    {MODE_HINT, NEEDS_LESSONS, mode_exercises},
    {MODE_LIST, NEEDS_LESSON, mode_list},
    {MODE_SHOW, NEEDS_LESSON, mode_show},
    {MODE_SOURCES, NEEDS_LESSON, mode_sources},
    {MODE_BENCH, NEEDS_LESSON, mode_bench},
    {MODE_INSIDE, NEEDS_LESSON, mode_inside},
    {MODE_TUNE, NEEDS_LESSON, mode_tune},
    {MODE_TUTOR, NEEDS_LESSON, mode_tutor},
};

static const struct mode_ops *mode_of(const struct options *opts)
{
    enum mode mode = opts->mode;

    /* The tutor opened at an exercise is an exercise mode. */
    if (mode == MODE_TUTOR && opts->exercise != EXERCISE_UNSET)
        mode = MODE_EXERCISES;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i].mode == mode)
            return &modes[i];
    return NULL;
}

/* The lesson asked for (the tutor's first one when none was), found in the set, and every
   --param name and value valid for it, before anything is measured. */
static int check_lesson(const struct options *opts, const struct lesson_set *set, int *lesson)
{
    int status;

    /* The tutor starts at lesson 1, or at the set's first lesson when it has no lesson 1. */
    if (opts->mode == MODE_TUTOR && *lesson == LESSON_UNSET)
        *lesson = lesson_set_find(set, 1) || set->count == 0 ? 1 : set->items[0].number;
    if (*lesson >= 0 && !find_lesson(set, *lesson))
        return EXIT_USAGE;
    if ((status = check_param_names(opts, set, opts->mode == MODE_BENCH && *lesson == LESSON_UNSET ? LESSON_ALL : *lesson)) != 0)
        return status;
    for (size_t i = 0; i < set->count && status == 0; i++) {
        const struct params_request req = { opts->params, opts->nparams, true, NULL };
        struct param_set ps;
        struct param_origin origin;
        struct error e;
        error_init(&e);
        if ((*lesson < 0 || set->items[i].number == *lesson) &&
            params_choose(&req, &set->items[i], NULL, opts->sizes[0], &ps, &origin, &e) < 0)
            status = cli_fail(EXIT_USAGE, &e);
    }
    return status;
}

int commands_run(const struct options *opts, commands_screen *screen)
{
    const struct mode_ops *m = mode_of(opts);
    struct lesson_set set;
    int lesson = opts->lesson, status;

    if (!m) {
        fprintf(stderr, "clmm-tutor: internal error: mode %d has no entry in the table of modes\n", (int)opts->mode);
        return EXIT_RUN_FAILED;
    }
    if (m->needs == NEEDS_NOTHING)
        return m->run(opts, NULL, lesson, screen);
    if ((status = load_lessons(opts, &set)) != EXIT_OK)
        return status;
    if (m->needs == NEEDS_LESSON)
        status = check_lesson(opts, &set, &lesson);
    if (status == EXIT_OK)
        status = m->run(opts, &set, lesson, screen);
    lesson_set_free(&set);
    return status;
}
