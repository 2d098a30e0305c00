/* panes.h: drawing the interactive screen: the title and key lines (lines.c), the panes
   (lesson text, kernel source, work-group layout, GFLOPS; for an exercise: its task, the
   student's file and the check), each a file of its own in the table panes_table
   (panes.c), and the overlays (overlays.c). Each draw function only reads the model; scroll
   offsets are clamped to the content. */
#ifndef CLMM_PANES_H
#define CLMM_PANES_H

#include <stdbool.h>

#include "engine/check.h"
#include "engine/compare.h"
#include "diff.h"
#include "engine/exercise.h"
#include "layout.h"
#include "engine/lesson.h"
#include "engine/progress.h"
#include "engine/session.h"

struct tutor;

/* The screen's two modes, as a key's set of them: the lessons, and an exercise open. */
enum {
    KEYS_LESSONS = 1 << 0,
    KEYS_EXERCISE = 1 << 1,
    KEYS_BOTH = KEYS_LESSONS | KEYS_EXERCISE,
};

/* One row of the screen's table of keys (tutor.c owns the table): the keys it answers, the
   handler, and how the key line and the help show it. One table feeds all three, so that
   a key cannot be bound and left out of the help, or shown and not bound. */
struct key_binding {
    int codes[12];              /* the curses key codes; 0 ends the list */
    int (*run)(struct tutor *t, int key);
    const char *keys;           /* as the help writes them: "n p, Right Left" */
    const char *help;           /* what they do, in a few words */
    const char *line_keys;      /* on the key line ("n/p"), or NULL */
    const char *line_label;     /* "lesson" */
    int line_rank;              /* on a short key line, higher ranks give way first */
    const char *section;        /* the help's heading above this key, or NULL */
    unsigned modes;             /* KEYS_LESSONS, KEYS_EXERCISE or both: where the key works */
};

/* The exercise on screen. */
struct exercise_model {
    const struct exercise *x;
    int position, count;        /* its place in the set (1-based), and the set's size */
    int verified;               /* exercises of the set verified so far */
    const char *path;           /* the student's file, as shown */
    const char *workspace;
    bool file_missing;
    int hints;                  /* hints revealed */
    const struct check_report *report;  /* the newest check of this exercise; NULL: none yet */
    int as_shipped;             /* the file it checked was the starting kernel as shipped: the
                                   line of its TODO, -1 without one; 0: the student's own */
    bool checking;              /* a check is asked for or running */
    bool stopped;               /* the newest check was stopped with x */
    double now;                 /* the screen's clock (now_seconds), for the check's time */
    bool has_prediction;
    double prediction;          /* given in this session */
    const char *solution_file;  /* the source pane shows the solution; NULL: the student's file */
};

/* How the bar chart scales: GFLOPS on a linear or a log axis, or the speed-up over lesson 1
   on a log axis. */
enum bar_scale { BARS_LINEAR, BARS_LOG, BARS_SPEEDUP, BARS_SCALES };

struct screen_model {
    const struct lesson_set *lessons;
    const struct exercise_set *exercises;   /* the lesson text names each lesson's */
    const struct session_view *view;
    int lesson;                 /* index of the current lesson */
    const struct lines *source;         /* its kernel, NULL for the host lesson */
    const struct lines *previous;       /* the previous lesson's kernel, or NULL */
    const struct diff *diff;            /* previous -> source, when both exist */
    bool show_diff;             /* the source pane shows the diff instead of the kernel */
    enum pane focus;
    bool zoom;
    int scroll[PANE_COUNT];     /* first line shown; clamped by the draw functions */
    bool demo;                  /* presenter mode is stepping through the lessons */
    double demo_left_s;         /* until the next lesson */
    enum bar_scale bar_scale;
    bool roofline;              /* the GFLOPS pane shows the roofline instead of the bars */
    bool inside;                /* the source pane shows the look inside the built kernel */
    bool host_code;             /* the source pane shows the host code of the lesson's launch */
    const struct key_binding *keys;     /* the table of keys, for the key line and the help */
    size_t nkeys;
    const char *message;        /* shown on the key line instead of the keys, or NULL */
    bool message_is_error;
    int hscroll[PANE_COUNT];    /* columns the lines of the text and source panes that are not
                                   wrapped are scrolled left by; clamped by the draw functions */
    bool diff_code_only;        /* the diff leaves out lines of comments and blank lines */
    unsigned mode;              /* KEYS_LESSONS, or KEYS_EXERCISE with exercise set */
    const struct exercise_model *exercise;
    struct compare *compare;    /* --compare: a saved run, drawn as ghost bars; NULL: none */
};

/* A pane of the screen: the slot of the layout it fills, the modes it shows in (KEYS_LESSONS,
   KEYS_EXERCISE or both), and its draw function. The screen draws, in the table's order,
   every pane of its mode whose slot is visible. */
struct pane_ops {
    enum pane slot;
    unsigned modes;
    void (*draw)(const struct rect *r, struct screen_model *m);
};
extern const struct pane_ops panes_table[];
extern const size_t panes_count;

void panes_draw_title(const struct rect *r, const struct screen_model *m);
void panes_draw_keys(const struct rect *r, const struct screen_model *m);
void panes_draw_text(const struct rect *r, struct screen_model *m);
void panes_draw_source(const struct rect *r, struct screen_model *m);
void panes_draw_layout(const struct rect *r, struct screen_model *m);
void panes_draw_gflops(const struct rect *r, struct screen_model *m);
/* The height the GFLOPS pane needs to show every bar, borders included; 0 when it shows a
   sweep or the tuner instead. */
int panes_gflops_rows(const struct screen_model *m);

void panes_draw_too_small(int cols, int rows);

/* Overlays, drawn over the panes in a box centred on the screen. The help lists the table
   of keys by section, in two columns when one does not fit; scroll is its first row. */
void panes_draw_help(int cols, int rows, const struct screen_model *m, int *scroll);
/* The lesson's parameters: row is the one being changed; refusal is why the lesson cannot
   run with these values at this size (empty when it can). */
void panes_draw_params(int cols, int rows, const struct screen_model *m, int row, const char *refusal);
void panes_draw_devices(int cols, int rows, const struct screen_model *m, int row);
void panes_draw_build_log(int cols, int rows, const struct screen_model *m, int *scroll);
/* The exercise mode's right-hand pane: the newest check of the student's file (each size
   verified or wrong, where it is wrong, the build log, the speed), or why there is none. */
void panes_draw_check(const struct rect *r, struct screen_model *m);
/* The exercises with their progress: row is the chosen one; typed, the number being typed. */
/* A row of the course list: a lesson (exercise -1), or one of its exercises (an index in
   the exercise set). */
struct course_row {
    int lesson;                 /* index in the lesson set */
    int exercise;
};

/* The course list: every lesson with its title, the side branch marked, and under each its
   exercises with the student's status; row selected, current the lesson shown. */
void panes_draw_course(int cols, int rows, const struct lesson_set *lessons, const struct exercise_set *set,
                       const struct progress *p, const struct course_row *list, int count, int row, int current);
void panes_draw_exercises(int cols, int rows, const struct exercise_set *set, const struct progress *p, int row,
                          const char *typed);
/* A line on the key line while the screen closes. */
void panes_draw_closing(const struct rect *r, const char *text);
/* The one-line prompt on the key line. */
void panes_draw_prompt(const struct rect *r, const char *label, const char *input, const char *error);

#endif
