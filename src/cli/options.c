/* options.c: parsing and checking the command line; every mistake is one clear line. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "engine/device.h"
#include "engine/str.h"

void options_usage(FILE *out)
{
    fputs("Usage: clmm-tutor [OPTION]...\n"
          "Learn OpenCL matrix multiplication (C = A B, single precision) stage by stage,\n"
          "measured and verified on your own device.\n"
          "\n"
          "Modes:\n"
          "  (none)              the interactive tutor, at the last lesson, size and device\n"
          "                      (lesson 1 the first time); ? in it lists the keys\n"
          "  --lesson N          the tutor at lesson N; when the output is not a terminal,\n"
          "                      lesson N printed, then measured\n"
          "  --demo[=SECONDS]    the tutor in presenter mode: it steps through the lessons\n"
          "                      by itself (default 12 s each) until a key is pressed\n"
          "  --list              list the lessons\n"
          "  --devices           list the OpenCL platforms and devices, with each device's\n"
          "                      FP32 peak and memory bandwidth (measured the first time)\n"
          "  --ceilings          measure the device's FP32 peak and bandwidth again and\n"
          "                      keep them for --devices and the tutor; --format json\n"
          "  --show N            print lesson N, the documents it follows and its source\n"
          "  --sources           print the documents the lessons follow (lessons/SOURCES)\n"
          "  --show N --host-code\n"
          "                      print the host code of lesson N's launch as a C function\n"
          "                      (at one --size, with --param values)\n"
          "  --bench             measure lessons (all, or --lesson N) and print a table\n"
          "  --tune --lesson N   search lesson N's parameters on the device; later runs on\n"
          "                      that device use the best ones\n"
          "  --inside --lesson N look inside lesson N's built kernel: registers, memory,\n"
          "                      and the instructions of its hot loop, where the\n"
          "                      platform tells them\n"
          "  --help, --version\n"
          "\n"
          "Exercises (a workspace of your own kernels, checked by the tutor):\n"
          "  --exercises         list the exercises and how far you are with each\n"
          "  --exercise N        the tutor on exercise N: edit with e, checked on each save\n"
          "  --check N [FILE]    check exercise N (FILE: your file in the workspace);\n"
          "                      exit 0 verified and goal reached (or a speed goal not\n"
          "                      judged on a CPU), 1 not yet; --format json\n"
          "  --hint N            reveal exercise N's next hint (and print those before)\n"
          "  --reset N           put exercise N's starting kernel back (yours is kept as\n"
          "                      FILE.~1~); asks first, or --yes\n"
          "  --solution N        print exercise N's solution, after at least one check\n"
          "  --workspace DIR     where your files are (default ./clmm-exercises)\n"
          "  --predict R         the speed-up you expect, for \"predict, then measure\" steps\n"
          "  --races             --check: run your kernel under oclgrind too, for data\n"
          "                      races and accesses outside its buffers\n"
          "  --check-timeout SECS\n"
          "                      a launch of your kernel may take SECS (default: 50 times\n"
          "                      the lesson's at that size, at least 10 s)\n"
          "  --exercises-dir DIR load exercises from DIR instead of the installed ones\n"
          "\n"
          "Options:\n"
          "  --lesson N|all      the lesson(s) to measure\n"
          "  --size S            1024, a list 512,1024, or MxNxK such as 1000x700x300\n"
          "                      (default 1024)\n"
          "  --device D          index (1), platform:device (1:0) or a name fragment\n"
          "                      (h100, cpu, nvidia); default: the first GPU, else the\n"
          "                      first device; --bench: also all, or a list (0,1), side\n"
          "                      by side\n"
          "  --compare FILE      set a saved run (--bench --format json) beside this one:\n"
          "                      columns in the --bench table, ghost bars in the tutor\n"
          "  --param NAME=VALUE  set a lesson parameter (repeatable)\n"
          "  --reps N            time N launches instead of adapting to the budget\n"
          "  --budget SECONDS    time spent on timed launches per measurement (default 1)\n"
          "  --max-launch SECS   refuse launches estimated to take longer (default 10)\n"
          "  --force             run even launches estimated to take longer\n"
          "  --format F          table, csv or json (default table)\n"
          "  --lessons DIR       load lessons from DIR instead of the installed ones\n"
          "  --seed N            seed of the random inputs (default 42)\n"
          "  --no-reference      do not measure the reference libraries beside the lessons\n"
          "                      (CLBlast, the CPU's BLAS)\n"
          "  --clblast-params FILE\n"
          "                      apply the parameters CLBlast's tuners found for this\n"
          "                      device (their clblast_*_32.json; repeatable; also\n"
          "                      CLMM_TUTOR_CLBLAST_PARAMS=FILE:FILE)\n"
          "  --plot FILE.svg     --bench: also save the chart as SVG for a slide: a bar per\n"
          "                      lesson, or with several sizes GFLOPS against size\n"
          "  --check-timing      time each kernel again on the host clock over a batch of\n"
          "                      back-to-back launches, and show both figures\n"
          "  --no-tuned          use the lessons' defaults, not the tuner's parameters\n"
          "  --max-configs N     --tune: measure at most N configurations (default 100)\n"
          "  --time-limit SECS   --tune: start no configuration after SECS (default 300);\n"
          "                      a search stopped by a limit resumes where it ended\n"
          "  --restart           --tune: forget an earlier, unfinished search\n"
          "  --no-color          the tutor without colours (also when NO_COLOR is set)\n"
          "  --binary FILE       --inside: also save the program binary (PTX on NVIDIA) to\n"
          "                      FILE, a new file (an existing one is never replaced)\n"
          "\n"
          "Exit status: 0 all verified, 1 a run was wrong, refused or failed, 2 bad\n"
          "arguments, 3 no usable OpenCL device or unreadable/malformed lessons; see\n"
          "clmm-tutor(1).\n", out);
}

static int parse_positive_double(const char *option, const char *text, double *out, struct error *e)
{
    char *end;

    errno = 0;
    *out = strtod(text, &end);
    if (end == text || *end != '\0' || errno || !(*out > 0.0) || *out > 1e6) {
        error_set(e, "%s: \"%s\" is not a positive number of seconds", option, text);
        return -1;
    }
    return 0;
}

static int parse_lesson(const char *option, const char *text, int allow_all, int *lesson, struct error *e)
{
    long long n;

    if (allow_all && strcmp(text, "all") == 0) {
        *lesson = LESSON_ALL;
        return 0;
    }
    if (str_to_ll(text, &n) < 0 || n < 0 || n > 99) {
        error_set(e, "%s: \"%s\" is not a lesson number (0 to 99%s; see --list)", option, text,
                  allow_all ? ", or all" : "");
        return -1;
    }
    *lesson = (int)n;
    return 0;
}

/* A file name given to option: not the next option, taken for it by mistake ("--plot
   --no-reference" would write a file named --no-reference). */
static int parse_file(const char *option, const char *text, const char *what, const char **file, struct error *e)
{
    if (text[0] == '-' && text[1] == '-') {
        error_set(e, "%s needs %s before %s (a file named so: ./%s)", option, what, text, text);
        return -1;
    }
    *file = text;
    return 0;
}

static int parse_exercise(const char *option, const char *text, int *exercise, struct error *e)
{
    long long n;

    if (text[0] == '-' && text[1] == '-') {
        error_set(e, "%s needs an exercise number before %s (see --exercises)", option, text);
        return -1;
    }
    if (str_to_ll(text, &n) < 0 || n < 1 || n > 99) {
        error_set(e, "%s: \"%s\" is not an exercise number (1 to 99; see --exercises)", option, text);
        return -1;
    }
    *exercise = (int)n;
    return 0;
}

static int parse_param(const char *text, struct options *opts, struct error *e)
{
    const char *eq = strchr(text, '=');
    struct param_override *p;

    if (opts->nparams == OPTIONS_MAX_PARAMS) {
        error_set(e, "--param: at most %d parameters", OPTIONS_MAX_PARAMS);
        return -1;
    }
    p = &opts->params[opts->nparams];
    if (eq && (size_t)(eq - text) >= sizeof p->name) {
        error_set(e, "--param: the name \"%.16s...\" is too long: %zu characters, at most %zu", text,
                  (size_t)(eq - text), sizeof p->name - 1);
        return -1;
    }
    if (!eq || eq == text || str_to_ll(eq + 1, &p->value) < 0) {
        error_set(e, "--param: expected NAME=VALUE with an integer value, such as TS=32, not \"%s\"", text);
        return -1;
    }
    snprintf(p->name, sizeof p->name, "%.*s", (int)(eq - text), text);
    opts->nparams++;
    return 0;
}

static int set_mode(struct options *opts, enum mode mode, const char *option, struct error *e)
{
    if (opts->mode != MODE_TUTOR && opts->mode != mode) {
        error_set(e, "%s cannot be combined with another mode (--list, --devices, --show, --sources, --bench, --tune, "
                     "--inside, --exercises, --check, --hint, --reset, --solution, --ceilings)", option);
        return -1;
    }
    opts->mode = mode;
    return 0;
}

/* --inside looks at one lesson at one size; --binary goes with it. */
static int check_inside(const struct options *opts, struct error *e)
{
    if (opts->binary_file && opts->mode != MODE_INSIDE) {
        error_set(e, "--binary FILE goes with --inside (it saves the program binary of the kernel looked at)");
        return -1;
    }
    if (opts->binary_file && !opts->binary_file[0]) {
        error_set(e, "--binary: the file name is empty");
        return -1;
    }
    if (opts->mode != MODE_INSIDE)
        return 0;
    if (opts->lesson < 0) {
        error_set(e, "--inside needs one lesson: --lesson N");
        return -1;
    }
    if (opts->nsizes > 1) {
        error_set(e, "--inside looks at one size: give --size one size");
        return -1;
    }
    return 0;
}

/* Several devices are for --bench; a saved run goes beside --bench or the tutor. */
static int check_devices(const struct options *opts, struct error *e)
{
    if (opts->device && device_spec_is_list(opts->device)) {
        if (opts->mode != MODE_BENCH) {
            error_set(e, "--device %s: several devices are measured side by side by --bench only; "
                         "the other modes use one device (an index, platform:device or a name)", opts->device);
            return -1;
        }
        if (device_spec_check(opts->device, e) < 0)
            return -1;
    }
    if (opts->compare_file && opts->mode != MODE_BENCH && opts->mode != MODE_TUTOR) {
        error_set(e, "--compare FILE goes with --bench or the tutor (it sets a saved run beside theirs)");
        return -1;
    }
    if (opts->compare_file && !opts->compare_file[0]) {
        error_set(e, "--compare: the file name is empty");
        return -1;
    }
    return 0;
}

/* --plot saves the chart of a --bench run, of one device. */
static int check_plot(const struct options *opts, struct error *e)
{
    if (!opts->plot_file)
        return 0;
    if (opts->mode != MODE_BENCH) {
        error_set(e, "--plot FILE goes with --bench (it saves the chart of the lessons measured)");
        return -1;
    }
    if (!opts->plot_file[0]) {
        error_set(e, "--plot: the file name is empty");
        return -1;
    }
    if (opts->device && device_spec_is_list(opts->device)) {
        error_set(e, "--plot draws the run of one device: give --device one device, or leave --plot out "
                     "to see several side by side");
        return -1;
    }
    return 0;
}

/* --clblast-params tunes the CLBlast row of --bench and the tutor, in a build with CLBlast. */
static int check_clblast(const struct options *opts, struct error *e)
{
    if (opts->nclblast_files == 0)
        return 0;
#ifndef HAVE_CLBLAST
    error_set(e, "--clblast-params: this build has no CLBlast, so no reference row to tune (install it, Debian: "
                 "libclblast-dev, then ./configure again)");
    return -1;
#endif
    if (opts->mode != MODE_BENCH && opts->mode != MODE_TUTOR) {
        error_set(e, "--clblast-params goes with --bench and the tutor: it tunes their CLBlast row");
        return -1;
    }
    if (opts->no_reference) {
        error_set(e, "--clblast-params and --no-reference: the parameters are for the CLBlast row that "
                     "--no-reference leaves out");
        return -1;
    }
    return 0;
}

/* The argument that holds an unknown short option: getopt_long stops at its first letter (the
   program has no short options), and has moved past the argument (from index before to
   after) only when it is that letter alone. */
static const char *short_option_argument(char **argv, int before, int after, int letter)
{
    const char *last = argv[after - 1];

    if (before < 1)
        before = 1;             /* optind is 0 before the first call */
    if ((after > before && last[0] == '-' && last[1] == letter && last[2] == '\0') || !argv[after])
        return last;
    return argv[after];
}

/* ---- the options: one function each, in the table below ---- */

/* What an option leaves for later: the lesson of --show, taken once the mode is known. */
struct parsing {
    int show;
};

static int count_option(const char *option, const char *text, long long max, long long *out, struct error *e)
{
    if (str_to_ll(text, out) < 0 || *out < 1 || *out > max) {
        error_set(e, "%s: \"%s\" is not a count from 1 to %lld", option, text, max);
        return -1;
    }
    return 0;
}

static int opt_show(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)o;
    return parse_lesson("--show", arg, 0, &p->show, e);
}

static int opt_max_configs(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    long long n;

    (void)p;
    if (count_option("--max-configs", arg, 1000000, &n, e) < 0)
        return -1;
    o->max_configs = (size_t)n;
    return 0;
}

static int opt_time_limit(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_positive_double("--time-limit", arg, &o->time_limit_s, e);
}

static int opt_restart(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->restart = true;
    return 0;
}

static int opt_no_tuned(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->no_tuned = true;
    return 0;
}

static int opt_check_timing(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->measure.check_timing = true;
    return 0;
}

static int opt_lesson(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_lesson("--lesson", arg, 1, &o->lesson, e);
}

static int opt_size(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    o->size_given = true;
    if (sizes_parse(arg, o->sizes, &o->nsizes, e) < 0) {
        error_prefix(e, "--size");
        return -1;
    }
    return 0;
}

static int opt_no_color(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->no_color = true;
    return 0;
}

static int opt_demo(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    o->demo_s = DEMO_DEFAULT_S;
    return arg ? parse_positive_double("--demo", arg, &o->demo_s, e) : 0;
}

static int opt_reps(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    long long n;

    (void)p;
    if (count_option("--reps", arg, 100000, &n, e) < 0)
        return -1;
    o->measure.reps = (int)n;
    o->budget_given = true;
    return 0;
}

static int opt_format(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    if (strcmp(arg, "table") == 0)
        o->format = FORMAT_TABLE;
    else if (strcmp(arg, "csv") == 0)
        o->format = FORMAT_CSV;
    else if (strcmp(arg, "json") == 0)
        o->format = FORMAT_JSON;
    else {
        error_set(e, "--format: \"%s\" is not a format (table, csv or json)", arg);
        return -1;
    }
    return 0;
}

static int opt_device(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p, (void)e;
    o->device = arg;
    return 0;
}

static int opt_compare(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_file("--compare", arg, "a saved run's file (FILE.json)", &o->compare_file, e);
}

static int opt_lessons(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p, (void)e;
    o->lessons_dir = arg;
    return 0;
}

static int opt_param(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_param(arg, o, e);
}

static int opt_budget(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    o->budget_given = true;
    return parse_positive_double("--budget", arg, &o->measure.budget_s, e);
}

static int opt_max_launch(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_positive_double("--max-launch", arg, &o->measure.launch_limit_s, e);
}

static int opt_force(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->measure.force = true;
    return 0;
}

static int opt_seed(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    long long n;

    (void)p;
    if (str_to_ll(arg, &n) < 0 || n < 0) {
        error_set(e, "--seed: \"%s\" is not a non-negative integer", arg);
        return -1;
    }
    o->measure.seed = (uint64_t)n;
    return 0;
}

static int opt_no_reference(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->no_reference = true;
    return 0;
}

static int opt_clblast_params(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    if (o->nclblast_files == OPTIONS_MAX_CLBLAST_FILES) {
        error_set(e, "--clblast-params: at most %d files", OPTIONS_MAX_CLBLAST_FILES);
        return -1;
    }
    o->clblast_files[o->nclblast_files++] = arg;
    return 0;
}

static int opt_exercise(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_exercise("--exercise", arg, &o->exercise, e);
}

static int opt_check(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_exercise("--check", arg, &o->exercise, e);
}

static int opt_reset(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_exercise("--reset", arg, &o->exercise, e);
}

static int opt_hint(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_exercise("--hint", arg, &o->exercise, e);
}

static int opt_solution(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_exercise("--solution", arg, &o->exercise, e);
}

static int opt_workspace(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p, (void)e;
    o->workspace = arg;
    return 0;
}

static int opt_exercises_dir(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p, (void)e;
    o->exercises_dir = arg;
    return 0;
}

static int opt_predict(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    char *end;

    (void)p;
    errno = 0;
    o->prediction = strtod(arg, &end);
    o->has_prediction = true;
    if (end == arg || *end != '\0' || errno || !(o->prediction > 0) || o->prediction > 1000) {
        error_set(e, "--predict: \"%s\" is not a speed-up (a number such as 1.5, meaning 1.5 times as "
                     "fast)", arg);
        return -1;
    }
    return 0;
}

static int opt_races(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->races = true;
    return 0;
}

static int opt_check_timeout(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_positive_double("--check-timeout", arg, &o->check_timeout_s, e);
}

static int opt_yes(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->yes = true;
    return 0;
}

static int opt_binary(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p, (void)e;
    o->binary_file = arg;
    return 0;
}

static int opt_plot(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)p;
    return parse_file("--plot", arg, "a file name (FILE.svg)", &o->plot_file, e);
}

static int opt_host_code(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->host_code = true;
    return 0;
}

/* --help and --version: the mode, whatever else was given; the options after it are not read. */
static int opt_help(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->mode = MODE_HELP;
    return 1;
}

static int opt_version(struct options *o, const char *arg, struct parsing *p, struct error *e)
{
    (void)arg, (void)p, (void)e;
    o->mode = MODE_VERSION;
    return 1;
}

#define NO_MODE (-1)

/* The options: the name, whether it takes a value (getopt_long's has_arg), the mode it
   selects (NO_MODE: none; two modes cannot be combined), and the function that reads its
   value (NULL: the mode alone). It returns 0, -1 on an error in e, or 1 to read no further.
   A new option is a line here, its function, and its line in options_usage and the
   manual. */
static const struct option_spec {
    const char *name;
    int has_arg;
    int mode;
    int (*set)(struct options *o, const char *arg, struct parsing *p, struct error *e);
} option_table[] = {
    { "list", no_argument, MODE_LIST, NULL },
    { "devices", no_argument, MODE_DEVICES, NULL },
    { "show", required_argument, MODE_SHOW, opt_show },
    { "sources", no_argument, MODE_SOURCES, NULL },
    { "bench", no_argument, MODE_BENCH, NULL },
    { "lesson", required_argument, NO_MODE, opt_lesson },
    { "size", required_argument, NO_MODE, opt_size },
    { "reps", required_argument, NO_MODE, opt_reps },
    { "format", required_argument, NO_MODE, opt_format },
    { "device", required_argument, NO_MODE, opt_device },
    { "compare", required_argument, NO_MODE, opt_compare },
    { "lessons", required_argument, NO_MODE, opt_lessons },
    { "param", required_argument, NO_MODE, opt_param },
    { "budget", required_argument, NO_MODE, opt_budget },
    { "max-launch", required_argument, NO_MODE, opt_max_launch },
    { "force", no_argument, NO_MODE, opt_force },
    { "seed", required_argument, NO_MODE, opt_seed },
    { "no-reference", no_argument, NO_MODE, opt_no_reference },
    { "clblast-params", required_argument, NO_MODE, opt_clblast_params },
    { "check-timing", no_argument, NO_MODE, opt_check_timing },
    { "tune", no_argument, MODE_TUNE, NULL },
    { "max-configs", required_argument, NO_MODE, opt_max_configs },
    { "time-limit", required_argument, NO_MODE, opt_time_limit },
    { "restart", no_argument, NO_MODE, opt_restart },
    { "no-tuned", no_argument, NO_MODE, opt_no_tuned },
    { "demo", optional_argument, NO_MODE, opt_demo },
    { "no-color", no_argument, NO_MODE, opt_no_color },
    { "exercises", no_argument, MODE_EXERCISES, NULL },
    { "exercise", required_argument, NO_MODE, opt_exercise },
    { "check", required_argument, MODE_CHECK, opt_check },
    { "reset", required_argument, MODE_RESET, opt_reset },
    { "hint", required_argument, MODE_HINT, opt_hint },
    { "solution", required_argument, MODE_SOLUTION, opt_solution },
    { "workspace", required_argument, NO_MODE, opt_workspace },
    { "exercises-dir", required_argument, NO_MODE, opt_exercises_dir },
    { "predict", required_argument, NO_MODE, opt_predict },
    { "check-timeout", required_argument, NO_MODE, opt_check_timeout },
    { "races", no_argument, NO_MODE, opt_races },
    { "yes", no_argument, NO_MODE, opt_yes },
    { "ceilings", no_argument, MODE_CEILINGS, NULL },
    { "inside", no_argument, MODE_INSIDE, NULL },
    { "binary", required_argument, NO_MODE, opt_binary },
    { "host-code", no_argument, NO_MODE, opt_host_code },
    { "plot", required_argument, NO_MODE, opt_plot },
    { "help", no_argument, NO_MODE, opt_help },
    { "version", no_argument, NO_MODE, opt_version },
};
#define OPTION_COUNT (sizeof option_table / sizeof option_table[0])
/* getopt_long's value of option_table[i]: above every character, so that it is never a short
   option's letter. */
#define OPTION_VALUE 256

/* ---- the options together: what cannot be combined ---- */

static bool exercise_mode(const struct options *o)
{
    return o->mode == MODE_CHECK || o->mode == MODE_RESET || o->mode == MODE_SOLUTION || o->mode == MODE_HINT;
}

static bool exercise_with_lesson(const struct options *o)
{
    return o->exercise != EXERCISE_UNSET && o->mode == MODE_TUTOR && o->lesson != LESSON_UNSET;
}

static bool exercise_with_mode(const struct options *o)
{
    return o->exercise != EXERCISE_UNSET && o->mode != MODE_TUTOR && !exercise_mode(o);
}

static bool check_sizes(const struct options *o)
{
    return o->mode == MODE_CHECK && o->nsizes > 1;
}

static bool predict_alone(const struct options *o)
{
    return o->has_prediction && o->mode != MODE_CHECK;
}

static bool races_alone(const struct options *o)
{
    return o->races && o->mode != MODE_CHECK;
}

static bool check_timeout_alone(const struct options *o)
{
    return o->check_timeout_s > 0 && o->mode != MODE_CHECK && !(o->mode == MODE_TUTOR && o->exercise != EXERCISE_UNSET);
}

static bool format_unused(const struct options *o)
{
    return o->format != FORMAT_TABLE && o->mode != MODE_BENCH &&
           !(o->format == FORMAT_JSON && (o->mode == MODE_CHECK || o->mode == MODE_EXERCISES ||
                                          o->mode == MODE_CEILINGS || o->mode == MODE_INSIDE));
}

static bool host_code_alone(const struct options *o)
{
    return o->host_code && o->mode != MODE_SHOW;
}

static bool host_code_sizes(const struct options *o)
{
    return o->host_code && o->nsizes > 1;
}

static bool tune_no_lesson(const struct options *o)
{
    return o->mode == MODE_TUNE && o->lesson < 0;
}

static bool tune_params(const struct options *o)
{
    return o->mode == MODE_TUNE && o->nparams > 0;
}

static bool tune_sizes(const struct options *o)
{
    return o->mode == MODE_TUNE && o->nsizes > 1;
}

static bool all_without_bench(const struct options *o)
{
    return o->lesson == LESSON_ALL && o->mode != MODE_BENCH;
}

static bool demo_with_mode(const struct options *o)
{
    return o->demo_s > 0 && o->mode != MODE_TUTOR;
}

static bool tutor_sizes(const struct options *o)
{
    return o->mode == MODE_TUTOR && o->nsizes > 1;
}

/* What the options may not be together: the test, and what is said, in the order checked
   (check_inside, check_plot, check_clblast and check_devices come after the format's). */
static const struct option_rule {
    bool (*broken)(const struct options *o);
    const char *message;
} option_rules[] = {
    { exercise_with_lesson, "--exercise and --lesson: the tutor opens one of them" },
    { exercise_with_mode, "--exercise opens the tutor on an exercise: it cannot be combined with another mode" },
    { check_sizes, "--check measures the speed at one size: give --size one size" },
    { predict_alone, "--predict goes with --check N (in the tutor, the exercise asks for it)" },
    { races_alone, "--races goes with --check N (it runs your kernel under oclgrind)" },
    { check_timeout_alone, "--check-timeout goes with --check N or --exercise N (it limits a launch of your kernel)" },
    { format_unused, "--format applies to --bench (and json to --check, --exercises, --ceilings and --inside); "
                     "the other modes print text" },
};
static const struct option_rule option_rules_late[] = {
    { host_code_alone, "--host-code goes with --show N (it prints the host code of lesson N's launch)" },
    { host_code_sizes, "--host-code writes the launch at one size: give --size one size" },
    { tune_no_lesson, "--tune needs one lesson: --lesson N" },
    { tune_params, "--param cannot be combined with --tune, which tries every allowed value" },
    { tune_sizes, "--tune searches at one size; give --size one size" },
    { all_without_bench, "--lesson all needs --bench (one lesson at a time otherwise)" },
    { demo_with_mode, "--demo is a way to run the interactive tutor: it cannot be combined with other modes" },
    { tutor_sizes, "the tutor shows one size at a time: give --size one size" },
};

static int check_rules(const struct option_rule *rules, size_t n, const struct options *o, struct error *e)
{
    for (size_t i = 0; i < n; i++)
        if (rules[i].broken(o)) {
            error_set(e, "%s", rules[i].message);
            return -1;
        }
    return 0;
}

/* What getopt_long says of an argument it could not take. */
static void bad_option(char **argv, int before, struct error *e)
{
    /* getopt_long sets optopt to a long option's value when its argument is missing, and to
       the letter of an unknown short option. */
    if (optopt >= OPTION_VALUE && strchr(argv[optind - 1], '='))
        error_set(e, "%.*s takes no value", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
    else if (optopt >= OPTION_VALUE)
        error_set(e, "%s needs a value", argv[optind - 1]);
    else if (optopt != 0)
        error_set(e, "unknown option \"%s\" (the options are long, with two dashes: --help lists them)",
                  short_option_argument(argv, before, optind, optopt));
    else
        error_set(e, "unknown or ambiguous option \"%s\"", argv[optind - 1]);
}

static void defaults(struct options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->mode = MODE_TUTOR;
    opts->lesson = LESSON_UNSET;
    opts->exercise = EXERCISE_UNSET;
    opts->format = FORMAT_TABLE;
    measure_config_defaults(&opts->measure);
    opts->max_configs = 100;
    opts->time_limit_s = 300.0;
}

int options_parse(int argc, char **argv, struct options *opts, struct error *e)
{
    struct option longs[OPTION_COUNT + 1];
    struct parsing p = { -1 };
    int c, before;

    defaults(opts);
    for (size_t i = 0; i < OPTION_COUNT; i++)
        longs[i] = (struct option){ option_table[i].name, option_table[i].has_arg, NULL, OPTION_VALUE + (int)i };
    longs[OPTION_COUNT] = (struct option){ NULL, 0, NULL, 0 };
    opterr = 0;
    optind = 0;                 /* 0, not 1: glibc then forgets a cluster left half read (-xy) */
    while ((before = optind, c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        const struct option_spec *s;
        char option[40];
        int rc = 0;

        if (c < OPTION_VALUE || c >= OPTION_VALUE + (int)OPTION_COUNT) {
            bad_option(argv, before, e);
            return -1;
        }
        s = &option_table[c - OPTION_VALUE];
        snprintf(option, sizeof option, "--%s", s->name);
        if (s->mode != NO_MODE)
            rc = set_mode(opts, (enum mode)s->mode, option, e);
        if (rc == 0 && s->set)
            rc = s->set(opts, optarg, &p, e);
        if (rc < 0)
            return -1;
        if (rc > 0)
            return 0;
    }
    if (opts->mode == MODE_CHECK && optind < argc)
        opts->check_file = argv[optind++];
    if (optind < argc) {
        error_set(e, "unexpected argument \"%s\" (options start with --%s)", argv[optind],
                  opts->mode == MODE_CHECK ? "; --check takes one FILE" : "");
        return -1;
    }
    if (check_rules(option_rules, sizeof option_rules / sizeof option_rules[0], opts, e) < 0)
        return -1;
    if (opts->mode == MODE_SHOW)
        opts->lesson = p.show;
    if (check_inside(opts, e) < 0 || check_plot(opts, e) < 0 || check_clblast(opts, e) < 0 || check_devices(opts, e) < 0)
        return -1;
    if (check_rules(option_rules_late, sizeof option_rules_late / sizeof option_rules_late[0], opts, e) < 0)
        return -1;
    if (opts->nsizes == 0) {
        opts->sizes[0] = (struct gemm_size){ 1024, 1024, 1024 };
        opts->nsizes = 1;
    }
    return 0;
}
