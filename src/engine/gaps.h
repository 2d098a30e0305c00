/* gaps.h: an exercise's starting kernel written as a few edits of its lesson's kernel (a
   gap file, exercises/FORMAT), so that the start is the lesson's kernel with the gap cut
   into it and no copy of the rest to drift from the lesson. A gap file is a list of blocks:

       @@ replace
       lines of the lesson's kernel, exactly
       @@ with
       the lines the student starts from
       @@ end

   with blank lines and lines starting with # between the blocks. Each text to replace must
   be found exactly once. Engine code. */
#ifndef CLMM_GAPS_H
#define CLMM_GAPS_H

#include <stddef.h>

#include "error.h"

/* The largest gap file read. */
#define GAPS_FILE_MAX (256u * 1024u)

/* base (the lesson's kernel, named base_name in messages) with the edits of the gap file
   text gaps (named gaps_name) applied, in order: malloc'd into *out, its length in *len.
   Returns -1 with file, line and what to do in e when the file is malformed or a text to
   replace is not found exactly once. */
int gaps_apply(const char *base, const char *base_name, const char *gaps, const char *gaps_name, char **out,
               size_t *len, struct error *e);

#endif
