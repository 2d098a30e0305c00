/* chart.h: chart scaling and rendering to text, so that a terminal only has to show strings. */
#ifndef CLMM_CHART_H
#define CLMM_CHART_H

#include <stdbool.h>
#include <stddef.h>

/* Each drawing comes in two glyph sets: with utf8, block elements and braille; without it, plain
   ASCII, for terminals whose locale is not UTF-8. */

/* The axis maximum for data up to max: the smallest 1, 2, 2.5 or 5 times a power of ten at or above
   max (max <= 0, NaN or infinite gives 1). */
double chart_nice_max(double max);

/* A horizontal bar for value on a scale of 0..max over width columns into buf (NUL-terminated).
   UTF-8: full blocks then one left-eighths block for the remainder, the length rounded to the
   nearest eighth of a column; ASCII: one '#' a column, the length rounded to the nearest column.
   A value > 0 shows at least the thinnest mark (one eighth, or one '#'), so that a slow lesson never
   looks like "no result"; values above max are clipped to width; a NaN value, or a max not above 0,
   draws nothing. Returns the columns used, fewer than the bar's when buf is too small for it (a
   UTF-8 column takes 3 bytes, an ASCII one 1, and the NUL 1). */
int chart_bar(char *buf, size_t len, double value, double max, int width, bool utf8);

/* A ghost bar, a saved run's figure drawn behind a bar (--compare): whole columns of light
   shade (U+2591), '-' in ASCII, as chart_bar rounds them without UTF-8 (the nearest column,
   at least one for a value > 0, clipped to width). Returns the columns used. */
int chart_ghost_bar(char *buf, size_t len, double value, double max, int width, bool utf8);
/* Its glyph, for the legend. */
const char *chart_ghost_mark(bool utf8);

/* A log scale for bars of values from min to max (both > 0): *lo the power of ten at or
   below min, *hi the power of ten at or above max, and *hi at least 10 times *lo, so that a
   ladder spanning five decades draws every bar with a length that says its decade. min or
   max not above 0 (or not finite) gives 1 and 10. */
void chart_log_range(double min, double max, double *lo, double *hi);

/* Where value sits on the log scale lo..hi, from 0 to 1 (clipped); 0 for value <= 0 and
   more than 0 for any value above 0, so that its bar shows at least a sliver. A bar
   of length fraction * width, drawn with chart_bar(buf, len, fraction, 1.0, ...), is a log
   bar. */
double chart_log_fraction(double value, double lo, double hi);

/* A side branch of the ladder (a lesson's branch line) in bar charts: its bars' labels carry a
   dotted vertical line (U+2506, ':' in ASCII) in place of the space between number and title,
   so that the titles stay in one column and the main ladder's labels stay unmarked. */
const char *chart_branch_mark(bool utf8);

/* A bar's label into buf (NUL-terminated, cut at a whole character): "%2d title", or on a
   side branch " 2\u2506title"; a tag that is not "" goes before the title ("70 TF32 title"), where
   a narrow chart, which cuts labels from their end, keeps it. */
void chart_lesson_label(char *buf, size_t len, int number, const char *title, const char *tag, bool side_branch,
                        bool utf8);

/* The legend of a side branch named branch: "\u2506 side branch: row per work-item". */
void chart_branch_legend(char *buf, size_t len, const char *branch, bool utf8);

/* The columns of a bar chart's row of width columns: the label, 3 columns for a mark, the bar,
   a space, then the figures, value_w columns (the value, the spread and the mark of the fastest,
   with the spaces between them). The label takes what a bar of 6 columns leaves, from 10 to 24
   columns, and less where even that does not leave one column for the bar; the bar the rest. The
   row never passes width: *label_w + 3 + *bar_w + 1 + value_w <= width, where width allows. */
void chart_bar_widths(int width, int value_w, int *label_w, int *bar_w);

/* A piece of a line made of whole items (chart_fit_items). */
struct chart_item {
    const char *text;
    const char *shorter;        /* a shorter form, taken before the item is dropped; or NULL */
    int rank;                   /* higher ranks give way first; rank 0 is shortened, never dropped */
};

/* Joins the items in their order, sep between them, into buf (NUL-terminated), giving way until
   the line fits width columns: each time, the item of the highest rank that can give way (the last
   of equal ranks) takes its shorter form, or is dropped when it has none left (an item of rank 0
   is never dropped). No item is ever cut. Returns the line's columns, more than width when what
   cannot give way does not fit. */
int chart_fit_items(char *buf, size_t len, const struct chart_item *items, size_t n, const char *sep, int width);

/* The mark of a cut line: "\u2026", or "..." without UTF-8. */
const char *chart_ellipsis(bool utf8);

/* text into buf, whole when it fits width columns; else its longest run of whole words that fits
   with the mark of a cut (chart_ellipsis) after it ("A fast row-major \u2026"); just the mark when
   not even the first word fits, nothing when the mark does not. Returns the columns. */
int chart_shorten_words(char *buf, size_t len, const char *text, int width, bool utf8);

/* Vertical bars, one column per value on a scale of 0..max, height rows high: UTF-8 lower
   eighths blocks (U+2581..U+2588) or '#' per whole row in ASCII, the same rounding and
   least mark as chart_bar. rows[r] (r = 0 is the top) receives a NUL-terminated string;
   each buffer must hold chart_row_bytes(n) bytes. For histograms. */
void chart_columns(const double *v, size_t n, double max, int height, bool utf8, char **rows);

/* Formats a GFLOPS-like value with 3 significant digits and no exponent: 0.0123 -> "0.0123",
   1.234 -> "1.23", 12.34 -> "12.3", 123.4 -> "123", 1234 -> "1234", 12345 -> "12345", 40712.3 -> "40712"
   (integers above 1000 keep all digits: students compare them against other tools' figures).
   Zero is "0"; NaN and infinities, which no measurement gives, are "-". */
void chart_format_value(double v, char *buf, size_t len);

/* A scatter/line plot of n points (x[i], y[i]) into a grid of width columns x height rows. UTF-8:
   each cell a braille character holding 2 x 4 dots; ASCII: each cell one column of 2 dots, drawn
   as ' (top), . (bottom) or : (both). An empty cell is a space in both sets. Consecutive points are
   joined by a line (Bresenham over the dot grid) when join is true. Coordinates map linearly from
   [xmin,xmax] x [ymin,ymax] (y up) onto the dots, the ends of each axis on its outermost dots; logx
   maps x logarithmically (x > 0). Points outside are clipped, and lines are cut at the edge.
   A point with a NaN or infinite coordinate (or x <= 0 with logx) is a gap in the line. An axis with
   min == max holds only that value, in its middle, so that a single measurement still shows.
   rows[r] receives row r (r = 0 is the top) as a NUL-terminated string; each buffer must hold
   chart_row_bytes(width) bytes. width <= 0 gives empty rows; height <= 0 writes nothing. */
size_t chart_row_bytes(int width);
void chart_plot(const double *x, const double *y, size_t n, double xmin, double xmax, double ymin,
                double ymax, bool logx, bool join, int width, int height, bool utf8, char **rows);

/* An axis scale for a plot: ticks at nice values (1, 2, 5 x 10^k steps) between lo and hi, at most
   max_ticks of them, with the finest step that allows; returns the count written to ticks (none when
   hi <= lo). A log axis takes its ticks from the logs of its ends: log2 of 64..8192, at most 4
   ticks, gives 6, 8, 10, 12, that is 64, 256, 1024, 4096. */
size_t chart_ticks(double lo, double hi, size_t max_ticks, double *ticks);

#endif
