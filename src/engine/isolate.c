/* isolate.c: the tool's side of a child that runs kernels (isolate.h): starting it, giving it
   a job, watching each step's time limit, and saying what happened when it died. */
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "isolate_wire.h"
#include "needs.h"
#include "str.h"
#include "xalloc.h"

/* How often the parent looks at the cancel flag while the child works. */
#define POLL_MS 50
/* A measurement asked to stop has this long to stop between launches before it is ended. */
#define CANCEL_GRACE_S 2.0

/* ocl-icd, the OpenCL loader of Debian and Ubuntu, cuts the value of OCL_ICD_FILENAMES at
   its first colon in this process's own environment when it loads the platforms (seen on the
   GPU machine: "libpocl.so.2:libnvidia-opencl.so.1" became "libpocl.so.2"), and a child
   given that environment finds only the first platform. The value as the program started,
   kept before any OpenCL call, goes to the child instead. */
static char *icd_filenames;

__attribute__((constructor)) static void keep_icd_filenames(void)
{
    const char *value = getenv("OCL_ICD_FILENAMES");

    if (value)
        icd_filenames = strdup(value);
}

/* This process's environment with OCL_ICD_FILENAMES as it started; malloc'd, the strings but
   that one shared with environ. */
static char **child_environment(char **with)
{
    extern char **environ;
    size_t n = 0;
    char **env;

    while (environ[n])
        n++;
    env = xcalloc(n + 1, sizeof *env);
    *with = NULL;
    for (size_t i = 0; i < n; i++) {
        env[i] = environ[i];
        if (icd_filenames && strncmp(environ[i], "OCL_ICD_FILENAMES=", 18) == 0) {
            *with = xmalloc(strlen(icd_filenames) + 19);
            sprintf(*with, "OCL_ICD_FILENAMES=%s", icd_filenames);
            env[i] = *with;
        }
    }
    return env;
}

struct isolate {
    char *program;
    char **wrapper;             /* NULL-terminated, or NULL */
    pid_t pid;                  /* 0: no child */
    int to_child, from_child;
};

/* Where the job stands, for the words said when the child dies or is ended. */
struct watch {
    char what[300];             /* "lesson 5 at 64x64x64", "exercise 3" */
    char step[300];             /* "launch 2 of 3 at 64x64x64", "building" */
    struct gemm_size size;
    double started, allowed_s;  /* the step's start and limit (0: none) */
    bool cancel_sent;
    double cancel_at;
};

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

const char *isolate_signal_meaning(int sig)
{
    switch (sig) {
    case SIGSEGV:
    case SIGBUS:
        return "the kernel read or wrote outside its buffers (or the OpenCL implementation faulted)";
    case SIGFPE:
        return "an arithmetic fault, such as an integer division by zero in the kernel";
    case SIGILL:
        return "an illegal instruction";
    case SIGABRT:
        return "the OpenCL implementation gave up (an assertion in its compiler or driver)";
    case SIGKILL:
        return "it was killed from outside (the system may have run out of memory)";
    default:
        return "a signal it did not handle";
    }
}

struct isolate *isolate_new(const char *program, const char *const *wrapper)
{
    struct isolate *iso = xcalloc(1, sizeof *iso);
    size_t n = 0;

    char self[4096];
    ssize_t n_self;

    /* This program by its own path: under a wrapper, /proc/self/exe would be the wrapper. */
    if (!program && (n_self = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
        self[n_self] = '\0';
        program = self;
    }
    iso->program = xstrdup(program ? program : "/proc/self/exe");
    if (wrapper) {
        while (wrapper[n])
            n++;
        iso->wrapper = xcalloc(n + 1, sizeof *iso->wrapper);
        for (size_t i = 0; i < n; i++)
            iso->wrapper[i] = xstrdup(wrapper[i]);
    }
    iso->to_child = iso->from_child = -1;
    return iso;
}

int isolate_pid(const struct isolate *iso)
{
    return iso->pid;
}

/* Ends the child (if it still runs) and reaps it; its wait status, or -1 when none. */
static int end_child(struct isolate *iso, bool kill_it)
{
    int status = -1;

    if (iso->to_child >= 0)
        close(iso->to_child);
    if (iso->from_child >= 0)
        close(iso->from_child);
    iso->to_child = iso->from_child = -1;
    if (iso->pid > 0) {
        if (kill_it)
            kill(iso->pid, SIGKILL);
        while (waitpid(iso->pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    iso->pid = 0;
    return status;
}

void isolate_free(struct isolate *iso)
{
    if (!iso)
        return;
    /* Closing its pipe ends a child that waits for a job; one still running a kernel is
       not waited for. */
    end_child(iso, true);
    for (size_t i = 0; iso->wrapper && iso->wrapper[i]; i++)
        free(iso->wrapper[i]);
    free(iso->wrapper);
    free(iso->program);
    free(iso);
}

static int start_child(struct isolate *iso, struct error *e)
{
    int job[2], report[2];
    char **env, *icd;
    pid_t pid;

    if (pipe2(job, O_CLOEXEC) < 0) {
        error_set(e, "cannot make a pipe to the process that runs kernels: %s", strerror(errno));
        return -1;
    }
    if (pipe2(report, O_CLOEXEC) < 0) {
        error_set(e, "cannot make a pipe to the process that runs kernels: %s", strerror(errno));
        close(job[0]);
        close(job[1]);
        return -1;
    }
    env = child_environment(&icd);
    pid = fork();
    if (pid < 0) {
        free(env);
        free(icd);
        error_set(e, "cannot start the process that runs kernels: %s", strerror(errno));
        close(job[0]);
        close(job[1]);
        close(report[0]);
        close(report[1]);
        return -1;
    }
    if (pid == 0) {
        /* The child: its job and report pipes on fixed descriptors, nothing on stdout (the
           parent's tables go there), and no life after the parent's. */
        char *argv[64];
        size_t n = 0;
        /* Moved out of the way first: a pipe may already sit on 3 or 4. */
        int in = fcntl(job[0], F_DUPFD, 10), out = fcntl(report[1], F_DUPFD, 10);
        if (in < 0 || out < 0 || dup2(in, ISOLATE_JOB_FD) < 0 || dup2(out, ISOLATE_REPORT_FD) < 0 ||
            dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
            _exit(127);
        /* Nothing else of the parent's: its driver's files, its own pipes. */
        for (int fd = ISOLATE_REPORT_FD + 1; fd < 1024; fd++)
            if (fd != in && fd != out)
                close(fd);
        close(in);
        close(out);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(127);
        signal(SIGINT, SIG_IGN);
        signal(SIGPIPE, SIG_DFL);
        for (size_t i = 0; iso->wrapper && iso->wrapper[i] && n < 60; i++)
            argv[n++] = iso->wrapper[i];
        argv[n++] = iso->program;
        argv[n++] = (char *)ISOLATE_CHILD_ARG;
        argv[n] = NULL;
        execvpe(argv[0], argv, env);
        fprintf(stderr, "clmm-tutor: cannot start %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(env);
    free(icd);
    close(job[0]);
    close(report[1]);
    iso->pid = pid;
    iso->to_child = job[1];
    iso->from_child = report[0];
    return 0;
}

/* Sends w without dying of SIGPIPE when the child is gone. */
static int send_job(struct isolate *iso, const struct wire *w)
{
    sigset_t pipe_set, old;
    struct timespec zero = { 0, 0 };
    int rc;

    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    rc = wire_send(iso->to_child, w);
    while (sigtimedwait(&pipe_set, NULL, &zero) > 0)
        ;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int begin_job(struct isolate *iso, const struct wire *w, struct error *e)
{
    if (iso->pid == 0 && start_child(iso, e) < 0)
        return -1;
    if (send_job(iso, w) == 0)
        return 0;
    /* A child that died between jobs: one new try. */
    end_child(iso, true);
    if (start_child(iso, e) < 0)
        return -1;
    if (send_job(iso, w) == 0)
        return 0;
    end_child(iso, true);
    error_set(e, "the process that runs kernels did not take the job");
    return -1;
}

/* The words for a child that ended: "(its wait status)". */
static void say_death(int status, char *buf, size_t len)
{
    if (status >= 0 && WIFSIGNALED(status))
        snprintf(buf, len, "the process running it ended on signal %d (%s): %s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)), isolate_signal_meaning(WTERMSIG(status)));
    else if (status >= 0 && WIFEXITED(status))
        snprintf(buf, len, "the process running it ended with status %d", WEXITSTATUS(status));
    else
        snprintf(buf, len, "the process running it ended");
}

enum outcome { GOT_MESSAGE, CHILD_DIED, TIMED_OUT, CANCELLED };

/* Waits for the child's next message, watching the step's limit and the cancel flag. A
   measurement is asked to stop (SIGUSR1) and given CANCEL_GRACE_S; a check is ended at once
   (hard_cancel). */
static enum outcome next_message(struct isolate *iso, struct watch *wt, const atomic_int *cancel, bool hard_cancel,
                                 struct wire *msg, int *status, void (*tick)(void *ctx, double elapsed_s),
                                 void *tick_ctx)
{
    for (;;) {
        struct pollfd p = { iso->from_child, POLLIN, 0 };
        double now = now_s();
        int rc;
        if (cancel && atomic_load(cancel)) {
            if (hard_cancel || (wt->cancel_sent && now - wt->cancel_at > CANCEL_GRACE_S)) {
                *status = end_child(iso, true);
                return CANCELLED;
            }
            if (!wt->cancel_sent) {
                kill(iso->pid, SIGUSR1);
                wt->cancel_sent = true;
                wt->cancel_at = now;
            }
        }
        if (wt->allowed_s > 0 && now - wt->started > wt->allowed_s) {
            *status = end_child(iso, true);
            return TIMED_OUT;
        }
        rc = poll(&p, 1, POLL_MS);
        if (rc < 0 && errno != EINTR) {
            *status = end_child(iso, true);
            return CHILD_DIED;
        }
        if (rc <= 0) {
            if (tick)
                tick(tick_ctx, now_s() - wt->started);
            continue;
        }
        if (wire_receive(iso->from_child, msg) < 0) {
            *status = end_child(iso, false);
            return CHILD_DIED;
        }
        return GOT_MESSAGE;
    }
}

static void step_begins(struct watch *wt, double allowed_s)
{
    wt->started = now_s();
    wt->allowed_s = allowed_s;
}

/* The device as the child is to find it; d NULL: its first. */
static void describe_device(struct wire_device *wd, const struct device_info *d)
{
    memset(wd, 0, sizeof *wd);
    wd->index = d ? d->index : -1;
    if (!d)
        return;
    str_copy(wd->name, sizeof wd->name, d->name);
    str_copy(wd->platform, sizeof wd->platform, d->platform_name);
    wd->device_index = d->device_index;
}

/* ---- measuring ---- */

static const char *phase_words(enum measure_phase phase)
{
    switch (phase) {
    case MEASURE_PROBING: return "a partial launch that estimates the time";
    case MEASURE_BUILDING: return "the build";
    case MEASURE_WARMUP: return "the launch that is verified";
    case MEASURE_TIMED: return "a timed launch";
    }
    return "a launch";
}

/* The end of a measurement in the child that did not report: what it was doing, and why it
   stopped. */
static void measure_lost(struct run_result *r, const struct watch *wt, enum outcome how, int status)
{
    char death[400];

    run_result_free(r);
    r->status = RUN_ERROR;
    error_init(&r->error);
    if (how == CANCELLED) {
        r->cancelled = true;
        error_set(&r->error, "cancelled");
        return;
    }
    if (how == TIMED_OUT) {
        error_set(&r->error, "%s did not finish in %.0f s (%s): a loop that never ends, or far too much work?",
                  wt->what, wt->allowed_s, wt->step);
        return;
    }
    say_death(status, death, sizeof death);
    error_set(&r->error, "%s, %s: %s", wt->what, wt->step, death);
}

void isolate_measure(struct isolate *iso, const struct workspace *ws, const struct lesson *l,
                     const struct param_set *ps, const struct measure_config *cfg, struct run_result *r)
{
    const struct device_info *d = ws->cl->device;
    struct gemm_size size = ws->size;
    struct wire_measure job;
    struct watch wt;
    struct wire w;
    struct error e;

    memset(&job, 0, sizeof job);
    memset(&wt, 0, sizeof wt);
    error_init(&e);
    describe_device(&job.device, d);
    job.lesson = l->number;
    job.has_params = ps != NULL;
    if (ps)
        job.params = *ps;
    job.size = size;
    job.seed = ws->seed;
    job.guard = ws->guard;
    wire_config_from(&job.cfg, cfg);
    wire_init(&w, WIRE_MEASURE);
    wire_put(&w, &job, sizeof job);
    wire_put_string(&w, l->file);
    wire_put_string(&w, cfg->source);
    snprintf(wt.what, sizeof wt.what, "lesson %d at %lldx%lldx%lld", l->number, size.m, size.n, size.k);
    snprintf(wt.step, sizeof wt.step, "starting");
    step_begins(&wt, ISOLATE_BUILD_S);
    if (begin_job(iso, &w, &e) < 0) {
        wire_free(&w);
        r->status = RUN_ERROR;
        error_set(&r->error, "%s", e.msg);
        return;
    }
    wire_free(&w);
    for (;;) {
        struct wire msg;
        int status = -1;
        enum outcome how = next_message(iso, &wt, cfg->cancel, false, &msg, &status, NULL, NULL);
        if (how != GOT_MESSAGE) {
            measure_lost(r, &wt, how, status);
            return;
        }
        if (msg.kind == WIRE_PROGRESS) {
            struct wire_progress wp;
            wire_get(&msg, &wp, sizeof wp);
            snprintf(wt.step, sizeof wt.step, "%s", phase_words(wp.p.phase));
            step_begins(&wt, wp.allowed_s);
            if (cfg->progress)
                cfg->progress(cfg->progress_ctx, &wp.p);
        } else if (msg.kind == WIRE_RUN) {
            char *detail;
            run_result_free(r);
            wire_get(&msg, r, sizeof *r);
            r->error.detail = NULL;
            detail = wire_get_string(&msg);
            if (detail && detail[0])
                error_set_detail(&r->error, detail);
            else
                free(detail);
            wire_free(&msg);
            return;
        } else if (msg.kind == WIRE_FAILED) {
            char *why = wire_get_string(&msg);
            r->status = RUN_ERROR;
            error_set(&r->error, "%s", why ? why : "the process that runs kernels failed");
            free(why);
            wire_free(&msg);
            return;
        }
        wire_free(&msg);
    }
}

static void measure_in_child(void *ctx, const struct workspace *w, const struct lesson *l,
                             const struct param_set *ps, const struct measure_config *cfg, struct run_result *r)
{
    isolate_measure(ctx, w, l, ps, cfg, r);
}

void isolate_attach(struct isolate *iso, struct workspace *w)
{
    w->elsewhere = measure_in_child;
    w->elsewhere_ctx = iso;
}

/* ---- checking ---- */

/* A check that ended without a report: r says why, and the size it was at (where it was
   at one) gets a row of its own. */
static void check_lost(struct check_report *r, const struct watch *wt, const struct check_step *at,
                       enum outcome how, int status)
{
    char why[600];
    struct check_size *cs;

    if (how == CANCELLED) {
        r->verdict = CHECK_CANCELLED;
        snprintf(r->message, sizeof r->message, "cancelled");
        return;
    }
    if (how == TIMED_OUT) {
        r->verdict = CHECK_TIMEOUT;
        snprintf(why, sizeof why, "stopped after %.0f s, its limit: a loop that never ends, or far too much work?",
                 wt->allowed_s);
    } else {
        r->verdict = CHECK_CRASHED;
        say_death(status, why, sizeof why);
    }
    snprintf(r->message, sizeof r->message, "%s: %s", wt->step, why);
    if ((at->kind != CHECK_STEP_LAUNCH && at->kind != CHECK_STEP_REFERENCE) || r->nsizes >= EXERCISE_MAX_SIZES)
        return;
    cs = &r->sizes[r->nsizes++];
    memset(cs, 0, sizeof *cs);
    cs->size = at->size;
    cs->verdict = r->verdict;
    cs->launches = at->launch > 0 ? at->launch - 1 : 0;
    if (at->kind == CHECK_STEP_LAUNCH)
        snprintf(cs->message, sizeof cs->message, "launch %d of %d%s%s", at->launch, at->launches,
                 how == TIMED_OUT ? " " : ": ", why);
    else
        snprintf(cs->message, sizeof cs->message, "%s", r->message);
}

/* The report the parent fills when the child could not: what the check had got to. */
static void report_begins(struct check_report *r, const struct exercise *x, const struct device_info *d,
                          const struct check_options *o)
{
    memset(r, 0, sizeof *r);
    r->exercise = x->number;
    str_copy(r->title, sizeof r->title, x->l.title);
    str_copy(r->file, sizeof r->file, o->file);
    if (d)
        device_describe(d, r->device, sizeof r->device);
    r->device_is_gpu = d && (d->type & CL_DEVICE_TYPE_GPU) != 0;
    r->emulated = d && lesson_emulated(&x->l, d);
    r->sizes_total = x->nsizes;
    r->versus = x->versus;
    r->target = x->ratio;
}

struct tick {
    const struct check_options *o;
    const struct check_step *st;
};

static void waiting(void *ctx, double elapsed_s)
{
    struct tick *tk = ctx;

    if (tk->o->waiting)
        tk->o->waiting(tk->o->step_ctx, tk->st, elapsed_s);
}

/* A check in the child: on d, or (d NULL) on the child's first device at the first size,
   one launch, without the speed part. */
static int run_check(struct isolate *iso, const struct device_info *d, const struct exercise *x,
                     const struct lesson_set *lessons, const struct check_options *o, double timeout_s,
                     struct check_report *r, struct error *e)
{
    struct wire_check job;
    struct check_step last = { CHECK_STEP_BUILDING, { 0, 0, 0 }, 0, 0, ISOLATE_BUILD_S };
    struct tick tk = { o, &last };
    struct watch wt;
    struct wire w;

    memset(&job, 0, sizeof job);
    memset(&wt, 0, sizeof wt);
    report_begins(r, x, d, o);
    describe_device(&job.device, d);
    job.once = d == NULL;
    job.exercise = x->number;
    job.has_prediction = o->has_prediction;
    job.prediction = o->prediction;
    job.speed_size_given = o->speed_size_given;
    job.speed_size = o->speed_size;
    job.timeout_s = timeout_s;
    wire_config_from(&job.cfg, &o->measure);
    wire_init(&w, WIRE_CHECK);
    wire_put(&w, &job, sizeof job);
    wire_put_string(&w, x->l.file);
    wire_put_string(&w, lessons->dir);
    wire_put_string(&w, o->file);
    wire_put_string(&w, o->shown_name ? o->shown_name : o->file);
    snprintf(wt.what, sizeof wt.what, "exercise %d", x->number);
    check_step_describe(&last, x->lesson, wt.step, sizeof wt.step);
    step_begins(&wt, ISOLATE_BUILD_S);
    if (begin_job(iso, &w, e) < 0) {
        wire_free(&w);
        return -1;
    }
    wire_free(&w);
    if (o->step)
        o->step(o->step_ctx, &last);
    for (;;) {
        struct wire msg;
        int status = -1;
        enum outcome how = next_message(iso, &wt, o->measure.cancel, true, &msg, &status, waiting, &tk);
        if (how != GOT_MESSAGE) {
            check_lost(r, &wt, &last, how, status);
            return 0;
        }
        if (msg.kind == WIRE_PROGRESS) {
            /* The speed measurement's launches, each with its own limit. */
            struct wire_progress wp;
            wire_get(&msg, &wp, sizeof wp);
            snprintf(wt.step, sizeof wt.step, "at %lldx%lldx%lld, measuring its speed: %s", last.size.m,
                     last.size.n, last.size.k, phase_words(wp.p.phase));
            step_begins(&wt, wp.allowed_s);
        } else if (msg.kind == WIRE_STEP) {
            wire_get(&msg, &last, sizeof last);
            check_step_describe(&last, x->lesson, wt.step, sizeof wt.step);
            step_begins(&wt, last.allowed_s);
            if (o->step)
                o->step(o->step_ctx, &last);
        } else if (msg.kind == WIRE_REPORT) {
            char *log;
            wire_get(&msg, r, sizeof *r);
            r->build_log = NULL;
            log = wire_get_string(&msg);
            if (log && log[0])
                r->build_log = log;
            else
                free(log);
            wire_free(&msg);
            return 0;
        } else if (msg.kind == WIRE_FAILED) {
            char *why = wire_get_string(&msg);
            error_set(e, "%s", why ? why : "the process that runs kernels failed");
            free(why);
            wire_free(&msg);
            return -1;
        }
        wire_free(&msg);
    }
}

int isolate_check(struct isolate *iso, const struct device_info *d, const struct exercise *x,
                  const struct lesson_set *lessons, const struct check_options *o, double timeout_s,
                  struct check_report *r, struct error *e)
{
    return run_check(iso, d, x, lessons, o, timeout_s, r, e);
}

int isolate_check_once(struct isolate *iso, const struct exercise *x, const struct lesson_set *lessons,
                       const struct check_options *o, double timeout_s, struct check_report *r, struct error *e)
{
    return run_check(iso, NULL, x, lessons, o, timeout_s, r, e);
}
