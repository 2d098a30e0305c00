/* reference_kind.h: what a reference row is (reference.h): the operations each library's
   runner gives (runner_clblast.c, runner_cblas.c), apart from the list of rows that
   reference.c keeps, so that a runner needs only this. */
#ifndef CLMM_REFERENCE_KIND_H
#define CLMM_REFERENCE_KIND_H

#include <stddef.h>

#include "clblastparams.h"
#include "measure.h"

/* What the reference rows are measured with. */
struct reference_settings {
    const struct clblast_params *clblast;   /* CLBlast's tuned parameters; NULL: its own */
};

struct reference_kind {
    int lesson;                 /* its rows' lesson number, below 0 (-1: CLBlast), which keys
                                   its results and names it in CSV and JSON */
    const char *name;           /* "CLBlast": what is being measured, in a progress line */
    /* Its row's title ("CLBlast (tuned)") into buf. */
    void (*title)(const struct reference_settings *rs, char *buf, size_t len);
    /* Optional (NULL: none): the parameters its rows are measured with, as their results are
       keyed (run_result.params), so that results of other parameters are kept apart. */
    const char *(*params)(const struct reference_settings *rs);
    /* Measures the library on the workspace into r, whose lesson, title and size are set;
       RUN_ERROR with why when it cannot run. */
    void (*measure)(struct workspace *w, const struct reference_settings *rs, const struct measure_config *cfg,
                    struct run_result *r);
};

#endif
