/* files.c: the tool's own files under the XDG directories, and atomic replacement. */
#include "files.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int xdg_path(const char *variable, const char *fallback, const char *name, char *buf, size_t len)
{
    const char *dir = getenv(variable), *home = getenv("HOME");
    int n;

    if (dir && *dir)
        n = snprintf(buf, len, "%s/clmm-tutor/%s", dir, name);
    else if (home && *home)
        n = snprintf(buf, len, "%s/%s/clmm-tutor/%s", home, fallback, name);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int files_data_path(const char *name, char *buf, size_t len)
{
    return xdg_path("XDG_DATA_HOME", ".local/share", name, buf, len);
}

int files_state_path(const char *name, char *buf, size_t len)
{
    return xdg_path("XDG_STATE_HOME", ".local/state", name, buf, len);
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

int file_replace(const char *path, int (*write)(FILE *out, void *ctx), void *ctx, struct error *e)
{
    char tmp[4200];
    FILE *out;
    bool failed;
    int fd;

    if (make_parents(path, e) < 0)
        return -1;
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0 || !(out = fdopen(fd, "w"))) {
        error_set(e, "cannot write beside %s: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return -1;
    }
    failed = write(out, ctx) < 0;
    /* On disk before the rename, so a crash leaves the old file or the new one. */
    failed = failed || fflush(out) != 0 || fsync(fileno(out)) != 0 || fchmod(fileno(out), 0644) != 0;
    failed |= fclose(out) != 0;
    if (failed || rename(tmp, path) < 0) {
        error_set(e, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
