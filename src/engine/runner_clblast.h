/* runner_clblast.h: CLBlast's SGEMM on the device, a reference row (reference_kind.h). */
#ifndef CLMM_RUNNER_CLBLAST_H
#define CLMM_RUNNER_CLBLAST_H

#include "clblastparams.h"
#include "ocl.h"
#include "reference_kind.h"

/* The row, in a build with CLBlast: "CLBlast (tuned)" with tuned parameters, else
   "CLBlast (defaults)"; its params are the tuned parameters' key, so that results of other
   parameters are kept apart. */
extern const struct reference_kind reference_clblast;

/* Applies the parameters that CLBlast's tuners found (clblastparams.h) to cl's device with
   CLBlastOverrideParameters. -1 with a message when they were tuned on another device or
   CLBlast refuses them (its status by name), or when this build has no CLBlast. */
int clblast_apply(const struct ocl *cl, const struct clblast_params *tuned, struct error *e);

#endif
