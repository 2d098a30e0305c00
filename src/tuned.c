/* tuned.c: reading and rewriting the file of tuned parameters.

   One line per device and lesson, fields separated by tabs:
     lesson  device  parameters ("TS=32 WPT=8")  GFLOPS  size (MxNxK)  date
   Lines that do not parse are kept as they are when the file is rewritten. */
#include "tuned.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "str.h"

int tuned_path(char *buf, size_t len)
{
    return files_data_path("tuned", buf, len);
}

/* Splits a line into its tab-separated fields, in place. */
static size_t split_tabs(char *line, char **fields, size_t most)
{
    size_t n = 0;

    line[strcspn(line, "\n")] = '\0';
    while (n < most) {
        fields[n++] = line;
        line = strchr(line, '\t');
        if (!line)
            break;
        *line++ = '\0';
    }
    return n;
}

/* Splits line (in place) into its fields: how many, when it is the entry of device and
   lesson; 0 for any other line. */
static size_t entry_of(char *line, const char *device, int lesson, char **field)
{
    size_t count = split_tabs(line, field, 6);
    long long n;

    if (count >= 2 && str_to_ll(field[0], &n) == 0 && n == lesson && strcmp(field[1], device) == 0)
        return count;
    return 0;
}

/* Applies "NAME=V NAME=V" to ps; false if a name is unknown or a value not allowed. */
static bool apply_params(const struct lesson *l, const char *text, struct param_set *ps)
{
    struct param_set out = *ps;
    char copy[512], *save = NULL;

    snprintf(copy, sizeof copy, "%s", text);
    for (char *item = strtok_r(copy, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(item, '=');
        long long v;
        int at;
        if (!eq)
            return false;
        *eq = '\0';
        at = lesson_param_index(l, item);
        if (at < 0 || str_to_ll(eq + 1, &v) < 0 || !lesson_param_allows(&l->params[at], v))
            return false;
        out.values[at] = v;
    }
    *ps = out;
    return true;
}

bool tuned_load(const char *path, const char *device, const struct lesson *l, struct param_set *ps)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    bool found = false;

    if (!f)
        return false;
    while (!found && getline(&line, &cap, f) > 0) {
        char *field[6];
        if (entry_of(line, device, l->number, field) >= 3)
            found = apply_params(l, field[2], ps);
    }
    free(line);
    fclose(f);
    return found;
}

/* The GFLOPS and size of the entry for device and lesson in the open file f, if any. */
static bool find_entry(FILE *f, const char *device, int lesson, double *gflops, char *size, size_t len)
{
    char *line = NULL;
    size_t cap = 0;
    bool found = false;

    rewind(f);
    while (!found && getline(&line, &cap, f) > 0) {
        char *field[6];
        if (entry_of(line, device, lesson, field) >= 5) {
            *gflops = strtod(field[3], NULL);
            snprintf(size, len, "%s", field[4]);
            found = true;
        }
    }
    free(line);
    return found;
}

/* Copies every line of in but the entry of device and lesson to out. */
static int copy_others(FILE *in, FILE *out, const char *device, int lesson)
{
    char *line = NULL, *copy = NULL;
    size_t cap = 0;
    ssize_t n;

    rewind(in);
    while ((n = getline(&line, &cap, in)) > 0) {
        char *field[6];
        free(copy);
        copy = strdup(line);
        if (entry_of(copy, device, lesson, field) > 0)
            continue;   /* the entry being replaced */
        fputs(line, out);
        if (line[n - 1] != '\n')
            fputc('\n', out);
    }
    free(line);
    free(copy);
    return ferror(in) ? -1 : 0;
}

struct new_entry {
    FILE *in;                   /* the old file, NULL when there is none */
    const char *device;
    const struct lesson *lesson;
    const struct param_set *params;
    double gflops;
    const char *size;
};

static int write_entries(FILE *out, void *ctx)
{
    struct new_entry *n = ctx;
    char params[512], date[32];
    time_t now = time(NULL);

    if (n->in && copy_others(n->in, out, n->device, n->lesson->number) < 0)
        return -1;
    param_set_format(n->lesson, n->params, params, sizeof params);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    return fprintf(out, "%d\t%s\t%s\t%.1f\t%s\t%s\n", n->lesson->number, n->device, params, n->gflops,
                   n->size, date) < 0 ? -1 : 0;
}

int tuned_save(const char *path, const char *device, const struct lesson *l, const struct param_set *ps,
               double gflops, struct gemm_size size, bool complete, bool *kept, struct error *e)
{
    char lock_path[4200], old_size[64], new_size[64];
    struct new_entry entry = { NULL, device, l, ps, gflops, new_size };
    double old_gflops;
    int lock, rc = -1;

    *kept = false;
    if (make_parents(path, e) < 0)
        return -1;
    /* One writer at a time: read, write and rename under the lock. */
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    lock = open(lock_path, O_CREAT | O_RDWR, 0644);
    if (lock < 0 || flock(lock, LOCK_EX) < 0) {
        error_set(e, "cannot lock %s: %s", lock_path, strerror(errno));
        if (lock >= 0)
            close(lock);
        return -1;
    }
    entry.in = fopen(path, "r");
    if (!entry.in && errno != ENOENT) {
        error_set(e, "cannot read %s: %s", path, strerror(errno));
        goto done;
    }
    snprintf(new_size, sizeof new_size, "%lldx%lldx%lld", size.m, size.n, size.k);
    /* A search stopped early does not replace a faster result found at the same size. */
    if (entry.in && !complete &&
        find_entry(entry.in, device, l->number, &old_gflops, old_size, sizeof old_size) &&
        strcmp(old_size, new_size) == 0 && old_gflops > gflops) {
        *kept = true;
        rc = 0;
        goto done;
    }
    rc = file_replace(path, write_entries, &entry, e);
done:
    if (entry.in)
        fclose(entry.in);
    close(lock);
    return rc;
}
