/* roofline.c: the no-cache roofline: intensity, the bound it allows, the verdict on a
   measured lesson, and a log-log text drawing of the device's slope and roof with the
   lessons placed on it. */
#include "roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "chart.h"
#include "str.h"
#include "xalloc.h"

double roofline_intensity(const struct figures *f)
{
    const struct geometry *g = &f->g;
    double groups = g->launch[0].has_local ? (double)g->launch[0].groups : (double)f->tile_groups;
    double bytes;

    if (!f->has_loads || groups <= 0.0)
        return 0.0;
    bytes = 4.0 * (double)f->loads * groups + 4.0 * (double)g->run.m * (double)g->run.n;
    return bytes > 0.0 ? gemm_flops(g->asked) / bytes : 0.0;
}

double roofline_bound(double intensity, double peak_gflops, double gbps)
{
    double slope = gbps * intensity;

    if (intensity <= 0.0 || peak_gflops <= 0.0 || gbps <= 0.0)
        return 0.0;
    return slope < peak_gflops ? slope : peak_gflops;
}

double roofline_ridge(double peak_gflops, double gbps)
{
    return gbps > 0.0 ? peak_gflops / gbps : 0.0;
}

/* Above the bound by more than this share: not the noise of a measurement. */
#define ABOVE 1.05

void roofline_judge(double gflops, double intensity, enum units units, double peak_gflops, double gbps,
                    struct roofline_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->intensity = intensity > 0.0 ? intensity : 0.0;
    v->no_ceiling = units == UNITS_TENSOR;
    if (v->no_ceiling)
        return;
    v->of_peak = peak_gflops > 0.0 && gflops > 0.0 ? gflops / peak_gflops : 0.0;
    v->bound = roofline_bound(v->intensity, peak_gflops, gbps);
    if (v->bound <= 0.0)
        return;
    v->memory_bound = v->intensity < roofline_ridge(peak_gflops, gbps);
    v->of_bound = gflops > 0.0 ? gflops / v->bound : 0.0;
    v->above = v->of_bound > ABOVE;
}

const char *roofline_verdict_words(const struct roofline_verdict *v)
{
    if (v->no_ceiling)
        return UNITS_TENSOR_NOTE;
    if (v->bound <= 0.0)
        return "no bound: the lesson declares no loads";
    if (v->above)
        return "above the slope: caches served part of the traffic the model counts";
    if (v->memory_bound)
        return v->of_bound >= 0.8 ? "near the slope: memory-bound" : "under the slope: memory-bound, latency or "
                                                                       "occupancy holds it back";
    return v->of_bound >= 0.8 ? "near the roof: compute-bound" : "under the roof: compute-bound in the model, "
                                                                 "held back by instructions, latency or waves";
}

/* ---- the drawing ---- */

#define LABEL_W 5               /* "100T" and the axis */
#define MAX_W 250
#define MAX_H 120

/* 1e4 GFLOPS: "10T". */
static void say_rate(double gflops, char *buf, size_t len)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = { { 1e6, "P" }, { 1e3, "T" }, { 1.0, "G" }, { 1e-3, "M" } };
    size_t i = 0;

    while (i + 1 < sizeof units / sizeof units[0] && gflops < units[i].scale * 0.999)
        i++;
    snprintf(buf, len, "%g%s", gflops / units[i].scale, units[i].unit);
}

/* The decades lo..hi (powers of ten) around the values, at least two apart. */
static void decades(double min, double max, int *lo, int *hi)
{
    *lo = (int)floor(log10(min));
    *hi = (int)ceil(log10(max));
    if (*hi - *lo < 2)
        *lo = *hi - 2;
}

struct frame {
    int lx0, lx1, ly0, ly1;     /* decades across and up */
    int left, top, w, h;        /* the plot's cells */
};

static int col_of(const struct frame *f, double x)
{
    double t = (log10(x) - f->lx0) / (double)(f->lx1 - f->lx0);
    return f->left + (int)lround(t * (f->w - 1));
}

static int row_of(const struct frame *f, double y)
{
    double t = (f->ly1 - log10(y)) / (double)(f->ly1 - f->ly0);
    return f->top + (int)lround(t * (f->h - 1));
}

static void plan(double peak, double gbps, const struct roofline_point *pts, size_t n, struct frame *f)
{
    double ridge = roofline_ridge(peak, gbps), xmin = ridge, xmax = ridge, ymax = peak, ymin = peak;

    for (size_t i = 0; i < n; i++) {
        if (pts[i].intensity <= 0.0 || !(pts[i].gflops > 0.0))
            continue;
        xmin = fmin(xmin, pts[i].intensity);
        xmax = fmax(xmax, pts[i].intensity);
        ymin = fmin(ymin, pts[i].gflops);
        ymax = fmax(ymax, pts[i].gflops);
    }
    decades(xmin / 1.5, xmax * 1.5, &f->lx0, &f->lx1);
    ymin = fmin(ymin, roofline_bound(pow(10.0, f->lx0), peak, gbps));
    decades(ymin, ymax * 1.05, &f->ly0, &f->ly1);
    if (f->ly1 - f->ly0 > 6)    /* a point far below the rest: clipped to the bottom */
        f->ly0 = f->ly1 - 6;
}

static void draw_roof(struct canvas *c, const struct frame *f, double peak, double gbps, bool utf8)
{
    int dots = 2 * f->w;
    double *x = xmalloc((size_t)dots * sizeof *x), *y = xmalloc((size_t)dots * sizeof *y);
    char **rows = xmalloc((size_t)f->h * sizeof *rows);

    for (int i = 0; i < dots; i++) {
        x[i] = f->lx0 + (f->lx1 - f->lx0) * (double)i / (dots - 1);
        y[i] = log10(roofline_bound(pow(10.0, x[i]), peak, gbps));
    }
    for (int r = 0; r < f->h; r++)
        rows[r] = xmalloc(chart_row_bytes(f->w));
    chart_plot(x, y, (size_t)dots, f->lx0, f->lx1, f->ly0, f->ly1, false, true, f->w, f->h, utf8, rows);
    for (int r = 0; r < f->h; r++) {
        canvas_text(c, f->top + r, f->left, rows[r]);
        free(rows[r]);
    }
    free(rows);
    free(x);
    free(y);
}

static void draw_axes(struct canvas *c, const struct frame *f, double ridge, bool utf8)
{
    char label[16];
    int bottom = f->top + f->h;

    for (int d = f->ly0; d <= f->ly1; d++) {
        int row = row_of(f, pow(10.0, d));
        say_rate(pow(10.0, d), label, sizeof label);
        canvas_text(c, row, LABEL_W - 1 - (int)strlen(label), label);
    }
    for (int r = f->top; r < bottom; r++)
        canvas_put(c, r, LABEL_W - 1, utf8 ? "\xe2\x94\x82" : "|");
    canvas_put(c, bottom, LABEL_W - 1, utf8 ? "\xe2\x94\x94" : "+");
    for (int col = f->left; col < f->left + f->w; col++)
        canvas_put(c, bottom, col, utf8 ? "\xe2\x94\x80" : "-");
    for (int d = f->lx0; d <= f->lx1; d++) {
        int col = col_of(f, pow(10.0, d));
        int len;
        canvas_put(c, bottom, col, utf8 ? "\xe2\x94\xb4" : "+");
        snprintf(label, sizeof label, "%g", pow(10.0, d));
        len = (int)strlen(label);
        col -= len / 2;
        if (col + len > c->cols)
            col = c->cols - len;
        canvas_text(c, bottom + 1, col, label);
    }
    if (ridge > 0.0)
        canvas_put(c, bottom, col_of(f, ridge), utf8 ? "\xe2\x96\xb2" : "^");
}

/* A label for each place that has points: the points at one place (one row, one column)
   share it, "9,10,11", in the points' order; moving one aside would put it at another
   intensity. */
struct label {
    char text[64];
    int row, col, len;
    int at;                     /* the column of its place */
    bool current;
};

static size_t place_labels(const struct frame *f, const struct roofline_point *pts, size_t n, struct label *out)
{
    size_t count = 0;

    for (size_t i = 0; i < n; i++) {
        const struct roofline_point *p = &pts[i];
        int len = (int)strlen(p->label), row, at;
        size_t j;
        if (p->intensity <= 0.0 || !(p->gflops > 0.0) || len == 0)
            continue;
        row = row_of(f, fmax(p->gflops, pow(10.0, f->ly0)));
        at = col_of(f, p->intensity);
        for (j = 0; j < count && !(out[j].row == row && out[j].at == at); j++)
            ;
        if (j < count) {
            size_t used = strlen(out[j].text);
            if (used + 1 + (size_t)len < sizeof out[j].text) {
                snprintf(out[j].text + used, sizeof out[j].text - used, ",%s", p->label);
                out[j].len = (int)strlen(out[j].text);
            }
            out[j].current |= p->current;
            continue;
        }
        if (count == ROOFLINE_MAX_POINTS)
            continue;
        out[count] = (struct label){ .row = row, .col = at, .len = len, .at = at, .current = p->current };
        snprintf(out[count].text, sizeof out[count].text, "%s", p->label);
        count++;
    }
    return count;
}

/* Keeps a label inside the plot: moved left from the right edge, cut to its width. */
static void clamp_label(const struct frame *f, struct label *l)
{
    if (l->len > f->w) {
        l->len = f->w;
        l->text[l->len] = '\0';
    }
    if (l->col + l->len > f->left + f->w)
        l->col = f->left + f->w - l->len;
    if (l->col < f->left)
        l->col = f->left;
}

/* Whether l, at row, would touch (no blank between) a label before it. */
static bool touches(const struct label *labels, size_t before, int row, const struct label *l)
{
    for (size_t i = 0; i < before; i++)
        if (labels[i].row == row && l->col <= labels[i].col + labels[i].len && labels[i].col <= l->col + l->len)
            return true;
    return false;
}

/* The labels on their points, kept inside the plot; one that would touch a label drawn
   before it goes a row up or down (its column stays its intensity's), else is left out
   rather than read as part of another. */
static size_t draw_points(struct canvas *c, const struct frame *f, const struct roofline_point *pts, size_t n,
                          struct roofline_mark *marks)
{
    struct label *labels = xcalloc(ROOFLINE_MAX_POINTS, sizeof *labels);
    size_t count = place_labels(f, pts, n, labels), drawn = 0;

    for (size_t i = 0; i < count; i++) {
        struct label l = labels[i];
        const int moves[] = { 0, -1, 1 };
        bool placed = false;
        clamp_label(f, &l);
        for (size_t m = 0; m < sizeof moves / sizeof moves[0] && !placed; m++) {
            int row = l.row + moves[m];
            if (row < f->top || row >= f->top + f->h || touches(labels, drawn, row, &l))
                continue;
            l.row = row;
            placed = true;
        }
        if (!placed)
            continue;
        labels[drawn++] = l;
        canvas_text(c, l.row, l.col, l.text);
        marks[drawn - 1] = (struct roofline_mark){ l.row, l.col, l.len, l.current };
    }
    free(labels);
    return drawn;
}

size_t roofline_draw(double peak_gflops, double gbps, const struct roofline_point *points, size_t npoints,
                     int width, size_t max_lines, bool utf8, char (*lines)[ROOFLINE_LINE_BYTES],
                     struct roofline_mark *marks, size_t *nmarks)
{
    struct canvas c;
    struct frame f;
    int height = max_lines > MAX_H ? MAX_H : (int)max_lines;

    *nmarks = 0;
    if (width > MAX_W)
        width = MAX_W;
    if (width < 24 || height < 6 || !(peak_gflops > 0.0) || !(gbps > 0.0))
        return 0;
    plan(peak_gflops, gbps, points, npoints, &f);
    f.left = LABEL_W;
    f.top = 0;
    f.w = width - LABEL_W;
    f.h = height - 2;
    canvas_init(&c, height, width);
    draw_roof(&c, &f, peak_gflops, gbps, utf8);
    draw_axes(&c, &f, roofline_ridge(peak_gflops, gbps), utf8);
    *nmarks = draw_points(&c, &f, points, npoints > ROOFLINE_MAX_POINTS ? ROOFLINE_MAX_POINTS : npoints, marks);
    for (int r = 0; r < height; r++)
        canvas_line(&c, r, lines[r], ROOFLINE_LINE_BYTES);
    canvas_free(&c);
    return (size_t)height;
}
