/* expr.h: integer expressions of lesson files, such as "cdiv(M, TSM) * TSM / WPTM". */
#ifndef CLMM_EXPR_H
#define CLMM_EXPR_H

#include <stddef.h>

#include "error.h"

/* Limits that keep a hostile lesson file from exhausting the stack of the recursive parser:
   characters of one expression, and its levels of nesting (each pair of parentheses, each
   function call and each unary - or ! is one level). */
#define EXPR_MAX_LENGTH 1000
#define EXPR_MAX_DEPTH 64

struct expr_var {
    const char *name;
    long long value;
};

struct expr_env {
    const struct expr_var *vars;
    size_t count;
};

/* Evaluates text with C integer semantics (64-bit); the grammar is in lessons/FORMAT.
   Returns 0 and sets *value, or -1 with a message in e (unknown name, syntax error,
   division by zero, overflow, over the limits above). */
int expr_eval(const char *text, const struct expr_env *env, long long *value, struct error *e);

#endif
