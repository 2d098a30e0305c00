/* scratch.c: scratch files for the unit tests. */
#define _XOPEN_SOURCE 700
#include "scratch.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>

void scratch_write(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot create %s", path);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void scratch_remove(const char *dir)
{
    nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

char *scratch_replace_line(const char *text, int line, const char *replacement)
{
    static char out[4096], in[4096];
    const char *p = in;
    size_t len = 0;

    /* text may be an earlier result, in out itself: read it from a copy. */
    ck_assert(strlen(text) < sizeof in);
    memmove(in, text, strlen(text) + 1);

    for (int n = 1; *p; n++) {
        const char *end = strchr(p, '\n');
        size_t size = end ? (size_t)(end - p) + 1 : strlen(p);
        const char *src = n == line ? replacement : p;
        size_t count = n == line ? strlen(replacement) : size;
        ck_assert(len + count < sizeof out);
        memcpy(out + len, src, count);
        len += count;
        p += size;
    }
    out[len] = '\0';
    return out;
}
