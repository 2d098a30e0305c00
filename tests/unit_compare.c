/* unit_compare.c: a saved --bench run read back (--compare): the rows kept and those of other
   devices left out, matching by lesson, size and parameters, the hostile files refused with
   a message naming the file and the value; and the --bench table, CSV and JSON of two
   devices beside a saved run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/compare.h"
#include "engine/json.h"
#include "cli/report.h"

/* A saved run of two devices: device 0's rows are kept, device 1's left out. */
static const char saved_run[] =
    "{\"device\": {\"index\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"platform\": \"NVIDIA CUDA\"},\n"
    " \"results\": [\n"
    "  {\"lesson\": 1, \"device_index\": 0, \"title\": \"Naive\", \"params\": \"TS=16\", \"m\": 64, \"n\": 64, \"k\": 64,"
    "   \"status\": \"ok\", \"gflops_median\": 5116.5},\n"
    "  {\"lesson\": 1, \"device_index\": 0, \"params\": \"TS=32\", \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\","
    "   \"gflops_median\": 6000},\n"
    "  {\"lesson\": 2, \"device_index\": 0, \"params\": \"WG=64\", \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\","
    "   \"gflops_median\": 53.1},\n"
    "  {\"lesson\": 21, \"device_index\": 0, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"refused\"},\n"
    "  {\"lesson\": -1, \"device_index\": 0, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\", \"gflops_median\": 14918},\n"
    "  {\"lesson\": 5, \"device_index\": 0, \"m\": 4096, \"n\": 4096, \"k\": 4096, \"status\": \"ok\", \"gflops_median\": 1},\n"
    "  {\"lesson\": 1, \"device_index\": 1, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\", \"gflops_median\": 2}\n"
    " ]}\n";

static void parse_ok(struct compare *c, const char *text)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(compare_parse(c, text, strlen(text), "saved.json", &e) == 0, "%s", e.msg);
}

START_TEST(test_rows)
{
    struct compare c;

    parse_ok(&c, saved_run);
    ck_assert_str_eq(c.device, "NVIDIA H100 80GB HBM3");
    ck_assert_str_eq(c.platform, "NVIDIA CUDA");
    ck_assert_str_eq(c.file, "saved.json");
    ck_assert_uint_eq(c.count, 6);
    ck_assert_uint_eq(c.other_devices, 1);
    ck_assert_int_eq(c.rows[0].lesson, 1);
    ck_assert(c.rows[0].ok);
    ck_assert_double_eq(c.rows[0].gflops, 5116.5);
    ck_assert_str_eq(c.rows[0].title, "Naive");
    ck_assert_str_eq(c.rows[3].status, "refused");
    ck_assert(!c.rows[3].ok);
    ck_assert_ptr_null(c.rows[3].params);       /* not given: matches any */
    ck_assert_int_eq(c.rows[4].lesson, -1);
    compare_free(&c);
}
END_TEST

START_TEST(test_find)
{
    struct compare c;
    struct gemm_size s64 = { 64, 64, 64 };
    struct compare_row *r;
    char unused[256];
    bool same;

    parse_ok(&c, saved_run);
    r = compare_find(&c, 1, s64, "TS=32", &same);     /* the row of the same parameters */
    ck_assert_ptr_nonnull(r);
    ck_assert_double_eq(r->gflops, 6000);
    ck_assert(same);
    r = compare_find(&c, 2, s64, "WG=32", &same);     /* other parameters: found, said */
    ck_assert_ptr_nonnull(r);
    ck_assert(!same);
    r = compare_find(&c, 21, s64, "TSM=64", &same);   /* the file gives none: the same */
    ck_assert_ptr_nonnull(r);
    ck_assert(same);
    ck_assert_ptr_null(compare_find(&c, 2, (struct gemm_size){ 64, 64, 128 }, "WG=64", &same));
    ck_assert(!same);
    ck_assert_ptr_null(compare_find(&c, 7, s64, "", NULL));
    ck_assert_ptr_null(compare_find(NULL, 1, s64, "", NULL));
    /* Not found: the first row of lesson 1, the reference and lesson 5 at 4096. */
    ck_assert_uint_eq(compare_unused(&c, unused, sizeof unused), 3);
    ck_assert_str_eq(unused, "lessons 1 ref 5, sizes 64x64x64 4096x4096x4096");
    compare_free(&c);
}
END_TEST

/* The rows never found, each lesson and size once, in the order the file first gives them
   among those rows (not sorted, not where a used row gave them first). */
START_TEST(test_unused_order)
{
    struct compare_row rows[] = {
        { .lesson = 5, .size = { 300, 1, 1 } },  { .lesson = -1, .size = { 100, 1, 1 }, .used = true },
        { .lesson = 5, .size = { 300, 1, 1 } },  { .lesson = 2, .size = { 200, 1, 1 } },
        { .lesson = -1, .size = { 100, 1, 1 } }, { .lesson = 2, .size = { 300, 1, 2 } },
        { .lesson = 9, .size = { 200, 1, 1 }, .used = true },
    };
    struct compare c = { .rows = rows, .count = sizeof rows / sizeof rows[0] };
    char unused[256];

    ck_assert_uint_eq(compare_unused(&c, unused, sizeof unused), 5);
    ck_assert_str_eq(unused, "lessons 5 2 ref, sizes 300x1x1 200x1x1 100x1x1 300x1x2");
    for (size_t i = 0; i < c.count; i++)
        rows[i].used = true;
    ck_assert_uint_eq(compare_unused(&c, unused, sizeof unused), 0);
}
END_TEST

/* text must be refused with a message holding want (and naming the file). */
static void parse_bad(const char *text, const char *want)
{
    struct compare c;
    struct error e;

    error_init(&e);
    ck_assert_msg(compare_parse(&c, text, strlen(text), "saved.json", &e) == -1, "accepted: %s", text);
    ck_assert_msg(strstr(e.msg, want) != NULL, "for %.80s: \"%s\" lacks \"%s\"", text, e.msg, want);
    ck_assert_msg(strncmp(e.msg, "saved.json", 10) == 0, "the file is not named: %s", e.msg);
    ck_assert_ptr_null(c.rows);
}

#define DEV "{\"device\": {\"name\": \"D\"}, \"results\": ["
#define ROW(x) DEV "{\"lesson\": 1, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\", \"gflops_median\": 1" x "}]}"

START_TEST(test_hostile)
{
    char *deep = malloc(2 * 100000 + 1);

    parse_bad("", "");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 64", "");                    /* truncated */
    parse_bad("[1, 2]", "holds an array, not the object");
    parse_bad("{\"results\": []}", "no \"device\" object");
    parse_bad("{\"device\": 3, \"results\": []}", "\"device\" object (it is not one)");
    parse_bad("{\"device\": {\"name\": \"D\"}}", "no \"results\" array");
    parse_bad("{\"device\": {\"name\": \"D\"}, \"results\": {}}", "\"results\" array (it is not one)");
    parse_bad("{\"device\": {\"name\": 7}, \"results\": []}", "device: \"name\" is a number, not a string");
    parse_bad("{\"device\": {}, \"results\": []}", "the device has no \"name\"");
    /* Once "device: \"name\" is a string, not a string". */
    parse_bad("{\"device\": {\"name\": \"\\u0000\"}, \"results\": []}",
              "saved.json:1:22: \\u0000 in a string: a NUL character, which no text here may hold; remove it");
    parse_bad(DEV "3]}", "saved.json:1:39: results[0]: is a number, not an object");
    parse_bad(DEV "{}]}", "results[0]: no \"lesson\"");
    parse_bad(DEV "{\"lesson\": \"1\"}]}", "\"lesson\" is a string, not an integer");
    parse_bad(DEV "{\"lesson\": 1.5}]}", "\"lesson\" is 1.5, not an integer");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 0, \"n\": 64, \"k\": 64}]}", "\"m\" is 0, not from 1 to 65536");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 1e300, \"n\": 64, \"k\": 64}]}", "\"m\" is 1e+300, not an integer");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 1152921504606846976, \"n\": 64, \"k\": 64}]}", "not an integer");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 1e999}]}", "");               /* beyond a double */
    parse_bad(DEV "{\"lesson\": 99999999, \"m\": 64}]}", "\"lesson\" is 99999999, not from -9999 to 9999");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 64, \"n\": 64, \"k\": 64}]}", "no \"status\"");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\"}]}",
              "status \"ok\" without a \"gflops_median\"");
    parse_bad(ROW(", \"params\": []"), "\"params\" is an array, not a string");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\", \"gflops_median\": \"9\"}]}",
              "\"gflops_median\" is a string, not a number");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\", \"gflops_median\": -1}]}",
              "\"gflops_median\" is -1, not a figure from 0 to");
    parse_bad(DEV "{\"lesson\": 1, \"m\": 64, \"n\": 64, \"k\": 64, \"status\": \"ok\", \"gflops_median\": 1e200}]}",
              "not a figure");
    parse_bad(ROW(", \"device_index\": \"0\""), "\"device_index\" is a string, not an integer");
    /* Nesting deeper than the reader allows. */
    for (int i = 0; i < 100000; i++) {
        deep[i] = '[';
        deep[100000 + i] = ']';
    }
    deep[200000] = '\0';
    parse_bad(deep, "nest");
    free(deep);
}
END_TEST

START_TEST(test_missing_file)
{
    struct compare c;
    struct error e;

    error_init(&e);
    ck_assert_int_eq(compare_load(&c, "/nonexistent/saved.json", &e), -1);
    ck_assert_msg(strstr(e.msg, "/nonexistent/saved.json") != NULL, "%s", e.msg);
}
END_TEST

static struct device_info devices[2] = {
    { .index = 0, .name = "Device zero", .platform_name = "P", .driver = "1.0", .type = CL_DEVICE_TYPE_CPU },
    { .index = 1, .name = "Device one", .platform_name = "P", .driver = "2.0", .type = CL_DEVICE_TYPE_GPU },
};

static void result(struct run_result *r, int lesson, const char *params, double gflops)
{
    run_result_init(r);
    r->lesson = lesson;
    snprintf(r->title, sizeof r->title, "Lesson %d", lesson);
    snprintf(r->params, sizeof r->params, "%s", params);
    r->size = r->run = (struct gemm_size){ 64, 64, 64 };
    r->status = gflops > 0 ? RUN_OK : RUN_REFUSED;
    r->gflops.median = gflops;
    if (gflops <= 0)
        error_set(&r->error, "lesson %d needs another device", lesson);
}

/* Two devices measure lessons 1, 2 and 21 at 64, then the report is ended; its text. */
static char *two_devices(enum report_format format, struct compare *c)
{
    const struct device_info *list[] = { &devices[0], &devices[1] };
    struct measure_config cfg;
    struct report rep;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    measure_config_defaults(&cfg);
    report_begin(&rep, out, format, list, NULL, 2, true, &cfg, NULL, c);
    for (int d = 0; d < 2; d++) {
        struct run_result r[3];
        report_device(&rep, d);
        report_size_begin(&rep, (struct gemm_size){ 64, 64, 64 });
        result(&r[0], 1, "TS=32", d ? 200.0 : 10.0);
        result(&r[1], 2, "WG=32", d ? 20.0 : 1.5);
        result(&r[2], 21, "", d ? 900.0 : 0.0);
        for (int i = 0; i < 3; i++) {
            report_row(&rep, &r[i]);
            run_result_free(&r[i]);
        }
        report_size_end(&rep);
    }
    report_end(&rep);
    fclose(out);
    return text;
}

START_TEST(test_side_by_side)
{
    struct compare c;
    char *text;

    parse_ok(&c, saved_run);
    text = two_devices(FORMAT_TABLE, &c);
    ck_assert_msg(strstr(text, "  [0] Device zero (P, CPU)") && strstr(text, "  [1] Device one (P, GPU)"), "%s", text);
    ck_assert_msg(strstr(text, "saved NVIDIA H100 80GB HBM3 (NVIDIA CUDA), from saved.json"), "%s", text);
    ck_assert_msg(strstr(text, "  Device zero   Device one  NVIDIA H100\n"), "%s", text);
    ck_assert_msg(strstr(text, "  #  lesson                         GFLOPS [0]   GFLOPS [1] GFLOPS saved\n"), "%s", text);
    ck_assert_msg(strstr(text, "  1  Lesson 1                             10.0        200.0       6000.0\n"), "%s", text);
    ck_assert_msg(strstr(text, "  2  Lesson 2                              1.5         20.0        53.1~\n"), "%s", text);
    ck_assert_msg(strstr(text, " 21  Lesson 21                         refused        900.0      refused\n"), "%s", text);
    ck_assert_msg(strstr(text, "~ the saved run's parameters were not this run's"), "%s", text);
    ck_assert_msg(strstr(text, "   21 [0] lesson 21 needs another device\n"), "%s", text);
    ck_assert_msg(strstr(text, "Fastest on [0]: lesson 1 at 10.0 GFLOPS\nFastest on [1]: lesson 21 at 900.0 GFLOPS\n"),
                  "%s", text);
    /* The table comes once, after the last device. */
    ck_assert_ptr_null(strstr(strstr(text, "Size 64x64x64") + 1, "Size 64x64x64"));
    free(text);
    compare_free(&c);
}
END_TEST

START_TEST(test_csv_json_name_devices)
{
    struct compare c;
    char *text;

    parse_ok(&c, saved_run);
    text = two_devices(FORMAT_CSV, &c);
    ck_assert_msg(strstr(text, ",device_index,compare_device,compare_status,compare_gflops_median,compare_params,emulated\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "\"Device one\",1,\"Lesson 1\",\"TS=32\",64,64,64,"), "%s", text);
    ck_assert_msg(strstr(text, ",fp32,fp32,1,\"NVIDIA H100 80GB HBM3\",\"ok\",6000,\"TS=32\",no\n"), "%s", text);
    ck_assert_msg(strstr(text, ",fp32,fp32,0,\"NVIDIA H100 80GB HBM3\",\"refused\",,,no\n"), "%s", text);
    free(text);
    text = two_devices(FORMAT_JSON, &c);
    ck_assert_msg(strstr(text, "\"devices\": [\n    {\"name\": \"Device zero\""), "%s", text);
    ck_assert_msg(strstr(text, "\"driver\": \"2.0\", \"ceilings\": null, \"index\": 1}"), "%s", text);
    ck_assert_msg(strstr(text, "\"compare\": {\"file\": \"saved.json\", \"device\": \"NVIDIA H100 80GB HBM3\""), "%s",
                  text);
    ck_assert_msg(strstr(text, "{\"lesson\": 2, \"device_index\": 1,"), "%s", text);
    ck_assert_msg(strstr(text, "\"compare\": {\"status\": \"ok\", \"gflops_median\": 53.1, \"params\": \"WG=64\", "
                               "\"same_params\": false}"), "%s", text);
    free(text);
    compare_free(&c);
    /* Without a saved run, no compare member in the rows. */
    text = two_devices(FORMAT_JSON, NULL);
    ck_assert_msg(!strstr(text, "\"compare\""), "%s", text);
    free(text);
}
END_TEST

Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");

    tcase_add_test(tc, test_rows);
    tcase_add_test(tc, test_find);
    tcase_add_test(tc, test_unused_order);
    tcase_add_test(tc, test_hostile);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_side_by_side);
    tcase_add_test(tc, test_csv_json_name_devices);
    suite_add_tcase(s, tc);
    return s;
}
