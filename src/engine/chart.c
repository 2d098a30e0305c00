/* chart.c: the arithmetic and the glyphs of bar charts and plots drawn as text. */
#include "chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

enum {
    FULL_BLOCK = 0x2588,
    LEFT_ONE_EIGHTH = 0x258F,   /* the left k eighths: U+258F + 1 - k, down to U+2589 for 7 */
    LOWER_ONE_EIGHTH = 0x2581,  /* the lower k eighths: U+2581 - 1 + k, up to U+2587 for 7 */
    BRAILLE = 0x2800,           /* plus the bits of the raised dots */
};

/* Braille dot bits by dot row (top first) and column. The bottom row (dots 7 and 8) came later to
   the standard than the other six, hence bits 6 and 7 there. */
static const unsigned char braille_bit[4][2] = {
    { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 },
};
/* ASCII cells by their dot bits: bit 0 the top dot, bit 1 the bottom one. */
static const char ascii_dots[] = " '.:";

/* Appends code point c, whole or not at all (half a character would garble the line); false when
   it does not fit. Every glyph here is ASCII or in U+0800..U+FFFF, one UTF-8 byte or three. */
static bool put_glyph(struct str *s, unsigned c)
{
    char bytes[4];
    size_t n = 0;

    if (c < 0x80) {
        bytes[n++] = (char)c;
    } else {
        bytes[n++] = (char)(0xE0 | c >> 12);
        bytes[n++] = (char)(0x80 | (c >> 6 & 0x3F));
        bytes[n++] = (char)(0x80 | (c & 0x3F));
    }
    bytes[n] = '\0';
    if (s->len + n >= s->size)
        return false;
    str_appendf(s, "", "%s", bytes);
    return true;
}

/* m x 10^k with a single rounding, so that a decimal such as 0.3 comes out as the double nearest
   it, the same one that reading "0.3" gives. */
static double decimal(double m, int k)
{
    double scale = pow(10.0, abs(k));

    return k >= 0 ? m * scale : m / scale;
}

double chart_nice_max(double max)
{
    static const double steps[] = { 1.0, 2.0, 2.5, 5.0 };

    if (!(max > 0.0) || isinf(max))
        return 1.0;
    /* One power of ten below, in case log10 rounds across a power. */
    for (int k = (int)floor(log10(max)) - 1;; k++)
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            double nice = decimal(steps[i], k);

            if (nice >= max)
                return nice;
        }
}

/* The length of value's bar in 1/per_column columns: rounded, at least 1 for a value above 0, at
   most the width. */
static long long bar_units(double value, double max, int width, int per_column)
{
    long long whole = (long long)width * per_column;
    double units;

    if (width <= 0 || !(value > 0.0) || !(max > 0.0))
        return 0;
    if (value >= max)
        return whole;
    units = round(value / max * (double)whole);
    return units < 1.0 ? 1 : (long long)units;
}

#define CHART_GHOST_UTF8 0x2591u    /* light shade */
#define CHART_GHOST_ASCII '-'

int chart_bar(char *buf, size_t len, double value, double max, int width, bool utf8)
{
    int per_column = utf8 ? 8 : 1;
    long long units = bar_units(value, max, width, per_column);
    int columns = 0;
    struct str s;

    if (len == 0)
        return 0;
    str_init(&s, buf, len);
    while (units >= per_column && put_glyph(&s, utf8 ? FULL_BLOCK : '#')) {
        units -= per_column;
        columns++;
    }
    if (units > 0 && units < per_column && put_glyph(&s, LEFT_ONE_EIGHTH + 1 - (unsigned)units))
        columns++;
    return columns;
}

int chart_ghost_bar(char *buf, size_t len, double value, double max, int width, bool utf8)
{
    long long columns = bar_units(value, max, width, 1);
    int used = 0;
    struct str s;

    if (len == 0)
        return 0;
    str_init(&s, buf, len);
    while (used < columns && put_glyph(&s, utf8 ? CHART_GHOST_UTF8 : CHART_GHOST_ASCII))
        used++;
    return used;
}

const char *chart_ghost_mark(bool utf8)
{
    return utf8 ? "\u2591" : "-";
}

const char *chart_branch_mark(bool utf8)
{
    return utf8 ? "\u2506" : ":";
}

/* Formats into buf; a text cut short loses its last character whole, never half of it. */
static void format_whole(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void format_whole(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (len == 0)
        return;
    va_start(ap, fmt);
    n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n >= len) {
        size_t end = strlen(buf), at = 0;
        unsigned long code;
        size_t step;
        /* Up to the last character that arrived whole. */
        while (at < end && (step = str_utf8_char(buf + at, &code)) > 0 && at + step <= end)
            at += step;
        buf[at] = '\0';
    }
}

void chart_lesson_label(char *buf, size_t len, int number, const char *title, const char *tag, bool side_branch,
                        bool utf8)
{
    format_whole(buf, len, "%2d%s%s%s%s", number, side_branch ? chart_branch_mark(utf8) : " ", tag, tag[0] ? " " : "",
                 title);
}

void chart_branch_legend(char *buf, size_t len, const char *branch, bool utf8)
{
    format_whole(buf, len, "%s side branch: %s", chart_branch_mark(utf8), branch);
}

void chart_bar_widths(int width, int value_w, int *label_w, int *bar_w)
{
    int room = width - 3 - 1 - value_w;     /* for the label and the bar */
    int label = room - 6;

    label = label > 24 ? 24 : label < 10 ? 10 : label;
    if (label > room - 1)
        label = room - 1;
    if (label < 0)
        label = 0;
    *label_w = label;
    *bar_w = room - label > 0 ? room - label : 0;
}

static int columns_of(const char *s)
{
    return (int)str_columns(s, strlen(s));
}

/* Writes the kept items, joined, into buf; returns the columns. */
static int join_items(char *buf, size_t len, const struct chart_item *items, const int *form, size_t n,
                      const char *sep)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t i = 0; i < n; i++)
        if (form[i] >= 0)
            str_appendf(&s, sep, "%s", form[i] == 1 ? items[i].shorter : items[i].text);
    return columns_of(buf);
}

int chart_fit_items(char *buf, size_t len, const struct chart_item *items, size_t n, const char *sep, int width)
{
    int *form = xcalloc(n ? n : 1, sizeof *form);     /* 0 the text, 1 the shorter, -1 dropped */
    int used;

    if (len == 0) {
        free(form);
        return 0;
    }
    while ((used = join_items(buf, len, items, form, n, sep)) > width) {
        size_t pick = n;
        for (size_t i = 0; i < n; i++) {
            bool can = form[i] == 0 ? items[i].shorter || items[i].rank > 0 : form[i] == 1 && items[i].rank > 0;
            if (can && (pick == n || items[i].rank >= items[pick].rank))
                pick = i;
        }
        if (pick == n)
            break;
        form[pick] = form[pick] == 0 && items[pick].shorter ? 1 : -1;
    }
    free(form);
    return used;
}

const char *chart_ellipsis(bool utf8)
{
    return utf8 ? "\u2026" : "...";
}

int chart_shorten_words(char *buf, size_t len, const char *text, int width, bool utf8)
{
    const char *mark = chart_ellipsis(utf8);
    int room = width - columns_of(mark);
    size_t end = 0;

    if (len == 0)
        return 0;
    if (columns_of(text) <= width) {
        format_whole(buf, len, "%s", text);
        return columns_of(buf);
    }
    if (room < 0) {
        buf[0] = '\0';
        return 0;
    }
    /* The end of the last word that leaves room for a space and the mark. */
    for (size_t at = 0; text[at]; at++)
        if (text[at] != ' ' && (text[at + 1] == ' ' || text[at + 1] == '\0') &&
            (int)str_columns(text, at + 1) + 1 <= room)
            end = at + 1;
    format_whole(buf, len, "%.*s%s%s", (int)end, text, end ? " " : "", mark);
    return columns_of(buf);
}

void chart_columns(const double *v, size_t n, double max, int height, bool utf8, char **rows)
{
    int per_row = utf8 ? 8 : 1;
    struct str *s = xcalloc(height > 0 ? (size_t)height : 1, sizeof *s);

    for (int r = 0; r < height; r++)
        str_init(&s[r], rows[r], chart_row_bytes((int)n));
    for (size_t i = 0; i < n; i++) {
        /* The column's height in eighths of a row (or whole rows), from the bottom row up. */
        long long units = bar_units(v[i], max, height, per_row);
        for (int r = height - 1; r >= 0; r--) {
            long long here = units >= per_row ? per_row : units;
            if (here == 0)
                put_glyph(&s[r], ' ');
            else if (here == per_row)
                put_glyph(&s[r], utf8 ? FULL_BLOCK : '#');
            else
                put_glyph(&s[r], LOWER_ONE_EIGHTH + (unsigned)here - 1);
            units -= here;
        }
    }
    free(s);
}

void chart_format_value(double v, char *buf, size_t len)
{
    char sci[32];
    int decimals;

    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    if (v == 0.0) {
        snprintf(buf, len, "0");
        return;
    }
    /* The exponent after rounding to 3 digits, so that 9.996 gives "10.0", not "10.00". */
    snprintf(sci, sizeof sci, "%.2e", v);
    decimals = 2 - atoi(strchr(sci, 'e') + 1);
    snprintf(buf, len, "%.*f", decimals > 0 ? decimals : 0, v);
}

/* ---- plots ---- */

/* The dots of a plot, kept as each cell's dot bits until the cells become characters. */
struct grid {
    int width, height;          /* in cells */
    int across, down;           /* dots in a cell: 2 x 4 in braille, 1 x 2 in ASCII */
    bool utf8;
    unsigned char *cells;       /* row by row, the top first */
};

struct axes {
    double xmin, xmax, ymin, ymax;
    bool logx;
};

/* Sets dot (x, y), counted from the top left. */
static void grid_set(struct grid *g, long x, long y)
{
    unsigned char bit = g->utf8 ? braille_bit[y % 4][x % 2] : (unsigned char)(1u << (y % 2));

    g->cells[(size_t)(y / g->down) * (size_t)g->width + (size_t)(x / g->across)] |= bit;
}

/* Bresenham's line: every dot from one end to the other, one step at a time along the longer
   side, stepping along the shorter one where the error says the line has moved half a dot. */
static void grid_line(struct grid *g, long x0, long y0, long x1, long y1)
{
    long dx = labs(x1 - x0), dy = -labs(y1 - y0), err = dx + dy;
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;

    for (;;) {
        long twice = 2 * err;   /* both tests see the error before this step */

        grid_set(g, x0, y0);
        if (x0 == x1 && y0 == y1)
            return;
        if (twice >= dy) {
            err += dy;
            x0 += sx;
        }
        if (twice <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

/* Cuts the segment to the box [0, right] x [0, bottom] (Liang-Barsky), so that a line towards a
   point far outside still shows its visible part, and costs no more than that part to draw; false
   when none of it is inside. */
static bool clip(double *x0, double *y0, double *x1, double *y1, double right, double bottom)
{
    double dx = *x1 - *x0, dy = *y1 - *y0;
    const double p[4] = { -dx, dx, -dy, dy };
    const double q[4] = { *x0, right - *x0, *y0, bottom - *y0 };
    double enter = 0.0, leave = 1.0;

    for (int i = 0; i < 4; i++) {
        if (p[i] == 0.0 && q[i] < 0.0)
            return false;           /* parallel to this edge, and beyond it */
        if (p[i] < 0.0)
            enter = fmax(enter, q[i] / p[i]);
        else if (p[i] > 0.0)
            leave = fmin(leave, q[i] / p[i]);
    }
    if (enter > leave)
        return false;
    *x1 = *x0 + leave * dx;
    *y1 = *y0 + leave * dy;
    *x0 += enter * dx;
    *y0 += enter * dy;
    return isfinite(*x0) && isfinite(*y0) && isfinite(*x1) && isfinite(*y1);
}

/* Draws what lies on the grid of the line between two dot positions; a single dot when they are
   the same. */
static void grid_segment(struct grid *g, double x0, double y0, double x1, double y1)
{
    double right = g->width * g->across - 1, bottom = g->height * g->down - 1;

    if (clip(&x0, &y0, &x1, &y1, right, bottom))
        grid_line(g, lround(x0), lround(y0), lround(x1), lround(y1));
}

/* Where v lies on an axis from lo (0) to hi (1); NaN where it cannot be placed. */
static double position(double v, double lo, double hi, bool logarithmic)
{
    if (logarithmic) {
        if (!(v > 0.0 && lo > 0.0 && hi > 0.0))
            return NAN;
        v = log(v);
        lo = log(lo);
        hi = log(hi);
    }
    if (!isfinite(v) || !isfinite(lo) || !isfinite(hi))
        return NAN;
    if (lo == hi)
        return v == lo ? 0.5 : NAN;
    return (v - lo) / (hi - lo);
}

/* A point's dot position (y down, the axis ends on the outermost dots); false for a gap. */
static bool place(const struct grid *g, const struct axes *a, double x, double y, double *dot_x,
                  double *dot_y)
{
    double px = position(x, a->xmin, a->xmax, a->logx);
    double py = position(y, a->ymin, a->ymax, false);

    *dot_x = px * (g->width * g->across - 1);
    *dot_y = (1.0 - py) * (g->height * g->down - 1);
    return isfinite(*dot_x) && isfinite(*dot_y);
}

/* A cell's character: a space when it is empty, so that an empty plot is plain blanks. */
static unsigned cell_glyph(unsigned bits, bool utf8)
{
    if (bits == 0)
        return ' ';
    return utf8 ? BRAILLE + bits : (unsigned char)ascii_dots[bits];
}

static void grid_render(const struct grid *g, char **rows)
{
    for (int r = 0; r < g->height; r++) {
        struct str s;

        str_init(&s, rows[r], chart_row_bytes(g->width));
        for (int c = 0; c < g->width; c++)
            put_glyph(&s, cell_glyph(g->cells[(size_t)r * (size_t)g->width + (size_t)c], g->utf8));
    }
}

size_t chart_row_bytes(int width)
{
    return width > 0 ? (size_t)width * 3 + 1 : 1;  /* a braille character is 3 bytes in UTF-8 */
}

void chart_plot(const double *x, const double *y, size_t n, double xmin, double xmax, double ymin,
                double ymax, bool logx, bool join, int width, int height, bool utf8, char **rows)
{
    const struct axes a = { xmin, xmax, ymin, ymax, logx };
    struct grid g = { width, height, utf8 ? 2 : 1, utf8 ? 4 : 2, utf8, NULL };

    if (width <= 0) {
        for (int r = 0; r < height; r++)
            rows[r][0] = '\0';
        return;
    }
    if (height <= 0)
        return;
    g.cells = xcalloc((size_t)width * (size_t)height, 1);
    for (size_t i = 0; i < n; i++) {
        double x0, y0, x1, y1;

        if (!place(&g, &a, x[i], y[i], &x1, &y1))
            continue;
        grid_segment(&g, x1, y1, x1, y1);   /* the point itself, also when its neighbours are gaps */
        if (join && i > 0 && place(&g, &a, x[i - 1], y[i - 1], &x0, &y0))
            grid_segment(&g, x0, y0, x1, y1);
    }
    grid_render(&g, rows);
    free(g.cells);
}

/* ---- axis ticks ---- */

size_t chart_ticks(double lo, double hi, size_t max_ticks, double *ticks)
{
    static const double steps[] = { 1.0, 2.0, 5.0 };
    const double slack = 1e-9;  /* in steps: lo and hi may be a rounding away from a tick */

    if (!(hi > lo) || !isfinite(hi - lo) || max_ticks == 0)
        return 0;
    /* From a step a little finer than an even spread of max_ticks, coarser until they fit. */
    for (int k = (int)floor(log10((hi - lo) / (double)max_ticks)) - 1;; k++)
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            double step = decimal(steps[i], k);
            double first = ceil(lo / step - slack), last = floor(hi / step + slack);

            if (!(last - first + 1.0 <= (double)max_ticks))
                continue;
            for (size_t t = 0; first + (double)t <= last; t++)
                ticks[t] = decimal((first + (double)t) * steps[i], k);
            return last >= first ? (size_t)(last - first + 1.0) : 0;
        }
}

void chart_log_range(double min, double max, double *lo, double *hi)
{
    if (!(min > 0.0) || !(max > 0.0) || !isfinite(min) || !isfinite(max)) {
        *lo = 1.0;
        *hi = 10.0;
        return;
    }
    if (min > max)
        min = max;
    *lo = pow(10.0, floor(log10(min)));
    *hi = pow(10.0, ceil(log10(max)));
    if (*hi < *lo * 10.0)
        *hi = *lo * 10.0;
}

double chart_log_fraction(double value, double lo, double hi)
{
    double f;

    if (!(value > 0.0) || !(hi > lo) || !(lo > 0.0))
        return 0.0;
    f = (log10(value) - log10(lo)) / (log10(hi) - log10(lo));
    /* Above 0 for any value above 0: chart_bar then draws at least its thinnest mark. */
    return f < 1e-9 ? 1e-9 : f > 1.0 ? 1.0 : f;
}
