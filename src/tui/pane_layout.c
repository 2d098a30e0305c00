/* pane_layout.c: the work-group layout pane: the drawing of how the kernel divides C,
   its figures, and its waves over the device's compute units. */
#include "panes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crt.h"
#include "diagram.h"
#include "draw.h"
#include "engine/figures.h"
#include "engine/inside.h"
#include "engine/waves.h"
#include "engine/xalloc.h"

static struct figures_limits limits_of(const struct session_view *v)
{
    struct figures_limits lim;

    memset(&lim, 0, sizeof lim);
    if (v->device_ready) {
        lim.max_group = v->info.max_group;
        lim.local_mem = v->info.local_mem;
        for (int i = 0; i < 3; i++)
            lim.max_item_sizes[i] = v->info.max_item_sizes[i];
    }
    return lim;
}

/* Draws a line of the diagram, its highlighted cells, its tiles of A and B and its padding
   each in their role's colour (diagram_glyph_at tells them apart). */
static void draw_diagram_line(int y, int x, int w, const char *line, const struct figures *d)
{
    static const int roles[] = {
        [DIAGRAM_GLYPH_TEXT] = ROLE_NORMAL,
        [DIAGRAM_GLYPH_MARK] = ROLE_MARK,
        [DIAGRAM_GLYPH_TILE_A] = ROLE_TILE_A,
        [DIAGRAM_GLYPH_TILE_B] = ROLE_TILE_B,
        [DIAGRAM_GLYPH_PAD] = ROLE_PADDING,
    };
    bool utf8 = crt_utf8();
    int used = 0, warn = 0;

    for (int i = 0; i < d->nwarnings; i++)
        warn |= strstr(line, d->warnings[i]) != NULL;
    if (warn) {
        draw_puts(y, x, w, line, crt_attr(ROLE_WARNING));
        return;
    }
    while (*line && used < w) {
        size_t len, run = 0;
        enum diagram_glyph kind = diagram_glyph_at(line, utf8, &len);
        /* A run of characters of one kind, drawn at once. */
        do
            run += len;
        while (line[run] && diagram_glyph_at(line + run, utf8, &len) == kind);
        used += draw_put(y, x + used, w - used, line, run, crt_attr((enum role)roles[kind]));
        line += run;
    }
}

#define WAVE_ROWS 40      /* more than waves_draw writes */
#define WAVE_FIRST 5      /* its lines a tall pane shows without scrolling */

/* The waves of work-groups of the current lesson on the open device, with what the look
   inside found of its kernel (registers, local memory) when it is there. */
static size_t layout_waves(const struct screen_model *m, const struct figures *d, int width, size_t rows,
                           char (*lines)[WAVES_LINE_BYTES])
{
    const struct session_view *v = m->view;
    struct waves_kernel k;
    struct waves w;
    struct error e;
    size_t n = 0;

    if (!v->device_ready)
        return 0;
    inside_waves_kernel(model_inside(m), &k);
    error_init(&e);
    if (waves_compute(d, &v->info, &k, &w, &e) == 0)
        n = waves_draw(&w, width, rows, crt_utf8(), lines);
    else if (rows > 0)
        snprintf(lines[n++], WAVES_LINE_BYTES, "waves: %.900s", e.msg);
    error_clear(&e);
    return n;
}

void panes_draw_layout(const struct rect *r, struct screen_model *m)
{
    const struct lesson *l = model_lesson(m);
    struct figures_limits lim = limits_of(m->view);
    struct figures *d = xmalloc(sizeof *d);
    char (*lines)[DIAGRAM_LINE_BYTES];
    struct rect in = draw_frame(r, "Work-group layout", m->focus == PANE_LAYOUT);
    struct error e;
    size_t n;
    int top;

    lines = xmalloc(200 * sizeof *lines);
    error_init(&e);
    if (figures_compute(l, &m->view->params, m->view->size, m->view->device_ready ? &lim : NULL, d, &e) < 0) {
        draw_wrapped(&in, 0, e.msg, crt_attr(l->engine == ENGINE_HOST ? ROLE_NORMAL : ROLE_WARNING));
    } else {
        /* Drawn for the pane: a small one gets the figures and a compact drawing. The waves
           of work-groups come under it, all of them (the pane scrolls); a tall pane shows
           their first lines, the most telling, without scrolling. */
        char (*wave_lines)[WAVES_LINE_BYTES] = xmalloc(WAVE_ROWS * sizeof *wave_lines);
        size_t nw = layout_waves(m, d, in.w, WAVE_ROWS, wave_lines);
        int room = in.h - WAVE_FIRST - 1;
        n = diagram_draw(d, in.w, (size_t)(nw > 0 && room >= 10 ? room : in.h), crt_utf8(), lines);
        if (nw > 0 && n + 1 + nw <= 200) {
            lines[n++][0] = '\0';
            for (size_t i = 0; i < nw; i++)
                snprintf(lines[n++], DIAGRAM_LINE_BYTES, "%s", wave_lines[i]);
        }
        free(wave_lines);
        top = draw_clamp_scroll(&m->scroll[PANE_LAYOUT], (int)n, in.h);
        for (int row = 0; row < in.h && top + row < (int)n; row++)
            draw_diagram_line(in.y + row, in.x, in.w, lines[top + row], d);
        draw_scroll_marks(r, top, (int)n, in.h);
    }
    error_clear(&e);
    free(lines);
    free(d);
}
