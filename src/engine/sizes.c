/* sizes.c: sizes written as text (sizes.h). */
#include "sizes.h"

#include <stdio.h>
#include <string.h>

#include "str.h"

static int parse_side(const char *text, long long *side, struct error *e)
{
    if (str_to_ll(text, side) < 0) {
        error_set(e, "\"%s\" is not a number (examples: 1024, 512,1024, 1000x700x300)", text);
        return -1;
    }
    if (*side <= 0) {
        error_set(e, "%lld is not a positive size", *side);
        return -1;
    }
    if (*side > SIZES_MAX_SIDE) {
        error_set(e, "%lld is too large (at most %d per side)", *side, SIZES_MAX_SIDE);
        return -1;
    }
    return 0;
}

/* One size: "1024" or "MxNxK". */
static int parse_one_size(const char *item, const char *text, struct gemm_size *size, struct error *e)
{
    long long side[3];
    int n = 0;

    for (const char *p = item;; n++) {
        char part[32];
        size_t len = strcspn(p, "xX");
        if (n == 3) {
            error_set(e, "\"%s\" has more than three sides (MxNxK)", text);
            return -1;
        }
        if (len == 0 || len >= sizeof part) {
            error_set(e, "\"%s\" is not a size (examples: 1024, 512,1024, 1000x700x300)", text);
            return -1;
        }
        snprintf(part, sizeof part, "%.*s", (int)len, p);
        if (parse_side(part, &side[n], e) < 0)
            return -1;
        if (p[len] == '\0') {
            n++;
            break;
        }
        p += len + 1;
    }
    if (n != 1 && n != 3) {
        error_set(e, "give one side (1024) or three (MxNxK), not \"%s\"", text);
        return -1;
    }
    *size = n == 1 ? (struct gemm_size){ side[0], side[0], side[0] }
                   : (struct gemm_size){ side[0], side[1], side[2] };
    return 0;
}

int sizes_parse(const char *text, struct gemm_size *sizes, size_t *count, struct error *e)
{
    *count = 0;
    if (*text == '\0') {
        error_set(e, "empty (examples: 1024, 512,1024, 1000x700x300)");
        return -1;
    }
    for (const char *p = text;;) {
        char item[128];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof item) {
            error_set(e, "\"%s\" is not a size or list of sizes (examples: 1024, 512,1024, "
                         "1000x700x300)", text);
            return -1;
        }
        if (*count == SIZES_MAX_COUNT) {
            error_set(e, "at most %d sizes", SIZES_MAX_COUNT);
            return -1;
        }
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        if (parse_one_size(item, text, &sizes[*count], e) < 0)
            return -1;
        (*count)++;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}
