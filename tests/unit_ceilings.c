/* unit_ceilings.c: the device's ceilings without a device: the theoretical FP32 peak, the
   sentence that shows them, and the cache: its lines read back as written, lines that are
   not a device's well-formed entry ignored, one line per device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scratch.h"
#include "units.h"
#include "engine/ceilings.h"
#include "engine/files.h"

static char base_dir[64];
static char path[128];

static void setup(void)
{
    strcpy(base_dir, "/tmp/clmm-unit-ceilings-XXXXXX");
    ck_assert(mkdtemp(base_dir) != NULL);
    /* A directory that does not exist yet: ceilings_save makes it. */
    snprintf(path, sizeof path, "%s/cache/clmm-tutor/ceilings", base_dir);
}

static void teardown(void)
{
    scratch_remove(base_dir);
}

static struct device_info device(const char *name, const char *driver)
{
    struct device_info d;

    memset(&d, 0, sizeof d);
    snprintf(d.platform_name, sizeof d.platform_name, "Test platform");
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.driver, sizeof d.driver, "%s", driver);
    return d;
}

static struct ceilings measured(double gflops, double gbps)
{
    struct ceilings c;

    memset(&c, 0, sizeof c);
    c.have = true;
    c.gflops = gflops;
    c.gbps = gbps;
    snprintf(c.measured_on, sizeof c.measured_on, "2026-11-20T14:03:07Z");
    return c;
}

/* Writes the cache file by hand: n bytes of text, which may hold NUL bytes. */
static void write_file(const char *text, size_t n)
{
    struct error e;
    FILE *f;

    error_init(&e);
    ck_assert_msg(make_parents(path, &e) == 0, "%s", e.msg);
    f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot create %s", path);
    ck_assert_uint_eq(fwrite(text, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

static int count_lines(void)
{
    FILE *f = fopen(path, "r");
    int n = 0, ch;

    ck_assert(f != NULL);
    while ((ch = fgetc(f)) != EOF)
        n += ch == '\n';
    fclose(f);
    return n;
}

static void save(const struct device_info *d, double gflops, double gbps)
{
    struct ceilings c = measured(gflops, gbps);
    struct error e;

    error_init(&e);
    ck_assert_msg(ceilings_save(path, d, &c, &e) == 0, "%s", e.msg);
}

static void assert_loads(const struct device_info *d, double gflops, double gbps)
{
    struct ceilings c;

    memset(&c, 0, sizeof c);
    ck_assert_msg(ceilings_load(path, d, &c), "no line for %s", d->name);
    ck_assert(c.have && c.from_cache);
    ck_assert_double_eq_tol(c.gflops, gflops, 1e-9);
    ck_assert_double_eq_tol(c.gbps, gbps, 1e-9);
}

START_TEST(test_theory_h200)
{
    struct device_info d = device("NVIDIA H200", "580.00");
    struct ceilings c;

    d.nv_cc_major = 9;
    d.nv_cc_minor = 0;
    d.compute_units = 132;
    d.clock_mhz = 1980;
    memset(&c, 0, sizeof c);
    ceilings_theory(&d, &c);
    ck_assert_double_eq_tol(c.theory_gflops, 66908.16, 1e-6);
    ck_assert_str_eq(c.theory, "132 compute units x 128 lanes x 2 flops x 1980 MHz");
}
END_TEST

START_TEST(test_theory_table)
{
    /* Compute capability, FP32 lanes per multiprocessor: CUDA's table. */
    static const unsigned cases[][3] = { { 8, 0, 64 }, { 8, 6, 128 }, { 8, 9, 128 }, { 7, 0, 64 }, { 7, 5, 64 },
                                         { 6, 0, 64 }, { 6, 1, 128 }, { 5, 2, 128 }, { 3, 5, 192 } };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct device_info d = device("GPU", "1");
        struct ceilings c;
        d.nv_cc_major = cases[i][0];
        d.nv_cc_minor = cases[i][1];
        d.compute_units = 10;
        d.clock_mhz = 1000;
        ceilings_theory(&d, &c);
        ck_assert_msg(c.theory_gflops == cases[i][2] * 20.0, "%u.%u: %g GFLOPS", cases[i][0], cases[i][1],
                      c.theory_gflops);
    }
}
END_TEST

START_TEST(test_theory_unknown)
{
    struct device_info d = device("pthread-cpu", "6.0");
    struct ceilings c;

    d.compute_units = 2;
    d.clock_mhz = 2300;
    ceilings_theory(&d, &c);
    ck_assert(c.theory_gflops == 0);
    ck_assert_str_eq(c.theory, "the device does not report its FP32 lanes per compute unit");
    /* NVIDIA, but a compute capability the table does not have. */
    d.nv_cc_major = 42;
    d.nv_cc_minor = 1;
    ceilings_theory(&d, &c);
    ck_assert(c.theory_gflops == 0);
    ck_assert_msg(strstr(c.theory, "compute capability 42.1 is not in") != NULL, "%s", c.theory);
}
END_TEST

START_TEST(test_describe)
{
    struct device_info d = device("NVIDIA H200", "580.00"), cpu = device("cpu", "1");
    struct ceilings c = measured(60200, 4012.4);
    char text[1024];

    d.nv_cc_major = 9;
    d.compute_units = 132;
    d.clock_mhz = 1980;
    ceilings_theory(&d, &c);
    ceilings_describe(&c, text, sizeof text);
    ck_assert_str_eq(text, "FP32 peak 60.2 TFLOPS measured (66.9 TFLOPS theoretical: 132 compute units x 128 "
                           "lanes x 2 flops x 1980 MHz); bandwidth 4012 GB/s measured (copy; no theoretical "
                           "figure: OpenCL does not report the memory's clock or width)");
    c = measured(154.2, 32.04);
    ceilings_theory(&cpu, &c);
    ceilings_describe(&c, text, sizeof text);
    ck_assert_str_eq(text, "FP32 peak 154 GFLOPS measured (no theoretical figure: the device does not report "
                           "its FP32 lanes per compute unit); bandwidth 32.0 GB/s measured (copy; no "
                           "theoretical figure: OpenCL does not report the memory's clock or width)");
    c.have = false;
    ceilings_describe(&c, text, sizeof text);
    ck_assert_msg(strncmp(text, "FP32 peak not measured (no theoretical figure: ", 47) == 0, "%s", text);
    ck_assert_msg(strstr(text, "; bandwidth not measured (no theoretical figure: ") != NULL, "%s", text);
}
END_TEST

START_TEST(test_line_round_trip)
{
    struct device_info d = device("NVIDIA H200", "580.65.06");
    struct ceilings c = measured(60213.5, 4012.25), back;
    char line[1024];

    ceilings_line(&d, &c, line, sizeof line);
    ck_assert_str_eq(line, "Test platform\tNVIDIA H200\t580.65.06\t60213.5\t4012.25\t2026-11-20T14:03:07Z");
    memset(&back, 0, sizeof back);
    ck_assert(ceilings_parse(line, &d, &back));
    ck_assert(back.have && back.from_cache);
    ck_assert_double_eq_tol(back.gflops, 60213.5, 1e-9);
    ck_assert_double_eq_tol(back.gbps, 4012.25, 1e-9);
    ck_assert_str_eq(back.measured_on, "2026-11-20T14:03:07Z");
    /* Another device, or the same one with another driver, is not this line's. */
    ck_assert(!ceilings_parse(line, &(struct device_info){ .name = "NVIDIA H100", .platform_name = "Test platform",
                                                          .driver = "580.65.06" }, &back));
    ck_assert(!ceilings_parse(line, &(struct device_info){ .name = "NVIDIA H200", .platform_name = "Test platform",
                                                          .driver = "581.00" }, &back));
}
END_TEST

START_TEST(test_control_characters_in_names)
{
    struct device_info d = device("tab\there\nnewline", "1\t2");
    struct ceilings c = measured(10, 20), back;
    char line[1024];
    int tabs = 0;

    ceilings_line(&d, &c, line, sizeof line);
    for (const char *p = line; *p; p++) {
        ck_assert_msg(*p != '\n', "a newline in \"%s\"", line);
        tabs += *p == '\t';
    }
    ck_assert_int_eq(tabs, 5);
    ck_assert_msg(strstr(line, "tab?here?newline\t1?2\t") != NULL, "%s", line);
    memset(&back, 0, sizeof back);
    ck_assert(ceilings_parse(line, &d, &back));
    /* A device whose name has a ? where this one has a tab shares its line. */
    ck_assert(ceilings_parse(line, &(struct device_info){ .name = "tab?here?newline", .platform_name = "Test platform",
                                                         .driver = "1?2" }, &back));
}
END_TEST

START_TEST(test_parse_ignores_malformed_lines)
{
    struct device_info d = device("dev", "1.0");
    const char *bad[] = {
        "",
        "\t\t\t\t\t",
        "Test platform\tdev\t1.0\t100\t20",                                   /* five fields */
        "Test platform\tdev\t1.0\t100\t20\t2026-11-20T14:03:07Z\textra",      /* seven */
        "Test platform\tdev\t1.0\tfast\t20\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\t100\t20GB\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\tnan\t20\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\tinf\t20\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\t1e400\t20\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\t-100\t20\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\t0\t20\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\t100\t\t2026-11-20T14:03:07Z",
        "Test platform\tdev\t1.0\t100\t20\t",
        "Test platform\tdev\t1.0\t100\t20\tyesterday",
        "Test platform\tdev\t1.0\t100\t20\t2026-11-20 14:03:07",
        "Test platform\tdev\t1.0\t100\t20\t2026-11-20T14:03:07Z ",
        "\tdev\t1.0\t100\t20\t2026-11-20T14:03:07Z",                           /* no platform */
        "Test platform\tdev \t1.0\t100\t20\t2026-11-20T14:03:07Z",             /* another name */
    };
    struct ceilings c;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&c, 0, sizeof c);
        ck_assert_msg(!ceilings_parse(bad[i], &d, &c), "line %zu taken: \"%s\"", i, bad[i]);
        ck_assert(!c.have);
    }
    /* The same fields, well formed, are taken. */
    ck_assert(ceilings_parse("Test platform\tdev\t1.0\t100\t20\t2026-11-20T14:03:07Z", &d, &c));
}
END_TEST

/* A line that would be well formed but for a name longer than any device's is dropped:
   the lines a rewrite keeps stay short. */
START_TEST(test_long_names_dropped)
{
    size_t n = 3000;
    char *text = malloc(n + 128);
    struct device_info d = device("dev", "1.0");

    ck_assert(text != NULL);
    memset(text, 'x', n);
    strcpy(text + n, "\tdev\t1.0\t100\t20\t2026-11-20T14:03:07Z\nTest platform\tother\t1.0\t1\t2\t"
                     "2026-11-20T14:03:07Z\n");
    write_file(text, strlen(text));
    free(text);
    save(&d, 100, 10);
    ck_assert_int_eq(count_lines(), 2);
    assert_loads(&d, 100, 10);
}
END_TEST

START_TEST(test_load_missing_file)
{
    struct device_info d = device("dev", "1.0");
    struct ceilings c;

    memset(&c, 0, sizeof c);
    ck_assert(!ceilings_load(path, &d, &c));
    ck_assert(!c.have);
}
END_TEST

START_TEST(test_several_devices_one_line_each)
{
    struct device_info a = device("first", "1.0"), b = device("second", "1.0"), a2 = device("first", "2.0");

    save(&a, 100, 10);
    save(&b, 200, 20);
    assert_loads(&a, 100, 10);
    assert_loads(&b, 200, 20);
    ck_assert_int_eq(count_lines(), 2);
    save(&a, 150, 15);      /* measured again: replaced, not added */
    ck_assert_int_eq(count_lines(), 2);
    assert_loads(&a, 150, 15);
    assert_loads(&b, 200, 20);
    save(&a2, 300, 30);     /* a new driver is another line */
    ck_assert_int_eq(count_lines(), 3);
    assert_loads(&a, 150, 15);
    assert_loads(&a2, 300, 30);
}
END_TEST

START_TEST(test_save_over_malformed_file)
{
    static const char text[] = "garbage\n"
                               "Test platform\tsecond\t1.0\t200\t20\t2026-11-20T14:03:07Z\n"
                               "Test platform\tfirst\t1.0\tNaN\t20\t2026-11-20T14:03:07Z\n"
                               "\n\t\t\t\t\t\n"
                               "Test platform\tfirst\t1.0\t1\t2\t2026-11-20T14:03:07Z\0 and a NUL\n";
    struct device_info a = device("first", "1.0"), b = device("second", "1.0");
    struct ceilings c;

    write_file(text, sizeof text - 1);
    memset(&c, 0, sizeof c);
    ck_assert(!ceilings_load(path, &a, &c));    /* its lines are malformed, one holds a NUL */
    assert_loads(&b, 200, 20);
    save(&a, 100, 10);
    ck_assert_int_eq(count_lines(), 2);         /* what did not parse is gone */
    assert_loads(&a, 100, 10);
    assert_loads(&b, 200, 20);
}
END_TEST

START_TEST(test_newest_lines_kept)
{
    struct device_info d;
    char name[32];

    for (int i = 0; i < CEILINGS_MAX_LINES + 5; i++) {
        snprintf(name, sizeof name, "device %d", i);
        d = device(name, "1");
        save(&d, 100 + i, 10);
    }
    ck_assert_int_eq(count_lines(), CEILINGS_MAX_LINES);
    assert_loads(&d, 100 + CEILINGS_MAX_LINES + 4, 10);
    d = device("device 0", "1");
    {
        struct ceilings c;
        memset(&c, 0, sizeof c);
        ck_assert(!ceilings_load(path, &d, &c));    /* the oldest went */
    }
}
END_TEST

START_TEST(test_file_too_large_is_replaced)
{
    size_t n = CEILINGS_FILE_MAX + 10;
    char *text = malloc(n);
    struct device_info d = device("dev", "1.0");
    struct ceilings c;

    ck_assert(text != NULL);
    memset(text, '\n', n);
    write_file(text, n);
    free(text);
    memset(&c, 0, sizeof c);
    ck_assert(!ceilings_load(path, &d, &c));
    save(&d, 100, 10);
    ck_assert_int_eq(count_lines(), 1);
    assert_loads(&d, 100, 10);
}
END_TEST

START_TEST(test_save_leaves_a_directory)
{
    struct device_info d = device("dev", "1.0");
    struct ceilings c = measured(100, 10);
    struct error e;
    struct stat st;

    write_file("", 0);
    ck_assert_int_eq(remove(path), 0);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    error_init(&e);
    ck_assert_int_eq(ceilings_save(path, &d, &c, &e), -1);
    ck_assert_msg(strstr(e.msg, "not a regular file") != NULL, "%s", e.msg);
    ck_assert(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}
END_TEST

/* Sets or unsets variable (value NULL). */
static void set_env(const char *variable, const char *value)
{
    if (value)
        setenv(variable, value, 1);
    else
        unsetenv(variable);
}

START_TEST(test_path)
{
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char *cache = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    char buf[256];

    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    setenv("HOME", "/home/h", 1);
    ck_assert_int_eq(ceilings_path(buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "/x/cache/clmm-tutor/ceilings");
    unsetenv("XDG_CACHE_HOME");
    ck_assert_int_eq(ceilings_path(buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "/home/h/.cache/clmm-tutor/ceilings");
    unsetenv("HOME");
    ck_assert_int_eq(ceilings_path(buf, sizeof buf), -1);
    set_env("HOME", home);
    set_env("XDG_CACHE_HOME", cache);
    free(home);
    free(cache);
}
END_TEST

Suite *ceilings_suite(void)
{
    Suite *s = suite_create("ceilings");
    TCase *tc = tcase_create("ceilings");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_theory_h200);
    tcase_add_test(tc, test_theory_table);
    tcase_add_test(tc, test_theory_unknown);
    tcase_add_test(tc, test_describe);
    tcase_add_test(tc, test_line_round_trip);
    tcase_add_test(tc, test_control_characters_in_names);
    tcase_add_test(tc, test_parse_ignores_malformed_lines);
    tcase_add_test(tc, test_long_names_dropped);
    tcase_add_test(tc, test_load_missing_file);
    tcase_add_test(tc, test_several_devices_one_line_each);
    tcase_add_test(tc, test_save_over_malformed_file);
    tcase_add_test(tc, test_newest_lines_kept);
    tcase_add_test(tc, test_file_too_large_is_replaced);
    tcase_add_test(tc, test_save_leaves_a_directory);
    tcase_add_test(tc, test_path);
    suite_add_tcase(s, tc);
    return s;
}
