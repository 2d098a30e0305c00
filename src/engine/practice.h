/* practice.h: the student's workspace, a directory of their own copies of the exercises'
   starting kernels. A file there is the student's work: it is never overwritten; a reset
   moves it aside first. Engine code. */
#ifndef CLMM_PRACTICE_H
#define CLMM_PRACTICE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "exercise.h"

#define PRACTICE_DEFAULT_DIR "clmm-exercises"

/* The student's file of exercise x in the workspace dir. */
void practice_file(const char *dir, const struct exercise *x, char *buf, size_t len);

/* Makes the workspace (and its parents) and copies the starting kernel into it unless a
   file of that name is there already (checked and created in one step, so a file that
   appears meanwhile is not overwritten either). *created says whether it was copied now.
   path receives the student's file. */
int practice_prepare(const char *dir, const struct exercise *x, char *path, size_t len, bool *created,
                     struct error *e);

/* Puts the starting kernel back: the student's file is kept as FILE.~N~ (the first N not
   taken, as GNU cp --backup=numbered names them), whose path goes to backup (empty when
   there was no file to keep, or it held the start already: then nothing changes), then the
   start is copied in its place. */
int practice_reset(const char *dir, const struct exercise *x, char *backup, size_t blen, struct error *e);

/* The file at path holds exercise x's starting kernel byte for byte, as shipped: the line
   of its first TODO (1-based), or -1 when it has none; 0 when the file differs or cannot
   be read. A check of such a file says so, rather than guessing a cause from C. */
int practice_as_shipped(const char *path, const struct exercise *x);

/* The workspace directory: given (--workspace), else PRACTICE_DEFAULT_DIR. */
const char *practice_workspace(const char *given);

#endif
