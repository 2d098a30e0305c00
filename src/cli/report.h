/* report.h: what the command line prints: lesson lists, lessons, and result tables. */
#ifndef CLMM_REPORT_H
#define CLMM_REPORT_H

#include <stdio.h>

#include "engine/ceilings.h"
#include "engine/clblastparams.h"
#include "engine/compare.h"
#include "engine/device.h"
#include "engine/waves.h"
#include "engine/inside.h"
#include "engine/lesson.h"
#include "engine/measure.h"
#include "rowtext.h"
#include "engine/tune.h"

enum report_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* One line per lesson, a side branch's lessons marked, then a line per side branch saying
   which lessons it holds and the main lesson it leaves. */
void report_list(FILE *out, const struct lesson_set *set);

/* A JSON string, valid UTF-8 whatever s holds (bytes that are not UTF-8 become U+FFFD),
   control characters escaped. */
void report_json_string(FILE *out, const char *s);

/* The lesson's facts with the documents of sources that its sources line cites, its
   explanation and its kernel source, wrapped to width. */
void report_show(FILE *out, const struct lesson *l, const struct source_set *sources, int width);

/* Every document of sources, whole; dir is the lesson directory, named when there are none. */
void report_sources(FILE *out, const struct source_set *sources, const char *dir, int width);

/* A lesson's standing against the ceilings, kept for the table's block after its size. */
struct report_point {
    int lesson;                 /* below 0: a reference library */
    double gflops, intensity;   /* intensity as in run_result */
    bool on_host;
    enum units units;
    bool emulated;              /* as in run_result */
};

#define REPORT_MAX_POINTS 64
#define REPORT_MAX_DEVICES 8    /* devices side by side (--device all, or a list) */

struct side;
#define REPORT_MAX_REFERENCES 4

/* A reference row measured at the current size, for the fastest line. */
struct report_reference {
    double gflops;
    char title[128];
};

/* A benchmark report: begin, then for each size a group of rows, then end. Rows are
   printed as they come, so a long run shows progress. With the device's ceilings known,
   each row carries its share of the measured FP32 peak and, where the lesson declares its
   loads, its intensity, the no-cache model's bound and its share of that bound. */
struct report_sink;

struct report {
    FILE *out;
    enum report_format format;
    const struct report_sink *sink;     /* the format's functions (reportint.h) */
    const struct device_info *device;
    int rows;                   /* printed so far, over all sizes */
    struct run_result best;     /* the fastest lesson of the current size, of FP32 precision */
    struct run_result best_tf32; /* the fastest of TF32 precision: never compared with FP32's */
    struct report_reference refs[REPORT_MAX_REFERENCES];  /* of the current size, in order */
    int nrefs;
    const struct clblast_params *clblast;   /* the tuned parameters applied to CLBlast; NULL: its defaults */
    char notes[4096];           /* parameters and padding of the current size's rows */
    char clock_notes[2048];     /* rows of the current size whose clocks disagreed */
    char branch[LESSON_BRANCH_MAX * 4 + 1]; /* a side branch among the current size's rows, "" if none */
    struct ceilings ceilings;   /* have false: no percentages */
    struct report_point points[REPORT_MAX_POINTS];  /* of the current size */
    int npoints;
    /* Devices side by side, and a saved run beside them (--compare). */
    const struct device_info *devices[REPORT_MAX_DEVICES];
    struct ceilings device_ceilings[REPORT_MAX_DEVICES];
    int ndevices;
    int current;                /* the device whose rows come now (report_device) */
    int size_index;             /* of its sizes, from 0 */
    struct compare *compare;    /* NULL: none */
    struct side *side;          /* the table of several columns, kept until the last device has
                                   measured a size; NULL: rows printed as they come */
};

/* ndevices devices (1 to REPORT_MAX_DEVICES), measured one after the other, each all sizes
   (report_device before each); ceilings may be NULL, and ceilings[i] have false: not known. clblast NULL:
   CLBlast runs with its own parameters; compare NULL: no saved run. A table of several
   devices, of devices asked for side by side (side: --device all, a list), or with a saved
   run, has a GFLOPS column per device and one for the saved run, printed when the last
   device has measured the size; CSV and JSON rows name their device. */
void report_begin(struct report *rep, FILE *out, enum report_format format,
                  const struct device_info *const *devices, const struct ceilings *ceilings, int ndevices,
                  bool side, const struct measure_config *cfg, const struct clblast_params *clblast, struct compare *compare);
/* The rows that come next are device i's, from its first size. */
void report_device(struct report *rep, int i);
void report_size_begin(struct report *rep, struct gemm_size size);
void report_row(struct report *rep, const struct run_result *r);
void report_size_end(struct report *rep);
void report_end(struct report *rep);

/* The tuner: one line per configuration, then the best and the spread of GFLOPS. */
void report_tune_step(FILE *out, const struct lesson *l, const struct tune_step *st);
void report_tune_summary(FILE *out, const struct lesson *l, const struct tune_result *res, bool restarted);

/* The look inside a kernel (inside_examine) as one JSON object; size is the size it was
   looked at, origin where its parameters came from (params_origin_describe; "" for the
   defaults), binary_file the file the program binary was saved to (NULL: none). A figure
   not known is null, and in->missing says why. */
void report_inside_json(FILE *out, const struct inside *in, struct gemm_size size, const char *origin,
                        const char *binary_file, const struct waves *waves);

#endif
