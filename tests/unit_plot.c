/* unit_plot.c: the SVG chart (text escaped and valid, bars and lines from the figures
   given, refusals said) and the progress line of the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "cli/meter.h"
#include "engine/plot.h"
#include "engine/svg.h"

/* What write(out) writes, as a malloc'd string. */
static char *written(void (*write)(FILE *out, const void *ctx), const void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(out);
    write(out, ctx);
    fclose(out);
    return buf;
}

/* How many times needle occurs in s. */
static int count(const char *s, const char *needle)
{
    int n = 0;

    for (const char *q = s; (q = strstr(q, needle)); q++)
        n++;
    return n;
}

static void escape(FILE *out, const void *text)
{
    svg_escape(out, text);
}

/* Markup, quotes, control characters and bytes that are not UTF-8 cannot pass. */
START_TEST(test_svg_escape)
{
    char *s = written(escape, "a<b>&\"c'\x01\x7f\xff\xc3\xa9\t\xef\xbf\xbe");

    ck_assert_str_eq(s, "a&lt;b&gt;&amp;&quot;c&apos;\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9 \xef\xbf\xbd");
    free(s);
}
END_TEST

START_TEST(test_svg_cut)
{
    char buf[64];

    svg_cut(buf, sizeof buf, "short", 10);
    ck_assert_str_eq(buf, "short");
    svg_cut(buf, sizeof buf, "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", 3);    /* whole characters */
    ck_assert_str_eq(buf, "\xe2\x82\xac\xe2\x82\xac\xe2\x80\xa6");
}
END_TEST

static void add(struct plot *p, int size, int lesson, const char *title, enum run_status st, double gflops,
                enum precision prec)
{
    struct run_result r;

    run_result_init(&r);
    r.lesson = lesson;
    snprintf(r.title, sizeof r.title, "%s", title);
    r.status = st;
    r.gflops.median = gflops;
    r.gflops.q1 = gflops / 2;
    r.precision = prec;
    if (st != RUN_OK)
        error_set(&r.error, "why <not>");
    plot_add_result(p, size, &r);
    run_result_free(&r);
}

static void write_plot(FILE *out, const void *p)
{
    ck_assert_int_eq(plot_write(out, p), 0);
}

/* One size: a bar per row with the median, TF32 labelled, a refused and a wrong row said
   in words with no bar, the reference last. */
START_TEST(test_plot_bars)
{
    struct plot p;
    char *s;

    plot_init(&p, "Device <1>", 0, "clmm-tutor --bench", NULL);
    plot_size(&p, (struct gemm_size){ 64, 64, 64 });
    add(&p, 0, 5, "Tiles", RUN_OK, 12.5, PRECISION_FP32);
    add(&p, 0, 21, "Tensor", RUN_OK, 40.25, PRECISION_TF32);
    add(&p, 0, 22, "Refused", RUN_REFUSED, 0, PRECISION_FP32);
    add(&p, 0, 23, "Wrong", RUN_WRONG, 0, PRECISION_FP32);
    add(&p, 0, -1, "CLBlast", RUN_OK, 30, PRECISION_FP32);
    s = written(write_plot, &p);
    ck_assert_ptr_nonnull(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1600\""));
    ck_assert_ptr_nonnull(strstr(s, "viewBox=\"0 0 1600 "));
    ck_assert_ptr_nonnull(strstr(s, ">Device &lt;1&gt;</text>"));
    ck_assert_ptr_nonnull(strstr(s, "1970-01-01 00:00 UTC"));
    ck_assert_ptr_nonnull(strstr(s, ">12.5</text>"));        /* the median, not q1 */
    ck_assert_ptr_null(strstr(s, ">6.2</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">Tensor [TF32]</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">40.2 TF32</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">refused: why &lt;not&gt;</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">WRONG RESULT (not timed): why &lt;not&gt;</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">ref</text>"));
    ck_assert_ptr_nonnull(strstr(s, "GFLOPS: higher is faster"));
    /* Bars: the background, one per verified row (3), the legend's swatches (3): no bar
       of no height for the refused and wrong rows. */
    ck_assert_int_eq(count(s, "<rect"), 1 + 3 + 3);
    free(s);
    plot_free(&p);
}
END_TEST

/* Two reference rows (CLBlast, the CPU's BLAS): a bar each, with its own figure. */
START_TEST(test_plot_references)
{
    struct plot p;
    char *s;

    plot_init(&p, "dev", 0, "clmm-tutor --bench", NULL);
    plot_size(&p, (struct gemm_size){ 64, 64, 64 });
    add(&p, 0, 1, "Naive", RUN_OK, 2.5, PRECISION_FP32);
    add(&p, 0, -1, "CLBlast", RUN_OK, 30, PRECISION_FP32);
    add(&p, 0, -2, "CPU BLAS", RUN_OK, 45, PRECISION_FP32);
    s = written(write_plot, &p);
    ck_assert_ptr_nonnull(strstr(s, ">CLBlast</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">CPU BLAS</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">30.0</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">45.0</text>"));
    ck_assert_int_eq(count(s, ">ref</text>"), 2);
    free(s);
    plot_free(&p);
}
END_TEST

/* A reference's line is drawn by which reference it is, whatever else the chart holds:
   CLBlast orange whether or not lesson 0's loop is there, the CPU's BLAS grey. */
static char *reference_lines(bool with_loop)
{
    struct plot p;
    char *s;

    plot_init(&p, "dev", 0, "clmm-tutor --bench", NULL);
    plot_size(&p, (struct gemm_size){ 64, 64, 64 });
    plot_size(&p, (struct gemm_size){ 128, 128, 128 });
    for (int k = 0; k < 2; k++) {
        if (with_loop) {
            struct run_result r;
            run_result_init(&r);
            r.lesson = 0;
            r.on_host = true;
            snprintf(r.title, sizeof r.title, "Loop");
            r.status = RUN_OK;
            r.gflops.median = 1 + k;
            plot_add_result(&p, k, &r);
            run_result_free(&r);
        }
        add(&p, k, -1, "CLBlast", RUN_OK, 30 + k, PRECISION_FP32);
        add(&p, k, -2, "CPU BLAS", RUN_OK, 40 + k, PRECISION_FP32);
    }
    s = written(write_plot, &p);
    plot_free(&p);
    return s;
}

START_TEST(test_plot_reference_styles)
{
    for (int with_loop = 0; with_loop < 2; with_loop++) {
        char *s = reference_lines(with_loop);
        ck_assert_ptr_nonnull(strstr(s, ">ref CLBlast</text>"));
        ck_assert_ptr_nonnull(strstr(s, ">ref CPU BLAS</text>"));
        /* The loop's black dashes only where the loop is; CLBlast's orange and the BLAS's
           grey either way. */
        ck_assert_int_eq(count(s, "stroke-dasharray=\"12 8\"") > 0, with_loop);
        ck_assert_int_gt(count(s, "stroke-dasharray=\"20 6 4 6\""), 0);
        ck_assert_int_gt(count(s, "#e07b00"), 0);
        ck_assert_int_gt(count(s, "#666666"), 0);
        free(s);
    }
}
END_TEST

/* Several sizes: a line through the sizes a lesson has a figure at, and the others named. */
START_TEST(test_plot_lines)
{
    struct plot p;
    char *s;

    plot_init(&p, "dev", 0, "clmm-tutor --bench", NULL);
    plot_size(&p, (struct gemm_size){ 64, 64, 64 });
    plot_size(&p, (struct gemm_size){ 128, 128, 128 });
    plot_size(&p, (struct gemm_size){ 256, 256, 256 });
    add(&p, 0, 5, "Tiles", RUN_OK, 10, PRECISION_FP32);
    add(&p, 1, 5, "Tiles", RUN_OK, 20, PRECISION_FP32);
    add(&p, 2, 5, "Tiles", RUN_REFUSED, 0, PRECISION_FP32);
    add(&p, 0, 9, "Blocks", RUN_WRONG, 0, PRECISION_FP32);
    add(&p, 1, 9, "Blocks", RUN_WRONG, 0, PRECISION_FP32);
    add(&p, 2, 9, "Blocks", RUN_WRONG, 0, PRECISION_FP32);
    s = written(write_plot, &p);
    ck_assert_ptr_nonnull(strstr(s, "GFLOPS against size"));
    ck_assert_ptr_nonnull(strstr(s, ">5 Tiles</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">refused at 256</text>"));
    ck_assert_ptr_nonnull(strstr(s, ">wrong at every size: why &lt;not&gt;</text>"));
    ck_assert_ptr_nonnull(strstr(s, "size: M = N = K (log scale)"));
    ck_assert_int_eq(count(s, "<polyline"), 1);     /* one line: lesson 9 has none */
    free(s);
    plot_free(&p);
}
END_TEST

START_TEST(test_meter_line)
{
    char buf[256];

    meter_line(buf, sizeof buf, "lesson 5, 6 of 26, at 64x64x64", 42.4, 190, 200);
    ck_assert_str_eq(buf, "lesson 5, 6 of 26, at 64x64x64: 42 s elapsed, about 3:10 left");
    meter_line(buf, sizeof buf, "lesson 0, 1 of 2, at 64x64x64", 3725, -1, 200);
    ck_assert_str_eq(buf, "lesson 0, 1 of 2, at 64x64x64: 1:02:05 elapsed, time left not known yet");
    meter_line(buf, sizeof buf, "lesson 0, 1 of 2, at 64x64x64", 1, 1, 20);     /* never wraps */
    ck_assert_str_eq(buf, "lesson 0, 1 of 2, a");
}
END_TEST

Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("plot");

    tcase_add_test(tc, test_svg_escape);
    tcase_add_test(tc, test_svg_cut);
    tcase_add_test(tc, test_plot_bars);
    tcase_add_test(tc, test_plot_references);
    tcase_add_test(tc, test_plot_reference_styles);
    tcase_add_test(tc, test_plot_lines);
    tcase_add_test(tc, test_meter_line);
    suite_add_tcase(s, tc);
    return s;
}
