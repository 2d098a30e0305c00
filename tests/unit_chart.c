/* unit_chart.c: chart scales, bars, value labels, plots and ticks rendered to text. */
#include <math.h>
#include <string.h>

#include "units.h"
#include "engine/chart.h"

#define ROWS 3
#define COLUMNS 8

static char row_buf[ROWS][COLUMNS * 3 + 1];
static char *rows[ROWS] = { row_buf[0], row_buf[1], row_buf[2] };

/* A plot over the unit square. */
static void plot(const double *x, const double *y, size_t n, bool join, int width, int height,
                 bool utf8)
{
    ck_assert_uint_le(chart_row_bytes(width), sizeof row_buf[0]);
    chart_plot(x, y, n, 0.0, 1.0, 0.0, 1.0, false, join, width, height, utf8, rows);
}

START_TEST(test_chart_nice_max)
{
    const struct { double max, nice; } table[] = {
        { 0, 1 }, { -3, 1 }, { 0.3, 0.5 }, { 0.2, 0.2 }, { 1, 1 }, { 1.01, 2 }, { 2.4, 2.5 },
        { 3, 5 }, { 7, 10 }, { 99, 100 }, { 101, 200 }, { 31600, 50000 }, { 40712, 50000 },
        { NAN, 1 }, { INFINITY, 1 },
    };

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        ck_assert_msg(chart_nice_max(table[i].max) == table[i].nice, "nice max of %g: %g, expected %g",
                      table[i].max, chart_nice_max(table[i].max), table[i].nice);
}
END_TEST

/* The bar is value / max of the width, in eighths of a column. */
START_TEST(test_chart_bar_eighths)
{
    char buf[64];

    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.0, 8.0, 8, true), 5);
    ck_assert_str_eq(buf, u8"\u2588\u2588\u2588\u2588\u2588");
    ck_assert_str_eq(buf, "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.5, 8.0, 8, true), 6);
    ck_assert_str_eq(buf, u8"\u2588\u2588\u2588\u2588\u2588\u258c");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.125, 8.0, 8, true), 6);
    ck_assert_str_eq(buf, u8"\u2588\u2588\u2588\u2588\u2588\u258f");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.875, 8.0, 8, true), 6);
    ck_assert_str_eq(buf, u8"\u2588\u2588\u2588\u2588\u2588\u2589");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 1.0, 4.0, 2, true), 1);   /* 4 eighths of 16 */
    ck_assert_str_eq(buf, u8"\u258c");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 8.0, 8.0, 8, true), 8);
    ck_assert_uint_eq(strlen(buf), 8 * 3);
}
END_TEST

/* Anything measured shows: the thinnest mark rather than nothing. */
START_TEST(test_chart_bar_minimum)
{
    char buf[64];

    ck_assert_int_eq(chart_bar(buf, sizeof buf, 1e-6, 40000.0, 30, true), 1);
    ck_assert_str_eq(buf, u8"\u258f");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 1e-6, 40000.0, 30, false), 1);
    ck_assert_str_eq(buf, "#");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 0.0, 8.0, 8, true), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, -1.0, 8.0, 8, false), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, NAN, 8.0, 8, true), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.0, 0.0, 8, true), 0);     /* no scale */
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.0, 8.0, 0, true), 0);
    ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_chart_bar_clipping)
{
    char buf[64];

    ck_assert_int_eq(chart_bar(buf, sizeof buf, 100.0, 8.0, 4, true), 4);
    ck_assert_str_eq(buf, u8"\u2588\u2588\u2588\u2588");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, INFINITY, 8.0, 4, false), 4);
    ck_assert_str_eq(buf, "####");
    /* A buffer too small keeps whole characters: 2 blocks (6 bytes) and the NUL in 8 bytes. */
    ck_assert_int_eq(chart_bar(buf, 8, 8.0, 8.0, 8, true), 2);
    ck_assert_str_eq(buf, u8"\u2588\u2588");
    ck_assert_int_eq(chart_bar(buf, 4, 8.0, 8.0, 8, false), 3);
    ck_assert_str_eq(buf, "###");
}
END_TEST

/* ASCII rounds to the nearest whole column. */
START_TEST(test_chart_bar_ascii)
{
    char buf[64];

    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.0, 8.0, 8, false), 5);
    ck_assert_str_eq(buf, "#####");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.4, 8.0, 8, false), 5);
    ck_assert_str_eq(buf, "#####");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 5.5, 8.0, 8, false), 6);
    ck_assert_str_eq(buf, "######");
    ck_assert_int_eq(chart_bar(buf, sizeof buf, 30.0, 100.0, 20, false), 6);
    ck_assert_str_eq(buf, "######");
}
END_TEST

START_TEST(test_chart_format_value)
{
    const struct { double v; const char *text; } table[] = {
        { 0.0123, "0.0123" }, { 1.234, "1.23" }, { 12.34, "12.3" }, { 123.4, "123" },
        { 1234, "1234" }, { 12345, "12345" }, { 40712.3, "40712" }, { 0.5, "0.500" },
        { 9.996, "10.0" },              /* rounding up gains a digit before the point */
        { 999.7, "1000" }, { 0.0, "0" }, { -1.234, "-1.23" }, { NAN, "-" }, { INFINITY, "-" },
    };
    char buf[32];

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        chart_format_value(table[i].v, buf, sizeof buf);
        ck_assert_msg(strcmp(buf, table[i].text) == 0, "%g: \"%s\", expected \"%s\"", table[i].v, buf,
                      table[i].text);
    }
    chart_format_value(40712.3, buf, 4);
    ck_assert_str_eq(buf, "407");       /* cut, and terminated */
}
END_TEST

/* Each corner of a 3 x 2 grid is one dot of a corner cell: dots 1, 4, 7 and 8 of braille. */
START_TEST(test_chart_plot_corners)
{
    const double zero = 0.0, one = 1.0;

    plot(&zero, &one, 1, false, 3, 2, true);
    ck_assert_str_eq(rows[0], u8"\u2801  ");
    ck_assert_str_eq(rows[0], "\xe2\xa0\x81  ");
    ck_assert_str_eq(rows[1], "   ");
    plot(&one, &one, 1, false, 3, 2, true);
    ck_assert_str_eq(rows[0], u8"  \u2808");
    ck_assert_str_eq(rows[1], "   ");
    plot(&zero, &zero, 1, false, 3, 2, true);
    ck_assert_str_eq(rows[0], "   ");
    ck_assert_str_eq(rows[1], u8"\u2840  ");
    plot(&one, &zero, 1, false, 3, 2, true);
    ck_assert_str_eq(rows[1], u8"  \u2880");
    ck_assert_str_eq(rows[1], "  \xe2\xa2\x80");

    plot(&zero, &one, 1, false, 3, 2, false);
    ck_assert_str_eq(rows[0], "'  ");
    ck_assert_str_eq(rows[1], "   ");
    plot(&one, &zero, 1, false, 3, 2, false);
    ck_assert_str_eq(rows[0], "   ");
    ck_assert_str_eq(rows[1], "  .");
}
END_TEST

/* From the bottom left to the top right of 2 cells, 4 x 4 dots: (0,3) (1,2) in the first cell,
   (2,1) (3,0) in the second. */
START_TEST(test_chart_plot_diagonal)
{
    const double x[] = { 0.0, 1.0 }, y[] = { 0.0, 1.0 };

    plot(x, y, 2, true, 2, 1, true);
    ck_assert_str_eq(rows[0], u8"\u2860\u280a");
    plot(x, y, 2, false, 2, 1, true);
    ck_assert_str_eq(rows[0], u8"\u2840\u2808");     /* the ends alone */
    plot(x, y, 2, true, 3, 1, false);
    ck_assert_str_eq(rows[0], ".''");
}
END_TEST

/* On a log axis from 64 to 8192 over 8 dots, 512 is three sevenths of the way: dot 3. */
START_TEST(test_chart_plot_log_x)
{
    const double x[] = { 64, 512, 8192 }, y[] = { 0, 0, 0 };

    chart_plot(x, y, 3, 64, 8192, 0, 1, true, false, 4, 1, true, rows);
    ck_assert_str_eq(rows[0], u8"\u2840\u2880 \u2880");
    chart_plot(x, y, 3, 64, 8192, 0, 1, false, false, 4, 1, true, rows);
    ck_assert_str_eq(rows[0], u8"\u2840  \u2880");      /* linear: 512 is near the left */
}
END_TEST

START_TEST(test_chart_plot_clipping)
{
    const double x[] = { 0.0, 10.0 }, y[] = { 0.5, 0.5 };
    const double gap_x[] = { 0.0, NAN, 1.0 }, gap_y[] = { 0.0, 0.5, 1.0 };
    const double outside = 1.5, inside = 0.5;

    plot(&outside, &inside, 1, false, 2, 1, true);
    ck_assert_str_eq(rows[0], "  ");
    plot(&inside, &outside, 1, false, 2, 1, true);
    ck_assert_str_eq(rows[0], "  ");
    /* A line towards a point far to the right shows up to the edge: dot row 2 of 4. */
    plot(x, y, 2, true, 2, 1, true);
    ck_assert_str_eq(rows[0], u8"\u2824\u2824");
    /* A point that cannot be placed breaks the line. */
    plot(gap_x, gap_y, 3, true, 2, 1, true);
    ck_assert_str_eq(rows[0], u8"\u2840\u2808");
}
END_TEST

START_TEST(test_chart_plot_degenerate)
{
    const double x = 3.0, y = 1.0;

    plot(NULL, NULL, 0, true, 3, 2, true);
    ck_assert_str_eq(rows[0], "   ");
    ck_assert_str_eq(rows[1], "   ");
    /* A single measurement on an axis from 3 to 3 sits in the middle: dot 3 of 6. */
    chart_plot(&x, &y, 1, 3.0, 3.0, 0.0, 1.0, false, true, 3, 1, true, rows);
    ck_assert_str_eq(rows[0], u8" \u2808 ");
    chart_plot(&x, &y, 1, 4.0, 4.0, 0.0, 1.0, false, true, 3, 1, true, rows);
    ck_assert_str_eq(rows[0], "   ");
    chart_plot(&x, &y, 1, 0.0, 1.0, 0.0, 1.0, true, true, 3, 1, true, rows);  /* log from 0 */
    ck_assert_str_eq(rows[0], "   ");
    plot(&y, &y, 1, true, 0, 2, true);
    ck_assert_str_eq(rows[0], "");
    ck_assert_str_eq(rows[1], "");
    strcpy(rows[0], "untouched");
    plot(&y, &y, 1, true, 3, 0, true);
    ck_assert_str_eq(rows[0], "untouched");
    ck_assert_uint_eq(chart_row_bytes(0), 1);
    ck_assert_uint_eq(chart_row_bytes(5), 16);
}
END_TEST

static void assert_ticks(double lo, double hi, size_t max_ticks, const double *expected, size_t n)
{
    double ticks[16];
    size_t count = chart_ticks(lo, hi, max_ticks, ticks);

    ck_assert_msg(count == n, "%zu ticks from %g to %g, expected %zu", count, lo, hi, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_double_eq_tol(ticks[i], expected[i], 1e-12);
}

START_TEST(test_chart_ticks)
{
    const double by_20[] = { 0, 20, 40, 60, 80, 100 };
    const double by_half[] = { 0, 0.5, 1 }, inner[] = { 0.5, 1, 1.5, 2, 2.5 };
    const double log2_sizes[] = { 6, 8, 10, 12 };
    double ticks[16];

    assert_ticks(0, 100, 6, by_20, 6);
    assert_ticks(0, 1, 5, by_half, 3);
    assert_ticks(0.3, 2.9, 10, inner, 5);
    assert_ticks(log2(64), log2(8192), 4, log2_sizes, 4);
    ck_assert_uint_eq(chart_ticks(0, 1, 11, ticks), 11);
    ck_assert(ticks[3] == 0.3);         /* the decimal itself, not 3 x 0.1 */
    ck_assert_uint_eq(chart_ticks(1, 1, 5, ticks), 0);
    ck_assert_uint_eq(chart_ticks(2, 1, 5, ticks), 0);
    ck_assert_uint_eq(chart_ticks(0, 1, 0, ticks), 0);
    ck_assert_uint_eq(chart_ticks(NAN, 1, 5, ticks), 0);
    ck_assert_uint_eq(chart_ticks(0, INFINITY, 5, ticks), 0);
}
END_TEST

/* Vertical bars: whole rows of full blocks from the bottom, the rest in lower eighths. */
START_TEST(test_chart_columns)
{
    const double v[4] = { 0.0, 8.0, 5.0, 0.01 };
    char top[64], bottom[64], *grid[2] = { top, bottom };

    chart_columns(v, 4, 8.0, 2, true, grid);
    /* 8 of 8 over two rows: full, full; 5 of 8 is 10 eighths: a full bottom, 2/8 on top;
       0.01 shows the least mark, one eighth; 0 is blank. */
    ck_assert_str_eq(top, " \u2588\u2582 ");
    ck_assert_str_eq(bottom, " \u2588\u2588\u2581");
    chart_columns(v, 4, 8.0, 2, false, grid);
    ck_assert_str_eq(top, " #  ");
    ck_assert_str_eq(bottom, " ###");
}
END_TEST

/* A ladder from 0.53 (the CPU) to 40056 GFLOPS spans five decades: each decade is a fifth
   of the bar, and the slowest lesson still has a mark. */
START_TEST(test_chart_log_scale)
{
    double lo, hi;
    char bar[256];

    chart_log_range(0.531, 40056.0, &lo, &hi);
    ck_assert_double_eq_tol(lo, 0.1, 1e-12);
    ck_assert_double_eq_tol(hi, 100000.0, 1e-6);
    ck_assert_double_eq_tol(chart_log_fraction(1.0, lo, hi), 1.0 / 6.0, 1e-12);
    ck_assert_double_eq_tol(chart_log_fraction(1000.0, lo, hi), 4.0 / 6.0, 1e-12);
    ck_assert(chart_log_fraction(0.1, lo, hi) > 0.0);
    ck_assert_int_eq(chart_bar(bar, sizeof bar, chart_log_fraction(0.1, lo, hi), 1.0, 30, true), 1);
    ck_assert_double_eq(chart_log_fraction(0.0, lo, hi), 0.0);
    ck_assert_double_eq(chart_log_fraction(1e9, lo, hi), 1.0);
    /* One value, or values within a decade: still a decade wide. */
    chart_log_range(250.0, 250.0, &lo, &hi);
    ck_assert_double_eq_tol(lo, 100.0, 1e-9);
    ck_assert_double_eq_tol(hi, 1000.0, 1e-9);
    chart_log_range(100.0, 100.0, &lo, &hi);
    ck_assert_double_eq_tol(hi / lo, 10.0, 1e-9);
    chart_log_range(0.0, 5.0, &lo, &hi);
    ck_assert_double_eq(lo, 1.0);
    ck_assert_double_eq(hi, 10.0);
}
END_TEST

/* A side branch's labels carry the dotted mark where the main ladder's have a space, so that
   the titles stay in one column; a label cut short loses a whole character. */
START_TEST(test_chart_branch_labels)
{
    char buf[64], small[6];

    chart_lesson_label(buf, sizeof buf, 1, "Naive", "", false, true);
    ck_assert_str_eq(buf, " 1 Naive");
    chart_lesson_label(buf, sizeof buf, 3, "Row, A private", "", true, true);
    ck_assert_str_eq(buf, " 3\xe2\x94\x86Row, A private");
    chart_lesson_label(buf, sizeof buf, 3, "Row, A private", "", true, false);
    ck_assert_str_eq(buf, " 3:Row, A private");
    chart_lesson_label(buf, sizeof buf, 12, "Any size", "", false, false);
    ck_assert_str_eq(buf, "12 Any size");
    /* A TF32 lesson's tag before its title, kept where the title is cut. */
    chart_lesson_label(buf, sizeof buf, 21, "Tensor cores", "TF32", false, true);
    ck_assert_str_eq(buf, "21 TF32 Tensor cores");
    chart_lesson_label(buf, 10, 21, "Tensor cores", "TF32", true, false);
    ck_assert_str_eq(buf, "21:TF32 T");
    chart_branch_legend(buf, sizeof buf, "row per work-item", true);
    ck_assert_str_eq(buf, "\xe2\x94\x86 side branch: row per work-item");
    chart_branch_legend(buf, sizeof buf, "row per work-item", false);
    ck_assert_str_eq(buf, ": side branch: row per work-item");
    /* " 3" and 3 bytes of the mark do not fit 5 bytes: the mark goes whole. */
    chart_lesson_label(small, 5, 3, "Row", "", true, true);
    ck_assert_str_eq(small, " 3");
    chart_lesson_label(small, sizeof small, 3, "Row", "", true, true);
    ck_assert_str_eq(small, " 3\xe2\x94\x86");
}
END_TEST

/* A bar's row keeps its figures inside the pane: label, mark, bar, a space, figures. */
START_TEST(test_chart_bar_widths)
{
    int label, bar;

    for (int width = 0; width <= 200; width++)
        for (int value_w = 5; value_w <= 30; value_w++) {
            chart_bar_widths(width, value_w, &label, &bar);
            ck_assert_int_ge(label, 0);
            ck_assert_int_ge(bar, 0);
            ck_assert_int_le(label, 24);
            if (width >= 3 + 1 + value_w + 1)
                ck_assert_msg(label + 3 + bar + 1 + value_w <= width && bar >= 1,
                              "width %d, figures %d: label %d, bar %d", width, value_w, label, bar);
        }
    /* 118 columns inside, "4.87 \u00b15.3% \u2605" is 4 + 1 + 5 + 2 = 12: a 24-column label. */
    chart_bar_widths(118, 12, &label, &bar);
    ck_assert_int_eq(label, 24);
    ck_assert_int_eq(bar, 118 - 24 - 3 - 1 - 12);
    /* 40 columns: the label gives way down to 10 before the bar goes below 6. */
    chart_bar_widths(40, 14, &label, &bar);
    ck_assert_int_eq(label, 16);
    ck_assert_int_eq(bar, 6);
    chart_bar_widths(30, 14, &label, &bar);
    ck_assert_int_eq(label, 10);
    ck_assert_int_eq(bar, 2);
}
END_TEST

/* Whole items by rank: the shorter form first, then the item goes; rank 0 stays. */
START_TEST(test_chart_fit_items)
{
    const struct chart_item legend[] = {
        { u8"\u2605 fastest (tuned)", u8"\u2605 fastest", 2 },
        { "~ changed (t, --param)", "~ changed", 2 },
        { u8"\u2506 side branch: row per work-item", u8"\u2506 side branch", 1 },
        { "v: log scale", NULL, 3 },
    };
    const struct chart_item params[] = {
        { "Lesson 13", NULL, 0 }, { "TSM=128", NULL, 1 }, { "TSN=128", NULL, 1 }, { "TSK=8", NULL, 1 },
    };
    char buf[256];
    int width;

    width = chart_fit_items(buf, sizeof buf, legend, 4, "  ", 200);
    ck_assert_str_eq(buf, u8"\u2605 fastest (tuned)  ~ changed (t, --param)  \u2506 side branch: row per work-item"
                          "  v: log scale");
    ck_assert_int_eq(width, 89);
    /* The hint goes first, then the last of rank 2 shortens, then it goes. */
    chart_fit_items(buf, sizeof buf, legend, 4, "  ", 88);
    ck_assert_str_eq(buf, u8"\u2605 fastest (tuned)  ~ changed (t, --param)  \u2506 side branch: row per work-item");
    chart_fit_items(buf, sizeof buf, legend, 4, "  ", 70);
    ck_assert_str_eq(buf, u8"\u2605 fastest (tuned)  ~ changed  \u2506 side branch: row per work-item");
    chart_fit_items(buf, sizeof buf, legend, 4, "  ", 50);
    ck_assert_str_eq(buf, u8"\u2605 fastest  \u2506 side branch: row per work-item");
    /* 40 columns (the pane at 80x24): the side branch's legend, whole, before the star's. */
    ck_assert_int_eq(chart_fit_items(buf, sizeof buf, legend, 4, "  ", 40), 32);
    ck_assert_str_eq(buf, u8"\u2506 side branch: row per work-item");
    chart_fit_items(buf, sizeof buf, legend, 4, "  ", 20);
    ck_assert_str_eq(buf, u8"\u2506 side branch");
    ck_assert_int_eq(chart_fit_items(buf, sizeof buf, legend, 4, "  ", 5), 0);
    ck_assert_str_eq(buf, "");
    /* Parameters go one at a time from the end, never cut. */
    chart_fit_items(buf, sizeof buf, params, 4, " ", 23);
    ck_assert_str_eq(buf, "Lesson 13 TSM=128");
    chart_fit_items(buf, sizeof buf, params, 4, " ", 30);
    ck_assert_str_eq(buf, "Lesson 13 TSM=128 TSN=128");
    /* What cannot give way stays, even too wide. */
    ck_assert_int_eq(chart_fit_items(buf, sizeof buf, params, 4, " ", 3), 9);
    ck_assert_str_eq(buf, "Lesson 13");
}
END_TEST

/* A title shortened at a word boundary, with the mark; never half a word. */
START_TEST(test_chart_shorten_words)
{
    const char *title = "A fast row-major kernel for today's GPUs";
    char buf[128];

    ck_assert_int_eq(chart_shorten_words(buf, sizeof buf, title, 40, true), 40);
    ck_assert_str_eq(buf, title);
    ck_assert_int_eq(chart_shorten_words(buf, sizeof buf, title, 39, true), 37);
    ck_assert_str_eq(buf, u8"A fast row-major kernel for today's \u2026");
    ck_assert_int_eq(chart_shorten_words(buf, sizeof buf, title, 36, true), 29);
    ck_assert_str_eq(buf, u8"A fast row-major kernel for \u2026");
    chart_shorten_words(buf, sizeof buf, title, 28, true);
    ck_assert_str_eq(buf, u8"A fast row-major kernel \u2026");
    chart_shorten_words(buf, sizeof buf, title, 26, false);
    ck_assert_str_eq(buf, "A fast row-major ...");
    chart_shorten_words(buf, sizeof buf, "One row of C per work-item", 13, true);
    ck_assert_str_eq(buf, u8"One row of \u2026");
    chart_shorten_words(buf, sizeof buf, "Unbreakable", 5, true);
    ck_assert_str_eq(buf, u8"\u2026");
    ck_assert_int_eq(chart_shorten_words(buf, sizeof buf, "Unbreakable", 0, true), 0);
    ck_assert_str_eq(buf, "");
}
END_TEST

/* A saved run's ghost bar: whole columns of light shade, '-' in ASCII, at least one. */
START_TEST(test_ghost_bar)
{
    char buf[64];

    ck_assert_int_eq(chart_ghost_bar(buf, sizeof buf, 5.0, 10.0, 8, false), 4);
    ck_assert_str_eq(buf, "----");
    ck_assert_int_eq(chart_ghost_bar(buf, sizeof buf, 0.01, 10.0, 8, true), 1);
    ck_assert_str_eq(buf, "\u2591");
    ck_assert_int_eq(chart_ghost_bar(buf, sizeof buf, 99.0, 10.0, 3, true), 3);
    ck_assert_str_eq(buf, "\u2591\u2591\u2591");
    ck_assert_int_eq(chart_ghost_bar(buf, sizeof buf, 0.0, 10.0, 8, true), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_str_eq(chart_ghost_mark(false), "-");
}
END_TEST

Suite *chart_suite(void)
{
    Suite *s = suite_create("chart");
    TCase *tc = tcase_create("chart");

    tcase_add_test(tc, test_ghost_bar);
    tcase_add_test(tc, test_chart_nice_max);
    tcase_add_test(tc, test_chart_bar_eighths);
    tcase_add_test(tc, test_chart_bar_minimum);
    tcase_add_test(tc, test_chart_bar_clipping);
    tcase_add_test(tc, test_chart_bar_ascii);
    tcase_add_test(tc, test_chart_format_value);
    tcase_add_test(tc, test_chart_plot_corners);
    tcase_add_test(tc, test_chart_plot_diagonal);
    tcase_add_test(tc, test_chart_plot_log_x);
    tcase_add_test(tc, test_chart_plot_clipping);
    tcase_add_test(tc, test_chart_plot_degenerate);
    tcase_add_test(tc, test_chart_ticks);
    tcase_add_test(tc, test_chart_columns);
    tcase_add_test(tc, test_chart_log_scale);
    tcase_add_test(tc, test_chart_branch_labels);
    tcase_add_test(tc, test_chart_bar_widths);
    tcase_add_test(tc, test_chart_fit_items);
    tcase_add_test(tc, test_chart_shorten_words);
    suite_add_tcase(s, tc);
    return s;
}
