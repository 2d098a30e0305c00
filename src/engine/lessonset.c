/* lessonset.c: the lesson directory: every lesson file in it read, in the order of
   their numbers, and a lesson found by its number. */
#include "lesson.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

static int by_number(const void *a, const void *b)
{
    return ((const struct lesson *)a)->number - ((const struct lesson *)b)->number;
}

const char *lesson_kernels_dir(const char *dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s/../kernels", dir);
    return buf;
}

/* One lesson file of dir, path: its kernel is looked for in dir, then in dir/../kernels. */
static int load_in(const char *dir, const char *path, struct lesson *l, struct error *e)
{
    char kernels[4096];
    const char *kernel_dirs[] = { dir, lesson_kernels_dir(dir, kernels, sizeof kernels), NULL };
    char *text;
    int rc;

    text = lesson_read_text(path, LESSON_FILE_MAX, "a lesson file", e);
    rc = text ? lesson_parse(path, text, kernel_dirs, l, e) : -1;
    free(text);
    return rc;
}

int lesson_load_file(const char *path, struct lesson *l, struct error *e)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');

    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(dir, sizeof dir, ".");
    return load_in(slash == path ? "/" : dir, path, l, e);
}

int lesson_set_load(const char *dir, struct lesson_set *set, struct error *e)
{
    char path[4096];
    struct dirent *d;
    DIR *dh = opendir(dir);

    set->items = NULL;
    set->count = 0;
    set->dir = NULL;
    set->sources.items = NULL;
    set->sources.count = 0;
    if (!dh) {
        error_set(e, "cannot open the lesson directory %s: %s", dir, strerror(errno));
        return -1;
    }
    while ((d = readdir(dh)) != NULL) {
        struct lesson l;

        if (!str_has_suffix(d->d_name, ".lesson"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
        if (load_in(dir, path, &l, e) < 0) {
            closedir(dh);
            lesson_set_free(set);
            return -1;
        }
        if (lesson_set_find(set, l.number)) {
            error_set(e, "%s: lesson %d is also defined in %s", path, l.number,
                      lesson_set_find(set, l.number)->file);
            lesson_free(&l);
            closedir(dh);
            lesson_set_free(set);
            return -1;
        }
        set->items = xrealloc(set->items, (set->count + 1) * sizeof *set->items);
        set->items[set->count++] = l;
    }
    closedir(dh);
    if (set->count == 0) {
        error_set(e, "no *.lesson files in %s", dir);
        return -1;
    }
    qsort(set->items, set->count, sizeof *set->items, by_number);
    set->dir = xstrdup(dir);
    snprintf(path, sizeof path, "%s/SOURCES", dir);
    if (sources_load(path, &set->sources, e) < 0) {
        lesson_set_free(set);
        return -1;
    }
    return 0;
}

void lesson_set_free(struct lesson_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        lesson_free(&set->items[i]);
    free(set->items);
    free(set->dir);
    set->items = NULL;
    set->count = 0;
    set->dir = NULL;
    sources_free(&set->sources);
}

const struct lesson *lesson_set_find(const struct lesson_set *set, int number)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->items[i].number == number)
            return &set->items[i];
    return NULL;
}
