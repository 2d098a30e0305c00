/* files.h: where the tool keeps its own files (the XDG directories), and replacing a file
   so that a crash leaves either the old one or the new one. */
#ifndef CLMM_FILES_H
#define CLMM_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* $XDG_DATA_HOME/clmm-tutor/NAME, else ~/.local/share/clmm-tutor/NAME. -1 when neither
   variable is set (or the path does not fit). */
int files_data_path(const char *name, char *buf, size_t len);
/* $XDG_STATE_HOME/clmm-tutor/NAME, else ~/.local/state/clmm-tutor/NAME. */
int files_state_path(const char *name, char *buf, size_t len);

/* Creates the directories above path. */
int make_parents(const char *path, struct error *e);

/* Writes a new file beside path with write(out, ctx) (which returns -1 on a failure, with
   errno set), makes it durable, and renames it over path. The caller serialises writers
   (a lock) where several processes may write. */
int file_replace(const char *path, int (*write)(FILE *out, void *ctx), void *ctx, struct error *e);

#endif
