/* reference.h: libraries' SGEMM measured like the lessons, on the same inputs, as reference
   rows: what is reachable. Each library is a runner of its own file (runner.h); the rows
   this build has are listed in reference.c, in the order they are shown. */
#ifndef CLMM_REFERENCE_H
#define CLMM_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "measure.h"
#include "reference_kind.h"

/* The reference rows of this build, i from 0 to reference_count() - 1. */
size_t reference_count(void);
const struct reference_kind *reference_at(size_t i);

/* The kind of the rows numbered lesson; NULL when none is. */
const struct reference_kind *reference_find(int lesson);

/* The parameters of k's rows under rs, "" without any (reference_kind.params). */
const char *reference_params(const struct reference_kind *k, const struct reference_settings *rs);

/* Measures a reference row on the workspace into r (r->lesson is k->lesson). */
void reference_measure(const struct reference_kind *k, struct workspace *w, const struct reference_settings *rs,
                       const struct measure_config *cfg, struct run_result *r);

#endif
