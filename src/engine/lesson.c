/* lesson.c: what the rest of the tool asks of a lesson: its kernel's source, its launches'
   names, its parameters' values; and a lesson freed. Reading a lesson file is
   lesson_reader.c's. */
#include "lesson.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "str.h"

static void layout_free(struct lesson_layout *y)
{
    for (size_t i = 0; i < 2; i++) {
        free(y->tile[i]);
        free(y->item[i]);
        free(y->item_run[i]);
        free(y->item_stride[i]);
        free(y->local_a[i]);
        free(y->local_b[i]);
    }
    free(y->local_copies);
    free(y->k_split);
    free(y->k_split_tiles);
    free(y->k_split_groups);
    free(y->loads);
}

static void launch_free(struct lesson_launch *k)
{
    free(k->entry);
    for (size_t i = 0; i < k->nargs; i++) {
        free(k->args[i].expr);
        for (size_t v = 0; v < k->args[i].nvalues; v++)
            free(k->args[i].values[v]);
        free(k->args[i].values);
    }
    for (size_t i = 0; i < k->dims; i++)
        free(k->global[i]);
    for (size_t i = 0; i < k->local_dims; i++)
        free(k->local[i]);
    free(k->when);
}

void lesson_free(struct lesson *l)
{
    free(l->title);
    free(l->short_title);
    free(l->sources);
    free(l->branch);
    free(l->needs.why);
    free(l->file);
    free(l->kernel_file);
    free(l->emulation);
    free(l->options);
    for (size_t i = 0; i < LESSON_MAX_LAUNCHES; i++)
        launch_free(&l->launch[i]);
    free(l->scratch);
    free(l->scratch_zero);
    for (size_t i = 0; i < l->nparams; i++) {
        free(l->params[i].name);
        free(l->params[i].values);
        free(l->params[i].rule);
    }
    for (size_t i = 0; i < l->nmultiples; i++)
        free(l->multiples[i].expr);
    free(l->multiples);
    for (size_t i = 0; i < l->nrequires; i++) {
        free(l->requires[i].expr);
        free(l->requires[i].message);
    }
    free(l->requires);
    layout_free(&l->layout);
    free(l->text);
    memset(l, 0, sizeof *l);
}

/* A lesson file or a kernel, whole: a regular file of at most limit bytes, with no NUL
   byte (the parser and the OpenCL compiler would stop there). */
char *lesson_read_text(const char *path, size_t limit, const char *what, struct error *e)
{
    size_t len;
    char *text = files_read(path, limit, what, &len, e);
    const char *nul = text ? memchr(text, '\0', len) : NULL;

    if (nul) {
        error_set(e, "%s holds a NUL byte (at byte %zu): %s is text, without NUL bytes", path,
                  (size_t)(nul - text), what);
        free(text);
        return NULL;
    }
    return text;
}

char *read_file(const char *path, struct error *e)
{
    return lesson_read_text(path, LESSON_KERNEL_MAX, "a lesson file or a kernel", e);
}

char *lesson_kernel_source(const struct lesson *l, struct error *e)
{
    if (!l->kernel_file) {
        error_set(e, "lesson %d runs on the host and has no kernel", l->number);
        return NULL;
    }
    return lesson_read_text(l->kernel_file, LESSON_KERNEL_MAX, "a kernel", e);
}

char *lesson_emulation_source(const struct lesson *l, struct error *e)
{
    if (!l->emulation) {
        error_set(e, "lesson %d has no emulation line", l->number);
        return NULL;
    }
    return lesson_read_text(l->emulation, LESSON_KERNEL_MAX, "an emulation header", e);
}

const char *lesson_launch_which(const struct lesson *l, size_t i, char *buf, size_t len)
{
    if (i == 0)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, " of launch %zu (then: %.60s)", i + 1, l->launch[i].entry);
    return buf;
}

int lesson_param_index(const struct lesson *l, const char *name)
{
    for (size_t i = 0; i < l->nparams; i++)
        if (strcmp(l->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

bool lesson_param_allows(const struct lesson_param *p, long long value)
{
    if (p->is_range)
        return value >= p->values[0] && value <= p->values[1];
    for (size_t i = 0; i < p->nvalues; i++)
        if (p->values[i] == value)
            return true;
    return false;
}

size_t lesson_param_count(const struct lesson_param *p)
{
    if (p->is_range) {
        long long n = p->values[1] - p->values[0] + 1;     /* at most 2^32: the ends fit an int */
        return (unsigned long long)n > SIZE_MAX ? SIZE_MAX : (size_t)n;
    }
    return p->nvalues;
}

long long lesson_param_value(const struct lesson_param *p, size_t i)
{
    return p->is_range ? p->values[0] + (long long)i : p->values[i];
}

bool lesson_param_searched(const struct lesson_param *p)
{
    return !p->is_switch && !p->is_range;
}

void lesson_param_describe(const struct lesson_param *p, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    if (p->is_range) {
        str_appendf(&s, "", "%lld to %lld", p->values[0], p->values[1]);
        return;
    }
    for (size_t v = 0; v < p->nvalues; v++)
        str_appendf(&s, ", ", "%lld", p->values[v]);
}
