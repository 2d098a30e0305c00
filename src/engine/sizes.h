/* sizes.h: the sizes of a product written as text, as the command line, a lesson's or an
   exercise's file and the saved state give them: "1024" (square), "1000x700x300" (M x N x
   K), several separated by commas. Engine code. */
#ifndef CLMM_SIZES_H
#define CLMM_SIZES_H

#include <stddef.h>

#include "error.h"
#include "geometry.h"

#define SIZES_MAX_COUNT 16      /* sizes in one list */
#define SIZES_MAX_SIDE 65536    /* a larger side is refused before anything runs */

/* Parses "1024", "512,1024" or "1000x700x300"; -1 with a message when malformed, which names
   no option: the caller says where the sizes came from (error_prefix). */
int sizes_parse(const char *text, struct gemm_size *sizes, size_t *count, struct error *e);

#endif
