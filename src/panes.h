/* panes.h: drawing the interactive screen: the title and key lines, the four panes
   (lesson text, kernel source, work-group layout, GFLOPS) and the overlays. Each draw
   function only reads the model; scroll offsets are clamped to the content. */
#ifndef CLMM_PANES_H
#define CLMM_PANES_H

#include <stdbool.h>

#include "diff.h"
#include "layout.h"
#include "lesson.h"
#include "session.h"

struct tutor;

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
};

/* How the bar chart scales: GFLOPS on a linear or a log axis, or the speed-up over lesson 1
   on a log axis. */
enum bar_scale { BARS_LINEAR, BARS_LOG, BARS_SPEEDUP, BARS_SCALES };

struct screen_model {
    const struct lesson_set *lessons;
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
    const struct key_binding *keys;     /* the table of keys, for the key line and the help */
    size_t nkeys;
    const char *message;        /* shown on the key line instead of the keys, or NULL */
    bool message_is_error;
    int hscroll[PANE_COUNT];    /* columns the lines of the text and source panes that are not
                                   wrapped are scrolled left by; clamped by the draw functions */
    bool diff_code_only;        /* the diff leaves out lines of comments and blank lines */
};

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
/* A line on the key line while the screen closes. */
void panes_draw_closing(const struct rect *r, const char *text);
/* The one-line prompt on the key line. */
void panes_draw_prompt(const struct rect *r, const char *label, const char *input, const char *error);

#endif
