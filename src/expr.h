/* expr.h: integer expressions of lesson files, such as "cdiv(M, TSM) * TSM / WPTM". */
#ifndef CLMM_EXPR_H
#define CLMM_EXPR_H

#include <stddef.h>

#include "error.h"

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
   division by zero, overflow). */
int expr_eval(const char *text, const struct expr_env *env, long long *value, struct error *e);

#endif
