/* scratch.c: scratch files for the unit tests. */
#define _XOPEN_SOURCE 700
#include "scratch.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>

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
