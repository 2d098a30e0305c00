/* unit_measure.c: the pure parts of measuring: the wall time shown beside a kernel time, the
   shape of the probes that estimate a launch, and how the command line prints both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/measure.h"
#include "cli/report.h"

#define TOLERANCE 1e-12

START_TEST(test_wall_above_kernel_is_shown)
{
    double shown = -1.0, disagreement = -1.0;

    ck_assert(!measure_wall_shown(0.0267, 0.0268, &shown, &disagreement));
    ck_assert_double_eq_tol(shown, 0.0268, TOLERANCE);
    ck_assert_double_eq_tol(disagreement, 0.0, TOLERANCE);
    ck_assert(!measure_wall_shown(1.5, 1.5, &shown, &disagreement));
    ck_assert_double_eq_tol(shown, 1.5, TOLERANCE);
}
END_TEST

/* The H200 pair that cannot be: a launch shorter than its kernel. */
START_TEST(test_wall_below_kernel_is_marked)
{
    double shown = -1.0, disagreement = -1.0;

    ck_assert(measure_wall_shown(1.668419, 1.654265, &shown, &disagreement));
    ck_assert_double_eq_tol(shown, 1.668419, TOLERANCE);
    ck_assert_double_eq_tol(disagreement, (1.668419 - 1.654265) / 1.668419, TOLERANCE);
}
END_TEST

START_TEST(test_wall_without_kernel_time)
{
    double shown = -1.0, disagreement = -1.0;

    ck_assert(!measure_wall_shown(0.0, 0.001, &shown, &disagreement));
    ck_assert_double_eq_tol(shown, 0.001, TOLERANCE);
}
END_TEST

/* Lesson 2 at 2048 with WG=32 on a 2-core CPU: 64 groups in one dimension; the probes start
   with one group per core and double up to half of them. */
START_TEST(test_probe_one_dimension)
{
    const size_t groups[] = { 64 };
    struct probe_shape p;

    ck_assert(measure_probe_shape(groups, 1, 2, 0, &p));
    ck_assert_uint_eq(p.dim, 0);
    ck_assert_uint_eq(p.groups, 2);
    ck_assert_uint_eq(p.full, 64);
    ck_assert_double_eq_tol(p.scale, 32.0, TOLERANCE);
    ck_assert(measure_probe_shape(groups, 1, 2, 1, &p));
    ck_assert_uint_eq(p.groups, 4);
    ck_assert(measure_probe_shape(groups, 1, 2, 4, &p));
    ck_assert_uint_eq(p.groups, 32);
    ck_assert_double_eq_tol(p.scale, 2.0, TOLERANCE);
    ck_assert(!measure_probe_shape(groups, 1, 2, 5, &p));
}
END_TEST

/* A 2D launch is cut along its last dimension: a band of C across its whole width, with
   enough groups in it to fill the device. */
START_TEST(test_probe_two_dimensions)
{
    const size_t groups[] = { 128, 64 };
    struct probe_shape p;

    ck_assert(measure_probe_shape(groups, 2, 2, 0, &p));
    ck_assert_uint_eq(p.dim, 1);
    ck_assert_uint_eq(p.groups, 1);
    ck_assert_double_eq_tol(p.scale, 64.0, TOLERANCE);
    /* A device that runs 1000 groups at once needs 8 rows of 128 groups. */
    ck_assert(measure_probe_shape(groups, 2, 1000, 0, &p));
    ck_assert_uint_eq(p.dim, 1);
    ck_assert_uint_eq(p.groups, 8);
    ck_assert_double_eq_tol(p.scale, 8.0, TOLERANCE);
}
END_TEST

/* When the last dimension cannot be cut (too few groups in it to fill the device even as
   half of it), an earlier one is. */
START_TEST(test_probe_earlier_dimension)
{
    const size_t groups[] = { 256, 3 };
    struct probe_shape p;

    ck_assert(measure_probe_shape(groups, 2, 300, 0, &p));
    ck_assert_uint_eq(p.dim, 0);
    ck_assert_uint_eq(p.groups, 100);
    ck_assert_double_eq_tol(p.scale, 2.56, TOLERANCE);
    ck_assert(!measure_probe_shape(groups, 2, 300, 1, &p));
}
END_TEST

/* A launch with fewer groups than twice what the device runs at once cannot be cut: a part
   would take as long as the whole. */
START_TEST(test_probe_small_launch)
{
    const size_t one[] = { 64 }, two[] = { 16, 16 }, none[] = { 0 };
    struct probe_shape p;

    ck_assert(!measure_probe_shape(one, 1, 4224, 0, &p));
    ck_assert(!measure_probe_shape(one, 1, 33, 0, &p));
    ck_assert(measure_probe_shape(one, 1, 32, 0, &p));
    ck_assert(!measure_probe_shape(two, 2, 200, 0, &p));
    ck_assert(measure_probe_shape(one, 1, 1, 0, &p));
    ck_assert(!measure_probe_shape(none, 1, 1, 0, &p));
    ck_assert(!measure_probe_shape(one, 0, 1, 0, &p));
}
END_TEST

/* ---- what the command line prints ---- */

static struct device_info device = { .name = "Test device", .platform_name = "Test platform",
                                     .driver = "1.0", .type = CL_DEVICE_TYPE_GPU, .compute_units = 1 };

static void ok_result(struct run_result *r, int lesson, double kernel_s, double wall_s)
{
    run_result_init(r);
    r->lesson = lesson;
    snprintf(r->title, sizeof r->title, "Lesson %d", lesson);
    r->size = r->run = (struct gemm_size){ 4096, 4096, 4096 };
    r->status = RUN_OK;
    r->reps = 3;
    r->seconds.median = kernel_s;
    r->gflops.median = r->gflops.q1 = r->gflops.q3 = 137.0 / kernel_s;
    r->wall_s = wall_s;
    r->clocks_disagree = wall_s < kernel_s;
    r->verify.ok = true;
    r->verify.max_error = 1.7e-7;
}

static void refused_result(struct run_result *r, bool by_estimate)
{
    run_result_init(r);
    r->lesson = 0;
    snprintf(r->title, sizeof r->title, "Host");
    r->size = (struct gemm_size){ 4096, 4096, 4096 };
    r->status = RUN_REFUSED;
    r->refused_by_estimate = by_estimate;
    r->estimate_s = 57.7;
    r->limit_s = 10.0;
    error_set(&r->error, "one launch would take about 57.7 s (estimated from the first 4 of its "
                         "4096 rows, which took 0.0563 s); the limit is 10 s");
}

/* The rows through a report of the format; the text printed, to be freed. */
static char *print(enum report_format format, const struct run_result *rows, size_t n)
{
    struct measure_config cfg;
    struct report rep;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    ck_assert(out != NULL);
    measure_config_defaults(&cfg);
    report_begin(&rep, out, format, (const struct device_info *[]){ &device }, NULL, 1, false, &cfg, NULL, NULL);
    report_size_begin(&rep, rows[0].size);
    for (size_t i = 0; i < n; i++)
        report_row(&rep, &rows[i]);
    report_size_end(&rep);
    report_end(&rep);
    fclose(out);
    return text;
}

START_TEST(test_table_marks_disagreeing_clocks)
{
    struct run_result rows[2];
    char *text, *line;

    ok_result(&rows[0], 1, 0.026722, 0.026786);
    ok_result(&rows[1], 3, 1.668419, 1.654265);
    text = print(FORMAT_TABLE, rows, 2);
    /* The good pair as measured, no mark. */
    line = strstr(text, "  1  Lesson 1");
    ck_assert_ptr_nonnull(line);
    ck_assert_msg(strncmp(strstr(line, "26.722"), "26.722    26.786  1.7e-07", 25) == 0, "%s", text);
    /* The impossible pair: the kernel time twice, marked, and a footnote with the figures. */
    line = strstr(text, "  3  Lesson 3");
    ck_assert_ptr_nonnull(line);
    ck_assert_msg(strncmp(strstr(line, "1668.419"), "1668.419  1668.419* 1.7e-07", 27) == 0, "%s", text);
    ck_assert_ptr_null(strstr(text, "1654.265  "));
    ck_assert_msg(strstr(text, "\n* wall ms shows the kernel time") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "    3  host clock 1654.265 ms, 0.848% below the kernel's 1668.419 ms\n") != NULL,
                  "%s", text);
    ck_assert_ptr_null(strstr(text, "    1  host clock"));
    free(text);
}
END_TEST

START_TEST(test_table_without_disagreement_has_no_footnote)
{
    struct run_result r;
    char *text;

    ok_result(&r, 5, 0.021092, 0.021159);
    text = print(FORMAT_TABLE, &r, 1);
    ck_assert_ptr_null(strstr(text, "*"));
    ck_assert_ptr_null(strstr(text, "host clock"));
    free(text);
}
END_TEST

/* CSV and JSON keep the measured pair and say that the clocks disagreed. */
START_TEST(test_csv_json_keep_raw_pair)
{
    struct run_result r;
    char *text;

    ok_result(&r, 3, 1.668419, 1.654265);
    text = print(FORMAT_CSV, &r, 1);
    ck_assert_msg(strstr(text, ",tuned_partial,clocks_disagree,message,error_pattern,") != NULL, "%s", text);
    ck_assert_msg(strstr(text, ",1668.42,1654.27,3,") != NULL, "%s", text);
    /* No ceilings, no intensity: the roofline's seven columns empty; on the main line, no
       branch; FP32 on the FP32 units. */
    ck_assert_msg(strstr(text, ",no,,,,,yes,\"\",,,,,,,,,,,\"\",fp32,fp32,0,,,,,no\n") != NULL, "%s", text);
    free(text);
    text = print(FORMAT_JSON, &r, 1);
    ck_assert_msg(strstr(text, "\"kernel_ms_median\": 1668.42, \"wall_ms\": 1654.27, "
                               "\"clocks_disagree\": true") != NULL, "%s", text);
    free(text);
    ok_result(&r, 3, 1.0, 1.1);
    text = print(FORMAT_JSON, &r, 1);
    ck_assert_msg(strstr(text, "\"clocks_disagree\": false") != NULL, "%s", text);
    free(text);
}
END_TEST

/* The fastest line names the fastest FP32 lesson, and the fastest TF32 one apart: a TF32
   lesson three times faster is never "the fastest" beside FP32 figures. */
START_TEST(test_fastest_by_precision)
{
    struct run_result r[2];
    char *text;

    ok_result(&r[0], 20, 0.003, 0.0031);
    ok_result(&r[1], 22, 0.001, 0.0011);
    r[1].precision = PRECISION_TF32;
    r[1].units = UNITS_TENSOR;
    text = print(FORMAT_TABLE, r, 2);
    ck_assert_msg(strstr(text, "Fastest: lesson 20 at 45666.7 GFLOPS\n") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Fastest in TF32 (not FP32 results): lesson 22 at 137000.0 TF32 GFLOPS\n") != NULL,
                  "%s", text);
    free(text);
    run_result_free(&r[0]);
    run_result_free(&r[1]);
}
END_TEST

/* The fastest lesson against a reference: a share below ten times, a multiple from there
   (a GPU against the CPU's BLAS: "327 times", not "32709%"); nothing against no figure. */
START_TEST(test_report_share)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(out);
    rowtext_share(out, 66791.1, 31390.5, "CLBlast (defaults)");
    rowtext_share(out, 66791.1, 204.2, "CPU BLAS (16 threads)");
    rowtext_share(out, 99.0, 10.0, "ten");
    rowtext_share(out, 100.0, 10.0, "ten");
    rowtext_share(out, 1.0, 0.0, "none");
    rowtext_share(out, 1.0, 2.0, "a\033[2J");
    fclose(out);
    ck_assert_str_eq(buf, ", 213% of CLBlast (defaults), 327 times CPU BLAS (16 threads), 990% of ten, 10 times ten"
                          ", 50% of a^[[2J");
    free(buf);
}
END_TEST

/* A TF32 result is labelled TF32 in every format: never read as an FP32 one. */
START_TEST(test_tf32_labelled)
{
    struct run_result r;
    char *text;

    ok_result(&r, 21, 0.01, 0.011);
    r.precision = PRECISION_TF32;
    r.units = UNITS_TENSOR;
    text = print(FORMAT_TABLE, &r, 1);
    ck_assert_msg(strstr(text, " 21  Lesson 21" "             " "[TF32]  ") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Fastest in TF32 (not FP32 results): lesson 21 at ") && strstr(text, " TF32 GFLOPS"),
                  "%s", text);
    ck_assert_msg(!strstr(text, "Fastest: "), "a TF32 lesson named the fastest: %s", text);
    free(text);
    text = print(FORMAT_CSV, &r, 1);
    ck_assert_msg(strstr(text, ",branch,precision,units,device_index,") != NULL, "%s", text);
    ck_assert_msg(strstr(text, ",\"\",tf32,tensor,0,") != NULL, "%s", text);
    free(text);
    text = print(FORMAT_JSON, &r, 1);
    ck_assert_msg(strstr(text, "\"precision\": \"tf32\", \"units\": \"tensor\"") != NULL, "%s", text);
    free(text);
}
END_TEST

/* The text with the table's continuation lines joined to the line before. */
static void unwrap(char *text)
{
    char *p;

    while ((p = strstr(text, "\n     ")) != NULL)
        memmove(p + 1, p + 6, strlen(p + 6) + 1), *p = ' ';
}

/* The engine's refusal is neutral; the command line adds its own options, in every format. */
START_TEST(test_refusal_hint_on_command_line)
{
    static const enum report_format formats[] = { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };
    struct run_result r;
    char *text;

    for (size_t f = 0; f < 3; f++) {
        refused_result(&r, true);
        ck_assert_ptr_null(strstr(r.error.msg, "--"));
        text = print(formats[f], &r, 1);
        unwrap(text);
        ck_assert_msg(strstr(text, "which took 0.0563 s); the limit is 10 s: use --max-launch SECONDS or "
                                   "--force to run it anyway") != NULL, "%s", text);
        free(text);
        /* Another refusal gets no such advice. */
        refused_result(&r, false);
        text = print(formats[f], &r, 1);
        ck_assert_msg(strstr(text, "--force") == NULL, "%s", text);
        free(text);
    }
}
END_TEST

Suite *measure_suite(void)
{
    Suite *s = suite_create("measure");
    TCase *tc = tcase_create("wall");

    tcase_add_test(tc, test_wall_above_kernel_is_shown);
    tcase_add_test(tc, test_wall_below_kernel_is_marked);
    tcase_add_test(tc, test_wall_without_kernel_time);
    suite_add_tcase(s, tc);
    tc = tcase_create("probe");
    tcase_add_test(tc, test_probe_one_dimension);
    tcase_add_test(tc, test_probe_two_dimensions);
    tcase_add_test(tc, test_probe_earlier_dimension);
    tcase_add_test(tc, test_probe_small_launch);
    suite_add_tcase(s, tc);
    tc = tcase_create("report");
    tcase_add_test(tc, test_table_marks_disagreeing_clocks);
    tcase_add_test(tc, test_table_without_disagreement_has_no_footnote);
    tcase_add_test(tc, test_csv_json_keep_raw_pair);
    tcase_add_test(tc, test_tf32_labelled);
    tcase_add_test(tc, test_fastest_by_precision);
    tcase_add_test(tc, test_report_share);
    tcase_add_test(tc, test_refusal_hint_on_command_line);
    suite_add_tcase(s, tc);
    return s;
}
