/* tuned.c: reading and rewriting the file of tuned parameters.

   One line per device, lesson and size, fields separated by tabs:
     lesson  device  parameters ("TS=32 WPT=8")  GFLOPS  size (MxNxK)  date  search
   where search is "complete" (every configuration measured) or "partial" (stopped by a
   limit or cancelled). Lines written before the search field existed end at the date:
   whether their search was complete was not recorded, and they count as complete (they
   are not marked partial). Lines that do not parse (one holding a NUL byte never does)
   are kept byte for byte when the file is rewritten, and ignored otherwise. The file is
   read whole, so it is read only when it is a regular file of at most TUNED_FILE_MAX
   bytes. */
#include "tuned.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "sizes.h"
#include "str.h"
#include "xalloc.h"

int tuned_path(char *buf, size_t len)
{
    return files_data_path("tuned", buf, len);
}

bool tuned_near(struct gemm_size tuned, struct gemm_size size)
{
    const long long t[3] = { tuned.m, tuned.n, tuned.k }, s[3] = { size.m, size.n, size.k };

    for (int i = 0; i < 3; i++)
        if (s[i] > 2 * t[i] || t[i] > 2 * s[i])
            return false;
    return true;
}

/* The sum over M, N and K of the logarithm of the larger over the smaller side. */
static double size_distance(struct gemm_size a, struct gemm_size b)
{
    const double x[3] = { (double)a.m, (double)a.n, (double)a.k };
    const double y[3] = { (double)b.m, (double)b.n, (double)b.k };
    double d = 0.0;

    for (int i = 0; i < 3; i++)
        d += x[i] > y[i] ? log(x[i] / y[i]) : log(y[i] / x[i]);
    return d;
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

/* "MxNxK", each side a positive decimal number. */
static bool parse_size(const char *text, struct gemm_size *size)
{
    long long side[3];

    for (int i = 0; i < 3; i++) {
        char *end;
        if (!isdigit((unsigned char)*text))
            return false;
        errno = 0;
        side[i] = strtoll(text, &end, 10);
        /* Sides the command line would take: larger ones (LLONG_MAX for a number out of
           range) would overflow the nearness test. */
        if (errno || side[i] <= 0 || side[i] > SIZES_MAX_SIDE || *end != (i < 2 ? 'x' : '\0'))
            return false;
        text = end + 1;
    }
    *size = (struct gemm_size){ side[0], side[1], side[2] };
    return true;
}

/* One line of the file, its text fields pointing into the line. */
struct line_entry {
    long long lesson;
    const char *device;
    const char *params;
    double gflops;
    struct gemm_size size;
    bool complete;
};

/* Splits line (in place) into le: false when it is not an entry. */
static bool parse_line(char *line, struct line_entry *le)
{
    char *field[7], *end;
    size_t count = split_tabs(line, field, 7);

    if (count < 6 || str_to_ll(field[0], &le->lesson) < 0 || !parse_size(field[4], &le->size))
        return false;
    le->device = field[1];
    le->params = field[2];
    le->gflops = strtod(field[3], &end);
    if (end == field[3] || *end)
        return false;
    if (count == 6)
        le->complete = true;    /* written before the search field existed */
    else if (strcmp(field[6], "complete") == 0 || strcmp(field[6], "partial") == 0)
        le->complete = field[6][0] == 'c';
    else
        return false;
    return true;
}

/* Whether line is the entry of device and lesson at size; its GFLOPS into *gflops. */
static bool same_entry(char *line, const char *device, int lesson, struct gemm_size size, double *gflops)
{
    struct line_entry le;

    if (!parse_line(line, &le) || le.lesson != lesson || strcmp(le.device, device) != 0 ||
        memcmp(&le.size, &size, sizeof size) != 0)
        return false;
    *gflops = le.gflops;
    return true;
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

/* The next line of text[*at..len): its start and its length without the newline; false at
   the end. */
static bool next_line(const char *text, size_t len, size_t *at, const char **line, size_t *n)
{
    const char *end;

    if (*at >= len)
        return false;
    *line = text + *at;
    end = memchr(*line, '\n', len - *at);
    *n = end ? (size_t)(end - *line) : len - *at;
    *at += *n + (end != NULL);
    return true;
}

/* A NUL-terminated copy of line[0..n) in *buf (grown as needed), for parse_line; false
   when the line holds a NUL byte: no entry does, and the part before it must not be taken
   for one. */
static bool line_copy(const char *line, size_t n, char **buf, size_t *cap)
{
    if (memchr(line, '\0', n))
        return false;
    if (n + 1 > *cap) {
        *cap = n + 1;
        *buf = xrealloc(*buf, *cap);
    }
    memcpy(*buf, line, n);
    (*buf)[n] = '\0';
    return true;
}

/* The file whole, or NULL (errno ENOENT when there is none); a file that is not a regular
   one, or is larger than TUNED_FILE_MAX, is refused with a message in e. */
static char *read_tuned(const char *path, size_t *len, struct error *e)
{
    return files_read(path, TUNED_FILE_MAX, "the file of tuned parameters", len, e);
}

bool tuned_find(const char *path, const char *device, const struct lesson *l, struct gemm_size size,
                struct tuned_entry *found)
{
    struct error e;
    size_t len, at = 0, n, cap = 0;
    const char *line;
    char *text, *copy = NULL;
    bool have = false, best_near = false;
    double best_distance = 0.0;

    error_init(&e);
    if (!(text = read_tuned(path, &len, &e)))
        return false;
    while (next_line(text, len, &at, &line, &n)) {
        struct line_entry le;
        struct tuned_entry t;
        bool near;
        double distance;

        if (!line_copy(line, n, &copy, &cap) || !parse_line(copy, &le) || le.lesson != l->number ||
            strcmp(le.device, device) != 0)
            continue;
        param_set_defaults(l, &t.params);
        if (!apply_params(l, le.params, &t.params))
            continue;
        t.gflops = le.gflops;
        t.size = le.size;
        t.complete = le.complete;
        near = tuned_near(t.size, size);
        distance = size_distance(t.size, size);
        /* A near entry before any other, then the least distant; of equals, the later line:
           a save puts its entry last. */
        if (!have || (near && !best_near) || (near == best_near && distance <= best_distance)) {
            *found = t;
            have = true;
            best_near = near;
            best_distance = distance;
        }
    }
    free(copy);
    free(text);
    return have;
}

/* The GFLOPS of the entry of device and lesson at size in text, if any. */
static bool find_entry(const char *text, size_t len, const char *device, int lesson, struct gemm_size size,
                       double *gflops)
{
    size_t at = 0, n, cap = 0;
    const char *line;
    char *copy = NULL;
    bool found = false;

    while (!found && next_line(text, len, &at, &line, &n))
        found = line_copy(line, n, &copy, &cap) && same_entry(copy, device, lesson, size, gflops);
    free(copy);
    return found;
}

/* Copies every line of text but the entry of device and lesson at size to out, byte for
   byte (NUL bytes included), each ending in a newline. */
static int copy_others(const char *text, size_t len, FILE *out, const char *device, int lesson,
                       struct gemm_size size)
{
    size_t at = 0, n, cap = 0;
    const char *line;
    char *copy = NULL;
    double gflops;
    int rc = 0;

    while (rc == 0 && next_line(text, len, &at, &line, &n)) {
        if (line_copy(line, n, &copy, &cap) && same_entry(copy, device, lesson, size, &gflops))
            continue;   /* the entry being replaced */
        if (fwrite(line, 1, n, out) != n || fputc('\n', out) == EOF)
            rc = -1;
    }
    free(copy);
    return rc;
}

struct new_entry {
    const char *old;            /* the old file's text, NULL when there is none */
    size_t old_len;
    const char *device;
    const struct lesson *lesson;
    const struct param_set *params;
    double gflops;
    struct gemm_size size;
    bool complete;
};

static int write_entries(FILE *out, void *ctx)
{
    struct new_entry *n = ctx;
    char params[512], date[32];
    time_t now = time(NULL);

    if (n->old && copy_others(n->old, n->old_len, out, n->device, n->lesson->number, n->size) < 0)
        return -1;
    param_set_format(n->lesson, n->params, params, sizeof params);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    return fprintf(out, "%d\t%s\t%s\t%.1f\t%lldx%lldx%lld\t%s\t%s\n", n->lesson->number, n->device, params,
                   n->gflops, n->size.m, n->size.n, n->size.k, date,
                   n->complete ? "complete" : "partial") < 0 ? -1 : 0;
}

int tuned_save(const char *path, const char *device, const struct lesson *l, const struct param_set *ps,
               double gflops, struct gemm_size size, bool complete, bool *kept, struct error *e)
{
    char lock_path[4200], *old;
    struct new_entry entry = { NULL, 0, device, l, ps, gflops, size, complete };
    struct stat st;
    double old_gflops;
    int lock, rc = -1;

    *kept = false;
    if (make_parents(path, e) < 0)
        return -1;
    /* One writer at a time: read, write and rename under the lock. */
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    lock = open(lock_path, O_CREAT | O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    if (lock >= 0 && fstat(lock, &st) == 0 && !S_ISREG(st.st_mode)) {
        error_set(e, "cannot lock %s: it is %s, not a regular file", lock_path, files_kind(st.st_mode));
        close(lock);
        return -1;
    }
    if (lock < 0 || flock(lock, LOCK_EX) < 0) {
        error_set(e, "cannot lock %s: %s", lock_path, strerror(errno));
        if (lock >= 0)
            close(lock);
        return -1;
    }
    /* Under the lock no other write is under way: every temporary beside the file is one a
       killed write left. */
    files_remove_leftovers(path, 0);
    old = read_tuned(path, &entry.old_len, e);
    if (!old && errno != ENOENT) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg);
        error_set(e, "%s (it is left as it is: move it away to start a new file)", why);
        goto done;
    }
    entry.old = old;
    /* A search stopped early does not replace a faster result found at the same size. */
    if (old && !complete && find_entry(old, entry.old_len, device, l->number, size, &old_gflops) &&
        old_gflops > gflops) {
        *kept = true;
        rc = 0;
        goto done;
    }
    rc = file_replace(path, write_entries, &entry, e);
done:
    free(old);
    close(lock);
    return rc;
}
