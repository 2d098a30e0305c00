/* options.c: parsing and checking the command line; every mistake is one clear line. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "engine/device.h"
#include "engine/str.h"

enum {
    OPT_LIST = 256, OPT_DEVICES, OPT_SHOW, OPT_BENCH, OPT_LESSON, OPT_SIZE, OPT_REPS, OPT_FORMAT,
    OPT_DEVICE, OPT_LESSONS, OPT_PARAM, OPT_BUDGET, OPT_MAX_LAUNCH, OPT_FORCE, OPT_SEED,
    OPT_NO_REFERENCE, OPT_CHECK_TIMING, OPT_TUNE, OPT_MAX_CONFIGS, OPT_TIME_LIMIT, OPT_RESTART, OPT_NO_TUNED, OPT_DEMO, OPT_NO_COLOR, OPT_HELP,
    OPT_VERSION, OPT_EXERCISES, OPT_EXERCISE, OPT_CHECK, OPT_RESET, OPT_SOLUTION, OPT_WORKSPACE, OPT_EXERCISES_DIR,
    OPT_PREDICT, OPT_YES, OPT_HINT, OPT_CHECK_TIMEOUT, OPT_RACES,
    OPT_CEILINGS, OPT_INSIDE, OPT_BINARY, OPT_SOURCES, OPT_HOST_CODE, OPT_CLBLAST_PARAMS, OPT_COMPARE, OPT_PLOT
};

static const struct option long_options[] = {
    { "list", no_argument, NULL, OPT_LIST },
    { "devices", no_argument, NULL, OPT_DEVICES },
    { "show", required_argument, NULL, OPT_SHOW },
    { "sources", no_argument, NULL, OPT_SOURCES },
    { "bench", no_argument, NULL, OPT_BENCH },
    { "lesson", required_argument, NULL, OPT_LESSON },
    { "size", required_argument, NULL, OPT_SIZE },
    { "reps", required_argument, NULL, OPT_REPS },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "device", required_argument, NULL, OPT_DEVICE },
    { "compare", required_argument, NULL, OPT_COMPARE },
    { "lessons", required_argument, NULL, OPT_LESSONS },
    { "param", required_argument, NULL, OPT_PARAM },
    { "budget", required_argument, NULL, OPT_BUDGET },
    { "max-launch", required_argument, NULL, OPT_MAX_LAUNCH },
    { "force", no_argument, NULL, OPT_FORCE },
    { "seed", required_argument, NULL, OPT_SEED },
    { "no-reference", no_argument, NULL, OPT_NO_REFERENCE },
    { "clblast-params", required_argument, NULL, OPT_CLBLAST_PARAMS },
    { "check-timing", no_argument, NULL, OPT_CHECK_TIMING },
    { "tune", no_argument, NULL, OPT_TUNE },
    { "max-configs", required_argument, NULL, OPT_MAX_CONFIGS },
    { "time-limit", required_argument, NULL, OPT_TIME_LIMIT },
    { "restart", no_argument, NULL, OPT_RESTART },
    { "no-tuned", no_argument, NULL, OPT_NO_TUNED },
    { "demo", optional_argument, NULL, OPT_DEMO },
    { "no-color", no_argument, NULL, OPT_NO_COLOR },
    { "exercises", no_argument, NULL, OPT_EXERCISES },
    { "exercise", required_argument, NULL, OPT_EXERCISE },
    { "check", required_argument, NULL, OPT_CHECK },
    { "reset", required_argument, NULL, OPT_RESET },
    { "hint", required_argument, NULL, OPT_HINT },
    { "solution", required_argument, NULL, OPT_SOLUTION },
    { "workspace", required_argument, NULL, OPT_WORKSPACE },
    { "exercises-dir", required_argument, NULL, OPT_EXERCISES_DIR },
    { "predict", required_argument, NULL, OPT_PREDICT },
    { "check-timeout", required_argument, NULL, OPT_CHECK_TIMEOUT },
    { "races", no_argument, NULL, OPT_RACES },
    { "yes", no_argument, NULL, OPT_YES },
    { "ceilings", no_argument, NULL, OPT_CEILINGS },
    { "inside", no_argument, NULL, OPT_INSIDE },
    { "binary", required_argument, NULL, OPT_BINARY },
    { "host-code", no_argument, NULL, OPT_HOST_CODE },
    { "plot", required_argument, NULL, OPT_PLOT },
    { "help", no_argument, NULL, OPT_HELP },
    { "version", no_argument, NULL, OPT_VERSION },
    { NULL, 0, NULL, 0 },
};

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

int options_parse(int argc, char **argv, struct options *opts, struct error *e)
{
    int c, show = -1, before;
    long long n;

    memset(opts, 0, sizeof *opts);
    opts->mode = MODE_TUTOR;
    opts->lesson = LESSON_UNSET;
    opts->exercise = EXERCISE_UNSET;
    opts->format = FORMAT_TABLE;
    measure_config_defaults(&opts->measure);
    opts->max_configs = 100;
    opts->time_limit_s = 300.0;
    opterr = 0;
    optind = 0;                 /* 0, not 1: glibc then forgets a cluster left half read (-xy) */
    while ((before = optind, c = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case OPT_LIST: rc = set_mode(opts, MODE_LIST, "--list", e); break;
        case OPT_DEVICES: rc = set_mode(opts, MODE_DEVICES, "--devices", e); break;
        case OPT_CEILINGS: rc = set_mode(opts, MODE_CEILINGS, "--ceilings", e); break;
        case OPT_SHOW:
            rc = set_mode(opts, MODE_SHOW, "--show", e);
            if (rc == 0)
                rc = parse_lesson("--show", optarg, 0, &show, e);
            break;
        case OPT_SOURCES: rc = set_mode(opts, MODE_SOURCES, "--sources", e); break;
        case OPT_BENCH: rc = set_mode(opts, MODE_BENCH, "--bench", e); break;
        case OPT_TUNE: rc = set_mode(opts, MODE_TUNE, "--tune", e); break;
        case OPT_MAX_CONFIGS:
            if (str_to_ll(optarg, &n) < 0 || n < 1 || n > 1000000) {
                error_set(e, "--max-configs: \"%s\" is not a count from 1 to 1000000", optarg);
                rc = -1;
            }
            opts->max_configs = (size_t)n;
            break;
        case OPT_TIME_LIMIT:
            rc = parse_positive_double("--time-limit", optarg, &opts->time_limit_s, e);
            break;
        case OPT_RESTART: opts->restart = true; break;
        case OPT_NO_TUNED: opts->no_tuned = true; break;
        case OPT_CHECK_TIMING: opts->measure.check_timing = true; break;
        case OPT_LESSON: rc = parse_lesson("--lesson", optarg, 1, &opts->lesson, e); break;
        case OPT_SIZE:
            if ((rc = sizes_parse(optarg, opts->sizes, &opts->nsizes, e)) < 0)
                error_prefix(e, "--size");
            opts->size_given = true;
            break;
        case OPT_NO_COLOR: opts->no_color = true; break;
        case OPT_DEMO:
            opts->demo_s = DEMO_DEFAULT_S;
            if (optarg)
                rc = parse_positive_double("--demo", optarg, &opts->demo_s, e);
            break;
        case OPT_REPS:
            if (str_to_ll(optarg, &n) < 0 || n < 1 || n > 100000) {
                error_set(e, "--reps: \"%s\" is not a count from 1 to 100000", optarg);
                rc = -1;
            }
            opts->measure.reps = (int)n;
            opts->budget_given = true;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "table") == 0)
                opts->format = FORMAT_TABLE;
            else if (strcmp(optarg, "csv") == 0)
                opts->format = FORMAT_CSV;
            else if (strcmp(optarg, "json") == 0)
                opts->format = FORMAT_JSON;
            else {
                error_set(e, "--format: \"%s\" is not a format (table, csv or json)", optarg);
                rc = -1;
            }
            break;
        case OPT_DEVICE: opts->device = optarg; break;
        case OPT_COMPARE:
            if (parse_file("--compare", optarg, "a saved run's file (FILE.json)", &opts->compare_file, e) < 0)
                return -1;
            break;
        case OPT_LESSONS: opts->lessons_dir = optarg; break;
        case OPT_PARAM: rc = parse_param(optarg, opts, e); break;
        case OPT_BUDGET:
            rc = parse_positive_double("--budget", optarg, &opts->measure.budget_s, e);
            opts->budget_given = true;
            break;
        case OPT_MAX_LAUNCH:
            rc = parse_positive_double("--max-launch", optarg, &opts->measure.launch_limit_s, e);
            break;
        case OPT_FORCE: opts->measure.force = true; break;
        case OPT_SEED:
            if (str_to_ll(optarg, &n) < 0 || n < 0) {
                error_set(e, "--seed: \"%s\" is not a non-negative integer", optarg);
                rc = -1;
            }
            opts->measure.seed = (uint64_t)n;
            break;
        case OPT_NO_REFERENCE: opts->no_reference = true; break;
        case OPT_CLBLAST_PARAMS:
            if (opts->nclblast_files == OPTIONS_MAX_CLBLAST_FILES) {
                error_set(e, "--clblast-params: at most %d files", OPTIONS_MAX_CLBLAST_FILES);
                rc = -1;
            } else
                opts->clblast_files[opts->nclblast_files++] = optarg;
            break;
        case OPT_EXERCISES: rc = set_mode(opts, MODE_EXERCISES, "--exercises", e); break;
        case OPT_EXERCISE: rc = parse_exercise("--exercise", optarg, &opts->exercise, e); break;
        case OPT_CHECK:
            rc = set_mode(opts, MODE_CHECK, "--check", e);
            if (rc == 0)
                rc = parse_exercise("--check", optarg, &opts->exercise, e);
            break;
        case OPT_RESET:
            rc = set_mode(opts, MODE_RESET, "--reset", e);
            if (rc == 0)
                rc = parse_exercise("--reset", optarg, &opts->exercise, e);
            break;
        case OPT_HINT:
            rc = set_mode(opts, MODE_HINT, "--hint", e);
            if (rc == 0)
                rc = parse_exercise("--hint", optarg, &opts->exercise, e);
            break;
        case OPT_SOLUTION:
            rc = set_mode(opts, MODE_SOLUTION, "--solution", e);
            if (rc == 0)
                rc = parse_exercise("--solution", optarg, &opts->exercise, e);
            break;
        case OPT_WORKSPACE: opts->workspace = optarg; break;
        case OPT_EXERCISES_DIR: opts->exercises_dir = optarg; break;
        case OPT_PREDICT: {
            char *end;
            errno = 0;
            opts->prediction = strtod(optarg, &end);
            if (end == optarg || *end != '\0' || errno || !(opts->prediction > 0) || opts->prediction > 1000) {
                error_set(e, "--predict: \"%s\" is not a speed-up (a number such as 1.5, meaning 1.5 times as "
                             "fast)", optarg);
                rc = -1;
            }
            opts->has_prediction = true;
            break;
        }
        case OPT_RACES: opts->races = true; break;
        case OPT_CHECK_TIMEOUT:
            rc = parse_positive_double("--check-timeout", optarg, &opts->check_timeout_s, e);
            break;
        case OPT_YES: opts->yes = true; break;
        case OPT_INSIDE: rc = set_mode(opts, MODE_INSIDE, "--inside", e); break;
        case OPT_BINARY: opts->binary_file = optarg; break;
        case OPT_PLOT:
            if (parse_file("--plot", optarg, "a file name (FILE.svg)", &opts->plot_file, e) < 0)
                return -1;
            break;
        case OPT_HOST_CODE: opts->host_code = true; break;
        case OPT_HELP: opts->mode = MODE_HELP; return 0;
        case OPT_VERSION: opts->mode = MODE_VERSION; return 0;
        case ':':
            error_set(e, "%s needs a value", argv[optind - 1]);
            return -1;
        default:
            /* getopt_long sets optopt to a long option's value when its argument is missing,
               and to the letter of an unknown short option. */
            if (optopt >= OPT_LIST && strchr(argv[optind - 1], '='))
                error_set(e, "%.*s takes no value", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
            else if (optopt >= OPT_LIST)
                error_set(e, "%s needs a value", argv[optind - 1]);
            else if (optopt != 0)
                error_set(e, "unknown option \"%s\" (the options are long, with two dashes: --help lists them)",
                          short_option_argument(argv, before, optind, optopt));
            else
                error_set(e, "unknown or ambiguous option \"%s\"", argv[optind - 1]);
            return -1;
        }
        if (rc < 0)
            return -1;
    }
    if (opts->mode == MODE_CHECK && optind < argc)
        opts->check_file = argv[optind++];
    if (optind < argc) {
        error_set(e, "unexpected argument \"%s\" (options start with --%s)", argv[optind],
                  opts->mode == MODE_CHECK ? "; --check takes one FILE" : "");
        return -1;
    }
    if (opts->exercise != EXERCISE_UNSET && opts->mode == MODE_TUTOR && opts->lesson != LESSON_UNSET) {
        error_set(e, "--exercise and --lesson: the tutor opens one of them");
        return -1;
    }
    if (opts->exercise != EXERCISE_UNSET && opts->mode != MODE_TUTOR && opts->mode != MODE_CHECK &&
        opts->mode != MODE_RESET && opts->mode != MODE_SOLUTION && opts->mode != MODE_HINT) {
        error_set(e, "--exercise opens the tutor on an exercise: it cannot be combined with another mode");
        return -1;
    }
    if (opts->mode == MODE_CHECK && opts->nsizes > 1) {
        error_set(e, "--check measures the speed at one size: give --size one size");
        return -1;
    }
    if (opts->has_prediction && opts->mode != MODE_CHECK) {
        error_set(e, "--predict goes with --check N (in the tutor, the exercise asks for it)");
        return -1;
    }
    if (opts->races && opts->mode != MODE_CHECK) {
        error_set(e, "--races goes with --check N (it runs your kernel under oclgrind)");
        return -1;
    }
    if (opts->check_timeout_s > 0 && opts->mode != MODE_CHECK &&
        !(opts->mode == MODE_TUTOR && opts->exercise != EXERCISE_UNSET)) {
        error_set(e, "--check-timeout goes with --check N or --exercise N (it limits a launch of your kernel)");
        return -1;
    }
    if (opts->mode == MODE_SHOW)
        opts->lesson = show;
    if (opts->format != FORMAT_TABLE && opts->mode != MODE_BENCH &&
        !(opts->format == FORMAT_JSON && (opts->mode == MODE_CHECK || opts->mode == MODE_EXERCISES ||
                                          opts->mode == MODE_CEILINGS || opts->mode == MODE_INSIDE))) {
        error_set(e, "--format applies to --bench (and json to --check, --exercises, --ceilings and --inside); "
                     "the other modes print text");
        return -1;
    }
    if (check_inside(opts, e) < 0 || check_plot(opts, e) < 0 || check_clblast(opts, e) < 0 || check_devices(opts, e) < 0)
        return -1;
    if (opts->host_code && opts->mode != MODE_SHOW) {
        error_set(e, "--host-code goes with --show N (it prints the host code of lesson N's launch)");
        return -1;
    }
    if (opts->host_code && opts->nsizes > 1) {
        error_set(e, "--host-code writes the launch at one size: give --size one size");
        return -1;
    }
    if (opts->mode == MODE_TUNE && opts->lesson < 0) {
        error_set(e, "--tune needs one lesson: --lesson N");
        return -1;
    }
    if (opts->mode == MODE_TUNE && opts->nparams > 0) {
        error_set(e, "--param cannot be combined with --tune, which tries every allowed value");
        return -1;
    }
    if (opts->mode == MODE_TUNE && opts->nsizes > 1) {
        error_set(e, "--tune searches at one size; give --size one size");
        return -1;
    }
    if (opts->lesson == LESSON_ALL && opts->mode != MODE_BENCH) {
        error_set(e, "--lesson all needs --bench (one lesson at a time otherwise)");
        return -1;
    }
    if (opts->demo_s > 0 && opts->mode != MODE_TUTOR) {
        error_set(e, "--demo is a way to run the interactive tutor: it cannot be combined with other modes");
        return -1;
    }
    if (opts->mode == MODE_TUTOR && opts->nsizes > 1) {
        error_set(e, "the tutor shows one size at a time: give --size one size");
        return -1;
    }
    if (opts->nsizes == 0) {
        opts->sizes[0] = (struct gemm_size){ 1024, 1024, 1024 };
        opts->nsizes = 1;
    }
    return 0;
}
