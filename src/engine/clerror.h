/* clerror.h: OpenCL status codes by name. */
#ifndef CLMM_CLERROR_H
#define CLMM_CLERROR_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "error.h"

/* "CL_OUT_OF_RESOURCES" for -5; "unknown OpenCL error" for codes not in the standard. */
const char *clerror_name(cl_int status);

/* Sets e to "CALL failed: NAME (code)". */
void clerror_set(struct error *e, const char *call, cl_int status);

#endif
