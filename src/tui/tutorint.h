/* tutorint.h: what the screen's files share: the state of the screen (struct tutor) and the
   functions each of them offers the other. tutor.c owns the screen, its keys and its loop;
   exmode.c owns exercise mode (the exercise open, its file watched, its checks). UI only. */
#ifndef CLMM_TUTORINT_H
#define CLMM_TUTORINT_H

#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "engine/check.h"
#include "engine/exercise.h"
#include "layout.h"
#include "panes.h"
#include "engine/progress.h"
#include "engine/screenstart.h"
#include "engine/session.h"
#include "engine/text.h"

#define TICK_MS 50
#define NOTICE_S 6.0
#define STOP_WAIT_S 3.0
#define POLL_S 0.25             /* how often the student's file is looked at */

enum overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_PARAMS, OVERLAY_DEVICES, OVERLAY_BUILD, OVERLAY_SIZE,
               OVERLAY_GOTO, OVERLAY_EXERCISES, OVERLAY_COURSE, OVERLAY_PREDICT, OVERLAY_CONFIRM, OVERLAY_COUNT };

/* What a file looked like when last seen. Editors that save by writing a new file and
   renaming it over the old one change its inode, and a quick save may keep its size and,
   on coarse clocks, its second: all of them are compared, the time to the nanosecond. */
struct file_stamp {
    bool present;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
};

/* What a y/n question on the key line does when answered y. */
enum confirm_action { CONFIRM_SOLUTION, CONFIRM_RESET };

/* What a key handler asks of the loop. */
enum {
    KEY_DONE = 0,
    KEY_REDRAW = 1 << 0,
    KEY_QUIT = 1 << 1,
};

struct tutor {
    const struct screen_start *start;   /* what the screen started with */
    const struct lesson_set *lessons;
    struct session *session;
    struct session_view *view;
    struct screen_model model;
    struct screen_layout layout;
    enum pane left;             /* text or source, on screens that show one of them */
    enum overlay overlay;
    int picker;                 /* the chosen row of a picker, or the scroll of the help or build log */
    struct course_row course[SESSION_MAX_LESSONS + 100];  /* the course list's rows (g, Enter) */
    int ncourse;
    char input[64];             /* a prompt's text */
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
    bool notice_is_error;

    /* Exercise mode: the exercise open (NULL: the lessons), the student's file as last
       read, and the newest check of it. */
    const struct exercise_set *exercises;
    const struct exercise *exercise;
    struct exercise_model ex;
    char ex_path[4200];
    struct file_stamp stamp;
    double next_poll;
    struct lines student, solution;
    bool have_student, have_solution;
    unsigned long check_seen;   /* the session's serial of the newest report taken */
    struct check_report report;
    bool have_report;
    char progress_file[4096];   /* empty: progress is not kept (no home directory) */
    struct progress progress;
    bool paused_before;         /* the lessons' pause, given back when they come back */
    enum confirm_action confirm;
    char label[512];            /* the question of the prediction prompt or of a y/n */
};

/* ---- tutor.c ---- */
/* A line on the key line for NOTICE_S (an error in the warning colour). */
void show_notice(struct tutor *t, const char *text);
void show_error(struct tutor *t, const char *text);
/* Closes the overlay or prompt (KEY_REDRAW); whether a key is one of Enter's codes. */
int close_overlay(struct tutor *t);
bool is_enter(int key);
/* Opens a prompt overlay (OVERLAY_SIZE, OVERLAY_GOTO, OVERLAY_PREDICT) with empty input. */
void open_prompt(struct tutor *t, enum overlay which);

/* ---- exmode.c ---- */
/* Opens exercise x (its file copied into the workspace when absent; checked when it was
   there already), and frees what the mode holds. */
void open_exercise(struct tutor *t, const struct exercise *x);
/* The progress file read again (the student's statuses). */
void reload_progress(struct tutor *t);
/* Back from exercise mode to the lessons, at the exercise's lesson. */
void leave_exercise(struct tutor *t);
void free_exercise(struct tutor *t);
/* Each tick of the loop: looks at the student's file, takes a new report; true: redraw. */
bool exercise_tick(struct tutor *t);
/* The keys of the exercise list and of a y/n question; the prediction prompt's Enter. */
int exercises_key(struct tutor *t, int key);
int confirm_key(struct tutor *t, int key);
int apply_predict(struct tutor *t);
/* The handlers of the exercise rows of the key table, and the list's drawing. */
int key_exercises(struct tutor *t, int key);
int key_exercise_step(struct tutor *t, int key);
int key_edit(struct tutor *t, int key);
int key_check(struct tutor *t, int key);
int key_stop_check(struct tutor *t, int key);
int key_hint(struct tutor *t, int key);
int key_solution(struct tutor *t, int key);
int key_reset(struct tutor *t, int key);
int key_back(struct tutor *t, int key);
void draw_exercises(struct tutor *t, int cols, int rows);

#endif
