/* scratch.h: scratch files for the unit tests: writing a small file, removing a tree. */
#ifndef CLMM_TESTS_SCRATCH_H
#define CLMM_TESTS_SCRATCH_H

/* Writes text to dir/name (the test fails when it cannot). */
void scratch_write(const char *dir, const char *name, const char *text);

/* text with its line number `line` (from 1) replaced by replacement (which ends in '\n', or
   is "" to delete the line), in a static buffer that the next call reuses. */
char *scratch_replace_line(const char *text, int line, const char *replacement);

/* Removes dir and everything below it, symbolic links not followed. */
void scratch_remove(const char *dir);

#endif
