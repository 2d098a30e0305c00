/* lesson_reader.h: what the files that read a lesson file share (lesson_reader.c,
   lesson_values.c, lesson_keys.c, lesson_check.c): the reader's state while it goes through
   the header, the readers of each kind of value, and the checks once the header is read.
   Only those files include it. */
#ifndef CLMM_LESSON_READER_H
#define CLMM_LESSON_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "lesson.h"

/* U+FEFF in UTF-8. */
#define BYTE_ORDER_MARK "\xEF\xBB\xBF"

/* An expression met in the header, kept with its line for checking once all params are known. */
struct pending_expr {
    const char *expr;
    int line;
};

struct reader {
    const char *file;
    int line;
    struct lesson *l;
    struct error *e;
    const struct lesson_extra *extra;   /* NULL for a lesson file */
    const char *const *kernel_dirs;     /* where kernel and emulation files are looked for */
    struct pending_expr *exprs;
    size_t nexprs;
    struct {
        char key[16];
        int line;
    } seen[48];                 /* the keys met so far, and where, for errors found at the end */
    size_t nseen;
};

/* Sets r's error to "FILE:LINE: " and fmt with arg; returns -1. */
int reader_bad(struct reader *r, const char *fmt, const char *arg);

/* The n bytes at s without the blanks around them, in a new string. */
char *reader_trimmed(const char *s, size_t n);

/* "yes" or "no". */
int reader_bool(struct reader *r, const char *value, bool *out);

/* "E1, E2, E3" into at most LESSON_MAX_DIMS expressions. */
int reader_dims(struct reader *r, const char *value, char **out, size_t *count);

/* The argument words of an args or a then-args line, into launch k. */
int reader_args(struct reader *r, const char *value, struct lesson_launch *k);

/* "E1, E2": two expressions (the M and N sides). */
int reader_pair(struct reader *r, const char *value, char **out);

/* One expression. */
int reader_one(struct reader *r, const char *value, char **out);

/* Whether s is a C identifier. */
bool reader_is_identifier(const char *s);

/* "NAME = DEFAULT in V1, V2, ...", of a param or a switch line. */
int reader_param(struct reader *r, const char *value, bool is_switch);

/* "M EXPR, N EXPR" */
int reader_multiple(struct reader *r, const char *value);

/* "NAME = EXPR": the rule of a parameter declared by an earlier param line. */
int reader_rule(struct reader *r, const char *value);

/* "EXPR : MESSAGE" */
int reader_require(struct reader *r, const char *value);

/* "nvidia MAJOR.MINOR : WHY": the lesson runs only on an NVIDIA GPU of that compute capability
   or later, for the reason WHY (lesson_device_check). */
int reader_needs(struct reader *r, const char *value);

/* The kernel called name, made canonical (no "lessons/../kernels") for messages and pages:
   a relative name is looked up in each of dirs in turn, an absolute one taken as it is,
   and the file found (symbolic links followed) must be a regular file inside one of dirs:
   a lesson names its own kernel, never another file of the user's. NULL with the reason
   in r->e. */
char *reader_find_kernel(struct reader *r, const char *name, const char *const *dirs);

/* The line of the header where key was given, or 0. */
int reader_key_line(const struct reader *r, const char *key);

/* A line of the header: its key looked up in lesson_keys, given twice only where it may be. */
int reader_line(struct reader *r, const char *key, const char *value);

/* The header checked as a whole once its "---" line is read (lesson_check.c): every
   expression, rule, stride, split and launch; what a complete lesson must have. */
int reader_check(struct reader *r);


#endif
