/* state.h: what the interactive screen remembers between runs: the last lesson, size and
   device, in a small file under the XDG state directory. */
#ifndef CLMM_STATE_H
#define CLMM_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"

/* The largest state file read (bytes); its lines take less than a kilobyte. */
#define STATE_FILE_MAX (64 << 10)

struct tutor_state {
    bool has_lesson, has_size, has_device;
    int lesson;
    struct gemm_size size;
    char device[600];           /* as device_describe writes it */
};

/* $XDG_STATE_HOME/clmm-tutor/state (or ~/.local/state/...); -1 without either variable. */
int state_path(char *buf, size_t len);

/* Reads what the file holds; a missing file, one that is not a regular file or is larger
   than STATE_FILE_MAX, or lines that do not parse, leave those fields unset. */
void state_load(const char *path, struct tutor_state *st);

/* Writes a new file and renames it over the old one. */
int state_save(const char *path, const struct tutor_state *st, struct error *e);

#endif
