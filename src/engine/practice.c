/* practice.c: the student's workspace. */
#include "practice.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

void practice_file(const char *dir, const struct exercise *x, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", dir, x->start_name);
}

/* Writes the starting kernel to a new temporary file in dir; its name goes to tmp. */
static int write_start(const char *dir, const struct exercise *x, char *tmp, size_t len, struct error *e)
{
    size_t n;
    char *text = exercise_start_text(x, &n, e);
    int fd;
    bool failed;

    if (!text)
        return -1;
    snprintf(tmp, len, "%s/.%s.XXXXXX", dir, x->start_name);
    fd = mkstemp(tmp);
    if (fd < 0) {
        error_set(e, "cannot write in the workspace %s: %s", dir, strerror(errno));
        free(text);
        return -1;
    }
    failed = write(fd, text, n) != (ssize_t)n || fchmod(fd, 0644) != 0 || fsync(fd) != 0;
    failed |= close(fd) != 0;
    free(text);
    if (failed) {
        error_set(e, "cannot write in the workspace %s: %s", dir, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int make_dir(const char *dir, struct error *e)
{
    char probe[4200];
    struct stat st;

    snprintf(probe, sizeof probe, "%s/x", dir);
    if (make_parents(probe, e) < 0)
        return -1;
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        error_set(e, "the workspace %s is not a directory", dir);
        return -1;
    }
    return 0;
}

int practice_prepare(const char *dir, const struct exercise *x, char *path, size_t len, bool *created,
                     struct error *e)
{
    char tmp[4200];
    int rc;

    *created = false;
    practice_file(dir, x, path, len);
    /* Any other answer than "there" (no such file, a workspace that is not a directory, no
       permission) is for make_dir and link() to report. */
    if (access(path, F_OK) == 0)
        return 0;
    if (make_dir(dir, e) < 0 || write_start(dir, x, tmp, sizeof tmp, e) < 0)
        return -1;
    /* link() refuses to replace an existing name: a file that appeared since is kept. */
    rc = link(tmp, path);
    if (rc == 0)
        *created = true;
    else if (errno != EEXIST)
        error_set(e, "cannot create %s: %s", path, strerror(errno));
    unlink(tmp);
    return rc == 0 || errno == EEXIST ? 0 : -1;
}

const char *practice_workspace(const char *given)
{
    return given ? given : PRACTICE_DEFAULT_DIR;
}

int practice_as_shipped(const char *path, const struct exercise *x)
{
    struct error e;
    size_t n, m;
    char *mine, *start;
    int line = 0;

    error_init(&e);
    mine = files_read(path, LESSON_KERNEL_MAX, "your kernel", &n, &e);
    start = mine ? exercise_start_text(x, &m, &e) : NULL;
    if (mine && start && n == m && memcmp(mine, start, n) == 0) {
        const char *todo = memmem(mine, n, "TODO", 4);
        line = todo ? 1 : -1;
        for (const char *p = mine; todo && p < todo; p++)
            line += *p == '\n';
    }
    free(mine);
    free(start);
    error_clear(&e);
    return line;
}

/* The file holds the starting kernel byte for byte. */
static bool same_as_start(const char *path, const struct exercise *x)
{
    return practice_as_shipped(path, x) != 0;
}

int practice_reset(const char *dir, const struct exercise *x, char *backup, size_t blen, struct error *e)
{
    char path[4200], tmp[4200];

    backup[0] = '\0';
    if (make_dir(dir, e) < 0)
        return -1;
    practice_file(dir, x, path, sizeof path);
    if (same_as_start(path, x))
        return 0;       /* nothing to keep, nothing to put back */
    if (access(path, F_OK) == 0) {
        for (int n = 1;; n++) {
            snprintf(backup, blen, "%s.~%d~", path, n);
            if (link(path, backup) == 0)
                break;
            if (errno != EEXIST || n == 9999) {
                error_set(e, "cannot keep a copy of %s as %s: %s", path, backup, strerror(errno));
                backup[0] = '\0';
                return -1;
            }
        }
    }
    if (write_start(dir, x, tmp, sizeof tmp, e) < 0)
        return -1;
    if (rename(tmp, path) < 0) {
        error_set(e, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
