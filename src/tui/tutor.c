/* tutor.c: the interactive screen: its state, its keys and its main loop.

   The loop waits for a key with a short timeout (the refresh tick), hands each key to the
   handler of whatever has the keyboard (an overlay, a prompt, or the screen), and redraws
   when a key or the session changed something. The session measures on its own thread, so
   a key is answered at once even while a slow kernel runs.

   In exercise mode (X, or --exercise N) the screen shows an exercise's task, the student's
   file and the newest check of it; exmode.c owns that mode, and its keys and overlays sit
   in this file's tables. What the two files share is in tutorint.h. */
#include "tutor.h"
#include "tutorint.h"

#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "crt.h"
#include "diagram.h"
#include "diff.h"
#include "engine/exitstatus.h"
#include "layout.h"
#include "panes.h"
#include "engine/progress.h"
#include "engine/session.h"
#include "engine/sizes.h"
#include "engine/state.h"
#include "engine/str.h"
#include "engine/text.h"
#include "viewchart.h"
#include "engine/xalloc.h"

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
    t->model.hscroll[PANE_TEXT] = t->model.hscroll[PANE_SOURCE] = 0;
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

/* ---- notices ---- */

void show_notice(struct tutor *t, const char *text)
{
    str_copy(t->notice, sizeof t->notice, text);
    t->notice_until = now_seconds() + NOTICE_S;
    t->notice_is_error = false;
}

void show_error(struct tutor *t, const char *text)
{
    show_notice(t, text);
    t->notice_is_error = true;
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


int close_overlay(struct tutor *t)
{
    t->overlay = OVERLAY_NONE;
    return KEY_REDRAW;
}

bool is_enter(int key)
{
    return key == '\n' || key == '\r' || key == KEY_ENTER;
}

/* The help: the arrows scroll it where it does not fit; F10 quits; any other key closes. */
static int help_key(struct tutor *t, int key)
{
    if (key == KEY_DOWN || key == 'j') {
        t->picker++;
        return KEY_REDRAW;
    }
    if (key == KEY_UP || key == 'k') {
        t->picker = t->picker > 0 ? t->picker - 1 : 0;
        return KEY_REDRAW;
    }
    close_overlay(t);
    return key == KEY_F(10) ? KEY_QUIT : KEY_REDRAW;
}

static int params_key(struct tutor *t, int key)
{
    const struct lesson *l = &t->lessons->items[t->model.lesson];
    const struct lesson_param *p;
    long long now;
    size_t at = 0;

    if (is_enter(key) || key == CRT_KEY_ESC || key == 't' || key == 'q')
        return close_overlay(t);
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
        for (size_t i = 0; !p->is_range && i < p->nvalues; i++)
            if (p->values[i] == now)
                at = i;
        if (p->is_range)    /* a range steps by one (its ends fit an int: lesson.c) */
            at = (size_t)((unsigned long long)now - (unsigned long long)p->values[0]);
        if ((dir < 0 && at == 0) || (dir > 0 && at + 1 >= lesson_param_count(p)))
            return KEY_DONE;
        session_set_param(t->session, t->model.lesson, (size_t)t->picker,
                          lesson_param_value(p, dir < 0 ? at - 1 : at + 1));
    }
    return KEY_REDRAW;
}

static int devices_key(struct tutor *t, int key)
{
    int n = t->view->ndevices;

    if (key == CRT_KEY_ESC || key == 'q' || key == 'd') {
        close_overlay(t);
    } else if (key == KEY_UP || key == 'k') {
        t->picker = n ? (t->picker + n - 1) % n : 0;
    } else if (key == KEY_DOWN || key == 'j') {
        t->picker = n ? (t->picker + 1) % n : 0;
    } else if (is_enter(key)) {
        session_set_device(t->session, t->picker);
        close_overlay(t);
    } else if (key >= '0' && key <= '9' && key - '0' < n) {
        t->picker = key - '0';
    }
    return KEY_REDRAW;
}

static int build_key(struct tutor *t, int key)
{
    if (key == KEY_DOWN || key == 'j')
        t->picker++;
    else if (key == KEY_UP || key == 'k')
        t->picker = t->picker > 0 ? t->picker - 1 : 0;
    else
        close_overlay(t);
    return KEY_REDRAW;
}

static int apply_size(struct tutor *t)
{
    struct gemm_size sizes[SIZES_MAX_COUNT];
    size_t count = 0;
    struct error e;
    int rc = 0;

    error_init(&e);
    if (!t->input[0]) {
        snprintf(t->input_error, sizeof t->input_error, "type a size: N, or MxNxK such as 1000x700x300");
        rc = -1;
    } else if (sizes_parse(t->input, sizes, &count, &e) < 0 || count != 1) {
        const char *why = e.msg;
        int len = strstr(why, " (examples") ? (int)(strstr(why, " (examples") - why) : (int)strlen(why);
        if (count > 1)
            snprintf(t->input_error, sizeof t->input_error, "one size: N or MxNxK");
        else
            snprintf(t->input_error, sizeof t->input_error, "%.*s: N or MxNxK", len, why);
        rc = -1;
    } else {
        session_set_size(t->session, sizes[0]);
    }
    error_clear(&e);
    return rc;
}

/* ---- the course list: every lesson and under it its exercises ---- */

/* The rows; t->course is made for SESSION_MAX_LESSONS lessons and as many exercises. */
static int course_rows(const struct tutor *t, struct course_row *rows, int max)
{
    int n = 0;

    for (size_t l = 0; l < t->lessons->count && n < max; l++) {
        rows[n++] = (struct course_row){ (int)l, -1 };
        for (size_t x = 0; t->exercises && x < t->exercises->count && n < max; x++)
            if (t->exercises->items[x].lesson == t->lessons->items[l].number)
                rows[n++] = (struct course_row){ (int)l, (int)x };
    }
    return n;
}

static void open_course(struct tutor *t)
{
    reload_progress(t);
    t->ncourse = course_rows(t, t->course, (int)(sizeof t->course / sizeof t->course[0]));
    t->overlay = OVERLAY_COURSE;
    t->picker = 0;
    for (int i = 0; i < t->ncourse; i++)
        if (t->course[i].exercise < 0 && t->course[i].lesson == t->model.lesson)
            t->picker = i;
}

static int course_key(struct tutor *t, int key)
{
    if (key == CRT_KEY_ESC || key == 'q' || key == 'g') {
        close_overlay(t);
    } else if (t->ncourse == 0) {
        return KEY_DONE;
    } else if (key == KEY_UP || key == 'k') {
        t->picker = (t->picker + t->ncourse - 1) % t->ncourse;
    } else if (key == KEY_DOWN || key == 'j') {
        t->picker = (t->picker + 1) % t->ncourse;
    } else if (key == KEY_PPAGE || key == KEY_NPAGE) {
        t->picker += key == KEY_PPAGE ? -10 : 10;
        t->picker = t->picker < 0 ? 0 : t->picker >= t->ncourse ? t->ncourse - 1 : t->picker;
    } else if (is_enter(key)) {
        const struct course_row *c = &t->course[t->picker];
        close_overlay(t);
        if (c->exercise >= 0) {
            open_exercise(t, &t->exercises->items[c->exercise]);
        } else {
            if (t->exercise)
                leave_exercise(t);
            go_to_lesson(t, c->lesson);
        }
    }
    return KEY_REDRAW;
}

static void draw_course(struct tutor *t, int cols, int rows)
{
    panes_draw_course(cols, rows, t->lessons, t->exercises, &t->progress, t->course, t->ncourse, t->picker,
                      t->model.lesson);
}

static int apply_goto(struct tutor *t)
{
    const struct lesson_set *set = t->lessons;
    char *end;
    long number = strtol(t->input, &end, 10);
    int index = *t->input && !*end && number >= 0 && number <= 1000000 ? index_of_number(set, (int)number) : -1;

    if (!*t->input) {
        /* Enter alone: the list to choose from. */
        open_course(t);
        return 1;
    }
    if (index < 0) {
        snprintf(t->input_error, sizeof t->input_error, "%s%s: the lessons are %d to %d",
                 *t->input ? "no lesson " : "type a lesson's number", t->input, set->items[0].number,
                 set->items[set->count - 1].number);
        return -1;
    }
    go_to_lesson(t, index);
    return 0;
}

struct prompt {
    const char *label;          /* NULL: the tutor's label, written when the prompt opens */
    const char *accepts;        /* the characters typed into it */
    int (*apply)(struct tutor *t);
};

static const struct prompt prompts[OVERLAY_COUNT] = {
    [OVERLAY_SIZE] = { " size (N or MxNxK, Enter applies, Esc cancels): ", "0123456789xX", apply_size },
    [OVERLAY_GOTO] = { " go to lesson (its number and Enter; Enter alone: the list; Esc cancels): ", "0123456789",
                       apply_goto },
    [OVERLAY_PREDICT] = { NULL, "0123456789.", apply_predict },
};

static int prompt_key(struct tutor *t, int key)
{
    const struct prompt *p = &prompts[t->overlay];
    size_t len = strlen(t->input);

    t->input_error[0] = '\0';
    if (key == CRT_KEY_ESC) {
        close_overlay(t);
    } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (len > 0)
            t->input[len - 1] = '\0';
    } else if (is_enter(key)) {
        if (p->apply(t) == 0)
            close_overlay(t);
    } else if (key > 0 && key < 128 && strchr(p->accepts, key) && len + 1 < sizeof t->input) {
        t->input[len] = (char)(key == 'X' ? 'x' : key);
        t->input[len + 1] = '\0';
    }
    return KEY_REDRAW;
}

void open_prompt(struct tutor *t, enum overlay which)
{
    t->overlay = which;
    t->input[0] = '\0';
    t->input_error[0] = '\0';
}

/* ---- the screen's keys ---- */

static int key_lesson(struct tutor *t, int key)
{
    go_to_lesson(t, t->model.lesson + (key == 'p' || key == KEY_LEFT ? -1 : 1));
    return KEY_REDRAW;
}

static int key_digit(struct tutor *t, int key)
{
    int index = index_of_number(t->lessons, key - '0');

    if (index < 0)
        show_notice(t, "no lesson with that number: g goes to any lesson");
    go_to_lesson(t, index);
    return KEY_REDRAW;
}

static int key_goto(struct tutor *t, int key)
{
    (void)key;
    open_prompt(t, OVERLAY_GOTO);
    return KEY_REDRAW;
}

static const long long size_steps[] = { 32, 64, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096,
                                        6144, 8192, 12288, 16384 };

/* The next square size up or down the ladder from the largest side. */
static int key_size_step(struct tutor *t, int key)
{
    struct gemm_size s = t->view->want_size.m ? t->view->want_size : t->view->size;
    long long side = s.m > s.n ? s.m : s.n, next = 0;
    size_t n = sizeof size_steps / sizeof size_steps[0];
    bool up = key == '+' || key == '=';

    side = side > s.k ? side : s.k;
    if (up) {
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
    return KEY_REDRAW;
}

static int key_size_prompt(struct tutor *t, int key)
{
    (void)key;
    open_prompt(t, OVERLAY_SIZE);
    return KEY_REDRAW;
}

static int key_device(struct tutor *t, int key)
{
    (void)key;
    t->overlay = OVERLAY_DEVICES;
    t->picker = t->view->device >= 0 ? t->view->device : 0;
    return KEY_REDRAW;
}

static int key_params(struct tutor *t, int key)
{
    (void)key;
    if (t->lessons->items[t->model.lesson].nparams == 0) {
        show_notice(t, "this lesson has no parameters");
        return KEY_REDRAW;
    }
    t->overlay = OVERLAY_PARAMS;
    t->picker = 0;
    return KEY_REDRAW;
}

static int key_series(struct tutor *t, int key)
{
    session_toggle_job(t->session, key == 'T' ? JOB_TUNE : JOB_ALL);
    return KEY_REDRAW;
}

/* Hides the sweep of this lesson (stopping it if it runs); otherwise starts one. */
static int key_sweep(struct tutor *t, int key)
{
    (void)key;
    if (t->view->sweep_lesson == t->model.lesson) {
        if (t->view->want_job == JOB_SWEEP)
            session_cancel_job(t->session);
        session_clear_charts(t->session);
    } else {
        session_toggle_job(t->session, JOB_SWEEP);
    }
    return KEY_REDRAW;
}

static int key_cancel(struct tutor *t, int key)
{
    (void)key;
    session_cancel_job(t->session);
    session_clear_charts(t->session);
    return KEY_REDRAW;
}

static int key_pause(struct tutor *t, int key)
{
    (void)key;
    session_set_paused(t->session, !t->view->paused);
    return KEY_REDRAW;
}

static int key_inside(struct tutor *t, int key)
{
    (void)key;
    t->model.inside = !t->model.inside;
    t->model.host_code = false;
    t->model.scroll[PANE_SOURCE] = 0;
    if (t->model.inside)
        t->model.focus = PANE_SOURCE;       /* on a narrow screen, it takes the text's place */
    show_notice(t, t->model.inside ? "look inside: what the compiler made of the kernel (i: the source again)"
                                   : "the kernel's source");
    return KEY_REDRAW;
}

/* The command that prints the host code shown, whole, for copying: the lesson, its size and
   the parameters that are not the defaults, or as much of it as fits width columns (at least
   "--show N --host-code"). */
static void host_code_command(const struct tutor *t, int width, char *buf, size_t len)
{
    const struct lesson *l = &t->lessons->items[t->model.lesson];
    struct gemm_size sz = t->view->size;
    const char *dot = crt_utf8() ? "\u00b7" : "-";
    char cmd[512];
    struct str s;

    str_init(&s, cmd, sizeof cmd);
    str_appendf(&s, "", "clmm-tutor --show %d --host-code", l->number);
    if (t->start->lessons_dir)
        str_appendf(&s, " ", "--lessons %s", t->start->lessons_dir);
    if (sz.m == sz.n && sz.n == sz.k)
        str_appendf(&s, " ", "--size %lld", sz.m);
    else
        str_appendf(&s, " ", "--size %lldx%lldx%lld", sz.m, sz.n, sz.k);
    for (size_t i = 0; i < l->nparams; i++)
        if (t->view->params.values[i] != l->params[i].def)
            str_appendf(&s, " ", "--param %s=%lld", l->params[i].name, t->view->params.values[i]);
    snprintf(buf, len, "H: back %s whole: %s", dot, cmd);
    if (s.truncated || (int)str_columns(buf, strlen(buf)) > width)
        snprintf(buf, len, "H: back %s whole: clmm-tutor --show %d --host-code", dot, l->number);
}

static int key_host_code(struct tutor *t, int key)
{
    char text[600];

    (void)key;
    t->model.host_code = !t->model.host_code;
    t->model.inside = false;
    t->model.scroll[PANE_SOURCE] = t->model.hscroll[PANE_SOURCE] = 0;
    if (t->model.host_code)
        t->model.focus = PANE_SOURCE;       /* so that it scrolls and z zooms it */
    /* The key line's width, less its margins. */
    host_code_command(t, COLS - 2, text, sizeof text);
    show_notice(t, t->model.host_code ? text : "the kernel's source");
    return KEY_REDRAW;
}

static int key_roofline(struct tutor *t, int key)
{
    (void)key;
    t->model.roofline = !t->model.roofline;
    if (t->model.roofline)
        t->model.focus = PANE_GFLOPS;       /* so that z zooms it */
    show_notice(t, t->model.roofline ? "roofline: the lessons against the ceilings (l: bars)" : "bars: GFLOPS");
    return KEY_REDRAW;
}

static int key_scale(struct tutor *t, int key)
{
    static const char *const names[BARS_SCALES] = { "bars: GFLOPS, linear scale", "bars: GFLOPS, log scale",
                                                    "bars: speed-up over lesson 1 (or the first measured), log scale" };
    (void)key;
    t->model.bar_scale = (enum bar_scale)((t->model.bar_scale + 1) % BARS_SCALES);
    show_notice(t, names[t->model.bar_scale]);
    return KEY_REDRAW;
}

/* Saves the chart of the GFLOPS pane as an SVG picture (viewchart.h) and says where: the
   sweep when it is shown, else the bars, on the scale shown (the speed-up as GFLOPS on
   the log scale). The roofline and the tuner's chart are drawn on screen only: the bars
   are saved instead, and the notice says so. */
static int key_save_chart(struct tutor *t, int key)
{
    const struct session_view *v = t->view;
    bool tuning = v->tune_lesson == t->model.lesson && (v->job == JOB_TUNE || v->ntune > 0);
    bool sweep = !t->model.roofline && !tuning && v->sweep_lesson == t->model.lesson;
    time_t now = time(NULL);
    char name[256], path[4400], text[4600];
    struct plot p;
    struct error e;

    (void)key;
    if (!v->device_ready) {
        show_error(t, "G saves the chart: there is none until a device is open");
        return KEY_REDRAW;
    }
    error_init(&e);
    viewchart_plot(&p, v, t->lessons, t->model.lesson, sweep, t->model.bar_scale != BARS_LINEAR, now);
    viewchart_name(name, sizeof name, t->lessons->items[t->model.lesson].number, v->size, sweep, now);
    if (viewchart_save(&p, name, path, sizeof path, &e) < 0) {
        snprintf(text, sizeof text, "the chart was not saved: %s", e.msg);
        show_error(t, text);
    } else {
        /* The file's name first: on a narrow screen the line is cut at its end. */
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        if (strncmp(path, "./", 2) == 0 && base == path + 2)
            snprintf(text, sizeof text, "%s: %s saved, in the directory the tutor started in", base,
                     sweep ? "the sweep" : "the bars");
        else
            snprintf(text, sizeof text, "%s: %s saved, in %.*s", base, sweep ? "the sweep" : "the bars",
                     (int)(base - path - 1), path);
        if (t->model.roofline || tuning)
            snprintf(text + strlen(text), sizeof text - strlen(text), " (the %s is drawn on screen only)",
                     tuning ? "tuner's chart" : "roofline");
        show_notice(t, text);
    }
    plot_free(&p);
    error_clear(&e);
    return KEY_REDRAW;
}

/* Runs a launch the time estimate refused. */
static int key_force(struct tutor *t, int key)
{
    const struct summary *f = &t->view->latest;

    (void)key;
    if (!f->have || f->status != RUN_REFUSED || f->estimate_s <= 0.0) {
        show_notice(t, "f runs a launch that was refused for its estimated time; none is");
        return KEY_REDRAW;
    }
    session_force(t->session, t->model.lesson);
    return KEY_REDRAW;
}

static int key_reload(struct tutor *t, int key)
{
    (void)key;
    if (t->lessons->items[t->model.lesson].engine != ENGINE_OPENCL)
        show_notice(t, "the host reference has no kernel to reload");
    else
        session_reload(t->session, t->model.lesson);
    return KEY_REDRAW;
}

static int key_diff(struct tutor *t, int key)
{
    (void)key;
    t->model.show_diff = !t->model.show_diff;
    if (!t->model.diff)
        show_notice(t, "no previous kernel to compare with");
    t->model.focus = t->left = PANE_SOURCE;
    t->model.scroll[PANE_SOURCE] = 0;
    return KEY_REDRAW;
}

/* The diff of code lines alone, leaving out comments and blank lines; it shows the diff. */
static int key_code_only(struct tutor *t, int key)
{
    (void)key;
    t->model.diff_code_only = !(t->model.show_diff && t->model.diff_code_only);
    if (!t->model.show_diff)
        key_diff(t, 'c');
    return KEY_REDRAW;
}

/* The text and source panes move sideways by 8 columns; the drawing clamps it. */
static int key_sideways(struct tutor *t, int key)
{
    int *h = &t->model.hscroll[t->model.focus];

    *h += key == '>' ? 8 : -8;
    *h = *h < 0 ? 0 : *h;
    return KEY_REDRAW;
}

static int key_pane(struct tutor *t, int key)
{
    enum pane order[PANE_COUNT] = { PANE_TEXT, PANE_SOURCE, PANE_LAYOUT, PANE_GFLOPS };
    int at = 0, direction = key == KEY_BTAB ? -1 : 1;

    for (int i = 0; i < PANE_COUNT; i++)
        if (order[i] == t->model.focus)
            at = i;
    at = (at + PANE_COUNT + direction) % PANE_COUNT;
    /* An exercise has no work-group layout pane: the check takes its place. */
    if (t->exercise && order[at] == PANE_LAYOUT)
        at = (at + PANE_COUNT + direction) % PANE_COUNT;
    t->model.focus = order[at];
    if (t->model.focus == PANE_TEXT || t->model.focus == PANE_SOURCE)
        t->left = t->model.focus;
    return KEY_REDRAW;
}

static int key_scroll(struct tutor *t, int key)
{
    const struct rect *r = &t->layout.pane[t->model.focus];
    int page = r->h > 3 ? r->h - 3 : 1, *scroll = &t->model.scroll[t->model.focus];

    switch (key) {
    case KEY_UP: case 'k': *scroll -= 1; break;
    case KEY_DOWN: case 'j': *scroll += 1; break;
    case KEY_PPAGE: *scroll -= page; break;
    case KEY_NPAGE: *scroll += page; break;
    case KEY_HOME: *scroll = 0; t->model.hscroll[t->model.focus] = 0; break;
    case KEY_END: *scroll = 1 << 20; break;     /* the drawing clamps it */
    }
    return KEY_REDRAW;
}

static int key_zoom(struct tutor *t, int key)
{
    (void)key;
    t->model.zoom = !t->model.zoom;
    return KEY_REDRAW;
}

static int key_help(struct tutor *t, int key)
{
    (void)key;
    t->overlay = OVERLAY_HELP;
    t->picker = 0;
    return KEY_REDRAW;
}

/* Esc on the screen itself steps back (out of a zoom, out of the diff); it never quits. */
static int key_escape(struct tutor *t, int key)
{
    (void)key;
    if (t->model.zoom)
        t->model.zoom = false;
    else if (t->model.show_diff)
        t->model.show_diff = false;
    else
        show_notice(t, "Esc closes windows and prompts; q quits");
    return KEY_REDRAW;
}

/* ---- exercise mode's keys ---- */

static int key_quit(struct tutor *t, int key)
{
    (void)t;
    (void)key;
    return KEY_QUIT;
}

/* Every key of the screen: the dispatcher, the key line and the help read this table. A
   key works in the modes its row names: the lessons, an exercise, or both. */
static const struct key_binding bindings[] = {
    { { 'n', KEY_RIGHT, 'p', KEY_LEFT }, key_lesson, "n p, <- ->", "next / previous lesson",
      "n/p", "lesson", 0, "Lessons and sizes", KEYS_LESSONS },
    { { '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' }, key_digit, "0-9", "lesson 0 to 9",
      NULL, NULL, 0, NULL, KEYS_LESSONS },
    { { 'g' }, key_goto, "g", "go to any lesson", "g", "go to", 5, NULL, KEYS_LESSONS },
    { { '+', '=', '-', '_' }, key_size_step, "+ -", "larger / smaller size", "+/-", "size", 1, NULL, KEYS_LESSONS },
    { { 's' }, key_size_prompt, "s", "type a size: N, MxNxK", "s", "size...", 9, NULL, KEYS_LESSONS },
    { { 'd' }, key_device, "d", "choose the device", "d", "device", 4, NULL, KEYS_LESSONS },
    { { 't' }, key_params, "t", "change the parameters", "t", "param", 2, "Parameters and kernels", KEYS_LESSONS },
    { { 'T' }, key_series, "T", "tune, keep the best", "T", "tune", 6, NULL, KEYS_LESSONS },
    { { 'r' }, key_reload, "r", "reload edited kernel", "r", "reload", 7, NULL, KEYS_LESSONS },
    { { 'c' }, key_diff, "c", "diff, previous lesson", "c", "diff", 8, NULL, KEYS_LESSONS },
    { { 'o' }, key_code_only, "o", "diff of code only", NULL, NULL, 0, NULL, KEYS_LESSONS },
    { { ' ' }, key_pause, "space", "pause / resume", "spc", "pause", 5, "Measuring", KEYS_LESSONS },
    { { 'a' }, key_series, "a", "every lesson + libraries", "a", "all", 2, NULL, KEYS_LESSONS },
    { { 'w' }, key_sweep, "w", "sweep sizes (w hides)", "w", "sweep", 6, NULL, KEYS_LESSONS },
    { { 'x' }, key_cancel, "x", "cancel the series", NULL, NULL, 0, NULL, KEYS_LESSONS },
    { { 'v' }, key_scale, "v", "linear, log, speed-up", "v", "scale", 3, NULL, KEYS_LESSONS },
    { { 'i' }, key_inside, "i", "look inside the kernel", "i", "inside", 6, NULL, KEYS_LESSONS },
    { { 'H' }, key_host_code, "H", "the launch's host code", NULL, NULL, 0, NULL, KEYS_LESSONS },
    { { 'l' }, key_roofline, "l", "roofline of the device", "l", "roofline", 5, NULL, KEYS_LESSONS },
    { { 'G' }, key_save_chart, "G", "save the chart (SVG)", "G", "save chart", 8, NULL, KEYS_LESSONS },
    { { 'f' }, key_force, "f", "run a refused launch", NULL, NULL, 0, NULL, KEYS_LESSONS },
    { { 'X' }, key_exercises, "X", "exercises: the list", "X", "exercises", 1, "Exercises", KEYS_BOTH },
    { { 'e' }, key_edit, "e", "edit your file", "e", "edit", 0, NULL, KEYS_EXERCISE },
    { { 'c' }, key_check, "c", "check it now", "c", "check", 1, NULL, KEYS_EXERCISE },
    { { 'x' }, key_stop_check, "x", "stop the check", NULL, NULL, 0, NULL, KEYS_EXERCISE },
    { { 'i' }, key_hint, "i", "the next hint", "i", "hint", 0, NULL, KEYS_EXERCISE },
    { { 'S' }, key_solution, "S", "the solution (S hides)", "S", "solution", 3, NULL, KEYS_EXERCISE },
    { { 'R' }, key_reset, "R", "start again (a backup)", "R", "reset", 4, NULL, KEYS_EXERCISE },
    { { 'n', 'p' }, key_exercise_step, "n p", "next / prev. exercise", NULL, NULL, 0, NULL, KEYS_EXERCISE },
    { { 'b', CRT_KEY_ESC }, key_back, "b Esc", "back to the lessons", "b", "lessons", 2, NULL, KEYS_EXERCISE },
    { { '\t', KEY_BTAB }, key_pane, "Tab S-Tab", "next / previous pane", "tab", "pane", 8, "Screen", KEYS_BOTH },
    { { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END, 'j', 'k' }, key_scroll,
      "Up Down j k", "scroll (PgUp PgDn too)", NULL, NULL, 0, NULL, KEYS_BOTH },
    { { '<', '>' }, key_sideways, "< >", "scroll sideways", NULL, NULL, 0, NULL, KEYS_BOTH },
    { { 'z' }, key_zoom, "z", "zoom the pane", "z", "zoom", 7, NULL, KEYS_BOTH },
    { { '?', 'h', KEY_F(1) }, key_help, "? h F1", "this help", "?", "help", 0, NULL, KEYS_BOTH },
    { { CRT_KEY_ESC }, key_escape, "Esc", "close window or prompt", NULL, NULL, 0, NULL, KEYS_LESSONS },
    { { 'q', KEY_F(10) }, key_quit, "q F10", "quit", "q", "quit", 0, NULL, KEYS_BOTH },
};

static const struct key_binding *binding_of(const struct tutor *t, int key)
{
    for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++) {
        if (!(bindings[i].modes & t->model.mode))
            continue;
        for (size_t k = 0; k < sizeof bindings[i].codes / sizeof bindings[i].codes[0] && bindings[i].codes[k]; k++)
            if (bindings[i].codes[k] == key)
                return &bindings[i];
    }
    return NULL;
}

static int screen_key(struct tutor *t, int key)
{
    const struct key_binding *b = binding_of(t, key);

    return b ? b->run(t, key) : KEY_DONE;
}

/* ---- drawing ---- */

/* Why the lesson cannot run with its parameters now, for the parameter window. */
static void refusal_now(const struct tutor *t, char *buf, size_t len)
{
    struct figures d;
    struct error e;

    error_init(&e);
    buf[0] = '\0';
    if (figures_compute(&t->lessons->items[t->model.lesson], &t->view->params, t->view->size, NULL, &d, &e) < 0)
        snprintf(buf, len, "%s", e.msg);
    else if (d.nwarnings > 0)
        snprintf(buf, len, "%s", d.warnings[0]);
    error_clear(&e);
}

static void draw_help(struct tutor *t, int cols, int rows)
{
    panes_draw_help(cols, rows, &t->model, &t->picker);
}

static void draw_params(struct tutor *t, int cols, int rows)
{
    char refusal[1024];

    refusal_now(t, refusal, sizeof refusal);
    panes_draw_params(cols, rows, &t->model, t->picker, refusal);
}

static void draw_devices(struct tutor *t, int cols, int rows)
{
    panes_draw_devices(cols, rows, &t->model, t->picker);
}

static void draw_build(struct tutor *t, int cols, int rows)
{
    panes_draw_build_log(cols, rows, &t->model, &t->picker);
}

static void draw_prompt(struct tutor *t, int cols, int rows)
{
    const char *label = t->overlay == OVERLAY_CONFIRM || !prompts[t->overlay].label ? t->label
                                                                                     : prompts[t->overlay].label;

    (void)cols;
    (void)rows;
    panes_draw_prompt(&t->layout.keys, label, t->input, t->input_error);
}

/* Each overlay owns its keys and its drawing; OVERLAY_NONE is the screen itself. */
static const struct overlay_ops {
    int (*key)(struct tutor *t, int key);
    void (*draw)(struct tutor *t, int cols, int rows);
} overlays[OVERLAY_COUNT] = {
    [OVERLAY_NONE] = { screen_key, NULL },
    [OVERLAY_HELP] = { help_key, draw_help },
    [OVERLAY_PARAMS] = { params_key, draw_params },
    [OVERLAY_DEVICES] = { devices_key, draw_devices },
    [OVERLAY_BUILD] = { build_key, draw_build },
    [OVERLAY_SIZE] = { prompt_key, draw_prompt },
    [OVERLAY_GOTO] = { prompt_key, draw_prompt },
    [OVERLAY_EXERCISES] = { exercises_key, draw_exercises },
    [OVERLAY_COURSE] = { course_key, draw_course },
    [OVERLAY_PREDICT] = { prompt_key, draw_prompt },
    [OVERLAY_CONFIRM] = { confirm_key, draw_prompt },
};

static int handle_key(struct tutor *t, int key)
{
    if (t->demo_pace > 0) {
        /* Any key ends the presentation; q still quits. */
        t->demo_pace = 0;
        t->model.demo = false;
        if (key != 'q' && key != KEY_F(10))
            return KEY_REDRAW;
    }
    if (t->layout.too_small)
        return key == 'q' || key == KEY_F(10) ? KEY_QUIT : KEY_DONE;
    return overlays[t->overlay].key(t, key);
}

/* What the source pane shows: the lesson's kernel (and the diff), or the student's file
   (or the solution) of the exercise open. */
static void model_sources(struct tutor *t)
{
    if (t->exercise) {
        t->model.source = t->have_solution ? &t->solution : t->have_student ? &t->student : NULL;
        t->model.previous = NULL;
        t->model.diff = NULL;
        t->model.show_diff = false;
        t->ex.checking = t->view->checking;
        t->ex.stopped = t->view->check_stopped;
        t->ex.now = now_seconds();
        return;
    }
    t->model.source = t->have_source ? &t->source : NULL;
    t->model.previous = t->have_previous ? &t->previous : NULL;
    t->model.diff = t->have_diff ? &t->diff : NULL;
}

static void draw(struct tutor *t)
{
    int cols = COLS, rows = LINES;
    struct screen_layout *L = &t->layout;
    double now = now_seconds();

    t->model.view = t->view;
    model_sources(t);
    /* An exercise's check takes the whole right column. */
    layout_compute(cols, rows, t->model.focus, t->left, t->model.zoom,
                   t->exercise ? rows : panes_gflops_rows(&t->model), L);
    if (L->too_small) {
        panes_draw_too_small(cols, rows);
        refresh();
        return;
    }
    erase();
    t->model.message = now < t->notice_until ? t->notice : NULL;
    t->model.message_is_error = t->notice_is_error;
    t->model.demo = t->demo_pace > 0;
    panes_draw_title(&L->title, &t->model);
    for (size_t i = 0; i < panes_count; i++) {
        const struct pane_ops *p = &panes_table[i];

        if ((p->modes & (t->exercise ? KEYS_EXERCISE : KEYS_LESSONS)) && rect_visible(&L->pane[p->slot]))
            p->draw(&L->pane[p->slot], &t->model);
    }
    panes_draw_keys(&L->keys, &t->model);
    if (overlays[t->overlay].draw)
        overlays[t->overlay].draw(t, cols, rows);
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
        dirty |= exercise_tick(t);
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

static struct gemm_size starting_size(const struct screen_start *start, const struct tutor_state *st)
{
    if (start->size_given)
        return start->size;
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

int tutor_run(const struct screen_start *start, const struct lesson_set *lessons,
              const struct exercise_set *exercises, struct compare *saved)
{
    struct tutor t;
    const struct exercise *opened = NULL;
    struct tutor_state st;
    char path[4096];
    FILE *trace_file;
    int status;
    bool stopped;

    if (lessons->count > SESSION_MAX_LESSONS) {
        fprintf(stderr, "clmm-tutor: the interactive screen shows at most %d lessons; %s has %zu "
                        "(--bench and --show take any number)\n", SESSION_MAX_LESSONS,
                start->lessons_dir ? start->lessons_dir : "the lesson directory", lessons->count);
        return EXIT_USAGE;
    }
    memset(&t, 0, sizeof t);
    memset(&st, 0, sizeof st);
    if (state_path(path, sizeof path) == 0)
        state_load(path, &st);
    t.start = start;
    t.lessons = lessons;
    t.exercises = exercises;
    if (start->exercise > 0)
        opened = exercise_set_find(exercises, start->exercise);
    if (progress_path(t.progress_file, sizeof t.progress_file) < 0)
        t.progress_file[0] = '\0';
    t.view = xcalloc(1, sizeof *t.view);
    t.model.lessons = lessons;
    t.model.exercises = exercises;
    t.model.compare = saved;
    t.model.keys = bindings;
    t.model.nkeys = sizeof bindings / sizeof bindings[0];
    t.model.mode = KEYS_LESSONS;
    /* An exercise opens over its lesson: the lessons come back there. */
    t.model.lesson = starting_lesson(lessons, opened ? opened->lesson : start->lesson, &st);
    t.model.focus = PANE_TEXT;
    t.left = PANE_TEXT;
    t.source_lesson = -1;
    t.demo_pace = start->demo_s;
    t.demo_since = now_seconds();
    /* The locale before any thread starts (setlocale is not thread-safe), and numbers in
       the C format: the tuner's files are written and read on the worker thread. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    /* The signal handlers before the worker opens the device: its driver keeps ours as the
       ones to chain to. */
    crt_install_signals();
    t.session = session_start(lessons, &start->session, t.model.lesson, starting_size(start, &st),
                              st.has_device ? st.device : NULL);
    session_view(t.session, t.view);
    refresh_sources(&t);
    t.check_seen = t.view->check_serial;
    if (opened)
        open_exercise(&t, opened);

    crt_hold_stderr();
    /* NO_COLOR (https://no-color.org): set and not empty. */
    crt_init(!start->no_color && !(getenv("NO_COLOR") && *getenv("NO_COLOR")));
    xalloc_on_failure(crt_fatal);       /* out of memory: the terminal first, then the message */
    trace_file = getenv("CLMM_TUTOR_TRACE") ? fopen(getenv("CLMM_TUTOR_TRACE"), "a") : NULL;
    status = run(&t, trace_file);
    if (!t.view->fatal)
        save_state(&t);
    /* The screen stays up, saying what it waits for, while a running launch ends. */
    session_view(t.session, t.view);
    if (t.view->busy && !t.layout.too_small) {
        const struct measure_progress *p = &t.view->progress;
        double left = p->launch_s - (now_seconds() - t.view->progress_at);
        char text[512];
        if (p->launch_s > 0.0 && left > 0.0)
            snprintf(text, sizeof text, "quitting: waiting for the running launch (about %.0f s; at most %.0f s)",
                     left, STOP_WAIT_S);
        else
            snprintf(text, sizeof text, "quitting: waiting for the running launch (at most %.0f s)", STOP_WAIT_S);
        panes_draw_closing(&t.layout.keys, text);
        refresh();
    }
    stopped = session_stop(t.session, STOP_WAIT_S);
    crt_done();
    xalloc_on_failure(NULL);
    crt_release_stderr();
    if (trace_file)
        fclose(trace_file);
    if (t.view->fatal) {
        char *msg = text_printable(t.view->fatal_error, true);
        fprintf(stderr, "clmm-tutor: %s\n", msg);
        free(msg);
    }
    free_exercise(&t);
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
