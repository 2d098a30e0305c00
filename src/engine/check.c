/* check.c: checking a student's kernel for an exercise. */
#include "check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "files.h"
#include "needs.h"
#include "practice.h"
#include "str.h"
#include "xalloc.h"

/* Each check launch: the warm-up that is verified, then this few timed ones. */
#define CHECK_TIMED_REPS MEASURE_MIN_REPS

static const char *const verdict_names[] = { "verified", "not-built", "wrong", "unstable", "refused", "failed",
                                             "did-not-finish", "crashed", "race", "fence", "cancelled" };

const char *check_verdict_name(enum check_verdict v)
{
    return (unsigned)v <= CHECK_CANCELLED ? verdict_names[v] : "?";
}

const char *check_verdict_text(enum check_verdict v)
{
    static const char *const texts[] = { "verified", "does not build", "wrong", "launches disagree (a race)",
                                         "refused by the device", "failed", "did not finish in time",
                                         "the kernel ended the process running it",
                                         "oclgrind saw a race or a bad access",
                                         "a fence between work-groups is missing", "cancelled" };

    return (unsigned)v <= CHECK_CANCELLED ? texts[v] : "?";
}

void check_report_free(struct check_report *r)
{
    free(r->build_log);
    r->build_log = NULL;
}

int check_as_shipped(const struct check_report *r, const struct exercise *x)
{
    return r->verdict != CHECK_VERIFIED && r->verdict != CHECK_CANCELLED ? practice_as_shipped(r->file, x) : 0;
}

bool check_passed(const struct check_report *r)
{
    return r->verdict == CHECK_VERIFIED &&
           (r->speed == CHECK_SPEED_NONE || r->speed == CHECK_SPEED_MET || r->speed == CHECK_SPEED_NOT_JUDGED ||
            r->speed == CHECK_SPEED_PREDICTED);
}

void check_progress(const struct check_report *r, struct progress_check *c)
{
    memset(c, 0, sizeof *c);
    c->exercise = r->exercise;
    if (r->verdict == CHECK_NOT_BUILT)
        c->status = PROGRESS_NOT_BUILT;
    else if (r->verdict != CHECK_VERIFIED)
        c->status = PROGRESS_BUILDS;
    else
        /* A target not judged (a CPU device) is not reached: verified, not done. */
        c->status = check_passed(r) && r->speed != CHECK_SPEED_NOT_JUDGED ? PROGRESS_DONE : PROGRESS_VERIFIED;
    c->gflops = r->gflops;
    c->ratio = r->ratio;
    c->prediction = r->speed == CHECK_SPEED_PREDICTED ? r->prediction : 0;
    snprintf(c->verdict, sizeof c->verdict, "%s", check_verdict_name(r->verdict));
    str_copy(c->device, sizeof c->device, r->device);
}

/* ---- build logs ---- */

/* Names compilers give the source they were handed. */
static bool implementation_name(const char *name, size_t len)
{
    static const char *const names[] = { "<kernel>", "<stdin>", "<source>", "input.cl", "<built-in>" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (len == strlen(names[i]) && memcmp(name, names[i], len) == 0)
            return true;
    /* A temporary file: a path ending in .cl under a cache or temporary directory. */
    return len > 3 && memcmp(name + len - 3, ".cl", 3) == 0 && (memmem(name, len, "/tmp", 4) || memmem(name, len, "cache", 5));
}

/* In a log line, where "NAME:LINE:" starts (after "error: " and the like), or NULL. */
static const char *located(const char *line, size_t len, size_t *name_len, long *number)
{
    for (size_t start = 0; start < len; start++) {
        if (start > 0 && line[start - 1] != ' ')
            continue;
        for (size_t i = start; i < len && line[i] != ' '; i++) {
            if (line[i] != ':' || i == start || !isdigit((unsigned char)line[i + 1]))
                continue;
            char *end;
            long n = strtol(line + i + 1, &end, 10);
            if (*end != ':' || end > line + len)
                continue;
            *name_len = i - start;
            *number = n;
            return line + start;
        }
    }
    return NULL;
}

char *check_rewrite_log(const char *log, const char *shown_name, int *first_line)
{
    struct str s;
    size_t cap = strlen(log) * 2 + 4096;
    char *out = xmalloc(cap);

    *first_line = 0;
    str_init(&s, out, cap);
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t name_len;
        long number;
        const char *at = located(p, len, &name_len, &number);
        bool ours = at && (implementation_name(at, name_len) ||
                           (name_len == strlen(shown_name) && memcmp(at, shown_name, name_len) == 0));

        if (ours) {
            str_appendf(&s, "", "%.*s%s%.*s", (int)(at - p), p, shown_name, (int)(len - (size_t)(at - p) - name_len),
                        at + name_len);
            if (*first_line == 0 && number > 0 && number < 1000000000 &&
                (memmem(p, len, "error", 5) != NULL))
                *first_line = (int)number;
        } else {
            str_appendf(&s, "", "%.*s", (int)len, p);
        }
        if (nl)
            str_appendf(&s, "", "\n");
        p += len + (nl != NULL);
    }
    return out;
}

/* ---- the check ---- */

void check_step_describe(const struct check_step *st, int lesson, char *buf, size_t len)
{
    switch (st->kind) {
    case CHECK_STEP_BUILDING:
        snprintf(buf, len, "building");
        break;
    case CHECK_STEP_REFERENCE:
        snprintf(buf, len, "timing lesson %d at %lldx%lldx%lld for the time limit", lesson, st->size.m, st->size.n,
                 st->size.k);
        break;
    case CHECK_STEP_LAUNCH:
        snprintf(buf, len, "%lldx%lldx%lld, launch %d of %d", st->size.m, st->size.n, st->size.k, st->launch,
                 st->launches);
        break;
    case CHECK_STEP_SPEED:
        snprintf(buf, len, "measuring the speed at %lldx%lldx%lld", st->size.m, st->size.n, st->size.k);
        break;
    case CHECK_STEP_RACES:
        snprintf(buf, len, "under oclgrind at %lldx%lldx%lld, for races", st->size.m, st->size.n, st->size.k);
        break;
    }
}

static void announce(const struct check_options *o, int kind, struct gemm_size size, int launch, int launches)
{
    struct check_step st = { kind, size, launch, launches, 0.0 };

    if (o->step)
        o->step(o->step_ctx, &st);
}

static void set_message(struct check_report *r, const char *msg)
{
    if (r->message[0] == '\0')
        snprintf(r->message, sizeof r->message, "%s", msg);
}

static bool build(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *source,
                  const char *shown, struct check_report *r)
{
    struct lesson_kernels k;
    struct error e;
    const char *missing = NULL;
    int rc;

    error_init(&e);
    rc = measure_build(cl, l, ps, source, &k, &e);
    if (rc == 0) {
        measure_kernels_release(&k);
        return true;
    }
    if (rc == MEASURE_ARGS_DIFFER) {
        /* It builds; its arguments are not those the exercise passes. */
        r->verdict = CHECK_FAILED;
        snprintf(r->message, sizeof r->message, "%.200s builds, but does not take the arguments the exercise "
                 "passes (its args line; keep the signature of the starting file): %.700s", shown, e.msg);
        error_clear(&e);
        return false;
    }
    r->verdict = CHECK_NOT_BUILT;
    snprintf(r->message, sizeof r->message, "%s does not build", shown);
    /* measure_build names the kernel it could not create: kernel "NAME": ... */
    for (size_t i = 0; i < l->nlaunches && strstr(e.msg, "CL_INVALID_KERNEL_NAME"); i++) {
        char quoted[160];
        snprintf(quoted, sizeof quoted, "kernel \"%s\"", l->launch[i].entry);
        if (strstr(e.msg, quoted))
            missing = l->launch[i].entry;
    }
    if (missing)
        snprintf(r->message, sizeof r->message, "%.300s builds, but has no __kernel function called %.100s: the "
                 "exercise launches that one (its %s line)", shown, missing, missing == l->launch[0].entry
                                                                             ? "entry" : "then");
    else if (e.detail)
        r->build_log = check_rewrite_log(e.detail, shown, &r->build_line);
    else
        snprintf(r->message, sizeof r->message, "%.200s does not build: %.700s", shown, e.msg);
    error_clear(&e);
    return false;
}

static enum check_verdict verdict_of(const struct run_result *rr)
{
    switch (rr->status) {
    case RUN_OK:
        return CHECK_VERIFIED;
    case RUN_WRONG:
        return CHECK_WRONG;
    case RUN_REFUSED:
        return CHECK_REFUSED;
    case RUN_ERROR:
        break;
    }
    return rr->cancelled ? CHECK_CANCELLED : CHECK_FAILED;
}

/* A workspace for a check at size s, with a guard as large as C after it: a store past the
   end of C lands there (and is reported) rather than in memory the program uses, which on
   a CPU device is the program's own. */
static int guarded_workspace(struct workspace *w, struct ocl *cl, struct gemm_size s, uint64_t seed, struct error *e)
{
    if (workspace_init(w, cl, s, seed, e) < 0)
        return -1;
    w->guard = (size_t)(s.m * s.n) + 65536;
    return 0;
}

/* repeat verified launches at one size, with the same inputs; their results must agree. */
static void check_size(struct ocl *cl, const struct exercise *x, const struct lesson *l, const struct param_set *ps,
                       const struct measure_config *cfg, const struct check_options *o, struct check_size *cs)
{
    struct workspace w;
    struct error e;
    float *first = NULL;
    size_t count = (size_t)(cs->size.m * cs->size.n);

    error_init(&e);
    if (guarded_workspace(&w, cl, cs->size, cfg->seed + (uint64_t)cs->size.m * 7 + (uint64_t)cs->size.k, &e) < 0) {
        cs->verdict = CHECK_REFUSED;
        snprintf(cs->message, sizeof cs->message, "%s", e.msg);
        return;
    }
    for (int rep = 0; rep < x->repeat && cs->verdict == CHECK_VERIFIED; rep++) {
        struct run_result rr;
        run_result_init(&rr);
        announce(o, CHECK_STEP_LAUNCH, cs->size, rep + 1, x->repeat);
        measure_lesson(&w, l, ps, cfg, &rr);
        cs->verdict = verdict_of(&rr);
        cs->max_error = rr.verify.max_error > cs->max_error ? rr.verify.max_error : cs->max_error;
        cs->tolerance = rr.verify.tolerance;
        if (cs->verdict == CHECK_WRONG) {
            cs->map = rr.errmap;
            snprintf(cs->message, sizeof cs->message, "launch %d of %d: %s", rep + 1, x->repeat, rr.verify.detail);
        } else if (cs->verdict != CHECK_VERIFIED) {
            snprintf(cs->message, sizeof cs->message, "%s", rr.error.msg);
        } else {
            cs->launches++;
            if (!first) {
                first = xmalloc(count * sizeof *first);
                memcpy(first, w.C, count * sizeof *first);
            } else if (memcmp(first, w.C, count * sizeof *first) != 0) {
                for (size_t i = 0; i < count; i++)
                    cs->differing += memcmp(&first[i], &w.C[i], sizeof *first) != 0;
                cs->verdict = CHECK_UNSTABLE;
                snprintf(cs->message, sizeof cs->message,
                         "launch %d of %d gave a different result from launch 1 on the same inputs (%lld of "
                         "%zu elements differ), though each was within the tolerance: work-items race, "
                         "most likely for local memory (a missing barrier)",
                         rep + 1, x->repeat, cs->differing, count);
            }
        }
        run_result_free(&rr);
    }
    free(first);
    workspace_free(&w);
}

/* The kernel and the compared lesson at the speed size, in one workspace. */
static void measure_speed(struct ocl *cl, const struct exercise *x, const struct lesson_set *lessons,
                          const struct lesson *l, const struct param_set *ps, const struct check_options *o,
                          struct check_report *r)
{
    const struct lesson *versus = lesson_set_find(lessons, x->versus);
    struct run_result mine, theirs;
    struct workspace w;
    struct error e;

    if (x->speed == SPEED_PREDICT && !o->has_prediction) {
        r->speed = CHECK_SPEED_PREDICT_FIRST;
        snprintf(r->speed_message, sizeof r->speed_message,
                 "predict first: how many times as fast as lesson %d do you expect your kernel to be at "
                 "%lldx%lldx%lld? (the tutor asks; on the command line, --predict R)",
                 x->versus, r->speed_size.m, r->speed_size.n, r->speed_size.k);
        return;
    }
    r->speed = CHECK_SPEED_FAILED;
    error_init(&e);
    if (!versus) {
        snprintf(r->speed_message, sizeof r->speed_message, "no lesson %d to compare with", x->versus);
        return;
    }
    if (guarded_workspace(&w, cl, r->speed_size, o->measure.seed, &e) < 0) {
        str_copy(r->speed_message, sizeof r->speed_message, e.msg);
        return;
    }
    run_result_init(&mine);
    run_result_init(&theirs);
    measure_lesson(&w, l, ps, &o->measure, &mine);
    if (mine.status == RUN_OK) {
        struct measure_config cfg = o->measure;
        cfg.source = NULL;
        measure_lesson(&w, versus, NULL, &cfg, &theirs);
    }
    if (mine.status != RUN_OK) {
        if (mine.status == RUN_WRONG) {
            /* Wrong at a size the exercise did not list: the check as a whole fails. */
            r->verdict = CHECK_WRONG;
            r->speed = CHECK_SPEED_NONE;
            snprintf(r->message, sizeof r->message, "wrong at %lldx%lldx%lld, the size of the speed measurement: %.250s",
                     r->speed_size.m, r->speed_size.n, r->speed_size.k, mine.verify.detail);
        } else {
            snprintf(r->speed_message, sizeof r->speed_message, "your kernel at %lldx%lldx%lld: %s%s%.300s",
                     r->speed_size.m, r->speed_size.n, r->speed_size.k, run_status_name(mine.status),
                     mine.error.msg[0] ? ": " : "", mine.error.msg);
        }
    } else if (theirs.status != RUN_OK) {
        snprintf(r->speed_message, sizeof r->speed_message, "lesson %d at %lldx%lldx%lld: %s: %.300s", x->versus,
                 r->speed_size.m, r->speed_size.n, r->speed_size.k, run_status_name(theirs.status), theirs.error.msg);
    } else {
        r->gflops = mine.gflops.median;
        r->versus_gflops = theirs.gflops.median;
        r->ratio = r->versus_gflops > 0 ? r->gflops / r->versus_gflops : 0;
        if (x->speed == SPEED_PREDICT)
            r->speed = CHECK_SPEED_PREDICTED;
        else if (!r->device_is_gpu || r->emulated)
            r->speed = CHECK_SPEED_NOT_JUDGED;
        else
            r->speed = r->ratio >= x->ratio ? CHECK_SPEED_MET : CHECK_SPEED_MISSED;
        if (r->emulated) {
            char note[160];
            snprintf(r->speed_message, sizeof r->speed_message, "%s%s",
                     lesson_emulation_note(cl->device, note, sizeof note),
                     r->speed == CHECK_SPEED_NOT_JUDGED ? ": the target is judged on an NVIDIA GPU of compute "
                                                          "capability 8.0 or later" : "");
        }
        else if (r->speed == CHECK_SPEED_NOT_JUDGED)
            snprintf(r->speed_message, sizeof r->speed_message,
                     "the target is judged on GPUs only: this is a CPU device, whose speed-ups say little "
                     "about a GPU's");
        else if (!r->device_is_gpu)
            snprintf(r->speed_message, sizeof r->speed_message,
                     "measured on a CPU device, whose speed-ups say little about a GPU's");
    }
    run_result_free(&mine);
    run_result_free(&theirs);
    workspace_free(&w);
}

/* The kernel declares local memory: the word local or __local (not get_local_id, say). */
static bool uses_local_memory(const char *source)
{
    for (const char *p = source; *p; p++) {
        size_t n;
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > source && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        for (n = 0; isalnum((unsigned char)p[n]) || p[n] == '_'; n++)
            ;
        if ((n == 5 && strncmp(p, "local", 5) == 0) || (n == 7 && strncmp(p, "__local", 7) == 0))
            return true;
        p += n - 1;
    }
    return false;
}

/* What the exercise's own kernel uses, and how many barriers it has: its uses line, else
   the text of its solution. */
static void reference_uses(const struct exercise *x, const struct lesson_set *lessons, unsigned *uses,
                           int *barriers)
{
    struct lesson sol;
    struct error e;
    char *text;

    *uses = x->uses_given ? x->uses : USES_ALL;
    *barriers = -1;
    error_init(&e);
    exercise_solution_lesson(x, lessons, &sol);
    if ((text = lesson_kernel_source(&sol, &e))) {
        if (!x->uses_given)
            *uses = errmap_uses_of(text);
        *barriers = errmap_barriers_of(text);
        free(text);
    }
    error_clear(&e);
}

/* A wrong size at which M != N, where the same kernel is right at a size with M = N (an
   earlier size of the check, else one more launch at max(M, N) on each side of C). */
static bool right_when_square(struct ocl *cl, const struct lesson *l, const struct param_set *ps,
                              const struct measure_config *cfg, const struct check_options *o,
                              const struct check_report *r, const struct check_size *wrong)
{
    struct gemm_size s = wrong->size;
    struct workspace w;
    struct run_result rr;
    struct error e;
    bool right;

    if (s.m == s.n)
        return false;
    for (size_t i = 0; i + 1 < r->nsizes; i++)
        if (r->sizes[i].size.m == r->sizes[i].size.n && r->sizes[i].verdict == CHECK_VERIFIED)
            return true;
    s.m = s.n = s.m > s.n ? s.m : s.n;
    error_init(&e);
    if (guarded_workspace(&w, cl, s, cfg->seed + 1, &e) < 0) {
        error_clear(&e);
        return false;
    }
    announce(o, CHECK_STEP_LAUNCH, s, 1, 1);
    run_result_init(&rr);
    measure_lesson(&w, l, ps, cfg, &rr);
    right = rr.status == RUN_OK;
    run_result_free(&rr);
    workspace_free(&w);
    return right;
}

/* The suspect of a wrong size that the map alone cannot see: a barrier fewer than the
   exercise's kernel has (a race, which a CPU device shows as a pattern), or M and N
   exchanged. */
static void name_suspect(struct ocl *cl, const struct exercise *x, const struct lesson_set *lessons,
                         const struct lesson *l, const struct param_set *ps, const struct measure_config *cfg,
                         const struct check_options *o, const char *source, struct check_report *r,
                         struct check_size *cs)
{
    unsigned uses;
    int barriers;

    reference_uses(x, lessons, &uses, &barriers);
    cs->map.uses = uses;
    if ((uses & USES_BARRIERS) && barriers > 0 && errmap_barriers_of(source) < barriers)
        cs->map.suspect = SUSPECT_RACE;
    else if (cs->map.pattern != ERRMAP_EDGES && right_when_square(cl, l, ps, cfg, o, r, cs))
        cs->map.suspect = SUSPECT_M_N;
}

int check_run(struct ocl *cl, const struct exercise *x, const struct lesson_set *lessons,
              const struct check_options *o, struct check_report *r, struct error *e)
{
    const char *shown = o->shown_name ? o->shown_name : o->file;
    struct measure_config cfg = o->measure;
    struct lesson l = x->l;
    struct param_set ps;
    char *source;
    size_t len;

    memset(r, 0, sizeof *r);
    r->exercise = x->number;
    str_copy(r->title, sizeof r->title, x->l.title);
    str_copy(r->file, sizeof r->file, o->file);
    device_describe(cl->device, r->device, sizeof r->device);
    r->device_is_gpu = (cl->device->type & CL_DEVICE_TYPE_GPU) != 0;
    r->sizes_total = x->nsizes;
    r->versus = x->versus;
    r->target = x->ratio;
    r->prediction = o->has_prediction ? o->prediction : 0;
    if (x->speed != SPEED_NONE)
        r->speed_size = o->speed_size_given ? o->speed_size : r->device_is_gpu ? x->speed_size : x->sizes[0];
    l.kernel_file = (char *)o->file;
    param_set_defaults(&l, &ps);
    r->emulated = lesson_emulated(&l, cl->device);
    /* An exercise for another device is refused as its lesson would be, before any build. */
    if (lesson_device_check(&l, cl->device, e) < 0) {
        r->verdict = CHECK_REFUSED;
        snprintf(r->message, sizeof r->message, "%s", e->msg);
        return 0;
    }

    /* Built as the student wrote it: no #line directive, which some compilers (NVIDIA's)
       ignore while counting its line; the log is rewritten to name the file instead. */
    source = files_read(o->file, LESSON_KERNEL_MAX, "your kernel", &len, e);
    if (!source || strlen(source) != len) {
        r->verdict = CHECK_FAILED;
        if (source)
            snprintf(r->message, sizeof r->message, "%s holds a NUL byte: a kernel is text", o->file);
        else
            snprintf(r->message, sizeof r->message, "%s", e->msg);
        free(source);
        return 0;
    }
    announce(o, CHECK_STEP_BUILDING, (struct gemm_size){ 0, 0, 0 }, 0, 0);
    if (!build(cl, &l, &ps, source, shown, r)) {
        free(source);
        return 0;
    }
    cfg.source = source;
    cfg.reps = CHECK_TIMED_REPS;
    for (size_t i = 0; i < x->nsizes; i++) {
        struct check_size *cs = &r->sizes[r->nsizes++];
        cs->size = x->sizes[i];
        cs->verdict = CHECK_VERIFIED;
        check_size(cl, x, &l, &ps, &cfg, o, cs);
        if (cs->verdict == CHECK_WRONG && cs->map.pattern != ERRMAP_NONE)
            name_suspect(cl, x, lessons, &l, &ps, &cfg, o, source, r, cs);
        if (cs->verdict != CHECK_VERIFIED) {
            r->verdict = cs->verdict;
            set_message(r, cs->message);
            break;
        }
    }
    r->barrier_note = r->verdict == CHECK_VERIFIED && !r->device_is_gpu && uses_local_memory(source);
    if (r->verdict == CHECK_VERIFIED && x->speed != SPEED_NONE) {
        struct check_options so = *o;
        so.measure.source = source;
        if (x->speed != SPEED_PREDICT || o->has_prediction)
            announce(o, CHECK_STEP_SPEED, r->speed_size, 0, 0);
        measure_speed(cl, x, lessons, &l, &ps, &so, r);
    }
    free(source);
    return 0;
}
