/* runner_cblas.h: the CPU's own BLAS through CBLAS (OpenBLAS), a reference row (reference_kind.h). */
#ifndef CLMM_RUNNER_CBLAS_H
#define CLMM_RUNNER_CBLAS_H

#include <stddef.h>

#include "reference_kind.h"

/* The row, in a build with a CBLAS: "CPU BLAS (16 threads)", its rows numbered -2. */
extern const struct reference_kind reference_cblas;

/* Its title for OpenBLAS on threads threads: "CPU BLAS (16 threads)"; threads 0: a CBLAS
   whose threads are not known, "CPU BLAS (CBLAS)". */
void cblas_title_for(int threads, char *buf, size_t len);

#endif
