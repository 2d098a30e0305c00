/* side.h: the --bench table of several columns: a GFLOPS column per device (--device all, or
   a list) and one for a saved run (--compare). The devices measure one after the other; the
   table of a size is printed when the last one has measured it. */
#ifndef CLMM_SIDE_H
#define CLMM_SIDE_H

#include <stdio.h>

#include "engine/compare.h"
#include "engine/device.h"
#include "engine/measure.h"

struct side;

/* devices[0..n) and compare (NULL: none) must outlive the table. */
struct side *side_new(const struct device_info *const *devices, int n, struct compare *compare);
/* The lines above the first size: the devices and the saved run, with the names of their
   columns. */
void side_begin(const struct side *t, FILE *out);
/* Keeps a copy of device's row r of size index size (its build log is not kept). */
void side_add(struct side *t, int size, int device, const struct run_result *r);
/* The table of size index size, and what its rows need said under it. */
void side_print(struct side *t, FILE *out, int size);
void side_free(struct side *t);

#endif
