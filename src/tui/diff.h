/* diff.h: the lines of a text, and the line differences between two texts. */
#ifndef CLMM_DIFF_H
#define CLMM_DIFF_H

#include <stdbool.h>
#include <stddef.h>

struct lines {
    char *buf;
    char **items;               /* point into buf, no newline at the end */
    size_t count;
};

/* Splits text at '\n' (a final newline does not make an empty last line; "\r\n" loses its '\r';
   tabs are expanded to 4-column stops so that columns on screen are predictable). */
void lines_split(const char *text, struct lines *out);
void lines_free(struct lines *l);

enum diff_op { DIFF_SAME, DIFF_ADDED, DIFF_REMOVED };

struct diff_line {
    enum diff_op op;
    size_t old_index, new_index;    /* SIZE_MAX where the line has none */
};

struct diff {
    struct diff_line *items;
    size_t count;
    size_t added, removed;
};

/* The most pairs of lines (old lines times new lines, each plus one) that one diff compares
   in its table of common subsequences: 4 Mi cells of 4 bytes, 16 MiB; two texts of 2047 lines
   each fit whole. Texts too large for it are compared without their common first and last
   lines; when the lines between still do not fit, the diff lists them all as removed and
   added: it is then correct but not minimal, and diff_too_large says so. */
#define DIFF_MAX_CELLS ((size_t)1 << 22)

/* A minimal line diff (longest common subsequence; removals listed before additions within a
   change, like `diff -u`). Lines compare equal when identical after trimming trailing blanks.
   Memory and time are bounded by DIFF_MAX_CELLS, whatever the sizes of the texts. */
void diff_lines(const struct lines *old, const struct lines *new_, struct diff *out);
/* The diff of only the lines not left out (old_skip[i], new_skip[j] true: left out; a NULL
   array leaves out none), as if the others were not there; the indices are those of old and
   new_. */
void diff_lines_kept(const struct lines *old, const bool *old_skip, const struct lines *new_, const bool *new_skip,
                     struct diff *out);
void diff_free(struct diff *d);

/* True when diff_lines_kept with the same arguments (diff_lines: NULL, NULL) is too large to
   compare (DIFF_MAX_CELLS): its diff is not minimal, and the caller should say so. */
bool diff_too_large(const struct lines *old, const bool *old_skip, const struct lines *new_, const bool *new_skip);

/* marks[i] (for each line i of new_) = true when line i of new_ is added or changed. marks has
   new_->count entries. */
void diff_mark_new(const struct diff *d, bool *marks, size_t count);

#endif
