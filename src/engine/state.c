/* state.c: the state file, "key=value" lines:
     lesson=9
     size=1024x1024x1024
     device=NVIDIA H200 (NVIDIA CUDA, GPU)
   Unknown keys are ignored, so that a newer version's file does not stop an older one.
   Only a regular file of at most STATE_FILE_MAX bytes is read: a FIFO or a device in its
   place is not waited on. */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "sizes.h"
#include "str.h"

int state_path(char *buf, size_t len)
{
    return files_state_path("state", buf, len);
}

static bool parse_size(const char *text, struct gemm_size *s)
{
    char extra;

    if (sscanf(text, "%lldx%lldx%lld%c", &s->m, &s->n, &s->k, &extra) != 3)
        return false;
    return s->m > 0 && s->n > 0 && s->k > 0 && s->m <= SIZES_MAX_SIDE && s->n <= SIZES_MAX_SIDE &&
           s->k <= SIZES_MAX_SIDE;
}

/* One line, NUL-terminated in place, into st. */
static void load_line(char *line, struct tutor_state *st)
{
    char *value = strchr(line, '=');
    long long n;

    if (!value)
        return;
    *value++ = '\0';
    if (strcmp(line, "lesson") == 0 && str_to_ll(value, &n) == 0 && n >= 0 && n < 100) {
        st->lesson = (int)n;
        st->has_lesson = true;
    } else if (strcmp(line, "size") == 0) {
        st->has_size = parse_size(value, &st->size);
    } else if (strcmp(line, "device") == 0 && *value && strlen(value) < sizeof st->device) {
        strcpy(st->device, value);
        st->has_device = true;
    }
}

static void take_line(char *line, void *st)
{
    load_line(line, st);
}

void state_load(const char *path, struct tutor_state *st)
{
    struct error e;

    memset(st, 0, sizeof *st);
    error_init(&e);
    /* A line holding a NUL byte does not parse: files_read_lines skips it. */
    files_read_lines(path, STATE_FILE_MAX, "the state file", take_line, st, &e);
    error_clear(&e);
}

static int write_state(FILE *out, void *ctx)
{
    const struct tutor_state *st = ctx;

    if (st->has_lesson && fprintf(out, "lesson=%d\n", st->lesson) < 0)
        return -1;
    if (st->has_size && fprintf(out, "size=%lldx%lldx%lld\n", st->size.m, st->size.n, st->size.k) < 0)
        return -1;
    if (st->has_device && fprintf(out, "device=%s\n", st->device) < 0)
        return -1;
    return 0;
}

int state_save(const char *path, const struct tutor_state *st, struct error *e)
{
    files_remove_leftovers(path, FILES_STALE_SECONDS);
    return file_replace(path, write_state, (void *)st, e);
}
