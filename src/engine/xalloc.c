/* xalloc.c: the allocation helpers and their one way out. */
#include "xalloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void (*_Atomic failure_hook)(void);

void xalloc_on_failure(void (*hook)(void))
{
    atomic_store(&failure_hook, hook);
}

static _Noreturn void out_of_memory(size_t count, size_t size)
{
    void (*hook)(void) = atomic_exchange(&failure_hook, NULL);

    if (hook)
        hook();
    if (count > 1 && size > SIZE_MAX / count)
        fprintf(stderr, "clmm-tutor: out of memory: %zu x %zu bytes do not fit in the address space\n", count,
                size);
    else
        fprintf(stderr, "clmm-tutor: out of memory: %zu bytes could not be had; close other programs or ask "
                        "for a smaller size\n", count * size);
    fflush(stderr);
    _exit(XALLOC_EXIT);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    if (!p)
        out_of_memory(1, size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);

    if (!p)
        out_of_memory(count, size);
    return p;
}

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);

    if (!q)
        out_of_memory(1, size);
    return q;
}

void *xreallocarray(void *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        out_of_memory(count, size);
    return xrealloc(p, count * size);
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;

    return memcpy(xmalloc(n), s, n);
}
