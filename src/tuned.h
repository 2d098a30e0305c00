/* tuned.h: the best parameters found by the tuner, per device and lesson, kept in a small
   file under the XDG data directory so that later runs use them. */
#ifndef CLMM_TUNED_H
#define CLMM_TUNED_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"

/* $XDG_DATA_HOME/clmm-tutor/tuned, or ~/.local/share/clmm-tutor/tuned. Returns -1 when
   neither XDG_DATA_HOME nor HOME is set. */
int tuned_path(char *buf, size_t len);

/* The saved parameters of lesson l on device into ps (which holds the defaults or
   anything else before): true when an entry exists and every value is still allowed. */
bool tuned_load(const char *path, const char *device, const struct lesson *l, struct param_set *ps);

/* Records ps as the best of lesson l on device, replacing an older entry, by writing a new
   file and renaming it over the old one, under a lock. An incomplete search does not
   replace a faster entry found at the same size: then *kept is set. */
int tuned_save(const char *path, const char *device, const struct lesson *l, const struct param_set *ps,
               double gflops, struct gemm_size size, bool complete, bool *kept, struct error *e);

#endif
