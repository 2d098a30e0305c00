/* pane_check.c: the exercise mode's check pane: the newest check of the student's file
   (each size verified or wrong, where it is wrong, the build log, the speed), or why there
   is none. */
#include "panes.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "crt.h"
#include "draw.h"
#include "engine/str.h"

static void format_gemm_size(char *buf, size_t len, struct gemm_size s)
{
    snprintf(buf, len, "%lldx%lldx%lld", s.m, s.n, s.k);
}

/* One size of the check: verified with its launches, or what went wrong and where. */
static int draw_check_size(const struct rect *in, int row, const struct check_size *cs, bool hint)
{
    char size[96];

    format_gemm_size(size, sizeof size, cs->size);
    if (cs->verdict == CHECK_VERIFIED)
        return draw_wrappedf(in, row, crt_attr(ROLE_GOOD), "%s verified: %d launches, max error %.2g", size,
                             cs->launches, cs->max_error);
    row = draw_wrappedf(in, row, crt_attr(ROLE_WARNING), "%s %s: %s", size, check_verdict_text(cs->verdict),
                        cs->message);
    if (cs->verdict != CHECK_WRONG || cs->map.pattern == ERRMAP_NONE)
        return row;
    row = draw_error_map(in, row, &cs->map, hint);
    return draw_wrappedf(in, row, crt_attr(ROLE_DIM), "C in %d x %d cells of %lld x %lld: %s right, %s wrong, "
                         "? never written", cs->map.grid_rows, cs->map.grid_cols, cs->map.cell_rows,
                         cs->map.cell_cols, crt_utf8() ? "\u00b7" : ".", crt_utf8() ? "\u2588" : "#");
}

/* The speed part, as the command line prints it; the measurement only after a prediction. */
static int draw_check_speed(const struct rect *in, int row, const struct check_report *r)
{
    char size[96];

    format_gemm_size(size, sizeof size, r->speed_size);
    switch (r->speed) {
    case CHECK_SPEED_NONE:
        return row;
    case CHECK_SPEED_PREDICT_FIRST:
        return draw_wrappedf(in, row, crt_attr(ROLE_EMPHASIS), "Predict first: how many times as fast as lesson "
                             "%d at %s do you expect your kernel to be? (c checks again and asks)", r->versus, size);
    case CHECK_SPEED_FAILED:
        return draw_wrappedf(in, row, crt_attr(ROLE_WARNING), "Speed: %s", r->speed_message);
    default:
        break;
    }
    row = draw_wrappedf(in, row, A_NORMAL, "Speed at %s: yours %.4g GFLOPS, lesson %d %.4g GFLOPS: %.2fx", size,
                        r->gflops, r->versus, r->versus_gflops, r->ratio);
    if (r->speed == CHECK_SPEED_PREDICTED)
        row = draw_wrappedf(in, row, crt_attr(ROLE_EMPHASIS), "You predicted %.2fx; measured %.2fx (%s).",
                            r->prediction, r->ratio,
                            r->ratio >= r->prediction * 0.8 && r->ratio <= r->prediction * 1.25 ? "close"
                            : r->ratio > r->prediction ? "faster than you expected" : "slower than you expected");
    else
        row = draw_wrappedf(in, row, crt_attr(r->speed == CHECK_SPEED_MET ? ROLE_GOOD : ROLE_EMPHASIS),
                            "Target: at least %.2fx lesson %d: %s.", r->target, r->versus,
                            r->speed == CHECK_SPEED_MET ? "met" : r->speed == CHECK_SPEED_MISSED ? "not yet"
                                                                                                 : "not judged");
    if (r->speed_message[0])
        row = draw_wrappedf(in, row, crt_attr(ROLE_DIM), "(%s)", r->speed_message);
    return row;
}

/* The length of the first row of a line wrapped at w columns (at least one character). */
static size_t wrap_piece(const char *line, int w)
{
    size_t n = str_prefix(line, (size_t)w);

    return n ? n : strlen(line);
}

/* The compiler's log below row, its long lines wrapped at the pane's width, from the
   pane's scroll on. */
static void draw_check_log(const struct rect *r, const struct rect *in, int row, const char *log, int *scroll)
{
    struct lines lines;
    int visible = in->h - row, total = 0, top, at = 0;

    lines_split(log, &lines);
    for (size_t i = 0; i < lines.count; i++) {
        const char *p = lines.items[i];
        do {
            total++;
            p += wrap_piece(p, in->w);
        } while (*p);
    }
    top = draw_clamp_scroll(scroll, total, visible);
    for (size_t i = 0; i < lines.count && at < top + visible; i++) {
        const char *p = lines.items[i];
        do {
            size_t n = wrap_piece(p, in->w);
            if (at >= top && at < top + visible)
                draw_put(in->y + row + at - top, in->x, in->w, p, n, 0);
            at++;
            p += n;
        } while (*p);
    }
    draw_scroll_marks(r, top, total, visible);
    lines_free(&lines);
}

/* "checking… 12 s (x stops it)", and the step: "64x64x64, launch 1 of 3: 2 s of 30". */
static int draw_checking(const struct rect *in, int row, const struct screen_model *m, const char *dots)
{
    const struct session_view *v = m->view;
    const struct check_step *st = &v->check_step;
    double now = m->exercise->now;
    char step[200];

    row = draw_wrappedf(in, row, crt_attr(ROLE_EMPHASIS), "checking%s %.0f s (x stops it)", dots,
                        v->check_started > 0 && now > v->check_started ? now - v->check_started : 0.0);
    check_step_describe(st, m->exercise->x->lesson, step, sizeof step);
    if (st->kind == CHECK_STEP_LAUNCH && st->allowed_s > 0)
        return draw_wrappedf(in, row, crt_attr(ROLE_DIM), "%s: %.0f s of at most %.0f", step,
                             now > v->check_step_at ? now - v->check_step_at : 0.0, st->allowed_s);
    return draw_wrapped(in, row, step, crt_attr(ROLE_DIM));
}

void panes_draw_check(const struct rect *r, struct screen_model *m)
{
    const struct exercise_model *ex = m->exercise;
    const struct check_report *rep = ex->report;
    struct rect in = draw_frame(r, "Check of your file", m->focus == PANE_GFLOPS);
    const char *dots = crt_utf8() ? "\u2026" : "...";
    int row = 0;

    if (ex->checking) {
        row = draw_checking(&in, row, m, dots);
    } else if (ex->stopped) {
        row = draw_wrapped(&in, row, "Check stopped (x): your file as saved is not checked. c checks it.",
                           crt_attr(ROLE_WARNING));
    } else if (!m->view->device_ready)
        row = draw_wrapped(&in, row, m->view->device_error[0] ? m->view->device_error : "opening the device...",
                           crt_attr(m->view->device_error[0] ? ROLE_WARNING : ROLE_DIM));
    if (!rep) {
        draw_wrappedf(&in, row, crt_attr(ROLE_DIM), ex->file_missing ? "Your file is not there: R puts the "
                      "starting kernel back." : "Not checked yet. Edit your file (e, or any editor): each save "
                      "is checked; c checks now.");
        return;
    }
    if (ex->checking || ex->stopped)
        row = draw_wrapped(&in, row, "Before your last save (not current):", crt_attr(ROLE_DIM));
    if (check_passed(rep))
        row = draw_wrappedf(&in, row, crt_attr(ROLE_GOOD) | A_BOLD | A_REVERSE, " verified%s ",
                            rep->speed == CHECK_SPEED_MET ? ", target met"
                            : rep->speed == CHECK_SPEED_PREDICTED ? ", prediction measured" : "");
    else if (rep->verdict == CHECK_VERIFIED)
        row = draw_wrappedf(&in, row, crt_attr(ROLE_GOOD) | A_BOLD, "verified; %s",
                            rep->speed == CHECK_SPEED_PREDICT_FIRST ? "now predict, then measure"
                                                                    : "the speed goal is not reached yet");
    else
        row = draw_wrappedf(&in, row, crt_attr(ROLE_WRONG), " not verified yet: %s ",
                            check_verdict_text(rep->verdict));
    if (ex->as_shipped > 0 && !ex->checking && !ex->stopped)
        row = draw_wrappedf(&in, row, crt_attr(ROLE_WARNING), "This is the starting kernel as shipped: fill "
                            "the gap marked TODO (line %d) first.", ex->as_shipped);
    else if (ex->as_shipped < 0 && !ex->checking && !ex->stopped)
        row = draw_wrapped(&in, row, "This is the starting kernel as shipped: change it as the task says first.",
                           crt_attr(ROLE_WARNING));
    if (rep->verdict == CHECK_NOT_BUILT) {
        if (rep->build_line > 0)
            row = draw_wrappedf(&in, row, crt_attr(ROLE_WARNING), "Does not build: first error on line %d",
                                rep->build_line);
        else
            row = draw_wrapped(&in, row, "Does not build:", crt_attr(ROLE_WARNING));
        if (rep->build_log)
            draw_check_log(r, &in, row, rep->build_log, &m->scroll[PANE_GFLOPS]);
        else
            draw_wrapped(&in, row, rep->message, A_NORMAL);
        return;
    }
    if ((rep->verdict == CHECK_FAILED || rep->verdict == CHECK_TIMEOUT || rep->verdict == CHECK_CRASHED) &&
        rep->nsizes == 0) {
        draw_wrapped(&in, row, rep->message, crt_attr(ROLE_WARNING));
        return;
    }
    for (size_t i = 0; i < rep->nsizes; i++)
        row = draw_check_size(&in, row, &rep->sizes[i], ex->as_shipped == 0);
    for (size_t i = rep->nsizes; i < rep->sizes_total && i < ex->x->nsizes; i++) {
        char size[96];
        format_gemm_size(size, sizeof size, ex->x->sizes[i]);
        row = draw_wrappedf(&in, row, crt_attr(ROLE_DIM), "%s not checked", size);
    }
    if (rep->verdict != CHECK_VERIFIED && rep->verdict != CHECK_RACE && rep->nsizes > 0 &&
        rep->sizes[rep->nsizes - 1].verdict == CHECK_VERIFIED)
        row = draw_wrapped(&in, row, rep->message, crt_attr(ROLE_WARNING));
    row = draw_check_speed(&in, row, rep);
    if (rep->races != RACES_NOT_RUN && row < in.h)
        row = draw_wrappedf(&in, row, crt_attr(rep->races == RACES_NONE ? ROLE_DIM : ROLE_WARNING),
                            "Under oclgrind: %s", rep->races_message);
    if (rep->barrier_note && (rep->races == RACES_NOT_RUN || rep->races == RACES_UNAVAILABLE ||
                              rep->races == RACES_FAILED) && row < in.h)
        row = draw_wrapped(&in, row, "On this CPU device the work-items of a group run in turn, which hides "
                                     "most missing barriers: verified here is no proof of a race-free kernel.",
                           crt_attr(ROLE_DIM));
    if (row + 1 < in.h)
        draw_wrappedf(&in, row + 1, crt_attr(ROLE_DIM), "on %s", rep->device);
}
