/* reference.h: a tuned library's SGEMM, measured like the lessons, to show what is reachable. */
#ifndef CLMM_REFERENCE_H
#define CLMM_REFERENCE_H

#include <stdbool.h>

#include "measure.h"

/* true when this build measures CLBlast. */
bool reference_available(void);

/* Measures CLBlast SGEMM (row-major) on the workspace; r->lesson is -1. */
void reference_measure(struct workspace *w, const struct measure_config *cfg, struct run_result *r);

#endif
