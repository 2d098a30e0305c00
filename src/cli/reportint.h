/* reportint.h: what the benchmark report's formats share (report.c, report_table.c,
   report_csv.c, report_json.c): the sink each format is, and the helpers more than one of
   them uses. Only those files include it. */
#ifndef CLMM_REPORTINT_H
#define CLMM_REPORTINT_H

#include <stdbool.h>

#include "engine/geometry.h"
#include "engine/measure.h"
#include "engine/roofline.h"
#include "engine/verify.h"

struct report;                  /* report.h: this header is what report.h does not show */

/* A format of the benchmark report: what it writes when the report begins (cfg: how the
   runs are timed), when a size begins, for each row, when a size ends (size: its index
   among the sizes, from 0) and when the report ends. report.c keeps what every format needs
   (the fastest lesson, the references, the points against the ceilings) and calls these. */
struct report_sink {
    void (*begin)(struct report *rep, const struct measure_config *cfg);
    void (*size_begin)(struct report *rep, struct gemm_size s);
    void (*row)(struct report *rep, const struct run_result *r);
    void (*size_end)(struct report *rep, int size);
    void (*end)(struct report *rep);
};

extern const struct report_sink report_table_sink;     /* report_table.c */
extern const struct report_sink report_csv_sink;       /* report_csv.c */
extern const struct report_sink report_json_sink;      /* report_json.c */

/* "exhaustive" or "sampled+projections". */
const char *report_verification_name(const struct verify_result *v);
/* Row r against the current device's ceilings in v; whether the verdict applies (a result,
   known ceilings, on the device, a ceiling for its units). */
bool report_judge(const struct report *rep, const struct run_result *r, struct roofline_verdict *v);
/* Whether r is a reference row run with tuned parameters. */
bool report_reference_tuned(const struct run_result *r);

#endif
