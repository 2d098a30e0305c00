/* tuned.c: reading and rewriting the file of tuned parameters.

   One line per device and lesson, fields separated by tabs:
     lesson  device  parameters ("TS=32 WPT=8")  GFLOPS  size (MxNxK)  date
   Lines that do not parse are kept as they are when the file is rewritten. */
#include "tuned.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "str.h"

int tuned_path(char *buf, size_t len)
{
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;

    if (data && *data)
        n = snprintf(buf, len, "%s/clmm-tutor/tuned", data);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.local/share/clmm-tutor/tuned", home);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int make_parents(const char *path, struct error *e)
{
    char dir[4096];

    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
            error_set(e, "cannot create %s: %s", dir, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    return 0;
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
    char line[1024];
    bool found = false;

    if (!f)
        return false;
    while (!found && fgets(line, sizeof line, f)) {
        char *field[6];
        long long lesson;
        if (split_tabs(line, field, 6) >= 3 && str_to_ll(field[0], &lesson) == 0 &&
            lesson == l->number && strcmp(field[1], device) == 0)
            found = apply_params(l, field[2], ps);
    }
    fclose(f);
    return found;
}

int tuned_save(const char *path, const char *device, const struct lesson *l, const struct param_set *ps,
               double gflops, struct gemm_size size, struct error *e)
{
    char tmp[4200], line[1024], params[512], date[32];
    FILE *in, *out;
    struct str s;
    time_t now = time(NULL);

    if (make_parents(path, e) < 0)
        return -1;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    out = fopen(tmp, "w");
    if (!out) {
        error_set(e, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    in = fopen(path, "r");
    while (in && fgets(line, sizeof line, in)) {
        char copy[1024], *field[6];
        long long lesson;
        snprintf(copy, sizeof copy, "%s", line);
        if (split_tabs(copy, field, 6) >= 2 && str_to_ll(field[0], &lesson) == 0 &&
            lesson == l->number && strcmp(field[1], device) == 0)
            continue;   /* the entry being replaced */
        fputs(line, out);
        if (line[strlen(line) - 1] != '\n')
            fputc('\n', out);
    }
    if (in)
        fclose(in);
    str_init(&s, params, sizeof params);
    for (size_t i = 0; i < l->nparams; i++)
        str_appendf(&s, " ", "%s=%lld", l->params[i].name, ps->values[i]);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    fprintf(out, "%d\t%s\t%s\t%.1f\t%lldx%lldx%lld\t%s\n", l->number, device, params, gflops,
            size.m, size.n, size.k, date);
    /* On disk before the rename, so a crash leaves the old file or the new one. */
    bool failed = fflush(out) != 0 || fsync(fileno(out)) != 0;
    failed |= fclose(out) != 0;
    if (failed) {
        error_set(e, "cannot write %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) < 0) {
        error_set(e, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
