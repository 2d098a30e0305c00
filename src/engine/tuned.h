/* tuned.h: the best parameters found by the tuner, per device, lesson and size, kept in a
   small file under the XDG data directory so that later runs at a similar size use them. */
#ifndef CLMM_TUNED_H
#define CLMM_TUNED_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"

/* The largest file of tuned parameters read (bytes): a larger one is not used, and not
   rewritten. A line of it is about a hundred bytes. */
#define TUNED_FILE_MAX (16 << 20)

/* One saved result of the tuner. */
struct tuned_entry {
    struct param_set params;    /* the lesson's defaults with the saved values over them */
    double gflops;              /* of the best configuration, as the search measured it */
    struct gemm_size size;      /* the size the search measured at */
    bool complete;              /* every configuration was measured; false when the search was
                                   stopped by --max-configs, --time-limit or a cancel */
};

/* $XDG_DATA_HOME/clmm-tutor/tuned, or ~/.local/share/clmm-tutor/tuned. Returns -1 when
   neither XDG_DATA_HOME nor HOME is set. */
int tuned_path(char *buf, size_t len);

/* Whether parameters tuned at size tuned are used at size: each of M, N and K at least
   half and at most twice the tuned one. */
bool tuned_near(struct gemm_size tuned, struct gemm_size size);

/* The saved entry of lesson l on device that suits size best, into *found: one near it
   (tuned_near) before any other, then the least distant (the sum over M, N and K of the
   absolute logarithm of their ratios), then the one saved last. Entries whose values the
   lesson no longer allows are ignored. True when there is one, near or not: the caller
   applies it only when tuned_near(found->size, size). A file that is not a regular one,
   or is larger than TUNED_FILE_MAX, is not read. */
bool tuned_find(const char *path, const char *device, const struct lesson *l, struct gemm_size size,
                struct tuned_entry *found);

/* Records ps as the best of lesson l on device at size, replacing an older entry of the
   same size (entries of other sizes stay), by writing a new file and renaming it over
   the old one, under a lock. An incomplete search does not replace a faster entry found
   at the same size: then *kept is set. Lines that are not entries are kept byte for byte.
   A file that is not a regular one, or is larger than TUNED_FILE_MAX, is left as it is,
   with a message. */
int tuned_save(const char *path, const char *device, const struct lesson *l, const struct param_set *ps,
               double gflops, struct gemm_size size, bool complete, bool *kept, struct error *e);

#endif
