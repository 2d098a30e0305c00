/* tutor.c: the interactive screen: its state, its keys and its main loop.

   The loop waits for a key with a short timeout (the refresh tick), hands each key to the
   handler of whatever has the keyboard (an overlay, a prompt, or the screen), and redraws
   when a key or the session changed something. The session measures on its own thread, so
   a key is answered at once even while a slow kernel runs. */
#include "tutor.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "crt.h"
#include "diagram.h"
#include "diff.h"
#include "layout.h"
#include "panes.h"
#include "session.h"
#include "state.h"

#define TICK_MS 50
#define NOTICE_S 6.0
#define STOP_WAIT_S 3.0

enum overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_PARAMS, OVERLAY_DEVICES, OVERLAY_BUILD, OVERLAY_SIZE };

/* What a key handler asks of the loop. */
enum {
    KEY_DONE = 0,
    KEY_REDRAW = 1 << 0,
    KEY_QUIT = 1 << 1,
};

struct tutor {
    const struct options *opts;
    const struct lesson_set *lessons;
    struct session *session;
    struct session_view *view;
    struct screen_model model;
    struct screen_layout layout;
    enum pane left;             /* text or source, on screens that show one of them */
    enum overlay overlay;
    int picker;                 /* the chosen row of a picker, or the build log's scroll */
    char input[64];             /* the size prompt */
    char input_error[1024];

    /* The kernels shown, and the diff between them. */
    int source_lesson;
    unsigned long source_version;
    struct lines source, previous;
    bool have_source, have_previous;
    struct diff diff;
    bool have_diff;

    char notice[512];
    double notice_until;
    unsigned long build_failures;

    double demo_pace;           /* seconds per lesson; 0 when not in presenter mode */
    double demo_since;
};

/* ---- sources ---- */

static void free_sources(struct tutor *t)
{
    if (t->have_source)
        lines_free(&t->source);
    if (t->have_previous)
        lines_free(&t->previous);
    if (t->have_diff)
        diff_free(&t->diff);
    t->have_source = t->have_previous = t->have_diff = false;
}

static bool load_lines(struct tutor *t, int index, struct lines *out)
{
    char *text = index >= 0 ? session_source(t->session, index) : NULL;

    if (!text)
        return false;
    lines_split(text, out);
    free(text);
    return true;
}

/* The kernel of the current lesson and of the one before, when either changed. */
static void refresh_sources(struct tutor *t)
{
    int index = t->model.lesson;

    if (index == t->source_lesson && t->view->sources_version == t->source_version)
        return;
    free_sources(t);
    t->have_source = load_lines(t, index, &t->source);
    t->have_previous = t->have_source && load_lines(t, index - 1, &t->previous);
    if (t->have_previous) {
        diff_lines(&t->previous, &t->source, &t->diff);
        t->have_diff = true;
    }
    t->source_lesson = index;
    t->source_version = t->view->sources_version;
    t->model.source = t->have_source ? &t->source : NULL;
    t->model.previous = t->have_previous ? &t->previous : NULL;
    t->model.diff = t->have_diff ? &t->diff : NULL;
}

/* ---- changing what is shown ---- */

static void go_to_lesson(struct tutor *t, int index)
{
    if (index < 0 || index >= (int)t->lessons->count || index == t->model.lesson)
        return;
    t->model.lesson = index;
    t->model.scroll[PANE_TEXT] = t->model.scroll[PANE_SOURCE] = t->model.scroll[PANE_LAYOUT] = 0;
    session_set_lesson(t->session, index);
    session_view(t->session, t->view);
    refresh_sources(t);
}

/* The index of lesson number in the set, or -1. */
static int index_of_number(const struct lesson_set *set, int number)
{
    const struct lesson *l = lesson_set_find(set, number);

    return l ? (int)(l - set->items) : -1;
}

static const long long size_steps[] = { 32, 64, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096,
                                        6144, 8192, 12288, 16384 };

/* The next square size up or down the ladder from the largest side. */
static void step_size(struct tutor *t, int direction)
{
    struct gemm_size s = t->view->want_size.m ? t->view->want_size : t->view->size;
    long long side = s.m > s.n ? s.m : s.n, next = 0;
    size_t n = sizeof size_steps / sizeof size_steps[0];

    side = side > s.k ? side : s.k;
    if (direction > 0) {
        for (size_t i = 0; i < n && !next; i++)
            if (size_steps[i] > side)
                next = size_steps[i];
    } else {
        for (size_t i = n; i-- > 0 && !next;)
            if (size_steps[i] < side)
                next = size_steps[i];
    }
    if (next)
        session_set_size(t->session, (struct gemm_size){ next, next, next });
}

/* ---- notices ---- */

static void show_notice(struct tutor *t, const char *text)
{
    snprintf(t->notice, sizeof t->notice, "%s", text);
    t->notice_until = now_seconds() + NOTICE_S;
}

/* New things the session has to say: a notice, a failed build. */
static void take_news(struct tutor *t, unsigned long old_notices)
{
    if (t->view->notices != old_notices && t->view->notice[0])
        show_notice(t, t->view->notice);
    if (t->view->build_failures != t->build_failures) {
        t->build_failures = t->view->build_failures;
        t->overlay = OVERLAY_BUILD;
        t->picker = 0;
    }
}

/* ---- keys ---- */

static int overlay_params_key(struct tutor *t, int key)
{
    const struct lesson *l = &t->lessons->items[t->model.lesson];
    const struct lesson_param *p;
    long long now;
    size_t at = 0;

    if (key == '\n' || key == '\r' || key == KEY_ENTER || key == CRT_KEY_ESC || key == 't' || key == 'q') {
        t->overlay = OVERLAY_NONE;
        return KEY_REDRAW;
    }
    if (key == 'd') {
        for (size_t i = 0; i < l->nparams; i++)
            session_set_param(t->session, t->model.lesson, i, l->params[i].def);
        return KEY_REDRAW;
    }
    if (key == KEY_UP || key == 'k')
        t->picker = t->picker > 0 ? t->picker - 1 : (int)l->nparams - 1;
    else if (key == KEY_DOWN || key == 'j' || key == '\t')
        t->picker = (t->picker + 1) % (int)l->nparams;
    else if (key == KEY_LEFT || key == KEY_RIGHT || key == 'h' || key == 'l' || key == '-' || key == '+') {
        int dir = key == KEY_LEFT || key == 'h' || key == '-' ? -1 : 1;
        p = &l->params[t->picker];
        now = t->view->params.values[t->picker];
        for (size_t i = 0; i < p->nvalues; i++)
            if (p->values[i] == now)
                at = i;
        if ((dir < 0 && at == 0) || (dir > 0 && at + 1 >= p->nvalues))
            return KEY_DONE;
        session_set_param(t->session, t->model.lesson, (size_t)t->picker, p->values[(int)at + dir]);
    }
    return KEY_REDRAW;
}

static int overlay_devices_key(struct tutor *t, int key)
{
    int n = t->view->ndevices;

    if (key == CRT_KEY_ESC || key == 'q' || key == 'd') {
        t->overlay = OVERLAY_NONE;
    } else if (key == KEY_UP || key == 'k') {
        t->picker = n ? (t->picker + n - 1) % n : 0;
    } else if (key == KEY_DOWN || key == 'j') {
        t->picker = n ? (t->picker + 1) % n : 0;
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        session_set_device(t->session, t->picker);
        t->overlay = OVERLAY_NONE;
    } else if (key >= '0' && key <= '9' && key - '0' < n) {
        t->picker = key - '0';
    }
    return KEY_REDRAW;
}

/* The size prompt: digits and 'x', Enter applies, Esc gives up. */
static int prompt_size_key(struct tutor *t, int key)
{
    size_t len = strlen(t->input);

    t->input_error[0] = '\0';
    if (key == CRT_KEY_ESC) {
        t->overlay = OVERLAY_NONE;
    } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (len > 0)
            t->input[len - 1] = '\0';
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        struct gemm_size sizes[OPTIONS_MAX_SIZES];
        size_t count = 0;
        struct error e;
        error_init(&e);
        if (options_parse_sizes(t->input, sizes, &count, &e) < 0 || count != 1) {
            snprintf(t->input_error, sizeof t->input_error, "%s",
                     count > 1 ? "one size: N or MxNxK" : e.msg);
        } else {
            session_set_size(t->session, sizes[0]);
            t->overlay = OVERLAY_NONE;
        }
    } else if (((key >= '0' && key <= '9') || key == 'x' || key == 'X') && len + 1 < sizeof t->input) {
        t->input[len] = (char)(key == 'X' ? 'x' : key);
        t->input[len + 1] = '\0';
    }
    return KEY_REDRAW;
}

static void scroll_focus(struct tutor *t, int key)
{
    const struct rect *r = &t->layout.pane[t->model.focus];
    int page = r->h > 3 ? r->h - 3 : 1, *scroll = &t->model.scroll[t->model.focus];

    switch (key) {
    case KEY_UP: case 'k': *scroll -= 1; break;
    case KEY_DOWN: case 'j': *scroll += 1; break;
    case KEY_PPAGE: *scroll -= page; break;
    case KEY_NPAGE: *scroll += page; break;
    case KEY_HOME: *scroll = 0; break;
    case KEY_END: *scroll = 1 << 20; break;     /* the drawing clamps it */
    }
}

static void next_pane(struct tutor *t, int direction)
{
    enum pane order[PANE_COUNT] = { PANE_TEXT, PANE_SOURCE, PANE_LAYOUT, PANE_GFLOPS };
    int at = 0;

    for (int i = 0; i < PANE_COUNT; i++)
        if (order[i] == t->model.focus)
            at = i;
    at = (at + PANE_COUNT + direction) % PANE_COUNT;
    t->model.focus = order[at];
    if (t->model.focus == PANE_TEXT || t->model.focus == PANE_SOURCE)
        t->left = t->model.focus;
}

static int screen_key(struct tutor *t, int key)
{
    const struct lesson *l = &t->lessons->items[t->model.lesson];

    switch (key) {
    case 'q': case CRT_KEY_ESC: case KEY_F(10):
        return KEY_QUIT;
    case 'n': case KEY_RIGHT: case ' ' + 256:
        go_to_lesson(t, t->model.lesson + 1);
        break;
    case 'p': case KEY_LEFT:
        go_to_lesson(t, t->model.lesson - 1);
        break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        go_to_lesson(t, index_of_number(t->lessons, key - '0'));
        break;
    case '+': case '=':
        step_size(t, 1);
        break;
    case '-': case '_':
        step_size(t, -1);
        break;
    case 's':
        t->overlay = OVERLAY_SIZE;
        t->input[0] = '\0';
        t->input_error[0] = '\0';
        break;
    case 'd':
        t->overlay = OVERLAY_DEVICES;
        t->picker = t->view->device >= 0 ? t->view->device : 0;
        break;
    case 't':
        if (l->nparams == 0) {
            show_notice(t, "this lesson has no parameters");
            break;
        }
        t->overlay = OVERLAY_PARAMS;
        t->picker = 0;
        break;
    case 'T':
        session_toggle_job(t->session, JOB_TUNE);
        break;
    case 'a':
        session_toggle_job(t->session, JOB_ALL);
        break;
    case 'w':
        /* Hides the sweep of this lesson (stopping it if it runs); otherwise starts one. */
        if (t->view->sweep_lesson == t->model.lesson) {
            if (t->view->want_job == JOB_SWEEP)
                session_cancel_job(t->session);
            session_clear_charts(t->session);
        } else {
            session_toggle_job(t->session, JOB_SWEEP);
        }
        break;
    case 'x':
        session_cancel_job(t->session);
        session_clear_charts(t->session);
        break;
    case ' ':
        session_set_paused(t->session, !t->view->paused);
        break;
    case 'r':
        if (l->engine != ENGINE_OPENCL)
            show_notice(t, "the host reference has no kernel to reload");
        else
            session_reload(t->session, t->model.lesson);
        break;
    case 'c':
        t->model.show_diff = !t->model.show_diff;
        if (!t->model.diff)
            show_notice(t, "no previous kernel to compare with");
        t->model.focus = t->left = PANE_SOURCE;
        t->model.scroll[PANE_SOURCE] = 0;
        break;
    case '\t':
        next_pane(t, 1);
        break;
    case KEY_BTAB:
        next_pane(t, -1);
        break;
    case 'z':
        t->model.zoom = !t->model.zoom;
        break;
    case '?': case 'h': case KEY_F(1):
        t->overlay = OVERLAY_HELP;
        break;
    case KEY_UP: case KEY_DOWN: case KEY_PPAGE: case KEY_NPAGE: case KEY_HOME: case KEY_END: case 'j': case 'k':
        scroll_focus(t, key);
        break;
    default:
        return KEY_DONE;
    }
    return KEY_REDRAW;
}

static int handle_key(struct tutor *t, int key)
{
    if (t->demo_pace > 0) {
        /* Any key ends the presentation; q still quits. */
        t->demo_pace = 0;
        t->model.demo = false;
        if (key != 'q' && key != CRT_KEY_ESC && key != KEY_F(10))
            return KEY_REDRAW;
    }
    if (t->layout.too_small)
        return key == 'q' || key == CRT_KEY_ESC || key == KEY_F(10) ? KEY_QUIT : KEY_DONE;
    switch (t->overlay) {
    case OVERLAY_HELP:
        t->overlay = OVERLAY_NONE;
        return key == KEY_F(10) ? KEY_QUIT : KEY_REDRAW;
    case OVERLAY_PARAMS:
        return overlay_params_key(t, key);
    case OVERLAY_DEVICES:
        return overlay_devices_key(t, key);
    case OVERLAY_SIZE:
        return prompt_size_key(t, key);
    case OVERLAY_BUILD:
        if (key == KEY_DOWN || key == 'j')
            t->picker++;
        else if (key == KEY_UP || key == 'k')
            t->picker = t->picker > 0 ? t->picker - 1 : 0;
        else
            t->overlay = OVERLAY_NONE;
        return KEY_REDRAW;
    case OVERLAY_NONE:
        break;
    }
    return screen_key(t, key);
}

/* ---- drawing ---- */

/* Why the lesson cannot run with its parameters now, for the parameter window. */
static void refusal_now(const struct tutor *t, char *buf, size_t len)
{
    struct diagram d;
    struct error e;

    error_init(&e);
    buf[0] = '\0';
    if (diagram_compute(&t->lessons->items[t->model.lesson], &t->view->params, t->view->size, NULL, &d, &e) < 0)
        snprintf(buf, len, "%s", e.msg);
    else if (d.nwarnings > 0)
        snprintf(buf, len, "%s", d.warnings[0]);
    error_clear(&e);
}

static void draw(struct tutor *t)
{
    int cols = COLS, rows = LINES;
    struct screen_layout *L = &t->layout;
    double now = now_seconds();

    layout_compute(cols, rows, t->model.focus, t->left, t->model.zoom, L);
    if (L->too_small) {
        panes_draw_too_small(cols, rows);
        refresh();
        return;
    }
    erase();
    t->model.view = t->view;
    t->model.message = now < t->notice_until ? t->notice : NULL;
    t->model.message_is_error = false;
    t->model.demo = t->demo_pace > 0;
    panes_draw_title(&L->title, &t->model);
    if (rect_visible(&L->pane[PANE_TEXT]))
        panes_draw_text(&L->pane[PANE_TEXT], &t->model);
    if (rect_visible(&L->pane[PANE_SOURCE]))
        panes_draw_source(&L->pane[PANE_SOURCE], &t->model);
    if (rect_visible(&L->pane[PANE_LAYOUT]))
        panes_draw_layout(&L->pane[PANE_LAYOUT], &t->model);
    if (rect_visible(&L->pane[PANE_GFLOPS]))
        panes_draw_gflops(&L->pane[PANE_GFLOPS], &t->model);
    if (t->overlay == OVERLAY_SIZE)
        panes_draw_prompt(&L->keys, " size (N or MxNxK, Enter applies, Esc cancels): ", t->input, t->input_error);
    else
        panes_draw_keys(&L->keys, &t->model);
    switch (t->overlay) {
    case OVERLAY_HELP: panes_draw_help(cols, rows); break;
    case OVERLAY_DEVICES: panes_draw_devices(cols, rows, &t->model, t->picker); break;
    case OVERLAY_BUILD: panes_draw_build_log(cols, rows, &t->model, t->picker); break;
    case OVERLAY_PARAMS: {
        char refusal[1024];
        refusal_now(t, refusal, sizeof refusal);
        panes_draw_params(cols, rows, &t->model, t->picker, refusal);
        break;
    }
    default: break;
    }
    refresh();
}

/* ---- presenter mode ---- */

/* The next lesson once this one has been shown for the pace and measured (or has had
   twice the pace to try). */
static bool demo_step(struct tutor *t)
{
    double shown = now_seconds() - t->demo_since;

    if (t->demo_pace <= 0)
        return false;
    t->model.demo_left_s = t->demo_pace - shown;
    if (shown < t->demo_pace || (!t->view->latest.have && shown < 2 * t->demo_pace))
        return false;
    go_to_lesson(t, (t->model.lesson + 1) % (int)t->lessons->count);
    t->demo_since = now_seconds();
    return true;
}

/* ---- the remembered state ---- */

static void save_state(const struct tutor *t)
{
    struct tutor_state st;
    char path[4096];
    struct error e;

    memset(&st, 0, sizeof st);
    if (state_path(path, sizeof path) < 0)
        return;
    st.has_lesson = true;
    st.lesson = t->lessons->items[t->model.lesson].number;
    st.has_size = true;
    st.size = t->view->size;
    if (t->view->device_ready && t->view->device >= 0) {
        st.has_device = true;
        snprintf(st.device, sizeof st.device, "%s", t->view->devices[t->view->device]);
    }
    error_init(&e);
    if (state_save(path, &st, &e) < 0)
        fprintf(stderr, "clmm-tutor: the session was not remembered: %s\n", e.msg);
    error_clear(&e);
}

/* ---- the loop ---- */

/* CLMM_TUTOR_TRACE=FILE: how long each key took to reach the screen, for bench/screen.sh. */
static void trace_key(FILE *f, int key, double since)
{
    if (f) {
        fprintf(f, "key %d %.3f ms\n", key, (now_seconds() - since) * 1e3);
        fflush(f);
    }
}

static int run(struct tutor *t, FILE *trace_file)
{
    unsigned long seen = 0;
    int device_handled = -1;
    bool dirty = true;
    double last_draw = 0;

    for (;;) {
        int key = crt_read_key(TICK_MS), flags = KEY_DONE;
        double key_time = now_seconds();
        unsigned long old_notices;
        if (crt_quit_requested())
            return EXIT_OK;
        if (key == KEY_RESIZE)
            flags = KEY_REDRAW;
        else if (key != ERR)
            flags = handle_key(t, key);
        if (flags & KEY_QUIT)
            return EXIT_OK;
        dirty |= flags & KEY_REDRAW;
        if (session_version(t->session) != seen || dirty) {
            old_notices = t->view->notices;
            session_view(t->session, t->view);
            seen = t->view->version;
            if (t->view->fatal)
                return EXIT_ENVIRONMENT;
            take_news(t, old_notices);
            /* Opening a device loads its driver, which may catch crash signals itself. */
            if (t->view->device_ready && t->view->device != device_handled) {
                crt_install_crash_handlers();
                device_handled = t->view->device;
            }
            refresh_sources(t);
            dirty = true;
        }
        dirty |= demo_step(t);
        /* Elapsed times move while work runs; notices expire. */
        if (now_seconds() - last_draw > 0.5)
            dirty = true;
        if (dirty) {
            draw(t);
            last_draw = now_seconds();
            dirty = false;
        }
        if (key != ERR && key != KEY_RESIZE)
            trace_key(trace_file, key, key_time);
    }
}

/* What the libraries print on stderr while the screen is up (a compiler's "1 error
   generated.") would land in the middle of the panes: it goes to a temporary file and is
   shown after the screen closes. */
struct held_stderr {
    int saved;                  /* the real stderr, or -1 */
    FILE *file;
};

static void hold_stderr(struct held_stderr *h)
{
    h->saved = -1;
    h->file = tmpfile();
    if (!h->file)
        return;
    fflush(stderr);
    h->saved = dup(STDERR_FILENO);
    if (h->saved < 0 || dup2(fileno(h->file), STDERR_FILENO) < 0) {
        if (h->saved >= 0)
            close(h->saved);
        h->saved = -1;
        fclose(h->file);
        h->file = NULL;
    }
}

static void release_stderr(struct held_stderr *h)
{
    char buf[4096];
    size_t n;

    if (h->saved < 0)
        return;
    fflush(stderr);
    dup2(h->saved, STDERR_FILENO);
    close(h->saved);
    rewind(h->file);
    while ((n = fread(buf, 1, sizeof buf, h->file)) > 0)
        fwrite(buf, 1, n, stderr);
    fclose(h->file);
}

static struct gemm_size starting_size(const struct options *opts, const struct tutor_state *st)
{
    if (opts->size_given)
        return opts->sizes[0];
    if (st->has_size)
        return st->size;
    return (struct gemm_size){ 0, 0, 0 };   /* the session picks one for the device */
}

static int starting_lesson(const struct lesson_set *set, int asked, const struct tutor_state *st)
{
    int index = asked >= 0 ? index_of_number(set, asked) : -1;

    if (index < 0 && st->has_lesson)
        index = index_of_number(set, st->lesson);
    if (index < 0)
        index = index_of_number(set, 1);
    return index < 0 ? 0 : index;
}

int tutor_run(const struct options *opts, const struct lesson_set *lessons)
{
    struct tutor t;
    struct tutor_state st;
    char path[4096];
    struct held_stderr held;
    FILE *trace_file;
    int status;
    bool stopped;

    if (lessons->count > SESSION_MAX_LESSONS) {
        fprintf(stderr, "clmm-tutor: the interactive screen shows at most %d lessons; %s has %zu "
                        "(--bench and --show take any number)\n", SESSION_MAX_LESSONS,
                opts->lessons_dir ? opts->lessons_dir : "the lesson directory", lessons->count);
        return EXIT_USAGE;
    }
    memset(&t, 0, sizeof t);
    memset(&st, 0, sizeof st);
    if (state_path(path, sizeof path) == 0)
        state_load(path, &st);
    t.opts = opts;
    t.lessons = lessons;
    t.view = calloc(1, sizeof *t.view);
    if (!t.view)
        abort();
    t.model.lessons = lessons;
    t.model.lesson = starting_lesson(lessons, opts->lesson, &st);
    t.model.focus = PANE_TEXT;
    t.left = PANE_TEXT;
    t.source_lesson = -1;
    t.demo_pace = opts->demo_s;
    t.demo_since = now_seconds();
    /* The locale before any thread starts (setlocale is not thread-safe), and numbers in
       the C format: the tuner's files are written and read on the worker thread. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    t.session = session_start(lessons, opts, t.model.lesson, starting_size(opts, &st),
                              st.has_device ? st.device : NULL);
    session_view(t.session, t.view);
    refresh_sources(&t);

    crt_install_signals();
    hold_stderr(&held);
    /* NO_COLOR (https://no-color.org): set and not empty. */
    crt_init(!opts->no_color && !(getenv("NO_COLOR") && *getenv("NO_COLOR")));
    trace_file = getenv("CLMM_TUTOR_TRACE") ? fopen(getenv("CLMM_TUTOR_TRACE"), "a") : NULL;
    status = run(&t, trace_file);
    crt_done();
    release_stderr(&held);
    if (trace_file)
        fclose(trace_file);

    if (t.view->fatal)
        fprintf(stderr, "clmm-tutor: %s\n", t.view->fatal_error);
    else
        save_state(&t);
    stopped = session_stop(t.session, STOP_WAIT_S);
    free_sources(&t);
    free(t.view);
    if (!stopped) {
        /* A launch is still running on the device: leave without waiting for it. */
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    return status;
}
