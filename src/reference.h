/* reference.h: a tuned library's SGEMM, measured like the lessons, to show what is reachable. */
#ifndef CLMM_REFERENCE_H
#define CLMM_REFERENCE_H

#include <stdbool.h>

#include "clblastparams.h"
#include "measure.h"

/* The reference row's title: "CLBlast (tuned)" with tuned parameters, else "CLBlast (defaults)". */
const char *reference_title(bool tuned);

/* Applies the parameters that CLBlast's tuners found (clblastparams.h) to cl's device with
   CLBlastOverrideParameters. -1 with a message when they were tuned on another device or
   CLBlast refuses them (its status by name), or when this build has no CLBlast. */
int reference_apply(const struct ocl *cl, const struct clblast_params *tuned, struct error *e);

/* Measures CLBlast SGEMM (row-major) on the workspace into r (whose lesson is -1), with
   tuned's parameters applied first (NULL: CLBlast's own); r->params is tuned's key, so
   that results of other parameters are kept apart. When they cannot be applied, r says
   why with RUN_ERROR and nothing is measured. Returns false, measuring nothing, when this
   build has no CLBlast. */
bool reference_measure(struct workspace *w, const struct clblast_params *tuned, const struct measure_config *cfg,
                       struct run_result *r);

#endif
