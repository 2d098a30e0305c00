/* isolate_child.c: the child's side of isolate.h: it serves its parent's jobs, one at a time,
   on its own OpenCL context, and says what each step is and how long it may take before it
   starts it. The parent enforces the limits: a launch that never ends cannot be stopped
   from in here. */
#include "isolate.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isolate_wire.h"
#include "needs.h"
#include "ocl.h"
#include "str.h"
#include "xalloc.h"

/* The first launch of a kernel may take this much longer than the others: on a CPU device
   (POCL) it also compiles the kernel for its work-group size; elsewhere, some drivers
   finish their work at the first launch. On 2 cores POCL took up to 33 s there for exercise
   15's solution (lesson 19's kernel at 1700x2400x60), its kernel cache empty. */
#define FIRST_LAUNCH_EXTRA_CPU_S 60.0
#define FIRST_LAUNCH_EXTRA_S 5.0
/* An emulated tensor-core kernel (needs.h) is large: POCL compiled one in 30 to 45 s on 2 busy
   cores. */
#define FIRST_LAUNCH_EXTRA_EMULATED_S 180.0
#define MAX_REFERENCES 64

/* SIGUSR1 from the parent: stop the measurement between two launches. */
static atomic_int cancel_asked;

static void on_cancel(int sig)
{
    (void)sig;
    atomic_store(&cancel_asked, 1);
}

struct reference_time {
    int lesson;
    struct gemm_size size;
    double seconds;             /* its median launch; < 0: it did not run */
};

struct child {
    struct device_list list;
    bool listed;
    struct ocl cl;
    bool open;
    int device;                 /* the index open, -1: none */
    struct lesson_set lessons;
    bool have_lessons;
    struct exercise_set exercises;
    bool have_exercises;
    struct reference_time refs[MAX_REFERENCES];
    size_t nrefs;
    /* The job running. */
    double launch_allowed_s;    /* a launch's limit; 0: none */
    bool launched;              /* its kernel has been launched once (compiled for its groups) */
    bool emulated;              /* its kernel's PTX runs emulated: a long first compile */
    bool forward_progress;
};

/* A message to the parent: kind, the bytes of a struct (len 0: none), then text when it is
   not NULL. */
static void send(uint32_t kind, const void *data, size_t len, const char *text, bool with_text)
{
    struct wire w;

    wire_init(&w, kind);
    wire_put(&w, data, len);
    if (with_text)
        wire_put_string(&w, text);
    wire_send(ISOLATE_REPORT_FD, &w);
    wire_free(&w);
}

static void send_failed(const char *why)
{
    send(WIRE_FAILED, NULL, 0, why, true);
}

static int open_device(struct child *c, const struct wire_device *want, struct error *e)
{
    const struct device_info *d = NULL;

    if (c->open && c->device == want->index && (want->index < 0 || strcmp(c->cl.device->name, want->name) == 0))
        return 0;
    if (c->open) {
        ocl_close(&c->cl);
        c->open = false;
        c->nrefs = 0;
    }
    if (!c->listed && device_list_load(&c->list, e) < 0)
        return -1;
    c->listed = true;
    /* The same platform and place in it, and the same name: the lists of the two processes
       need not number their devices alike (a platform may fail to load in one of them). */
    for (size_t i = 0; i < c->list.count && !d; i++) {
        const struct device_info *di = &c->list.items[i];
        if (want->index < 0 || (di->device_index == want->device_index && strcmp(di->name, want->name) == 0 &&
                                strcmp(di->platform_name, want->platform) == 0))
            d = di;
    }
    if (!d) {
        char seen[600] = "";
        struct str s;
        str_init(&s, seen, sizeof seen);
        for (size_t i = 0; i < c->list.count; i++)
            str_appendf(&s, ", ", "%d %s", c->list.items[i].index, c->list.items[i].name);
        error_set(e, "the process that runs kernels does not see device %d (%s, %s) as this one does (it sees: "
                  "%s)", want->index, want->name, want->platform, c->list.count ? seen : "no device");
        return -1;
    }
    if (ocl_open(&c->cl, d, e) < 0)
        return -1;
    c->open = true;
    c->device = want->index;
    return 0;
}

/* The allowance of the next launch: its kernel's first launch may compile it too. */
static double next_launch_allowed(struct child *c)
{
    double allowed = c->launch_allowed_s;

    if (allowed > 0 && !c->launched)
        allowed += c->emulated ? FIRST_LAUNCH_EXTRA_EMULATED_S
                 : c->cl.device->type & CL_DEVICE_TYPE_CPU ? FIRST_LAUNCH_EXTRA_CPU_S : FIRST_LAUNCH_EXTRA_S;
    c->launched = true;
    return allowed;
}

/* A measurement's progress, sent to the parent with the step's limit. */
static void send_progress(void *ctx, const struct measure_progress *p)
{
    struct child *c = ctx;
    struct wire_progress wp;

    if (!c->forward_progress)
        return;
    memset(&wp, 0, sizeof wp);
    wp.p = *p;
    wp.allowed_s = p->phase == MEASURE_BUILDING ? ISOLATE_BUILD_S : next_launch_allowed(c);
    send(WIRE_PROGRESS, &wp, sizeof wp, NULL, false);
}

/* --max-launch's three times, at least ISOLATE_FLOOR_S; none when forced. */
static double measure_allowance(const struct measure_config *cfg)
{
    if (cfg->force)
        return 0.0;
    return cfg->launch_limit_s * 3 > ISOLATE_FLOOR_S ? cfg->launch_limit_s * 3 : ISOLATE_FLOOR_S;
}

static void do_measure(struct child *c, struct wire *job)
{
    struct wire_measure m;
    char *file = NULL, *source = NULL;
    struct measure_config cfg;
    struct workspace w;
    struct run_result r;
    struct lesson l;
    struct error e;

    error_init(&e);
    wire_get(job, &m, sizeof m);
    file = wire_get_string(job);
    source = wire_get_string(job);
    if (job->bad || !file) {
        send_failed("a malformed job reached the process that runs kernels");
        goto done;
    }
    if (open_device(c, &m.device, &e) < 0 || lesson_load_file(file, &l, &e) < 0) {
        send_failed(e.msg);
        goto done;
    }
    if (l.number != m.lesson) {
        snprintf(e.msg, sizeof e.msg, "%s now holds lesson %d, not lesson %d: it changed since it was read", file,
                 l.number, m.lesson);
        send_failed(e.msg);
        lesson_free(&l);
        goto done;
    }
    if (workspace_init(&w, &c->cl, m.size, m.seed, &e) < 0) {
        send_failed(e.msg);
        lesson_free(&l);
        goto done;
    }
    w.guard = m.guard;
    wire_config_to(&m.cfg, &cfg);
    cfg.source = source && source[0] ? source : NULL;
    cfg.cancel = &cancel_asked;
    cfg.progress = send_progress;
    cfg.progress_ctx = c;
    c->launch_allowed_s = measure_allowance(&cfg);
    c->launched = false;
    c->emulated = lesson_emulated(&l, c->cl.device);
    c->forward_progress = true;
    run_result_init(&r);
    measure_lesson(&w, &l, m.has_params ? &m.params : NULL, &cfg, &r);
    c->forward_progress = false;
    send(WIRE_RUN, &r, sizeof r, r.error.detail, true);
    run_result_free(&r);
    workspace_free(&w);
    lesson_free(&l);
done:
    free(file);
    free(source);
}

/* ---- checks ---- */

struct check_job {
    struct child *c;
    const struct exercise *x;
    double timeout_s;
    struct measure_config cfg;  /* the check's own, for the reference lesson */
};

static void send_step(const struct check_step *st)
{
    send(WIRE_STEP, st, sizeof *st, NULL, false);
}

/* The reference lesson's launch time at size on this device, measured once. */
static double reference_seconds(struct check_job *j, struct gemm_size size)
{
    struct child *c = j->c;
    const struct lesson *l = lesson_set_find(&c->lessons, j->x->lesson);
    struct check_step st = { CHECK_STEP_REFERENCE, size, 0, 0, ISOLATE_BUILD_S };
    struct measure_config cfg = j->cfg;
    struct reference_time *t;
    struct workspace w;
    struct run_result r;
    struct error e;

    for (size_t i = 0; i < c->nrefs; i++)
        if (c->refs[i].lesson == j->x->lesson && !memcmp(&c->refs[i].size, &size, sizeof size))
            return c->refs[i].seconds;
    send_step(&st);
    error_init(&e);
    run_result_init(&r);
    cfg.reps = 1;
    cfg.progress = NULL;
    if (l && workspace_init(&w, &c->cl, size, cfg.seed, &e) == 0) {
        measure_lesson(&w, l, NULL, &cfg, &r);
        workspace_free(&w);
    }
    t = &c->refs[c->nrefs < MAX_REFERENCES ? c->nrefs++ : MAX_REFERENCES - 1];
    t->lesson = j->x->lesson;
    t->size = size;
    t->seconds = r.status == RUN_OK ? r.seconds.median : -1.0;
    run_result_free(&r);
    error_clear(&e);
    return t->seconds;
}

/* Each step of the check, with its limit, to the parent before it starts. */
static void check_step(void *ctx, struct check_step *st)
{
    struct check_job *j = ctx;
    struct child *c = j->c;

    c->forward_progress = false;
    switch (st->kind) {
    case CHECK_STEP_BUILDING:
    case CHECK_STEP_REFERENCE:
    case CHECK_STEP_RACES:
        st->allowed_s = ISOLATE_BUILD_S;
        break;
    case CHECK_STEP_LAUNCH:
        if (j->timeout_s > 0) {
            c->launch_allowed_s = j->timeout_s;
        } else {
            double ref = reference_seconds(j, st->size);
            c->launch_allowed_s = ref * ISOLATE_FACTOR > ISOLATE_FLOOR_S ? ref * ISOLATE_FACTOR : ISOLATE_FLOOR_S;
        }
        st->allowed_s = next_launch_allowed(c);
        break;
    case CHECK_STEP_SPEED:
        /* Several launches of two kernels, each announced with its own limit. */
        c->launch_allowed_s = j->timeout_s > 0 ? j->timeout_s : measure_allowance(&j->cfg);
        c->forward_progress = true;
        st->allowed_s = ISOLATE_BUILD_S;
        break;
    }
    send_step(st);
}

/* The exercise set of the directory of file, and the lessons of lessons_dir, kept for the
   next checks. */
static const struct exercise *find_exercise(struct child *c, const char *file, const char *lessons_dir, int number,
                                            struct error *e)
{
    char dir[4096];
    const char *slash = strrchr(file, '/');
    const struct exercise *x;

    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
    if (c->have_lessons && strcmp(c->lessons.dir, lessons_dir) != 0) {
        if (c->have_exercises)
            exercise_set_free(&c->exercises);
        lesson_set_free(&c->lessons);
        c->have_lessons = c->have_exercises = false;
    }
    if (!c->have_lessons && lesson_set_load(lessons_dir, &c->lessons, e) < 0)
        return NULL;
    c->have_lessons = true;
    if (c->have_exercises && strcmp(c->exercises.dir, dir) != 0) {
        exercise_set_free(&c->exercises);
        c->have_exercises = false;
    }
    if (!c->have_exercises && exercise_set_load(dir, &c->lessons, &c->exercises, e) < 0)
        return NULL;
    c->have_exercises = true;
    if (!(x = exercise_set_find(&c->exercises, number)))
        error_set(e, "%s holds no exercise %d now", dir, number);
    return x;
}

static void do_check(struct child *c, struct wire *job)
{
    struct wire_check k;
    char *xfile, *lessons_dir, *file, *shown;
    struct check_options o;
    struct check_job j;
    struct check_report r;
    struct error e;

    error_init(&e);
    wire_get(job, &k, sizeof k);
    xfile = wire_get_string(job);
    lessons_dir = wire_get_string(job);
    file = wire_get_string(job);
    shown = wire_get_string(job);
    memset(&o, 0, sizeof o);
    memset(&j, 0, sizeof j);
    if (job->bad) {
        send_failed("a malformed job reached the process that runs kernels");
    } else if (open_device(c, &k.device, &e) < 0 || !(j.x = find_exercise(c, xfile, lessons_dir, k.exercise, &e))) {
        send_failed(e.msg);
    } else {
        struct exercise once;
        if (k.once) {
            /* Its first size, one launch, no speed: all that is wanted of a slow simulator. */
            once = *j.x;
            if (once.race_size.m > 0)
                once.sizes[0] = once.race_size;
            once.nsizes = 1;
            once.repeat = 1;
            once.speed = SPEED_NONE;
            j.x = &once;
        }
        j.c = c;
        j.timeout_s = k.timeout_s;
        wire_config_to(&k.cfg, &j.cfg);
        j.cfg.cancel = &cancel_asked;
        o.file = file;
        o.shown_name = shown;
        o.has_prediction = k.has_prediction;
        o.prediction = k.prediction;
        o.speed_size_given = k.speed_size_given;
        o.speed_size = k.speed_size;
        o.measure = j.cfg;
        o.measure.progress = send_progress;
        o.measure.progress_ctx = c;
        o.step = check_step;
        o.step_ctx = &j;
        c->launched = false;
        c->emulated = lesson_emulated(&j.x->l, c->cl.device);
        c->forward_progress = false;
        if (check_run(&c->cl, j.x, &c->lessons, &o, &r, &e) < 0) {
            send_failed(e.msg);
        } else {
            send(WIRE_REPORT, &r, sizeof r, r.build_log, true);
            check_report_free(&r);
        }
    }
    free(xfile);
    free(lessons_dir);
    free(file);
    free(shown);
}

int isolate_child_main(void)
{
    struct child c;
    struct sigaction sa;

    memset(&c, 0, sizeof c);
    c.device = -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_cancel;
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* A fault in here is the kernel's: it ends this process with its signal, which the
       parent names (a sanitizer's handler, in make check-sanitize, would report it as its
       own and end with another status). */
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    signal(SIGFPE, SIG_DFL);
    for (;;) {
        struct wire job;
        if (wire_receive(ISOLATE_JOB_FD, &job) < 0)
            break;
        atomic_store(&cancel_asked, 0);
        if (job.kind == WIRE_MEASURE)
            do_measure(&c, &job);
        else if (job.kind == WIRE_CHECK)
            do_check(&c, &job);
        else
            send_failed("an unknown job reached the process that runs kernels");
        wire_free(&job);
    }
    if (c.have_exercises)
        exercise_set_free(&c.exercises);
    if (c.have_lessons)
        lesson_set_free(&c.lessons);
    if (c.open)
        ocl_close(&c.cl);
    if (c.listed)
        device_list_free(&c.list);
    return 0;
}
