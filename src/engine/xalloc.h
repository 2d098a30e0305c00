/* xalloc.h: allocations that never come back empty. When memory runs out the program ends
   through one path: the hook the front end set (the screen gives the terminal back), then
   a message saying how much was asked for and where, then exit status 3. */
#ifndef CLMM_XALLOC_H
#define CLMM_XALLOC_H

#include <stddef.h>

#define XALLOC_EXIT 3           /* as for the other failures of the environment */

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t size);
/* count * size bytes, refused as out of memory when the product does not fit. */
void *xreallocarray(void *p, size_t count, size_t size);
char *xstrdup(const char *s);

/* Called once, before the message, when an allocation fails (NULL: none). It must be safe
   to call from any thread. */
void xalloc_on_failure(void (*hook)(void));

#endif
