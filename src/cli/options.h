/* options.h: the command line. */
#ifndef CLMM_OPTIONS_H
#define CLMM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/geometry.h"
#include "engine/params.h"
#include "report.h"
#include "engine/sizes.h"

#define OPTIONS_MAX_PARAMS 16
#define DEMO_DEFAULT_S 12.0
#define OPTIONS_MAX_CLBLAST_FILES 16

enum mode { MODE_TUTOR, MODE_LIST, MODE_DEVICES, MODE_SHOW, MODE_BENCH, MODE_TUNE, MODE_EXERCISES, MODE_CHECK,
            MODE_RESET, MODE_SOLUTION, MODE_HINT, MODE_HELP, MODE_VERSION,
            MODE_CEILINGS, MODE_INSIDE, MODE_SOURCES };

#define LESSON_ALL (-1)
#define LESSON_UNSET (-2)
#define EXERCISE_UNSET (-1)

struct options {
    enum mode mode;
    int lesson;                 /* LESSON_ALL, LESSON_UNSET or a number */
    struct gemm_size sizes[SIZES_MAX_COUNT];
    size_t nsizes;
    enum report_format format;
    const char *device;         /* NULL: CLMM_TUTOR_DEVICE, else the default; --bench: also
                                   "all" or a list (device_spec_is_list) */
    const char *compare_file;   /* --compare: a saved --bench --format json run; NULL: none */
    const char *lessons_dir;    /* NULL: the installed (or source tree) lessons */
    struct param_override params[OPTIONS_MAX_PARAMS];
    size_t nparams;
    bool no_reference;
    const char *clblast_files[OPTIONS_MAX_CLBLAST_FILES];  /* --clblast-params: CLBlast's tuners' results */
    size_t nclblast_files;
    bool no_tuned;              /* ignore the tuner's saved parameters */
    bool budget_given;          /* --budget or --reps: the tuner keeps them */
    struct measure_config measure;
    size_t max_configs;         /* --tune: configurations measured in one run */
    double time_limit_s;        /* --tune: no configuration starts after this */
    bool restart;               /* --tune: forget an earlier, unfinished search */
    bool size_given;            /* --size: the tutor starts there, not at the remembered size */
    double demo_s;              /* --demo: seconds per lesson; 0 without presenter mode */
    bool no_color;
    int exercise;               /* --exercise, --check, --hint, --reset, --solution: EXERCISE_UNSET or 1-99 */
    const char *check_file;     /* --check N FILE; NULL: the student's file in the workspace */
    const char *workspace;      /* --workspace; NULL: ./clmm-exercises */
    const char *exercises_dir;  /* --exercises-dir; NULL: the installed (or source tree) exercises */
    bool has_prediction;
    double prediction;          /* --predict */
    double check_timeout_s;     /* --check-timeout: a checked launch's limit; 0: derived */
    bool races;                 /* --races: the check under oclgrind too */
    bool yes;                   /* --yes: --reset and --solution without asking */
    const char *binary_file;    /* --inside --binary FILE: where the program binary goes */
    bool host_code;             /* --show N --host-code: the launch's host code, not the lesson */
    const char *plot_file;      /* --bench --plot FILE: the chart as SVG; NULL: none */
};

/* Fills opts from argv. Returns 0, or -1 with a one-line message in e (exit status 2). */
int options_parse(int argc, char **argv, struct options *opts, struct error *e);

void options_usage(FILE *out);

#endif
