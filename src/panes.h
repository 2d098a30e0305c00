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

void panes_draw_too_small(int cols, int rows);

/* Overlays, drawn over the panes in a box centred on the screen. */
void panes_draw_help(int cols, int rows);
/* The lesson's parameters: row is the one being changed; refusal is why the lesson cannot
   run with these values at this size (empty when it can). */
void panes_draw_params(int cols, int rows, const struct screen_model *m, int row, const char *refusal);
void panes_draw_devices(int cols, int rows, const struct screen_model *m, int row);
void panes_draw_build_log(int cols, int rows, const struct screen_model *m, int scroll);
/* The one-line prompt on the key line. */
void panes_draw_prompt(const struct rect *r, const char *label, const char *input, const char *error);

#endif
