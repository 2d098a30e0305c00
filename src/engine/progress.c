/* progress.c: the student's progress file and check log.

   The file has one line per exercise that has been checked or opened:
     exercise 4 best=verified last=builds checks=3 gflops=812.5 ratio=1.04 prediction=1.5
              hints=2 solution=0 time=1763884800
   (on one line). The log beside it (progress.log) gets one line per check. */
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "files.h"
#include "str.h"

static const char *const status_words[] = { "not-started", "not-built", "builds", "verified", "done" };
static const char *const status_names[] = { "not started", "does not build", "builds, not verified",
                                            "verified", "done" };

const char *progress_status_name(enum progress_status s)
{
    return (unsigned)s <= PROGRESS_DONE ? status_names[s] : "?";
}

int progress_path(char *buf, size_t len)
{
    return files_state_path("progress", buf, len);
}

static bool parse_status(const char *word, enum progress_status *s)
{
    for (int i = 0; i <= PROGRESS_DONE; i++)
        if (strcmp(word, status_words[i]) == 0) {
            *s = (enum progress_status)i;
            return true;
        }
    return false;
}

static bool parse_number(const char *text, double *v)
{
    char *end;

    errno = 0;
    *v = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*v) && *v >= 0 && *v < 1e12;
}

/* One line; a line that does not parse in full is ignored. */
static void load_line(char *line, struct progress *p)
{
    struct progress_entry en;
    long long n;
    char *save = NULL, *word = strtok_r(line, " ", &save);

    memset(&en, 0, sizeof en);      /* padding too: entries are compared whole */

    if (!word || strcmp(word, "exercise") != 0 || !(word = strtok_r(NULL, " ", &save)) ||
        str_to_ll(word, &n) < 0 || n < 0 || n >= PROGRESS_MAX_EXERCISES)
        return;
    while ((word = strtok_r(NULL, " ", &save)) != NULL) {
        char *eq = strchr(word, '=');
        double v;
        if (!eq)
            return;
        *eq++ = '\0';
        if (strcmp(word, "best") == 0 || strcmp(word, "last") == 0) {
            if (!parse_status(eq, word[0] == 'b' ? &en.best : &en.last))
                return;
            continue;
        }
        if (!parse_number(eq, &v))
            return;
        if (strcmp(word, "checks") == 0 && v < 1e9)
            en.checks = (int)v;
        else if (strcmp(word, "gflops") == 0)
            en.best_gflops = v;
        else if (strcmp(word, "ratio") == 0)
            en.last_ratio = v;
        else if (strcmp(word, "prediction") == 0)
            en.prediction = v;
        else if (strcmp(word, "hints") == 0 && v < 1000)
            en.hints = (int)v;
        else if (strcmp(word, "solution") == 0)
            en.solution_shown = v != 0;
        else if (strcmp(word, "time") == 0)
            en.last_time = (long long)v;
        else
            return;
    }
    p->e[n] = en;
}

static void take_line(char *line, void *p)
{
    load_line(line, p);
}

void progress_load(const char *path, struct progress *p)
{
    struct error e;

    memset(p, 0, sizeof *p);
    error_init(&e);
    files_read_lines(path, PROGRESS_FILE_MAX, "the progress file", take_line, p, &e);
    error_clear(&e);
}

static int write_progress(FILE *out, void *ctx)
{
    const struct progress *p = ctx;

    for (int i = 0; i < PROGRESS_MAX_EXERCISES; i++) {
        const struct progress_entry *en = &p->e[i];
        if (en->best == PROGRESS_NOT_STARTED && en->last == PROGRESS_NOT_STARTED && en->checks == 0 &&
            en->best_gflops == 0 && en->last_ratio == 0 && en->prediction == 0 && en->hints == 0 &&
            !en->solution_shown && en->last_time == 0)
            continue;
        /* Numbers in full, so that the file reads back as it was. */
        fprintf(out, "exercise %d best=%s last=%s checks=%d gflops=%.17g ratio=%.17g prediction=%.17g "
                     "hints=%d solution=%d time=%lld\n",
                i, status_words[en->best], status_words[en->last], en->checks, en->best_gflops,
                en->last_ratio, en->prediction, en->hints, en->solution_shown ? 1 : 0, en->last_time);
    }
    return ferror(out) ? -1 : 0;
}

void progress_apply(struct progress_entry *en, const struct progress_check *c, long long now)
{
    en->last = c->status;
    if (c->status > en->best)
        en->best = c->status;
    en->checks++;
    if (c->gflops > en->best_gflops && c->status >= PROGRESS_VERIFIED)
        en->best_gflops = c->gflops;
    if (c->ratio > 0)
        en->last_ratio = c->ratio;
    if (c->prediction > 0)
        en->prediction = c->prediction;
    en->last_time = now;
}

int progress_count(const struct progress *p, const struct exercise_set *set, enum progress_status at_least)
{
    int n = 0;

    for (size_t i = 0; i < set->count; i++)
        n += set->items[i].number >= 0 && set->items[i].number < PROGRESS_MAX_EXERCISES &&
             p->e[set->items[i].number].best >= at_least;
    return n;
}

/* An exclusive lock on path.lock, held until the descriptor is closed. */
static int lock(const char *path, struct error *e)
{
    char name[4200];
    int fd;

    snprintf(name, sizeof name, "%s.lock", path);
    if (make_parents(name, e) < 0)
        return -1;
    fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) < 0) {
        error_set(e, "cannot lock %s: %s", name, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* One line appended to the log in one write, so that lines of two writers never mix. */
static void append_log(const char *path, const struct progress_check *c, long long now)
{
    char name[4200], line[512];
    int fd, n;

    snprintf(name, sizeof name, "%s.log", path);
    n = snprintf(line, sizeof line, "%lld exercise=%d verdict=%s gflops=%.6g ratio=%.6g prediction=%.6g "
                                    "device=%s\n",
                 now, c->exercise, c->verdict, c->gflops, c->ratio, c->prediction, c->device);
    if (n <= 0 || (size_t)n >= sizeof line)
        return;
    for (char *q = strstr(line, "device=") + 7; *q && *q != '\n'; q++)
        if (*q == ' ' || (unsigned char)*q < 0x20)
            *q = '_';
    fd = open(name, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, (size_t)n) != n) {
        /* The log is a convenience: the progress file holds what matters. */
    }
    close(fd);
}

static int update(const char *path, int exercise, const struct progress_check *c, int hints, bool solution,
                  struct progress *out, struct error *e)
{
    struct progress p;
    struct progress_entry *en;
    int fd, rc;
    long long now = (long long)time(NULL);

    if (exercise < 0 || exercise >= PROGRESS_MAX_EXERCISES) {
        error_set(e, "no progress is kept for exercise %d", exercise);
        return -1;
    }
    if ((fd = lock(path, e)) < 0)
        return -1;
    progress_load(path, &p);
    en = &p.e[exercise];
    if (c) {
        progress_apply(en, c, now);
    } else {
        if (hints > en->hints)
            en->hints = hints;
        en->solution_shown |= solution;
    }
    files_remove_leftovers(path, FILES_STALE_SECONDS);
    rc = file_replace(path, write_progress, &p, e);
    if (rc == 0 && c)
        append_log(path, c, now);
    close(fd);
    if (rc == 0 && out)
        *out = p;
    return rc;
}

int progress_record(const char *path, const struct progress_check *c, struct progress *p, struct error *e)
{
    return update(path, c->exercise, c, 0, false, p, e);
}

int progress_note(const char *path, int exercise, int hints, bool solution_shown, struct progress *p,
                  struct error *e)
{
    return update(path, exercise, NULL, hints, solution_shown, p, e);
}
