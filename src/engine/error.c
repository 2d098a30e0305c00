/* error.c: formatting of error messages. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void error_init(struct error *e)
{
    e->msg[0] = '\0';
    e->detail = NULL;
}

void error_set(struct error *e, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

void error_prefix(struct error *e, const char *fmt, ...)
{
    char prefix[256], old[sizeof e->msg - sizeof prefix - 2];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    snprintf(old, sizeof old, "%.*s", (int)sizeof old - 1, e->msg);
    snprintf(e->msg, sizeof e->msg, "%s: %s", prefix, old);
}

void error_set_detail(struct error *e, char *detail)
{
    free(e->detail);
    e->detail = detail;
}

void error_clear(struct error *e)
{
    free(e->detail);
    error_init(e);
}
