/* plot.c: the ladder's chart as SVG: bars at one size, lines over several. */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "chart.h"
#include "files.h"
#include "needs.h"
#include "str.h"
#include "svg.h"
#include "xalloc.h"

/* The page: wide as a slide, every text at least 20 px on it. */
#define WIDTH 1600
#define CHAR_EM 0.6             /* a character's width for a font size, about, for layout */

#define INK "#111111"
#define GREY "#444444"
#define GRID "#d4d4d4"
#define LESSON_FILL "#1f5fa8"
#define BRANCH_FILL "#8fb0dc"
#define TF32_FILL "#8e44ad"
#define REFERENCE_FILL "#e07b00"
#define WRONG_INK "#b3001b"
#define REFUSED_INK "#8a4b00"

#define DEFAULT_METHOD "the median of the timed launches, each result verified before it is timed"

void plot_init(struct plot *p, const char *device, time_t when, const char *source, const char *method)
{
    struct tm tm;

    memset(p, 0, sizeof *p);
    str_copy(p->device, sizeof p->device, device);
    str_copy(p->source, sizeof p->source, source);
    str_copy(p->method, sizeof p->method, method ? method : DEFAULT_METHOD);
    lesson_emulation_note(NULL, p->emulated_note, sizeof p->emulated_note);
    if (!gmtime_r(&when, &tm) || strftime(p->measured, sizeof p->measured, "%Y-%m-%d %H:%M UTC", &tm) == 0)
        str_copy(p->measured, sizeof p->measured, "(date not known)");
}

void plot_free(struct plot *p)
{
    free(p->series);
    p->series = NULL;
    p->nseries = p->cap = 0;
}

int plot_size(struct plot *p, struct gemm_size size)
{
    for (size_t i = 0; i < p->nsizes; i++)
        if (p->sizes[i].m == size.m && p->sizes[i].n == size.n && p->sizes[i].k == size.k)
            return (int)i;
    if (p->nsizes == PLOT_MAX_SIZES)
        return -1;
    p->sizes[p->nsizes] = size;
    return (int)p->nsizes++;
}

struct plot_series *plot_series(struct plot *p, int number, const char *title, const char *branch, bool reference,
                                bool tf32)
{
    struct plot_series *s;

    for (size_t i = 0; i < p->nseries; i++)
        if (p->series[i].number == number)
            return &p->series[i];
    if (p->nseries == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 32;
        p->series = xrealloc(p->series, p->cap * sizeof *p->series);
    }
    s = &p->series[p->nseries++];
    memset(s, 0, sizeof *s);
    s->number = number;
    str_copy(s->title, sizeof s->title, title);
    str_copy(s->branch, sizeof s->branch, branch ? branch : "");
    s->reference = reference;
    s->tf32 = tf32;
    return s;
}

void plot_add_result(struct plot *p, int size, const struct run_result *r)
{
    struct plot_series *s;
    struct plot_point *pt;

    if (size < 0 || (size_t)size >= p->nsizes)
        return;
    s = plot_series(p, r->lesson, r->title, r->branch, r->lesson < 0 || r->on_host,
                    r->precision == PRECISION_TF32);
    s->emulated = s->emulated || r->emulated;
    pt = &s->at[size];
    pt->have = true;
    pt->status = r->status;
    pt->gflops = r->status == RUN_OK ? r->gflops.median : 0.0;
    str_copy(pt->why, sizeof pt->why, r->status == RUN_OK ? "" : r->error.msg);
}

/* ---- pieces shared by both charts ---- */

static void size_text(struct gemm_size s, char *buf, size_t len)
{
    if (s.m == s.n && s.n == s.k)
        snprintf(buf, len, "%lld", s.m);
    else
        snprintf(buf, len, "%lldx%lldx%lld", s.m, s.n, s.k);
}

/* At most this many characters of a font size fit in width pixels. */
static size_t fits(double width, double px)
{
    double n = width / (CHAR_EM * px);
    return n < 1 ? 1 : (size_t)n;
}

/* Text cut to what fits in width at size px. */
static void text_fit(FILE *out, double x, double y, double px, enum svg_anchor anchor, int bold, const char *fill,
                     double width, const char *text)
{
    char buf[1024];

    svg_cut(buf, sizeof buf, text, fits(width, px));
    svg_text(out, x, y, px, anchor, bold, fill, 0, buf);
}

/* The title, the device, and when and how it was measured. */
static void heading(FILE *out, const struct plot *p, const char *title)
{
    char line[1024];

    text_fit(out, 40, 62, 40, SVG_START, 1, INK, WIDTH - 80, title);
    text_fit(out, 40, 106, 28, SVG_START, 0, INK, WIDTH - 80, p->device);
    snprintf(line, sizeof line, "%s, %s: %s", p->measured, p->source, p->method);
    text_fit(out, 40, 144, 22, SVG_START, 0, GREY, WIDTH - 80, line);
}

/* A series' number ("5", "ref") and its title ("Tiles in local memory [TF32]", a side
   branch's "| title"). */
static void series_number(const struct plot_series *s, char *buf, size_t len)
{
    if (s->number < 0)
        snprintf(buf, len, "ref");
    else
        snprintf(buf, len, "%d", s->number);
}

static void series_title(const struct plot_series *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", s->branch[0] ? "| " : "", s->title,
             s->tf32 && s->emulated ? " [TF32, emulated]" : s->tf32 ? " [TF32]" : s->emulated ? " [emulated]" : "");
}

/* Both, for a legend. */
static void series_label(const struct plot_series *s, char *buf, size_t len)
{
    char number[16], title[200];

    series_number(s, number, sizeof number);
    series_title(s, title, sizeof title);
    snprintf(buf, len, "%s %s", number, title);
}

/* An axis' figure: 0.5, 2, 250, 10000. */
static void tick_text(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.6g", v);
}

/* What a point that is not a figure says. */
static void point_note(const struct plot_point *pt, char *buf, size_t len)
{
    if (pt->stale) {
        snprintf(buf, len, "measured only with other parameters (%s)", pt->why);
        return;
    }
    switch (pt->status) {
    case RUN_WRONG: snprintf(buf, len, "WRONG RESULT (not timed)%s%s", pt->why[0] ? ": " : "", pt->why); break;
    case RUN_REFUSED: snprintf(buf, len, "refused: %s", pt->why); break;
    default: snprintf(buf, len, "failed: %s", pt->why); break;
    }
}

static const char *status_ink(enum run_status st)
{
    return st == RUN_WRONG ? WRONG_INK : REFUSED_INK;
}

/* A legend's swatch and its text at (*x, *y), on the next line when it does not fit on
   this one; *x moves past it. */
static void swatch(FILE *out, double *x, double *y, const char *fill, const char *text)
{
    double w = 36 + (double)str_columns(text, strlen(text)) * CHAR_EM * 24 + 40;

    if (*x > 40 && *x + w > WIDTH - 20) {
        *x = 40;
        *y += 40;
    }
    svg_rect(out, *x, *y - 20, 26, 26, fill, NULL);
    svg_text(out, *x + 36, *y, 24, SVG_START, 0, INK, 0, text);
    *x += w;
}

/* ---- bars: one size ---- */

#define ROW_H 46
#define BAR_H 32
#define LABEL_X 40
#define BAR_X 680
#define BAR_END (WIDTH - 230)

static const char *bar_fill(const struct plot_series *s)
{
    return s->reference ? REFERENCE_FILL : s->tf32 ? TF32_FILL : s->branch[0] ? BRANCH_FILL : LESSON_FILL;
}

/* Where value lies along the bars: linear from 0 to top, or log from lo to top. */
static double bar_x(const struct plot *p, double value, double lo, double top)
{
    double f = p->log_scale ? chart_log_fraction(value, lo, top) : value / top;

    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return BAR_X + f * (BAR_END - BAR_X);
}

static void bars(FILE *out, const struct plot *p)
{
    char title[256], size[96], label[256], note[512], value[64];
    double fastest = 0, least = 0, lo = 1, top, ticks[16], axis_y, y;
    size_t rows = 0, nticks;
    bool tf32 = false, reference = false, branch = false, emulated = false;
    const char *branch_name = "";
    int height;

    for (size_t i = 0; i < p->nseries; i++) {
        const struct plot_point *pt = &p->series[i].at[0];
        if (!pt->have)
            continue;
        rows++;
        emulated |= p->series[i].emulated;
        if (pt->status == RUN_OK && !pt->stale && pt->gflops > 0) {
            fastest = pt->gflops > fastest ? pt->gflops : fastest;
            least = least == 0 || pt->gflops < least ? pt->gflops : least;
        }
    }
    axis_y = 190 + (double)rows * ROW_H + 8;
    height = (int)axis_y + 240 + (emulated ? 40 : 0);
    size_text(p->sizes[0], size, sizeof size);
    snprintf(title, sizeof title, "GFLOPS of each lesson at %lldx%lldx%lld (M x N x K)", p->sizes[0].m,
             p->sizes[0].n, p->sizes[0].k);
    svg_begin(out, WIDTH, height, title);
    heading(out, p, title);
    if (p->log_scale) {
        chart_log_range(least, fastest, &lo, &top);
        nticks = 0;
        for (double t = lo; t <= top * 1.0001 && nticks < 16; t *= 10)
            ticks[nticks++] = t;
    } else {
        top = chart_nice_max(fastest);
        nticks = chart_ticks(0, top, 8, ticks);
    }
    /* The grid under the bars. */
    for (size_t t = 0; t < nticks; t++) {
        double x = bar_x(p, ticks[t], lo, top);
        svg_line(out, x, 176, x, axis_y, GRID, 2, NULL);
        tick_text(ticks[t], value, sizeof value);
        svg_text(out, x, axis_y + 34, 24, SVG_MIDDLE, 0, INK, 0, value);
    }
    svg_line(out, BAR_X, 176, BAR_X, axis_y, INK, 2, NULL);
    svg_line(out, BAR_X, axis_y, BAR_END, axis_y, INK, 2, NULL);
    svg_text(out, (BAR_X + BAR_END) / 2.0, axis_y + 74, 26, SVG_MIDDLE, 1, INK, 0,
             p->log_scale ? "GFLOPS (log scale): higher is faster" : "GFLOPS: higher is faster");
    y = 190;
    for (size_t i = 0; i < p->nseries; i++) {
        const struct plot_series *s = &p->series[i];
        const struct plot_point *pt = &s->at[0];
        if (!pt->have)
            continue;
        series_number(s, label, sizeof label);
        svg_text(out, LABEL_X + 50, y + BAR_H - 7, 24, SVG_END, s->current, INK, 0, label);
        series_title(s, label, sizeof label);
        text_fit(out, LABEL_X + 64, y + BAR_H - 7, 24, SVG_START, s->current, INK, BAR_X - LABEL_X - 84, label);
        if (pt->status == RUN_OK && !pt->stale) {
            double end = bar_x(p, pt->gflops, lo, top);
            /* A bar of any speed shows, however slow: the figure beside it says how much. */
            if (end - BAR_X < 3 && pt->gflops > 0)
                end = BAR_X + 3;
            svg_rect(out, BAR_X, y, end - BAR_X, BAR_H, bar_fill(s), s->current ? INK : NULL);
            snprintf(value, sizeof value, "%.1f%s%s", pt->gflops, s->tf32 ? " TF32" : "", s->emulated ? " emulated" : "");
            svg_text(out, end + 10, y + BAR_H - 7, 24, SVG_START, 1, INK, 0, value);
        } else {
            point_note(pt, note, sizeof note);
            text_fit(out, BAR_X + 12, y + BAR_H - 7, 22, SVG_START, pt->status == RUN_WRONG,
                     pt->stale ? GREY : status_ink(pt->status), WIDTH - BAR_X - 40, note);
        }
        tf32 |= s->tf32;
        reference |= s->reference;
        if (s->branch[0] && !branch) {
            branch = true;
            branch_name = s->branch;
        }
        y += ROW_H;
    }
    /* The legend: what each colour is. */
    {
        double x = LABEL_X, ly = axis_y + 130;
        char text[256];
        swatch(out, &x, &ly, LESSON_FILL, "lessons (OpenCL kernels)");
        if (branch) {
            snprintf(text, sizeof text, "| side branch \"%s\"", branch_name);
            swatch(out, &x, &ly, BRANCH_FILL, text);
        }
        if (tf32)
            swatch(out, &x, &ly, TF32_FILL, "[TF32]: inputs of TF32, not FP32");
        if (reference)
            swatch(out, &x, &ly, REFERENCE_FILL, "references: the CPU loop, libraries");
        if (emulated)
            svg_text(out, 40, ly + 40, 24, SVG_START, 0, INK, 0, p->emulated_note);
        if (rows == 0)
            svg_text(out, BAR_X, 230, 26, SVG_START, 0, GREY, 0, "nothing measured at this size");
    }
    svg_end(out);
}

/* ---- lines: several sizes ---- */

static const char *const palette[] = { "#1f4e9c", "#c0392b", "#1e8449", "#7d3c98", "#d35400",
                                       "#6e2c00", "#b03a7a", "#117a8b", "#555555", "#7d6608" };
#define NCOLOURS (sizeof palette / sizeof palette[0])

#define PLOT_X0 150
#define PLOT_X1 (WIDTH - 600)
#define PLOT_Y0 200
#define LEGEND_X (WIDTH - 540)

/* Where each size lies along the axis: by the cube root of M·N·K on a log scale when the
   sizes grow in that order, else evenly in the order given. */
static bool size_positions(const struct plot *p, double *x)
{
    bool growing = true;
    double v[PLOT_MAX_SIZES];

    for (size_t i = 0; i < p->nsizes; i++) {
        v[i] = log(cbrt((double)p->sizes[i].m * (double)p->sizes[i].n * (double)p->sizes[i].k));
        growing &= i == 0 || v[i] > v[i - 1];
    }
    for (size_t i = 0; i < p->nsizes; i++)
        x[i] = p->nsizes < 2 ? 0.5
               : growing   ? (v[i] - v[0]) / (v[p->nsizes - 1] - v[0])
                           : (double)i / (double)(p->nsizes - 1);
    return growing;
}

/* Under a legend entry, the sizes where the series has no figure and why: "refused at 64
   and 128", "wrong at 256", or "refused at every size: why". */
static void missing_sizes(const struct plot *p, const struct plot_series *s, char *buf, size_t len)
{
    /* RUN_OK here: a point measured only with other parameters. */
    static const char *const names[] = { [RUN_OK] = "other parameters only", [RUN_WRONG] = "wrong",
                                         [RUN_REFUSED] = "refused", [RUN_ERROR] = "failed" };
    struct str out;

    str_init(&out, buf, len);
    for (int st = RUN_OK; st <= RUN_ERROR; st++) {
        size_t count = 0, done = 0;
        const char *why = "";
        bool of[PLOT_MAX_SIZES];
        for (size_t i = 0; i < p->nsizes; i++) {
            const struct plot_point *pt = &s->at[i];
            of[i] = pt->have && (int)pt->status == st && (st != RUN_OK || pt->stale);
            if (of[i]) {
                count++;
                why = pt->why;
            }
        }
        if (count == 0)
            continue;
        if (count == p->nsizes) {
            str_appendf(&out, "; ", "%s at every size: %s", names[st], why);
            continue;
        }
        str_appendf(&out, "; ", "%s at", names[st]);
        for (size_t i = 0; i < p->nsizes; i++)
            if (of[i]) {
                char size[96];
                size_text(p->sizes[i], size, sizeof size);
                done++;
                str_appendf(&out, done == 1 ? " " : done == count ? " and " : ", ", "%s", size);
            }
    }
}

/* A reference's line, by which reference it is, so that every chart draws it alike: the CPU
   loop of lesson 0 black, CLBlast (-1) orange, the CPU's BLAS (-2) grey, each dashed its own
   way. */
static const char *const reference_ink[] = { "#000000", "#e07b00", "#666666" };
static const char *const reference_dash[] = { "12 8", "20 6 4 6", "16 4 2 4 2 4" };

static size_t reference_style(const struct plot_series *s)
{
    return s->number >= 0 ? 0 : (size_t)(-(long)s->number) % 3;
}

static void lines(FILE *out, const struct plot *p)
{
    double pos[PLOT_MAX_SIZES], top = 0, ticks[16], y1, ly;
    char title[256], text[512], value[64];
    bool growing = size_positions(p, pos), square = true, emulated = false;
    size_t entries = 0, extra = 0, nticks;
    int height;

    for (size_t i = 0; i < p->nseries; i++) {
        bool any = false, missing = false;
        for (size_t k = 0; k < p->nsizes; k++) {
            const struct plot_point *pt = &p->series[i].at[k];
            any |= pt->have;
            missing |= pt->have && (pt->status != RUN_OK || pt->stale);
            if (pt->have && pt->status == RUN_OK && !pt->stale && pt->gflops > top)
                top = pt->gflops;
        }
        entries += any;
        extra += missing;
        emulated |= any && p->series[i].emulated;
    }
    for (size_t k = 0; k < p->nsizes; k++)
        square &= p->sizes[k].m == p->sizes[k].n && p->sizes[k].n == p->sizes[k].k;
    height = 230 + (int)(entries * 40 + extra * 28) + 40;
    height = height < 900 ? 900 : height;
    y1 = height - 170;
    top = chart_nice_max(top);
    snprintf(title, sizeof title, "GFLOPS against size, a line per lesson");
    svg_begin(out, WIDTH, height, title);
    heading(out, p, title);
    nticks = chart_ticks(0, top, 8, ticks);
    for (size_t t = 0; t < nticks; t++) {
        double y = y1 - ticks[t] / top * (y1 - PLOT_Y0);
        svg_line(out, PLOT_X0, y, PLOT_X1, y, GRID, 2, NULL);
        tick_text(ticks[t], value, sizeof value);
        svg_text(out, PLOT_X0 - 12, y + 8, 24, SVG_END, 0, INK, 0, value);
    }
    /* A tick at every size; its label where it does not run into the one before (a label of
       24-pixel digits is about 14 pixels a character). */
    for (size_t k = 0, last_end = 0; k < p->nsizes; k++) {
        double x = PLOT_X0 + pos[k] * (PLOT_X1 - PLOT_X0), half;
        size_text(p->sizes[k], text, sizeof text);
        half = 7.0 * (double)strlen(text);
        svg_line(out, x, y1, x, y1 + 10, INK, 2, NULL);
        if (k == 0 || x - half >= (double)last_end + 16) {
            svg_text(out, x, y1 + 40, 24, SVG_MIDDLE, 0, INK, 0, text);
            last_end = (size_t)(x + half);
        }
    }
    svg_line(out, PLOT_X0, PLOT_Y0 - 10, PLOT_X0, y1, INK, 2, NULL);
    svg_line(out, PLOT_X0, y1, PLOT_X1, y1, INK, 2, NULL);
    svg_text(out, 48, (PLOT_Y0 + y1) / 2, 26, SVG_MIDDLE, 1, INK, -90, "GFLOPS: higher is faster");
    snprintf(text, sizeof text, "%s%s", square ? "size: M = N = K" : "size: M x N x K",
             growing ? " (log scale)" : "");
    svg_text(out, (PLOT_X0 + PLOT_X1) / 2.0, y1 + 90, 26, SVG_MIDDLE, 1, INK, 0, text);
    if (emulated)
        svg_text(out, (PLOT_X0 + PLOT_X1) / 2.0, y1 + 130, 22, SVG_MIDDLE, 0, INK, 0, p->emulated_note);
    /* A line per series through the sizes it has a figure at, broken where it has none; a
       marker at each figure. The legend beside it says where the gaps are. */
    ly = PLOT_Y0 + 10;
    for (size_t i = 0, shown = 0; i < p->nseries; i++) {
        const struct plot_series *s = &p->series[i];
        const char *colour = s->reference ? reference_ink[reference_style(s)] : palette[shown % NCOLOURS];
        const char *dash = s->reference ? reference_dash[reference_style(s)] : s->tf32 ? "4 6" : NULL;
        int shape = s->reference ? 1 : (int)(shown / NCOLOURS);
        double xs[PLOT_MAX_SIZES], ys[PLOT_MAX_SIZES];
        size_t n = 0;
        bool any = false;
        for (size_t k = 0; k <= p->nsizes; k++) {
            const struct plot_point *pt = k < p->nsizes ? &s->at[k] : NULL;
            if (pt && pt->have && pt->status == RUN_OK && !pt->stale) {
                xs[n] = PLOT_X0 + pos[k] * (PLOT_X1 - PLOT_X0);
                ys[n] = y1 - pt->gflops / top * (y1 - PLOT_Y0);
                n++;
                continue;
            }
            if (n > 1)
                svg_polyline(out, xs, ys, n, colour, s->current ? 6 : 4, dash);
            for (size_t j = 0; j < n; j++)
                svg_marker(out, xs[j], ys[j], 7, shape, colour);
            n = 0;
        }
        for (size_t k = 0; k < p->nsizes; k++)
            any |= s->at[k].have;
        if (!any)
            continue;
        shown += !s->reference;
        svg_line(out, LEGEND_X, ly - 8, LEGEND_X + 44, ly - 8, colour, 4, dash);
        svg_marker(out, LEGEND_X + 22, ly - 8, 7, shape, colour);
        series_label(s, text, sizeof text);
        text_fit(out, LEGEND_X + 58, ly, 22, SVG_START, s->current, INK, WIDTH - LEGEND_X - 70, text);
        missing_sizes(p, s, text, sizeof text);
        if (text[0]) {
            ly += 28;
            text_fit(out, LEGEND_X + 58, ly, 20, SVG_START, 0, REFUSED_INK, WIDTH - LEGEND_X - 70, text);
        }
        ly += 40;
    }
    svg_end(out);
}

int plot_write(FILE *out, const struct plot *p)
{
    if (p->nsizes <= 1) {
        if (p->nsizes == 0) {
            /* Nothing measured: a page that says so, still a valid picture. */
            svg_begin(out, WIDTH, 400, "GFLOPS: nothing measured");
            heading(out, p, "GFLOPS: nothing measured");
            svg_end(out);
        } else {
            bars(out, p);
        }
    } else {
        lines(out, p);
    }
    return ferror(out) ? -1 : 0;
}

static int write_plot(FILE *out, void *ctx)
{
    int rc = plot_write(out, ctx);

    if (rc < 0 && errno == 0)
        errno = EIO;
    return rc;
}

int plot_save(const struct plot *p, const char *path, struct error *e)
{
    char target[4096];

    if (files_write_target(path, target, sizeof target, e) < 0)
        return -1;
    return file_replace(target, write_plot, (void *)p, e);
}
