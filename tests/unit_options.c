/* unit_options.c: the command line. */
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "cli/options.h"

#define MAX_WORDS 32

/* The words after the program name, NULL-ended. */
#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
static const char *const no_args[] = { NULL };

/* argv of modifiable strings, as getopt_long wants (it permutes argv); static because
   options point into it. */
static struct {
    char words[MAX_WORDS][128];
    char *argv[MAX_WORDS + 1];
    int argc;
} command_line;

static void add_word(const char *word)
{
    int i = command_line.argc++;

    ck_assert_int_lt(i, MAX_WORDS);
    ck_assert_uint_lt(strlen(word), sizeof command_line.words[i]);
    strcpy(command_line.words[i], word);
    command_line.argv[i] = command_line.words[i];
    command_line.argv[i + 1] = NULL;
}

static int parse(const char *const *words, struct options *opts, struct error *e)
{
    command_line.argc = 0;
    add_word("clmm-tutor");
    for (size_t i = 0; words[i]; i++)
        add_word(words[i]);
    error_init(e);
    return options_parse(command_line.argc, command_line.argv, opts, e);
}

static void parse_ok(const char *const *words, struct options *opts)
{
    struct error e;

    ck_assert_msg(parse(words, opts, &e) == 0, "refused: %s", e.msg);
}

/* Checks that words are refused with one line holding fragment (and fragment2 unless NULL). */
static void parse_fails2(const char *const *words, const char *fragment, const char *fragment2)
{
    struct options opts;
    struct error e;
    char all[512] = "";

    for (size_t i = 0; words[i]; i++)
        snprintf(all + strlen(all), sizeof all - strlen(all), " %s", words[i]);
    ck_assert_msg(parse(words, &opts, &e) < 0, "accepted\"%s\", expected \"%s\"", all, fragment);
    ck_assert_msg(strstr(e.msg, fragment) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment);
    if (fragment2)
        ck_assert_msg(strstr(e.msg, fragment2) != NULL, "message \"%s\" lacks \"%s\"", e.msg, fragment2);
    ck_assert_msg(strchr(e.msg, '\n') == NULL, "message \"%s\" is not one line", e.msg);
}

static void parse_fails(const char *const *words, const char *fragment)
{
    parse_fails2(words, fragment, NULL);
}

static void assert_size(struct gemm_size s, long long m, long long n, long long k)
{
    ck_assert_msg(s.m == m && s.n == n && s.k == k, "size %lldx%lldx%lld, expected %lldx%lldx%lld",
                  s.m, s.n, s.k, m, n, k);
}

START_TEST(test_options_defaults)
{
    struct options o;

    parse_ok(no_args, &o);
    ck_assert_int_eq(o.mode, MODE_TUTOR);
    ck_assert_int_eq(o.lesson, LESSON_UNSET);
    ck_assert_uint_eq(o.nsizes, 1);
    assert_size(o.sizes[0], 1024, 1024, 1024);
    ck_assert_int_eq(o.format, FORMAT_TABLE);
    ck_assert_ptr_null(o.device);
    ck_assert_ptr_null(o.lessons_dir);
    ck_assert_uint_eq(o.nparams, 0);
    ck_assert(!o.no_reference);
    ck_assert_int_eq(o.measure.reps, 0);
    ck_assert_uint_eq(o.measure.seed, 42);
    ck_assert(!o.measure.force);
    ck_assert_double_gt(o.measure.budget_s, 0.0);
}
END_TEST

START_TEST(test_options_bench)
{
    struct options o;

    parse_ok(ARGS("--bench", "--lesson", "all", "--size", "512,1000x700x300", "--format", "csv",
                  "--reps", "5", "--param", "TS=32", "--device", "1:0"), &o);
    ck_assert_int_eq(o.mode, MODE_BENCH);
    ck_assert_int_eq(o.lesson, LESSON_ALL);
    ck_assert_uint_eq(o.nsizes, 2);
    assert_size(o.sizes[0], 512, 512, 512);
    assert_size(o.sizes[1], 1000, 700, 300);
    ck_assert_int_eq(o.format, FORMAT_CSV);
    ck_assert_int_eq(o.measure.reps, 5);
    ck_assert_uint_eq(o.nparams, 1);
    ck_assert_str_eq(o.params[0].name, "TS");
    ck_assert_int_eq(o.params[0].value, 32);
    ck_assert_str_eq(o.device, "1:0");
}
END_TEST

START_TEST(test_options_more)
{
    struct options o;

    parse_ok(ARGS("--bench", "--lesson", "4", "--format=json", "--param", "TSM=64", "--param", "WPTN=-8",
                  "--lessons", "/tmp/lessons", "--no-reference", "--force", "--seed", "7",
                  "--budget", "0.5", "--max-launch", "2.5", "--size", "65536x1X3"), &o);
    ck_assert_int_eq(o.mode, MODE_BENCH);
    ck_assert_int_eq(o.lesson, 4);
    ck_assert_int_eq(o.format, FORMAT_JSON);
    ck_assert_uint_eq(o.nparams, 2);
    ck_assert_str_eq(o.params[1].name, "WPTN");
    ck_assert_int_eq(o.params[1].value, -8);
    ck_assert_str_eq(o.lessons_dir, "/tmp/lessons");
    ck_assert(o.no_reference);
    ck_assert(o.measure.force);
    ck_assert_uint_eq(o.measure.seed, 7);
    ck_assert_double_eq(o.measure.budget_s, 0.5);
    ck_assert_double_eq(o.measure.launch_limit_s, 2.5);
    assert_size(o.sizes[0], 65536, 1, 3);
}
END_TEST

START_TEST(test_options_modes)
{
    struct options o;

    parse_ok(ARGS("--list"), &o);
    ck_assert_int_eq(o.mode, MODE_LIST);
    parse_ok(ARGS("--devices"), &o);
    ck_assert_int_eq(o.mode, MODE_DEVICES);
    parse_ok(ARGS("--show", "3"), &o);
    ck_assert_int_eq(o.mode, MODE_SHOW);
    ck_assert_int_eq(o.lesson, 3);
    parse_ok(ARGS("--sources"), &o);
    ck_assert_int_eq(o.mode, MODE_SOURCES);
    parse_ok(ARGS("--bench", "--lesson", "12"), &o);
    ck_assert_int_eq(o.mode, MODE_BENCH);
    ck_assert_int_eq(o.lesson, 12);
    parse_ok(ARGS("--list", "--list"), &o);
    ck_assert_int_eq(o.mode, MODE_LIST);
    parse_ok(ARGS("--help"), &o);
    ck_assert_int_eq(o.mode, MODE_HELP);
    parse_ok(ARGS("--version"), &o);
    ck_assert_int_eq(o.mode, MODE_VERSION);
}
END_TEST

START_TEST(test_options_reparse)
{
    /* Each call starts afresh, whatever the calls before it left behind. */
    struct options o;

    parse_fails(ARGS("--size"), "needs a value");
    parse_ok(ARGS("--bench", "--lesson", "3", "--size", "256", "--param", "TS=8"), &o);
    ck_assert_int_eq(o.lesson, 3);
    parse_fails2(ARGS("--frobnicate", "--list"), "unknown", "--frobnicate");
    parse_ok(no_args, &o);
    ck_assert_int_eq(o.mode, MODE_TUTOR);
    ck_assert_int_eq(o.lesson, LESSON_UNSET);
    ck_assert_uint_eq(o.nsizes, 1);
    assert_size(o.sizes[0], 1024, 1024, 1024);
    ck_assert_uint_eq(o.nparams, 0);
    parse_ok(ARGS("--list"), &o);
    ck_assert_int_eq(o.mode, MODE_LIST);
}
END_TEST

START_TEST(test_options_bad_sizes)
{
    parse_fails(ARGS("--size", "0"), "0 is not a positive size");
    parse_fails(ARGS("--size", "-5"), "-5 is not a positive size");
    parse_fails(ARGS("--size", "abc"), "\"abc\" is not a number");
    parse_fails(ARGS("--size", "12a"), "\"12a\" is not a number");
    parse_fails(ARGS("--size", "1x2"), "one side (1024) or three (MxNxK)");
    parse_fails(ARGS("--size", "1x2x3x4"), "more than three sides");
    parse_fails(ARGS("--size", "100000"), "100000 is too large");
    parse_fails(ARGS("--size", "65537"), "too large");
    parse_fails(ARGS("--size", "512,abc"), "\"abc\" is not a number");
    parse_fails(ARGS("--size", ""), "empty");
    parse_fails(ARGS("--size", ","), "is not a size or list of sizes");
}
END_TEST

/* A value for an option that takes none, and a format outside --bench, are refused. */
START_TEST(test_options_misplaced)
{
    parse_fails(ARGS("--list=3"), "--list takes no value");
    parse_fails(ARGS("--lesson", "4", "--format", "csv"), "--format applies to --bench");
}
END_TEST

/* options.h: "-1 with a message when malformed"; an empty side is malformed, not skipped. */
START_TEST(test_options_sizes_empty_parts)
{
    parse_fails(ARGS("--size", "512x"), "--size");
    parse_fails(ARGS("--size", "1000xx700x300"), "--size");
    parse_fails(ARGS("--size", "512,,1024"), "--size");
}
END_TEST

START_TEST(test_options_parse_sizes)
{
    struct gemm_size sizes[SIZES_MAX_COUNT];
    struct error e;
    size_t count = 99;
    char many[256] = "1";

    error_init(&e);
    ck_assert_int_eq(sizes_parse("64,128x256x32,4096", sizes, &count, &e), 0);
    ck_assert_uint_eq(count, 3);
    assert_size(sizes[0], 64, 64, 64);
    assert_size(sizes[1], 128, 256, 32);
    assert_size(sizes[2], 4096, 4096, 4096);
    for (int i = 2; i <= SIZES_MAX_COUNT; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), ",%d", i);
    ck_assert_int_eq(sizes_parse(many, sizes, &count, &e), 0);
    ck_assert_uint_eq(count, SIZES_MAX_COUNT);
    assert_size(sizes[SIZES_MAX_COUNT - 1], SIZES_MAX_COUNT, SIZES_MAX_COUNT, SIZES_MAX_COUNT);
    strcat(many, ",17");
    ck_assert_int_lt(sizes_parse(many, sizes, &count, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "at most"));
}
END_TEST

START_TEST(test_options_bad_lessons)
{
    parse_fails(ARGS("--lesson", "7x"), "--lesson: \"7x\" is not a lesson number");
    parse_fails(ARGS("--lesson", "200"), "\"200\" is not a lesson number");
    parse_fails(ARGS("--lesson", "-1"), "\"-1\" is not a lesson number");
    parse_fails(ARGS("--show", "all"), "--show: \"all\" is not a lesson number");
    parse_fails(ARGS("--lesson", "all"), "--lesson all needs --bench");
    parse_fails(ARGS("--list", "--lesson", "all"), "--lesson all needs --bench");
}
END_TEST

START_TEST(test_options_bad_values)
{
    parse_fails(ARGS("--format", "xml"), "--format: \"xml\" is not a format");
    parse_fails(ARGS("--reps", "0"), "--reps: \"0\"");
    parse_fails(ARGS("--reps", "many"), "--reps: \"many\"");
    parse_fails(ARGS("--param", "TS"), "expected NAME=VALUE");
    parse_fails(ARGS("--param", "=32"), "expected NAME=VALUE");
    parse_fails(ARGS("--param", "TS=big"), "expected NAME=VALUE");
    parse_fails(ARGS("--seed", "-1"), "--seed");
    parse_fails(ARGS("--budget", "0"), "--budget: \"0\" is not a positive number");
    parse_fails(ARGS("--max-launch", "soon"), "--max-launch");
}
END_TEST

START_TEST(test_options_unknown_option)
{
    parse_fails2(ARGS("--frobnicate"), "unknown", "\"--frobnicate\"");
    parse_fails2(ARGS("--bench", "--sizes", "512"), "unknown", "\"--sizes\"");
}
END_TEST

/* The program has no short options: "-x" is an unknown option, not one lacking a value. */
START_TEST(test_options_unknown_short_option)
{
    parse_fails2(ARGS("-x"), "unknown", "\"-x\"");
}
END_TEST

/* An unknown short option is named with the argument that holds it, never the program. */
START_TEST(test_options_unknown_short_cluster)
{
    parse_fails2(ARGS("-xy"), "unknown option \"-xy\"", "two dashes");
    parse_fails2(ARGS("--list", "-q"), "unknown option \"-q\"", NULL);
    parse_fails2(ARGS("-x", "-xy"), "unknown option \"-x\"", NULL);
    parse_fails2(ARGS("--device", "-x", "-xy"), "unknown option \"-xy\"", NULL);
    parse_fails2(ARGS("extra", "-ab"), "unknown option \"-ab\"", NULL);
}
END_TEST

/* A --param name longer than the 63 characters kept is said to be too long. */
START_TEST(test_options_param_name_too_long)
{
    char word[128];
    struct options opts;

    memset(word, 'A', 64);
    strcpy(word + 64, "=8");
    parse_fails2(ARGS("--param", word), "too long: 64 characters", "at most 63");
    strcpy(word + 63, "=8");
    parse_ok(ARGS("--param", word), &opts);
    ck_assert_uint_eq(strlen(opts.params[0].name), 63);
}
END_TEST

START_TEST(test_options_missing_value)
{
    parse_fails(ARGS("--size"), "--size needs a value");
    parse_fails(ARGS("--bench", "--lesson"), "--lesson needs a value");
}
END_TEST

/* --ceilings: a mode of its own, printing text or json. */
START_TEST(test_options_ceilings)
{
    struct options o;

    parse_ok(ARGS("--ceilings", "--device", "1"), &o);
    ck_assert_int_eq(o.mode, MODE_CEILINGS);
    ck_assert_str_eq(o.device, "1");
    parse_ok(ARGS("--ceilings", "--format", "json"), &o);
    ck_assert_int_eq(o.format, FORMAT_JSON);
    parse_fails(ARGS("--ceilings", "--format", "csv"), "json to --check, --exercises, --ceilings and --inside");
    parse_fails(ARGS("--devices", "--ceilings"), "--ceilings cannot be combined");
}
END_TEST

START_TEST(test_options_two_modes)
{
    parse_fails(ARGS("--list", "--devices"), "cannot be combined");
    parse_fails(ARGS("--bench", "--show", "3"), "cannot be combined");
}
END_TEST

START_TEST(test_options_stray_argument)
{
    parse_fails(ARGS("extra"), "unexpected argument \"extra\"");
    parse_fails(ARGS("--bench", "512", "--size", "256"), "unexpected argument \"512\"");
}
END_TEST

Suite *options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *good = tcase_create("options_accepted");
    TCase *bad = tcase_create("options_refused");

    tcase_add_test(good, test_options_defaults);
    tcase_add_test(good, test_options_bench);
    tcase_add_test(good, test_options_more);
    tcase_add_test(good, test_options_modes);
    tcase_add_test(good, test_options_reparse);
    tcase_add_test(good, test_options_parse_sizes);
    suite_add_tcase(s, good);
    tcase_add_test(bad, test_options_bad_sizes);
    tcase_add_test(bad, test_options_sizes_empty_parts);
    tcase_add_test(bad, test_options_misplaced);
    tcase_add_test(bad, test_options_bad_lessons);
    tcase_add_test(bad, test_options_bad_values);
    tcase_add_test(bad, test_options_unknown_option);
    tcase_add_test(bad, test_options_unknown_short_option);
    tcase_add_test(bad, test_options_unknown_short_cluster);
    tcase_add_test(bad, test_options_param_name_too_long);
    tcase_add_test(bad, test_options_missing_value);
    tcase_add_test(bad, test_options_two_modes);
    tcase_add_test(bad, test_options_ceilings);
    tcase_add_test(bad, test_options_stray_argument);
    suite_add_tcase(s, bad);
    return s;
}
