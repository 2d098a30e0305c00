/* error.h: one error message, filled by the call that failed, shown by the caller. */
#ifndef CLMM_ERROR_H
#define CLMM_ERROR_H

#include <stddef.h>

struct error {
    char msg[1024];
    char *detail;   /* optional long text owned by the error, such as a build log */
};

void error_init(struct error *e);
void error_set(struct error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prefixes the current message: "context: old message". */
void error_prefix(struct error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void error_set_detail(struct error *e, char *detail);   /* takes ownership */
void error_clear(struct error *e);

#endif
