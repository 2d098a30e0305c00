/* exmode.c: the screen's exercise mode. An exercise open shows its task, the student's file
   and the newest check of it; the file is looked at every POLL_S and each save is checked on
   the session's thread, without a key; the reports are recorded in the progress. The keys
   and overlays of the mode (the list, the prediction, the y/n questions) are here; tutor.c's
   tables name them. */
#include "tutorint.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crt.h"
#include "engine/files.h"
#include "engine/practice.h"
#include "engine/str.h"
#include "engine/xalloc.h"

static void stamp_file(const char *path, struct file_stamp *out)
{
    struct stat st;

    memset(out, 0, sizeof *out);
    if (stat(path, &st) < 0)
        return;
    out->present = true;
    out->dev = st.st_dev;
    out->ino = st.st_ino;
    out->size = st.st_size;
    out->mtime = st.st_mtim;
}

static bool same_stamp(const struct file_stamp *a, const struct file_stamp *b)
{
    return a->present == b->present && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec;
}

/* The student's file as it is now, for the source pane. */
static void read_student_file(struct tutor *t)
{
    struct error e;
    size_t len;
    char *text;

    if (t->have_student)
        lines_free(&t->student);
    t->have_student = false;
    error_init(&e);
    if ((text = files_read(t->ex_path, LESSON_KERNEL_MAX, "your kernel", &len, &e))) {
        lines_split(text, &t->student);
        t->have_student = true;
        free(text);
    }
    error_clear(&e);
    t->ex.file_missing = !t->stamp.present;
}

static void hide_solution(struct tutor *t)
{
    if (t->have_solution)
        lines_free(&t->solution);
    t->have_solution = false;
    t->ex.solution_file = NULL;
}

/* What exercise mode holds: the student's file, the solution, the newest report. */
void free_exercise(struct tutor *t)
{
    hide_solution(t);
    if (t->have_student)
        lines_free(&t->student);
    t->have_student = false;
    if (t->have_report)
        check_report_free(&t->report);
    t->have_report = false;
    t->ex.report = NULL;
    t->ex.as_shipped = 0;
}

void reload_progress(struct tutor *t)
{
    if (t->progress_file[0])
        progress_load(t->progress_file, &t->progress);
    t->ex.verified = progress_count(&t->progress, t->exercises, PROGRESS_VERIFIED);
}

/* Asks the session to check the student's file as it is now. */
static void check_now(struct tutor *t)
{
    struct check_options o;

    if (!t->stamp.present) {
        show_error(t, "your file is not there: R puts the starting kernel back");
        return;
    }
    memset(&o, 0, sizeof o);
    o.file = t->ex_path;
    o.shown_name = t->ex_path;
    o.measure = t->start->session.measure;
    o.has_prediction = t->ex.has_prediction;
    o.prediction = t->ex.prediction;
    session_check(t->session, t->exercise, &o);
}

/* Opens exercise x: the student's file is made from the start when there is none (never
   over one), and checked at once when it was there already. */
void open_exercise(struct tutor *t, const struct exercise *x)
{
    const char *workspace = practice_workspace(t->start->workspace);
    char msg[4400];
    struct error e;
    bool created;

    error_init(&e);
    if (practice_prepare(workspace, x, t->ex_path, sizeof t->ex_path, &created, &e) < 0) {
        show_error(t, e.msg);
        error_clear(&e);
        return;
    }
    if (!t->exercise) {
        /* The lessons' measurements wait while the student works: the checks get the device. */
        t->paused_before = t->view->paused;
        session_set_paused(t->session, true);
    }
    free_exercise(t);
    t->exercise = x;
    memset(&t->ex, 0, sizeof t->ex);
    t->ex.x = x;
    t->ex.position = exercise_set_index(t->exercises, x->number) + 1;
    t->ex.count = (int)t->exercises->count;
    t->ex.path = t->ex_path;
    t->ex.workspace = workspace;
    reload_progress(t);
    t->ex.hints = t->progress.e[x->number].hints;
    t->model.exercise = &t->ex;
    t->model.mode = KEYS_EXERCISE;
    t->model.focus = t->left = PANE_TEXT;
    t->model.zoom = false;
    t->model.show_diff = false;
    memset(t->model.scroll, 0, sizeof t->model.scroll);
    memset(t->model.hscroll, 0, sizeof t->model.hscroll);
    stamp_file(t->ex_path, &t->stamp);
    read_student_file(t);
    t->next_poll = now_seconds() + POLL_S;
    if (created) {
        snprintf(msg, sizeof msg, "%s holds the starting kernel: e edits it", t->ex_path);
        show_notice(t, msg);
    } else {
        check_now(t);
    }
}

void leave_exercise(struct tutor *t)
{
    if (!t->exercise)
        return;
    t->exercise = NULL;
    t->model.exercise = NULL;
    t->model.mode = KEYS_LESSONS;
    t->model.focus = t->left = PANE_TEXT;
    t->model.zoom = false;
    memset(t->model.scroll, 0, sizeof t->model.scroll);
    memset(t->model.hscroll, 0, sizeof t->model.hscroll);
    free_exercise(t);
    session_set_paused(t->session, t->paused_before);
}

/* Looks at the student's file every POLL_S; a change (a save) is checked at once. Returns
   whether the screen changed. */
static bool poll_student_file(struct tutor *t)
{
    struct file_stamp now;

    if (!t->exercise || now_seconds() < t->next_poll)
        return false;
    t->next_poll = now_seconds() + POLL_S;
    stamp_file(t->ex_path, &now);
    if (same_stamp(&now, &t->stamp))
        return false;
    t->stamp = now;
    read_student_file(t);
    if (now.present)
        check_now(t);
    return true;
}

/* Keeps a check in the progress file, once per report. */
static void record_check(struct tutor *t, const struct check_report *r)
{
    struct progress_check c;
    struct error e;
    char msg[1100];

    check_progress(r, &c);
    if (t->progress_file[0]) {
        error_init(&e);
        if (progress_record(t->progress_file, &c, &t->progress, &e) < 0) {
            snprintf(msg, sizeof msg, "your progress was not saved: %s", e.msg);
            show_error(t, msg);
        }
        error_clear(&e);
    } else if (c.exercise >= 0 && c.exercise < PROGRESS_MAX_EXERCISES) {
        /* Not kept beyond the session, but the screen still knows. */
        progress_apply(&t->progress.e[c.exercise], &c, (long long)time(NULL));
    }
    t->ex.verified = progress_count(&t->progress, t->exercises, PROGRESS_VERIFIED);
}

/* A new report from the session: kept, shown when it is of the exercise open, and the
   prediction asked for when the exercise wants one before it measures. */
static bool take_report(struct tutor *t)
{
    struct check_report r;
    const struct exercise *x = t->exercise;
    char size[96];

    if (t->view->check_serial == t->check_seen || !session_check_report(t->session, &t->check_seen, &r))
        return false;
    if (r.verdict != CHECK_CANCELLED)
        record_check(t, &r);
    if (!x || r.exercise != x->number) {
        check_report_free(&r);
        return true;
    }
    if (t->have_report)
        check_report_free(&t->report);
    t->report = r;
    t->have_report = true;
    t->ex.report = &t->report;
    t->ex.as_shipped = check_as_shipped(&r, x);
    t->model.scroll[PANE_GFLOPS] = 0;
    if (r.verdict == CHECK_NOT_BUILT && r.build_line > 0 && !t->ex.solution_file) {
        /* The file at the compiler's first error. */
        t->model.scroll[PANE_SOURCE] = r.build_line - 4;
        if (t->model.focus == PANE_TEXT)
            t->model.focus = PANE_SOURCE;
        t->left = PANE_SOURCE;
    }
    if (r.speed == CHECK_SPEED_PREDICT_FIRST && x->speed == SPEED_PREDICT && !t->ex.has_prediction &&
        t->overlay != OVERLAY_CONFIRM && t->overlay != OVERLAY_EXERCISES) {
        snprintf(size, sizeof size, "%lldx%lldx%lld", r.speed_size.m, r.speed_size.n, r.speed_size.k);
        snprintf(t->label, sizeof t->label, " Your prediction: how many times as fast as lesson %d at %s? ",
                 r.versus, size);
        open_prompt(t, OVERLAY_PREDICT);
    }
    return true;
}

/* What exercise mode watches between keys: the file, and the session's checks. */
bool exercise_tick(struct tutor *t)
{
    bool changed = poll_student_file(t);

    return take_report(t) || changed;
}

/* ---- the overlays' keys ---- */

/* The exercise list: Up/Down choose, Enter opens; typing a number chooses that exercise,
   and opens it when no longer number starts with what was typed. */
int exercises_key(struct tutor *t, int key)
{
    const struct exercise_set *set = t->exercises;
    int n = (int)set->count, number, largest = n ? set->items[n - 1].number : 0;
    size_t len = strlen(t->input);

    if (key == CRT_KEY_ESC || key == 'q' || key == 'X') {
        close_overlay(t);
    } else if (n == 0) {
        return KEY_DONE;
    } else if (key == KEY_UP || key == 'k') {
        t->picker = (t->picker + n - 1) % n;
        t->input[0] = '\0';
    } else if (key == KEY_DOWN || key == 'j') {
        t->picker = (t->picker + 1) % n;
        t->input[0] = '\0';
    } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (len > 0)
            t->input[len - 1] = '\0';
    } else if (is_enter(key)) {
        close_overlay(t);
        open_exercise(t, &set->items[t->picker]);
    } else if (key >= '0' && key <= '9' && len + 1 < 4) {
        t->input[len] = (char)key;
        t->input[len + 1] = '\0';
        number = atoi(t->input);
        if (exercise_set_index(set, number) >= 0) {
            t->picker = exercise_set_index(set, number);
            if (number * 10 > largest) {
                close_overlay(t);
                open_exercise(t, &set->items[t->picker]);
            }
        } else if (number > largest) {
            t->input[0] = '\0';
        }
    }
    return KEY_REDRAW;
}

static void show_solution(struct tutor *t)
{
    struct lesson sol;
    struct error e;
    size_t len;
    char *text;

    error_init(&e);
    exercise_solution_lesson(t->exercise, t->lessons, &sol);
    if (!(text = files_read(sol.kernel_file, LESSON_KERNEL_MAX, "the solution", &len, &e))) {
        show_error(t, e.msg);
        error_clear(&e);
        return;
    }
    hide_solution(t);
    lines_split(text, &t->solution);
    free(text);
    t->have_solution = true;
    t->ex.solution_file = sol.kernel_file;
    t->model.focus = t->left = PANE_SOURCE;
    t->model.scroll[PANE_SOURCE] = t->model.hscroll[PANE_SOURCE] = 0;
    t->progress.e[t->exercise->number].solution_shown = true;
    if (t->progress_file[0] && progress_note(t->progress_file, t->exercise->number, t->ex.hints, true, &t->progress,
                                             &e) < 0)
        show_error(t, e.msg);
    error_clear(&e);
}

static void reset_file(struct tutor *t)
{
    char backup[4300], msg[9000];
    struct error e;

    error_init(&e);
    if (practice_reset(t->ex.workspace, t->exercise, backup, sizeof backup, &e) < 0) {
        show_error(t, e.msg);
    } else {
        if (backup[0])
            snprintf(msg, sizeof msg, "yours is kept as %s; the starting kernel is back", backup);
        else
            snprintf(msg, sizeof msg, "the starting kernel is back in %s", t->ex_path);
        show_notice(t, msg);
        hide_solution(t);
    }
    error_clear(&e);
}

/* A y/n question on the key line: y does it, any other key leaves things as they are. */
int confirm_key(struct tutor *t, int key)
{
    close_overlay(t);
    if (key != 'y' && key != 'Y')
        show_notice(t, "nothing changed");
    else if (t->confirm == CONFIRM_SOLUTION)
        show_solution(t);
    else
        reset_file(t);
    return KEY_REDRAW;
}

/* The prompts: what they accept, and what Enter does with it (0, or -1 with input_error
   set). */


/* The speed-up the student expects; the check runs again and measures beside it. */
int apply_predict(struct tutor *t)
{
    char *end;
    double ratio = strtod(t->input, &end);

    if (!*t->input || *end || !(ratio > 0.0 && ratio <= 1000.0)) {
        snprintf(t->input_error, sizeof t->input_error, "a speed-up such as 1.5 (0.5: half as fast)");
        return -1;
    }
    t->ex.has_prediction = true;
    t->ex.prediction = ratio;
    check_now(t);
    return 0;
}

/* The exercise list, with each exercise's progress as the progress file has it now. */
int key_exercises(struct tutor *t, int key)
{
    (void)key;
    reload_progress(t);
    t->overlay = OVERLAY_EXERCISES;
    t->input[0] = '\0';
    t->picker = 0;
    if (t->exercise) {
        t->picker = exercise_set_index(t->exercises, t->exercise->number);
    } else {
        /* The first not verified yet. */
        for (size_t i = t->exercises->count; i-- > 0;)
            if (t->progress.e[t->exercises->items[i].number].best < PROGRESS_VERIFIED)
                t->picker = (int)i;
    }
    return KEY_REDRAW;
}

int key_exercise_step(struct tutor *t, int key)
{
    int at = exercise_set_index(t->exercises, t->exercise->number) + (key == 'p' ? -1 : 1);

    if (at >= 0 && at < (int)t->exercises->count)
        open_exercise(t, &t->exercises->items[at]);
    else
        show_notice(t, key == 'p' ? "this is the first exercise" : "this is the last exercise: X lists them");
    return KEY_REDRAW;
}

/* The student's editor on their file: $VISUAL, else $EDITOR, else vi. The save it makes is
   seen by the file watch and checked. */
int key_edit(struct tutor *t, int key)
{
    const char *editor = getenv("VISUAL");
    char why[4400];

    (void)key;
    if (!editor || !*editor)
        editor = getenv("EDITOR");
    if (!editor || !*editor)
        editor = "vi";
    if (crt_run_command(editor, t->ex_path, why, sizeof why) < 0)
        show_error(t, why);
    t->next_poll = 0;
    return KEY_REDRAW;
}

int key_check(struct tutor *t, int key)
{
    (void)key;
    check_now(t);
    return KEY_REDRAW;
}

int key_stop_check(struct tutor *t, int key)
{
    (void)key;
    if (!t->view->checking) {
        show_notice(t, "no check is running (c checks your file)");
        return KEY_REDRAW;
    }
    session_stop_check(t->session);
    return KEY_REDRAW;
}

/* One more hint, remembered in the progress file. */
int key_hint(struct tutor *t, int key)
{
    const struct exercise *x = t->exercise;
    struct error e;

    (void)key;
    if (x->nhints == 0 || t->ex.hints >= (int)x->nhints) {
        show_notice(t, x->nhints == 0 ? "this exercise has no hints" : "every hint is shown");
        return KEY_REDRAW;
    }
    t->ex.hints++;
    t->progress.e[x->number].hints = t->ex.hints;
    error_init(&e);
    if (t->progress_file[0] && progress_note(t->progress_file, x->number, t->ex.hints, false, &t->progress, &e) < 0)
        show_error(t, e.msg);
    error_clear(&e);
    /* The task pane, scrolled to its end where the hints are. */
    t->model.focus = t->left = PANE_TEXT;
    t->model.scroll[PANE_TEXT] = 1 << 20;
    return KEY_REDRAW;
}

static void ask(struct tutor *t, enum confirm_action action, const char *question)
{
    t->confirm = action;
    str_copy(t->label, sizeof t->label, question);
    t->overlay = OVERLAY_CONFIRM;
    t->input[0] = t->input_error[0] = '\0';
}

/* The solution, after at least one check of the student's own; S again hides it. */
int key_solution(struct tutor *t, int key)
{
    char question[128];

    (void)key;
    if (t->ex.solution_file) {
        hide_solution(t);
        return KEY_REDRAW;
    }
    if (t->progress.e[t->exercise->number].checks == 0) {
        show_notice(t, "check your own kernel first: the solution is shown after at least one check");
        return KEY_REDRAW;
    }
    snprintf(question, sizeof question, " Show the solution of exercise %d? (y/n) ", t->exercise->number);
    ask(t, CONFIRM_SOLUTION, question);
    return KEY_REDRAW;
}

int key_reset(struct tutor *t, int key)
{
    (void)key;
    ask(t, CONFIRM_RESET, " Start again from the starting kernel? Yours is kept as a backup. (y/n) ");
    return KEY_REDRAW;
}

/* b goes back to the lessons; Esc steps back: out of a zoom, out of the solution, then to
   the lessons. */
int key_back(struct tutor *t, int key)
{
    if (key == CRT_KEY_ESC && t->model.zoom)
        t->model.zoom = false;
    else if (key == CRT_KEY_ESC && t->ex.solution_file)
        hide_solution(t);
    else
        leave_exercise(t);
    return KEY_REDRAW;
}


void draw_exercises(struct tutor *t, int cols, int rows)
{
    panes_draw_exercises(cols, rows, t->exercises, &t->progress, t->picker, t->input);
}
