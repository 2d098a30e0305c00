/* session.c: the worker thread behind the interactive screen.

   Everything the screen may read lives in one view guarded by one lock; the worker takes
   the lock to read what is wanted and to publish what it measured, and lets go of it for
   every call that may take time (opening the device, building, measuring). A change the
   screen makes bumps a generation number: the worker drops a result measured for an older
   generation, and the cancel flag stops such a run between two launches. */
#include "session.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "check.h"
#include "fences.h"
#include "figures.h"
#include "isolate.h"
#include "ocl.h"
#include "params.h"
#include "races.h"
#include "reference.h"
#include "runner_clblast.h"
#include "str.h"
#include "tune.h"
#include "tuned.h"
#include "xalloc.h"

#define LIVE_BUDGET_S 0.25      /* a live measurement: a few points a second on fast kernels */
#define SERIES_BUDGET_S 0.5
#define DEFAULT_GPU_SIDE 2048
#define DEFAULT_OTHER_SIDE 512
#define SWEEP_FIRST 64
#define SWEEP_LAST 8192

enum doing { DOING_NOTHING, DOING_LIVE, DOING_JOB, DOING_CHECK, DOING_OTHER };

struct session {
    const struct lesson_set *lessons;
    struct session_config cfg;
    char tuned_file[4096];      /* the tuner's saved parameters; empty: none kept */
    char *state_device;

    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    atomic_int cancel;
    bool quit, finished;

    /* What the screen wants; under the lock. */
    int want_device;            /* -1: the one the options or the state file name */
    struct gemm_size want_size;
    unsigned long live_gen;     /* bumped when the live lesson, its parameters or kernel change */
    enum session_job want_job;
    unsigned long job_serial;   /* bumped by every start or cancel of a series */
    int reload;                 /* a lesson index, or -1 */
    int force;                  /* the live lesson runs even when its estimate is over the limit; -1: none */
    size_t tune_from_log;       /* configurations the tuner took from an earlier run's log */
    enum doing doing;

    struct param_set *params;   /* per lesson, by index */
    struct param_origin *origin;    /* where each lesson's parameters came from */
    bool *hand_set;             /* changed with t: kept over a change of size */
    char **sources;             /* the kernel text measured, per lesson; replaced by a reload */

    /* Checks of exercises: the one asked for (check_want) and the newest report. */
    const struct exercise *check_exercise;
    struct check_options check_want;
    char check_file[4096], check_shown[4096];
    bool check_pending;
    struct check_report check_report;

    struct session_view view;
    struct results results;     /* every run of the session; the view's bars are summed from it */

    /* The worker's own */
    struct device_list list;
    bool list_loaded;
    struct ocl cl;
    bool cl_open;
    int open_device;            /* the device last opened or tried; -1: none */
    struct workspace w;
    bool w_ready;
    int inside_device;          /* the device the view's look inside was made on */
    struct isolate *iso;        /* the child that runs students' kernels, and the lessons'
                                   when they are not the installed ones (isolate.h) */
    long check_clock;           /* the seconds of the check's step last published */
};

static void publish(struct session *s)
{
    s->view.want_size = s->want_size;
    s->view.want_job = s->want_job;
    s->view.version++;
}

static void notice(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void notice(struct session *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->view.notice, sizeof s->view.notice, fmt, ap);
    va_end(ap);
    s->view.notices++;
    publish(s);
}

static const struct lesson *lesson_at(const struct session *s, int index)
{
    return &s->lessons->items[index];
}

static void summary_clear(struct summary *f)
{
    memset(f, 0, sizeof *f);
}

/* One run on its own, for the "latest" figure and the sweep. */
static void summary_of_run(struct summary *f, const struct run_result *r)
{
    summary_clear(f);
    f->have = true;
    f->status = r->status;
    f->launches = r->reps;
    f->runs = 1;
    f->estimate_s = r->refused_by_estimate ? r->estimate_s : 0.0;
    str_copy(f->params, sizeof f->params, r->params);
    if (r->status == RUN_OK) {
        f->median = f->latest = r->gflops.median;
        f->q1 = r->gflops.q1;
        f->q3 = r->gflops.q3;
    } else {
        str_copy(f->message, sizeof f->message, r->error.msg);
    }
}

/* Whether lesson index runs with parameters of its own choosing: not the defaults, not the
   tuner's. */
static bool params_changed(const struct session *s, int index)
{
    struct param_set defaults;
    const struct lesson *l = lesson_at(s, index);

    if (s->origin[index].source == PARAMS_TUNED)
        return false;
    param_set_defaults(l, &defaults);
    for (size_t i = 0; i < l->nparams; i++)
        if (defaults.values[i] != s->params[index].values[i])
            return true;
    return false;
}

/* What the reference rows are measured with. */
static struct reference_settings settings(const struct session *s)
{
    return (struct reference_settings){ s->cfg.clblast };
}

/* The bars, the current lesson's median and history: from every run at this size on this
   device with the parameters each lesson has now. */
static void summarise(struct session *s)
{
    struct session_view *v = &s->view;

    for (size_t i = 0; i < s->lessons->count; i++) {
        char params[256];
        bool current = (int)i == v->lesson;
        param_set_format(lesson_at(s, (int)i), &s->params[i], params, sizeof params);
        results_summary(&s->results, v->device, v->size, (int)i, params, &v->bars[i],
                        current ? v->history : NULL, current ? &v->nhistory : NULL);
        v->changed[i] = params_changed(s, (int)i);
    }
    /* Keyed by their parameters: a figure of CLBlast's defaults is never shown as tuned. */
    for (size_t i = 0; i < v->nrefs; i++) {
        struct reference_settings rs = settings(s);
        const struct reference_kind *k = reference_at(i);
        results_summary(&s->results, v->device, v->size, k->lesson, reference_params(k, &rs), &v->refs[i], NULL,
                        NULL);
    }
}

static void clear_size_results(struct session *s)
{
    summary_clear(&s->view.latest);
    s->view.live_stopped = false;
    summarise(s);
}

/* The live lesson's target changed: its history starts again. */
static void restart_live(struct session *s)
{
    s->live_gen++;
    memset(&s->view.latest_map, 0, sizeof s->view.latest_map);
    if (s->force != s->view.lesson)
        s->force = -1;
    summary_clear(&s->view.latest);
    s->view.live_stopped = false;
    s->view.params = s->params[s->view.lesson];
    s->view.origin = s->origin[s->view.lesson];
    s->view.hand_set = s->hand_set[s->view.lesson];
    summarise(s);
    if (s->doing == DOING_LIVE)
        atomic_store(&s->cancel, 1);
    pthread_cond_signal(&s->wake);
    publish(s);
}

/* Called by the measurement on the worker thread, without the lock: where the run is. */
static void on_progress(void *ctx, const struct measure_progress *p)
{
    struct session *s = ctx;

    pthread_mutex_lock(&s->lock);
    s->view.progress = *p;
    s->view.progress_at = now_seconds();
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

static struct measure_config config(struct session *s, double budget)
{
    struct measure_config cfg = s->cfg.measure;

    if (!s->cfg.budget_given)
        cfg.budget_s = budget;
    cfg.cancel = &s->cancel;
    cfg.progress = on_progress;
    cfg.progress_ctx = s;
    return cfg;
}

static void set_activity(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_activity(struct session *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->view.activity, sizeof s->view.activity, fmt, ap);
    va_end(ap);
    s->view.busy = true;
    s->view.activity_started = now_seconds();
    memset(&s->view.progress, 0, sizeof s->view.progress);
    publish(s);
}

static void set_idle(struct session *s)
{
    s->view.busy = false;
    s->view.activity[0] = '\0';
    s->doing = DOING_NOTHING;
    publish(s);
}

/* ---- the device ---- */

/* The lessons' parameters on this device at this size: the tuner's where saved near it,
   else the defaults, with --param over them; a lesson changed with t (hand_set) keeps its
   values. The command line checked --param against the lesson it starts at only: for the
   others, an override of a value the lesson does not allow is left out. */
static void choose_params(const struct session *s, const struct device_info *d, struct gemm_size size,
                          const bool *hand_set, struct param_set *params, struct param_origin *origin)
{
    const struct params_request *asked = &s->cfg.params;
    struct param_override *kept = xcalloc(asked->noverrides + 1, sizeof *kept);

    for (size_t i = 0; i < s->lessons->count; i++) {
        const struct lesson *l = &s->lessons->items[i];
        struct params_request req = *asked;
        struct error e;
        if (hand_set[i])
            continue;
        req.tuned_path = s->tuned_file[0] ? s->tuned_file : NULL;
        req.overrides = kept;
        req.noverrides = 0;
        for (size_t k = 0; k < asked->noverrides; k++) {
            int at = lesson_param_index(l, asked->overrides[k].name);
            if (at >= 0 && lesson_param_allows(&l->params[at], asked->overrides[k].value))
                kept[req.noverrides++] = asked->overrides[k];
        }
        error_init(&e);
        if (params_choose(&req, l, d, size, &params[i], &origin[i], &e) < 0) {
            param_set_defaults(l, &params[i]);
            memset(&origin[i], 0, sizeof origin[i]);
        }
        error_clear(&e);
    }
    free(kept);
}

/* The screen closes and prints msg (the lock held). */
static void fatal(struct session *s, const char *msg)
{
    s->view.fatal = true;
    str_copy(s->view.fatal_error, sizeof s->view.fatal_error, msg);
    publish(s);
}

static int initial_device(struct session *s, struct error *e)
{
    const char *spec = s->cfg.device ? s->cfg.device : getenv("CLMM_TUTOR_DEVICE");
    const struct device_info *d;
    char name[600];

    if (!spec && s->state_device)
        for (size_t i = 0; i < s->list.count; i++) {
            device_describe(&s->list.items[i], name, sizeof name);
            if (strcmp(name, s->state_device) == 0)
                return (int)i;
        }
    d = device_select(&s->list, spec, e);
    return d ? (int)(d - s->list.items) : -1;
}

static void load_devices(struct session *s)
{
    struct error e;
    int chosen = -1;

    error_init(&e);
    pthread_mutex_unlock(&s->lock);
    s->list_loaded = device_list_load(&s->list, &e) == 0;
    if (s->list_loaded)
        chosen = initial_device(s, &e);
    pthread_mutex_lock(&s->lock);
    if (chosen >= SESSION_MAX_DEVICES) {
        error_set(&e, "the screen lists the first %d devices; device %d is beyond them (--bench and --tune "
                      "can use it)", SESSION_MAX_DEVICES, chosen);
        chosen = -1;
    }
    if (!s->list_loaded || chosen < 0) {
        fatal(s, e.msg);
        error_clear(&e);
        return;
    }
    for (size_t i = 0; i < s->list.count && i < SESSION_MAX_DEVICES; i++)
        device_describe(&s->list.items[i], s->view.devices[i], sizeof s->view.devices[i]);
    s->view.ndevices = s->list.count < SESSION_MAX_DEVICES ? (int)s->list.count : SESSION_MAX_DEVICES;
    s->view.devices_known = true;
    if (s->want_device < 0)
        s->want_device = chosen;
    publish(s);
}

static void close_device(struct session *s)
{
    if (s->w_ready)
        workspace_free(&s->w);
    s->w_ready = false;
    if (s->cl_open)
        ocl_close(&s->cl);
    s->cl_open = false;
}

static void open_workspace(struct session *s, struct gemm_size size, char *why, size_t len)
{
    struct error e;

    error_init(&e);
    why[0] = '\0';
    s->w_ready = workspace_init(&s->w, &s->cl, size, s->cfg.measure.seed, &e) == 0;
    if (!s->w_ready)
        str_copy(why, len, e.msg);
    else if (s->cfg.lessons_apart)
        isolate_attach(s->iso, &s->w);
    error_clear(&e);
}

/* The open device's ceilings: from the cache, else measured (a moment; the screen says so). */
static void device_ceilings(struct session *s, struct ceilings *c, char *why, size_t len)
{
    struct error e;

    error_init(&e);
    if (!ceilings_cached(s->cl.device, c)) {
        pthread_mutex_lock(&s->lock);
        set_activity(s, "measuring the device's FP32 peak and bandwidth (once: they are kept)");
        pthread_mutex_unlock(&s->lock);
        if (ceilings_get(&s->cl, false, c, &e) < 0) {
            c->have = false;
            snprintf(why, len, "the device's ceilings could not be measured: %s", e.msg);
        }
    }
    error_clear(&e);
}

static void switch_device(struct session *s)
{
    int index = s->want_device;
    struct gemm_size size = s->want_size;
    const struct device_info *d = &s->list.items[index];
    char size_error[512] = "", ceilings_error[1200] = "";
    struct ceilings ceilings = { .have = false };
    struct param_set *params = xcalloc(s->lessons->count, sizeof *params);
    struct param_origin *origin = xcalloc(s->lessons->count, sizeof *origin);
    bool *hand_set = xcalloc(s->lessons->count, sizeof *hand_set);
    struct error e;
    bool ok;

    memcpy(params, s->params, s->lessons->count * sizeof *params);
    memcpy(origin, s->origin, s->lessons->count * sizeof *origin);
    memcpy(hand_set, s->hand_set, s->lessons->count * sizeof *hand_set);
    error_init(&e);
    /* No size given or remembered: one that a lesson measures in about a second. */
    if (size.m == 0) {
        long long side = d->type & CL_DEVICE_TYPE_GPU ? DEFAULT_GPU_SIDE : DEFAULT_OTHER_SIDE;
        size = s->want_size = (struct gemm_size){ side, side, side };
    }
    s->doing = DOING_OTHER;
    s->view.device_ready = false;
    set_activity(s, "opening the device");
    pthread_mutex_unlock(&s->lock);
    close_device(s);
    ok = s->cl_open = ocl_open(&s->cl, d, &e) == 0;
    /* CLBlast's tuned parameters are checked against the device the tutor starts on, as
       --bench checks them; on a device chosen later, the CLBlast row says why they do not
       apply. */
    if (ok && s->cfg.clblast && s->open_device < 0 && clblast_apply(&s->cl, s->cfg.clblast, &e) < 0) {
        pthread_mutex_lock(&s->lock);
        fatal(s, e.msg);
        error_clear(&e);
        free(params);
        free(origin);
        free(hand_set);
        return;
    }
    if (ok)
        device_ceilings(s, &ceilings, ceilings_error, sizeof ceilings_error);
    if (ok)
        open_workspace(s, size, size_error, sizeof size_error);
    choose_params(s, d, size, hand_set, params, origin);
    pthread_mutex_lock(&s->lock);
    s->view.device = index;
    s->view.info = *d;
    s->view.device_ready = ok;
    s->view.ceilings = ceilings;
    str_copy(s->view.ceilings_error, sizeof s->view.ceilings_error, ceilings_error);
    str_copy(s->view.device_error, sizeof s->view.device_error, ok ? "" : e.msg);
    str_copy(s->view.size_error, sizeof s->view.size_error, size_error);
    s->view.size = size;
    /* Only the lessons not changed with t meanwhile take the chosen parameters. */
    for (size_t i = 0; i < s->lessons->count; i++)
        if (!s->hand_set[i]) {
            s->params[i] = params[i];
            s->origin[i] = origin[i];
        }
    s->force = -1;
    clear_size_results(s);
    restart_live(s);
    /* A device that failed to open is not tried again until another is chosen. */
    s->open_device = index;
    set_idle(s);
    error_clear(&e);
    free(params);
    free(origin);
    free(hand_set);
}

static void resize(struct session *s)
{
    struct gemm_size size = s->want_size;
    char size_error[512];

    s->doing = DOING_OTHER;
    set_activity(s, "preparing matrices of %lldx%lldx%lld", size.m, size.n, size.k);
    pthread_mutex_unlock(&s->lock);
    if (s->w_ready)
        workspace_free(&s->w);
    open_workspace(s, size, size_error, sizeof size_error);
    pthread_mutex_lock(&s->lock);
    s->view.size = size;
    str_copy(s->view.size_error, sizeof s->view.size_error, size_error);
    /* The tuner's parameters apply near the size they were found at. */
    choose_params(s, &s->list.items[s->open_device], size, s->hand_set, s->params, s->origin);
    s->force = -1;
    clear_size_results(s);
    restart_live(s);
    set_idle(s);
}

static bool same_size(struct gemm_size a, struct gemm_size b)
{
    return a.m == b.m && a.n == b.n && a.k == b.k;
}

/* ---- measuring ---- */

/* Measures lesson index on workspace w with the lock released; true when the result still
   belongs to generation gen of counter *counter. */
static bool measure_unlocked(struct session *s, struct workspace *w, int index, double budget,
                             const unsigned long *counter, unsigned long gen, struct run_result *r)
{
    struct param_set ps = s->params[index];
    struct measure_config cfg = config(s, budget);

    cfg.force |= counter == &s->live_gen && s->force == index;
    cfg.source = s->sources[index];
    run_result_init(r);
    /* Asked to stop while the lock was let go (a sweep's matrices take time to fill). */
    if (*counter != gen || s->quit) {
        r->cancelled = true;
        return false;
    }
    atomic_store(&s->cancel, 0);
    pthread_mutex_unlock(&s->lock);
    measure_lesson(w, lesson_at(s, index), &ps, &cfg, r);
    pthread_mutex_lock(&s->lock);
    return !r->cancelled && *counter == gen && !s->quit;
}

/* Keeps a run of lesson index (or a reference row's lesson number) at size on the open device. */
static void record(struct session *s, int index, struct gemm_size size, const struct run_result *r)
{
    const struct param_origin *o = index >= 0 ? &s->origin[index] : NULL;
    bool tuned = o && o->source == PARAMS_TUNED;

    results_add(&s->results, s->view.device, size, index, tuned, tuned && !o->tuned.complete, r);
    summarise(s);
}

/* Whether the look inside the live lesson is missing or of other parameters, kernel or device. */
static bool inside_stale(const struct session *s)
{
    const struct lesson *l = lesson_at(s, s->view.lesson);
    char params[256];

    if (l->engine != ENGINE_OPENCL)
        return false;
    param_set_format(l, &s->params[s->view.lesson], params, sizeof params);
    return s->view.inside_lesson != s->view.lesson || strcmp(s->view.inside_params, params) != 0 ||
           s->view.inside_sources != s->view.sources_version || s->inside_device != s->open_device;
}

/* Builds the live lesson with the compiler's report asked for, and looks inside. */
static void look_inside(struct session *s)
{
    int index = s->view.lesson;
    const struct lesson *l = lesson_at(s, index);
    struct param_set ps = s->params[index];
    struct gemm_size size = s->view.size;
    struct inside in;
    struct figures f;
    struct error e;
    int rc;

    s->doing = DOING_OTHER;
    set_activity(s, "looking inside lesson %d's kernel", l->number);
    pthread_mutex_unlock(&s->lock);
    error_init(&e);
    rc = inside_examine(&s->cl, l, &ps,
                        figures_compute(l, &ps, size, NULL, &f, &e) == 0 ? f.outputs_per_item : 0, &in, &e);
    if (rc == 0)
        inside_free(&in);       /* the binary: the screen shows the counts, not the text */
    pthread_mutex_lock(&s->lock);
    s->view.inside_have = rc == 0;
    s->view.inside_lesson = index;
    param_set_format(l, &ps, s->view.inside_params, sizeof s->view.inside_params);
    s->view.inside_sources = s->view.sources_version;
    s->inside_device = s->open_device;
    if (rc == 0)
        s->view.inside = in;
    str_copy(s->view.inside_error, sizeof s->view.inside_error, rc == 0 ? "" : e.msg);
    error_clear(&e);
    set_idle(s);
}

static void live_step(struct session *s)
{
    int index = s->view.lesson;
    unsigned long gen = s->live_gen;
    struct run_result r;

    s->doing = DOING_LIVE;
    set_activity(s, "measuring lesson %d", lesson_at(s, index)->number);
    if (measure_unlocked(s, &s->w, index, LIVE_BUDGET_S, &s->live_gen, gen, &r)) {
        record(s, index, s->view.size, &r);
        summary_of_run(&s->view.latest, &r);
        s->view.latest_map = r.errmap;
        if (r.status != RUN_OK)
            s->view.live_stopped = true;    /* the same run would fail the same way */
    }
    run_result_free(&r);
    set_idle(s);
}

static bool job_still(const struct session *s, enum session_job job, unsigned long serial)
{
    return !s->quit && s->want_job == job && s->job_serial == serial;
}

static void job_begin(struct session *s, enum session_job job, size_t total)
{
    s->doing = DOING_JOB;
    s->view.job = job;
    s->view.job_done = 0;
    s->view.job_total = total;
    s->view.job_started = now_seconds();
    publish(s);
}

static void job_end(struct session *s, enum session_job job, unsigned long serial)
{
    if (job_still(s, job, serial))
        s->want_job = JOB_NONE;
    s->view.job = JOB_NONE;
    set_idle(s);
}

static void run_all(struct session *s)
{
    unsigned long serial = s->job_serial;
    size_t n = s->lessons->count;

    job_begin(s, JOB_ALL, n + s->view.nrefs);
    for (size_t i = 0; i < n && job_still(s, JOB_ALL, serial); i++) {
        struct run_result r;
        set_activity(s, "measuring lesson %d at %lldx%lldx%lld", lesson_at(s, (int)i)->number, s->view.size.m,
                     s->view.size.n, s->view.size.k);
        if (measure_unlocked(s, &s->w, (int)i, SERIES_BUDGET_S, &s->job_serial, serial, &r)) {
            record(s, (int)i, s->view.size, &r);
            s->view.job_done++;
        }
        run_result_free(&r);
    }
    for (size_t i = 0; i < s->view.nrefs && job_still(s, JOB_ALL, serial); i++) {
        const struct reference_kind *k = reference_at(i);
        struct reference_settings rs = settings(s);
        struct measure_config cfg = config(s, SERIES_BUDGET_S);
        struct run_result r;
        set_activity(s, "measuring %s at %lldx%lldx%lld", k->name, s->view.size.m, s->view.size.n, s->view.size.k);
        atomic_store(&s->cancel, 0);
        pthread_mutex_unlock(&s->lock);
        run_result_init(&r);
        reference_measure(k, &s->w, &rs, &cfg, &r);
        pthread_mutex_lock(&s->lock);
        if (!r.cancelled && job_still(s, JOB_ALL, serial))
            record(s, k->lesson, s->view.size, &r);
        s->view.job_done++;
        run_result_free(&r);
    }
    job_end(s, JOB_ALL, serial);
}

static size_t sweep_sizes(struct gemm_size size, struct gemm_size *out)
{
    long long most = size.m > size.n ? size.m : size.n, last;
    size_t n = 0;

    most = most > size.k ? most : size.k;
    last = most * 2 < 512 ? 512 : most * 2 > SWEEP_LAST ? SWEEP_LAST : most * 2;
    for (long long side = SWEEP_FIRST; side <= last && n < SESSION_MAX_SWEEP; side *= 2)
        out[n++] = (struct gemm_size){ side, side, side };
    return n;
}

static void run_sweep(struct session *s)
{
    unsigned long serial = s->job_serial;
    struct gemm_size sizes[SESSION_MAX_SWEEP];
    size_t n = sweep_sizes(s->view.size, sizes);
    int index = s->view.sweep_lesson;

    s->view.nsweep = 0;
    s->view.sweep_total = n;
    job_begin(s, JOB_SWEEP, n);
    for (size_t i = 0; i < n && job_still(s, JOB_SWEEP, serial); i++) {
        struct sweep_point *p = &s->view.sweep[i];
        struct workspace w;
        struct run_result r;
        char why[512];
        bool ready;
        set_activity(s, "sweep: lesson %d at %lldx%lldx%lld", lesson_at(s, index)->number, sizes[i].m,
                     sizes[i].n, sizes[i].k);
        pthread_mutex_unlock(&s->lock);
        {
            struct error e;
            error_init(&e);
            ready = workspace_init(&w, &s->cl, sizes[i], s->cfg.measure.seed, &e) == 0;
            str_copy(why, sizeof why, e.msg);
            if (ready && s->cfg.lessons_apart)
                isolate_attach(s->iso, &w);
            error_clear(&e);
        }
        pthread_mutex_lock(&s->lock);
        if (!ready && !job_still(s, JOB_SWEEP, serial))
            break;          /* cancelled or replaced while the matrices were being made */
        if (!ready) {
            p->size = sizes[i];
            summary_clear(&p->fig);
            p->fig.have = true;
            p->fig.status = RUN_REFUSED;
            str_copy(p->fig.message, sizeof p->fig.message, why);
            s->view.nsweep = i + 1;
            s->view.job_done++;
            continue;
        }
        if (measure_unlocked(s, &w, index, SERIES_BUDGET_S, &s->job_serial, serial, &r)) {
            p->size = sizes[i];
            summary_of_run(&p->fig, &r);
            record(s, index, sizes[i], &r);
            s->view.nsweep = i + 1;
            s->view.job_done++;
        }
        run_result_free(&r);
        pthread_mutex_unlock(&s->lock);
        workspace_free(&w);
        pthread_mutex_lock(&s->lock);
    }
    job_end(s, JOB_SWEEP, serial);
}

/* Called by the tuner on the worker thread, without the lock. */
static void tune_step(void *ctx, const struct tune_step *st)
{
    struct session *s = ctx;
    struct session_view *v = &s->view;

    pthread_mutex_lock(&s->lock);
    v->tune_done = st->done;
    v->tune_space = st->space;
    /* Progress counts this run's measurements, bounded by --max-configs. */
    if (st->from_log)
        s->tune_from_log++;
    else
        v->job_done++;
    v->job_total = st->space - s->tune_from_log;
    if (v->job_total > s->cfg.max_configs)
        v->job_total = s->cfg.max_configs;
    if (st->result->status == RUN_OK) {
        if (v->ntune < SESSION_MAX_TUNE)
            v->tune_gflops[v->ntune++] = st->result->gflops.median;
        if (st->best) {
            v->tune_best = st->result->gflops.median;
            str_copy(v->tune_best_params, sizeof v->tune_best_params, st->result->params);
        }
    }
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

/* Saves the search's best; returns true when the file kept a faster entry of this size. */
static bool save_tuned(struct session *s, int index, const char *device, const struct tune_result *res)
{
    char path[4096];
    struct error e;
    bool kept = false;
    int rc = -1;

    error_init(&e);
    pthread_mutex_unlock(&s->lock);
    snprintf(path, sizeof path, "%s", s->tuned_file);
    if (path[0])
        rc = tuned_save(path, device, lesson_at(s, index), &res->best, res->best_gflops, s->w.size,
                        res->complete, &kept, &e);
    else
        error_set(&e, "set XDG_DATA_HOME or HOME to keep the tuned parameters");
    pthread_mutex_lock(&s->lock);
    if (rc < 0)
        notice(s, "not saved: %s", e.msg);
    else if (kept)
        notice(s, "not saved: %s holds faster parameters found at this size",
                 path);
    else
        notice(s, "best of %zu configurations saved in %s", res->done, path);
    error_clear(&e);
    return rc == 0 && kept;
}

static void run_tune(struct session *s)
{
    unsigned long serial = s->job_serial;
    int index = s->view.tune_lesson;
    const struct lesson *l = lesson_at(s, index);
    struct tune_options to = { config(s, SERIES_BUDGET_S), s->cfg.max_configs, s->cfg.time_limit_s, false };
    char device[600], log_path[4096];
    struct tune_result res;
    struct error e;
    int rc = -1;

    error_init(&e);
    if (!s->cfg.budget_given)
        to.measure.budget_s = 0.25;     /* as --tune: a shorter look at each configuration */
    to.measure.source = s->sources[index];  /* the kernel measured, not an unbuilt edit */
    device_describe(s->cl.device, device, sizeof device);
    s->view.ntune = 0;
    s->tune_from_log = 0;
    s->view.tune_best = 0.0;
    s->view.tune_best_params[0] = '\0';
    job_begin(s, JOB_TUNE, tune_space_size(l));
    set_activity(s, "tuning lesson %d at %lldx%lldx%lld", l->number, s->view.size.m, s->view.size.n,
                 s->view.size.k);
    atomic_store(&s->cancel, 0);
    pthread_mutex_unlock(&s->lock);
    if (tune_log_path(device, l->number, s->w.size, log_path, sizeof log_path) < 0)
        error_set(&e, "set XDG_STATE_HOME or HOME to keep the tuner's log");
    else
        rc = tune_run(&s->w, l, &to, log_path, tune_step, s, &res, &e);
    pthread_mutex_lock(&s->lock);
    if (rc < 0) {
        notice(s, "tuning not possible: %s", e.msg);
    } else {
        if (res.verified > 0) {
            bool file_kept = save_tuned(s, index, device, &res);
            s->hand_set[index] = false;
            if (file_kept) {
                /* The file's faster entry, as the next session would choose it. */
                bool *only = xcalloc(s->lessons->count, sizeof *only);
                for (size_t i = 0; i < s->lessons->count; i++)
                    only[i] = (int)i != index;
                choose_params(s, s->cl.device, s->view.size, only, s->params, s->origin);
                free(only);
            } else {
                s->params[index] = res.best;
                s->origin[index] = (struct param_origin){ PARAMS_TUNED, s->w.size,
                                                          { res.best, res.best_gflops, s->w.size, res.complete }, 0, false };
            }
            if (index == s->view.lesson)
                restart_live(s);
            else
                summarise(s);
        } else {
            notice(s, "no configuration verified: nothing saved");
        }
        tune_result_free(&res);
    }
    error_clear(&e);
    job_end(s, JOB_TUNE, serial);
}

static void run_job(struct session *s)
{
    switch (s->want_job) {
    case JOB_ALL: run_all(s); break;
    case JOB_SWEEP: run_sweep(s); break;
    case JOB_TUNE: run_tune(s); break;
    case JOB_NONE: break;
    }
}

static void reload(struct session *s)
{
    int index = s->reload;
    const struct lesson *l = lesson_at(s, index);
    struct param_set ps = s->params[index];
    struct error e;
    char *text;
    int rc = -1;

    s->reload = -1;
    s->doing = DOING_OTHER;
    set_activity(s, "building lesson %d", l->number);
    error_init(&e);
    pthread_mutex_unlock(&s->lock);
    text = lesson_kernel_source(l, &e);
    if (text) {
        struct lesson_kernels k;
        rc = measure_build(&s->cl, l, &ps, text, &k, &e);
        if (rc == 0)
            measure_kernels_release(&k);
    }
    pthread_mutex_lock(&s->lock);
    if (rc == 0) {
        free(s->sources[index]);
        s->sources[index] = text;
        s->view.sources_version++;
        results_forget_lesson(&s->results, index);
        summarise(s);
        notice(s, "lesson %d: %s reloaded and built", l->number,
                 l->kernel_file);
        if (index == s->view.lesson)
            restart_live(s);
    } else {
        free(text);
        s->view.build_failures++;
        str_copy(s->view.build_error, sizeof s->view.build_error, e.msg);
        str_copy(s->view.build_log, sizeof s->view.build_log, e.detail ? e.detail : "");
        notice(s, "lesson %d: the edited kernel did not build; "
                 "the previous one is still measured", l->number);
    }
    error_clear(&e);
    set_idle(s);
}

/* Called on the worker thread, without the lock, as each step of a check starts. */
static void on_check_step(void *ctx, struct check_step *st)
{
    struct session *s = ctx;

    pthread_mutex_lock(&s->lock);
    s->view.check_step = *st;
    s->view.check_step_at = now_seconds();
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

/* While a step runs: the screen's clock moves once a second. */
static void on_check_waiting(void *ctx, const struct check_step *st, double elapsed_s)
{
    struct session *s = ctx;

    (void)st;
    if ((long)elapsed_s == s->check_clock)
        return;
    s->check_clock = (long)elapsed_s;
    pthread_mutex_lock(&s->lock);
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

/* A check of an exercise, in the child (isolate.h): the live measurement waits meanwhile. */
static void run_check(struct session *s)
{
    const struct exercise *x = s->check_exercise;
    struct check_options o = s->check_want;
    struct check_report rep;
    struct error e;
    char file[sizeof s->check_file], shown[sizeof s->check_shown];
    int rc;

    s->check_pending = false;
    s->doing = DOING_CHECK;
    s->view.checking = true;
    atomic_store(&s->cancel, 0);
    memcpy(file, s->check_file, sizeof file);
    memcpy(shown, s->check_shown, sizeof shown);
    o.file = file;
    o.shown_name = shown;
    o.measure.cancel = &s->cancel;
    o.measure.progress = NULL;
    o.step = on_check_step;
    o.waiting = on_check_waiting;
    o.step_ctx = s;
    s->view.check_stopped = false;
    s->view.check_started = s->view.check_step_at = now_seconds();
    memset(&s->view.check_step, 0, sizeof s->view.check_step);
    set_activity(s, "checking exercise %d", x->number);
    pthread_mutex_unlock(&s->lock);
    error_init(&e);
    rc = isolate_check(s->iso, s->cl.device, x, s->lessons, &o, s->cfg.check_timeout_s, &rep, &e);
    if (rc == 0 && rep.verdict != CHECK_CANCELLED) {
        races_run(x, s->lessons, &o, false, &rep);
        fences_run(x, &o, &rep);
    }
    pthread_mutex_lock(&s->lock);
    s->view.checking = false;
    if (rc == 0 && rep.verdict != CHECK_CANCELLED && !s->check_pending) {
        check_report_free(&s->check_report);
        s->check_report = rep;
        s->view.check_serial++;
    } else if (rc == 0) {
        /* Stopped by a change of size or device rather than by a newer check or x: run
           again. */
        if (!s->check_pending && !s->quit && !s->view.check_stopped)
            s->check_pending = true;
        s->view.checking = s->check_pending;
        check_report_free(&rep);
    } else {
        /* The child could not run it: said as a report, so that the pane shows why. */
        check_report_free(&s->check_report);
        memset(&s->check_report, 0, sizeof s->check_report);
        s->check_report.exercise = x->number;
        s->check_report.verdict = CHECK_FAILED;
        s->check_report.sizes_total = x->nsizes;
        str_copy(s->check_report.file, sizeof s->check_report.file, file);
        str_copy(s->check_report.message, sizeof s->check_report.message, e.msg);
        s->view.check_serial++;
    }
    error_clear(&e);
    set_idle(s);
}

static void *worker(void *arg)
{
    struct session *s = arg;

    pthread_mutex_lock(&s->lock);
    load_devices(s);
    while (!s->quit && !s->view.fatal) {
        if (s->want_device >= 0 && s->want_device != s->open_device)
            switch_device(s);
        else if (s->open_device < 0 || !s->view.device_ready)
            pthread_cond_wait(&s->wake, &s->lock);
        else if (!same_size(s->want_size, s->view.size) || (!s->w_ready && !s->view.size_error[0]))
            resize(s);
        else if (s->check_pending)
            run_check(s);
        else if (s->reload >= 0)
            reload(s);
        else if (!s->w_ready)
            pthread_cond_wait(&s->wake, &s->lock);
        else if (s->want_job != JOB_NONE)
            run_job(s);
        else if (!s->view.paused && inside_stale(s))
            look_inside(s);
        else if (!s->view.paused && !s->view.live_stopped)
            live_step(s);
        else
            pthread_cond_wait(&s->wake, &s->lock);
    }
    s->finished = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ---- the screen's side ---- */

struct session *session_start(const struct lesson_set *lessons, const struct session_config *cfg,
                              int lesson_index, struct gemm_size size, const char *state_device)
{
    struct session *s = xcalloc(1, sizeof *s);

    s->lessons = lessons;
    s->cfg = *cfg;
    if (tuned_path(s->tuned_file, sizeof s->tuned_file) < 0)
        s->tuned_file[0] = '\0';
    s->state_device = state_device ? xstrdup(state_device) : NULL;
    s->iso = isolate_new(NULL, NULL);
    s->params = xcalloc(lessons->count, sizeof *s->params);
    s->origin = xcalloc(lessons->count, sizeof *s->origin);
    s->hand_set = xcalloc(lessons->count, sizeof *s->hand_set);
    s->sources = xcalloc(lessons->count, sizeof *s->sources);
    if (lessons->count > SESSION_MAX_LESSONS)  /* the screen refuses larger sets before */
        abort();
    /* The defaults (and --param) until the device is known and its tuned parameters read. */
    choose_params(s, NULL, size, s->hand_set, s->params, s->origin);
    /* Every source shown: the kernels, and the host lesson's C loop where it names it. */
    for (size_t i = 0; i < lessons->count; i++)
        if (lessons->items[i].kernel_file) {
            struct error e;
            error_init(&e);
            s->sources[i] = lesson_kernel_source(&lessons->items[i], &e);
            error_clear(&e);
        }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    atomic_init(&s->cancel, 0);
    s->want_device = -1;
    s->open_device = -1;
    s->inside_device = -1;
    s->view.inside_lesson = -1;
    s->want_size = size;
    s->reload = -1;
    s->force = -1;
    s->view.device = -1;
    s->view.size = size;
    s->view.lesson = lesson_index;
    s->view.params = s->params[lesson_index];
    s->view.sweep_lesson = -1;
    s->view.tune_lesson = -1;
    s->view.nrefs = reference_count() < SESSION_MAX_REFERENCES ? reference_count() : SESSION_MAX_REFERENCES;
    for (size_t i = 0; i < s->view.nrefs; i++) {
        struct reference_settings rs = settings(s);
        reference_at(i)->title(&rs, s->view.ref_titles[i], sizeof s->view.ref_titles[i]);
    }
    if (pthread_create(&s->thread, NULL, worker, s) != 0)
        abort();
    return s;
}

bool session_stop(struct session *s, double timeout_s)
{
    struct timespec until;
    bool ended;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)timeout_s;
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    atomic_store(&s->cancel, 1);
    pthread_cond_broadcast(&s->wake);
    while (!s->finished)
        if (pthread_cond_timedwait(&s->wake, &s->lock, &until) != 0)
            break;
    ended = s->finished;
    pthread_mutex_unlock(&s->lock);
    if (!ended)
        return false;
    pthread_join(s->thread, NULL);
    isolate_free(s->iso);
    close_device(s);
    if (s->list_loaded)
        device_list_free(&s->list);
    for (size_t i = 0; i < s->lessons->count; i++)
        free(s->sources[i]);
    free(s->sources);
    results_free(&s->results);
    check_report_free(&s->check_report);
    free(s->params);
    free(s->origin);
    free(s->hand_set);
    free(s->state_device);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    free(s);
    return true;
}

void session_view(struct session *s, struct session_view *v)
{
    pthread_mutex_lock(&s->lock);
    *v = s->view;
    pthread_mutex_unlock(&s->lock);
}

unsigned long session_version(struct session *s)
{
    unsigned long version;

    pthread_mutex_lock(&s->lock);
    version = s->view.version;
    pthread_mutex_unlock(&s->lock);
    return version;
}

char *session_source(struct session *s, int lesson_index)
{
    char *copy = NULL;

    pthread_mutex_lock(&s->lock);
    if (s->sources[lesson_index])
        copy = xstrdup(s->sources[lesson_index]);
    pthread_mutex_unlock(&s->lock);
    return copy;
}

void session_check(struct session *s, const struct exercise *x, const struct check_options *o)
{
    pthread_mutex_lock(&s->lock);
    s->check_exercise = x;
    s->check_want = *o;
    str_copy(s->check_file, sizeof s->check_file, o->file);
    str_copy(s->check_shown, sizeof s->check_shown, o->shown_name ? o->shown_name : o->file);
    s->check_pending = true;
    s->view.checking = true;
    s->view.check_stopped = false;
    /* The check goes first: a live run or an older check stops between two launches. */
    if (s->doing == DOING_LIVE || s->doing == DOING_CHECK)
        atomic_store(&s->cancel, 1);
    pthread_cond_signal(&s->wake);
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

void session_stop_check(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->view.checking) {
        s->check_pending = false;
        s->view.checking = false;
        s->view.check_stopped = true;
        if (s->doing == DOING_CHECK)
            atomic_store(&s->cancel, 1);
        publish(s);
    }
    pthread_mutex_unlock(&s->lock);
}

bool session_check_report(struct session *s, unsigned long *seen, struct check_report *out)
{
    bool newer;

    pthread_mutex_lock(&s->lock);
    newer = s->view.check_serial != *seen;
    if (newer) {
        *out = s->check_report;
        out->build_log = s->check_report.build_log ? xstrdup(s->check_report.build_log) : NULL;
        *seen = s->view.check_serial;
    }
    pthread_mutex_unlock(&s->lock);
    return newer;
}

void session_set_lesson(struct session *s, int lesson_index)
{
    pthread_mutex_lock(&s->lock);
    if (s->view.lesson != lesson_index) {
        s->view.lesson = lesson_index;
        restart_live(s);
    }
    pthread_mutex_unlock(&s->lock);
}

void session_force(struct session *s, int lesson_index)
{
    pthread_mutex_lock(&s->lock);
    if (lesson_index == s->view.lesson && s->force != lesson_index) {
        s->force = lesson_index;
        restart_live(s);
    }
    pthread_mutex_unlock(&s->lock);
}

void session_set_param(struct session *s, int lesson_index, size_t param, long long value)
{
    pthread_mutex_lock(&s->lock);
    s->params[lesson_index].values[param] = value;
    s->origin[lesson_index].source = PARAMS_DEFAULTS;
    s->hand_set[lesson_index] = true;
    if (s->force == lesson_index)
        s->force = -1;
    if (lesson_index == s->view.lesson)
        restart_live(s);
    else
        summarise(s);
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

/* Stops the running series (the caller holds the lock). */
static void cancel_job_locked(struct session *s)
{
    if (s->want_job != JOB_NONE) {
        s->want_job = JOB_NONE;
        s->job_serial++;
        if (s->doing == DOING_JOB)
            atomic_store(&s->cancel, 1);
    }
}

void session_set_size(struct session *s, struct gemm_size size)
{
    pthread_mutex_lock(&s->lock);
    if (!same_size(size, s->want_size)) {
        s->want_size = size;
        cancel_job_locked(s);
        atomic_store(&s->cancel, 1);
        pthread_cond_signal(&s->wake);
        publish(s);
    }
    pthread_mutex_unlock(&s->lock);
}

void session_set_device(struct session *s, int device_index)
{
    pthread_mutex_lock(&s->lock);
    if (device_index != s->want_device && device_index >= 0 && device_index < s->view.ndevices) {
        s->want_device = device_index;
        cancel_job_locked(s);
        atomic_store(&s->cancel, 1);
        pthread_cond_signal(&s->wake);
    }
    pthread_mutex_unlock(&s->lock);
}

void session_set_paused(struct session *s, bool paused)
{
    pthread_mutex_lock(&s->lock);
    s->view.paused = paused;
    if (paused && s->doing == DOING_LIVE)
        atomic_store(&s->cancel, 1);
    /* Resuming also retries a lesson whose last run failed. */
    if (!paused)
        s->view.live_stopped = false;
    pthread_cond_signal(&s->wake);
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

void session_toggle_job(struct session *s, enum session_job job)
{
    const struct lesson *l;
    bool same;

    pthread_mutex_lock(&s->lock);
    l = lesson_at(s, s->view.lesson);
    /* The same series of this lesson stops; another one replaces the running one. */
    same = s->want_job == job && (job == JOB_ALL || (job == JOB_SWEEP && s->view.sweep_lesson == s->view.lesson) ||
                                  (job == JOB_TUNE && s->view.tune_lesson == s->view.lesson));
    if (same) {
        cancel_job_locked(s);
    } else if (job == JOB_TUNE && (l->nparams == 0 || l->engine != ENGINE_OPENCL)) {
        notice(s, "lesson %d has no parameters to tune", l->number);
    } else {
        cancel_job_locked(s);
        /* The chart of the new series replaces the other's. */
        s->view.sweep_lesson = job == JOB_SWEEP ? s->view.lesson : -1;
        s->view.tune_lesson = job == JOB_TUNE ? s->view.lesson : -1;
        s->view.nsweep = 0;
        s->view.ntune = 0;
        s->want_job = job;
        if (s->doing == DOING_LIVE)
            atomic_store(&s->cancel, 1);
    }
    pthread_cond_signal(&s->wake);
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

void session_cancel_job(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    cancel_job_locked(s);
    publish(s);
    pthread_mutex_unlock(&s->lock);
}

void session_reload(struct session *s, int lesson_index)
{
    pthread_mutex_lock(&s->lock);
    if (lesson_at(s, lesson_index)->engine == ENGINE_OPENCL) {
        s->reload = lesson_index;
        if (s->doing == DOING_LIVE)
            atomic_store(&s->cancel, 1);
        if (s->want_job != JOB_NONE)
            notice(s, "the kernel is read and built again when the running series ends (x cancels it)");
        pthread_cond_signal(&s->wake);
    }
    pthread_mutex_unlock(&s->lock);
}

void session_clear_charts(struct session *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->want_job != JOB_SWEEP)
        s->view.sweep_lesson = -1;
    if (s->want_job != JOB_TUNE)
        s->view.tune_lesson = -1;
    publish(s);
    pthread_mutex_unlock(&s->lock);
}
