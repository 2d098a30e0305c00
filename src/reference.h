/* reference.h: a tuned library's SGEMM, measured like the lessons, to show what is reachable. */
#ifndef CLMM_REFERENCE_H
#define CLMM_REFERENCE_H

#include <stdbool.h>

#include "measure.h"

/* Measures CLBlast SGEMM (row-major) on the workspace into r (whose lesson is -1). Returns
   false, measuring nothing, when this build has no CLBlast. */
bool reference_measure(struct workspace *w, const struct measure_config *cfg, struct run_result *r);

#endif
