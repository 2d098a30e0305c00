/* files.c: the tool's own files under the XDG directories, bounded reads of regular files,
   and atomic replacement. */
#include "files.h"
#include "str.h"
#include "xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int xdg_path(const char *variable, const char *fallback, const char *name, char *buf, size_t len)
{
    const char *dir = getenv(variable), *home = getenv("HOME");
    int n;

    /* A relative path is ignored, as the XDG base directory specification says. */
    if (dir && dir[0] == '/')
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

int files_cache_path(const char *name, char *buf, size_t len)
{
    return xdg_path("XDG_CACHE_HOME", ".cache", name, buf, len);
}

const char *files_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

void files_describe(const char *path, char *buf, size_t len)
{
    char target[4096];
    struct stat st;
    ssize_t n;

    if (lstat(path, &st) != 0) {
        snprintf(buf, len, "not to be seen (%s)", strerror(errno));
        return;
    }
    if (!S_ISLNK(st.st_mode) || (n = readlink(path, target, sizeof target - 1)) < 0) {
        snprintf(buf, len, "%s", files_kind(st.st_mode));
        return;
    }
    target[n] = '\0';
    if (stat(path, &st) == 0)
        snprintf(buf, len, "a symbolic link to %s, %s", target, files_kind(st.st_mode));
    else if (errno == ENOENT)
        snprintf(buf, len, "a symbolic link to %s, which does not exist", target);
    else if (errno == ELOOP)
        snprintf(buf, len, "a symbolic link to %s, which leads back to itself through links", target);
    else
        snprintf(buf, len, "a symbolic link to %s, which cannot be reached (%s)", target, strerror(errno));
}

int files_write_target(const char *path, char *buf, size_t len, struct error *e)
{
    struct stat st;
    char *real, what[4200];
    int n;

    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) {
        n = snprintf(buf, len, "%s", path);
    } else if ((real = realpath(path, NULL)) != NULL) {
        n = snprintf(buf, len, "%s", real);
        free(real);
    } else {
        files_describe(path, what, sizeof what);
        error_set(e, "%s is %s", path, what);
        return -1;
    }
    if (n < 0 || (size_t)n >= len) {
        error_set(e, "cannot write %s: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    return 0;
}

/* "1 MiB", "64 KiB", "1048577 bytes": exact. */
static void format_bytes(char *buf, size_t len, unsigned long long bytes)
{
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
        snprintf(buf, len, "%llu MiB", bytes / (1024 * 1024));
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%llu KiB", bytes / 1024);
    else
        snprintf(buf, len, "%llu bytes", bytes);
}

static void too_large(const char *path, unsigned long long size, size_t limit, const char *what, struct error *e)
{
    char got[32], most[32];

    format_bytes(got, sizeof got, size);
    format_bytes(most, sizeof most, limit);
    if (size > limit)
        error_set(e, "%s is %s, larger than the %s %s may have", path, got, most, what);
    else
        error_set(e, "%s is larger than the %s %s may have", path, most, what);
}

/* Opens path for reading if it is a regular file of at most limit bytes; its size into
   *size. The stat before the open keeps devices from being opened at all; O_NONBLOCK keeps
   the open from waiting for a writer should a FIFO take the file's place in between. */
static int open_regular(const char *path, size_t limit, const char *what, off_t *size, struct error *e)
{
    struct stat st;
    int fd, saved;

    if (stat(path, &st) < 0) {
        saved = errno;
        error_set(e, "cannot open %s: %s", path, strerror(saved));
        errno = saved;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        error_set(e, "%s is %s, not a regular file", path, files_kind(st.st_mode));
        errno = EINVAL;
        return -1;
    }
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        saved = errno;
        error_set(e, "cannot open %s: %s", path, strerror(saved));
        errno = saved;
        return -1;
    }
    saved = 0;
    if (fstat(fd, &st) < 0) {
        saved = errno;
        error_set(e, "cannot read %s: %s", path, strerror(saved));
    } else if (!S_ISREG(st.st_mode)) {
        saved = EINVAL;
        error_set(e, "%s is %s, not a regular file", path, files_kind(st.st_mode));
    } else if ((unsigned long long)st.st_size > limit) {
        saved = EFBIG;
        too_large(path, (unsigned long long)st.st_size, limit, what, e);
    }
    if (saved) {
        close(fd);
        errno = saved;
        return -1;
    }
    *size = st.st_size;
    return fd;
}

int files_write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int files_read_all(int fd, void *data, size_t len)
{
    unsigned char *p = data;

    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

char *files_read(const char *path, size_t limit, const char *what, size_t *len, struct error *e)
{
    off_t size;
    size_t cap, got = 0;
    char *buf;
    int fd = open_regular(path, limit, what, &size, e), saved;

    if (fd < 0)
        return NULL;
    /* Room for the size it had, one byte more to see that it grew, and the NUL. */
    cap = (size_t)size + 2;
    buf = xmalloc(cap);
    for (;;) {
        ssize_t n;
        if (got == cap - 1) {
            if (cap - 1 > limit) {
                too_large(path, got, limit, what, e);
                saved = EFBIG;
                goto fail;
            }
            cap = cap * 2 > limit + 2 ? limit + 2 : cap * 2;
            buf = xrealloc(buf, cap);
        }
        n = read(fd, buf + got, cap - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            saved = errno;
            error_set(e, "cannot read %s: %s", path, strerror(saved));
            goto fail;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    if (got > limit) {
        too_large(path, got, limit, what, e);
        saved = EFBIG;
        goto fail;
    }
    close(fd);
    buf[got] = '\0';
    *len = got;
    return buf;
fail:
    free(buf);
    close(fd);
    errno = saved;
    return NULL;
}

int files_read_lines(const char *path, size_t limit, const char *what, void (*line)(char *text, void *ctx),
                     void *ctx, struct error *e)
{
    size_t len;
    char *text = files_read(path, limit, what, &len, e), *start, *end;

    if (!text)
        return -1;
    for (start = text; start < text + len; start = end + 1) {
        end = memchr(start, '\n', (size_t)(text + len - start));
        if (!end)
            end = text + len;
        *end = '\0';
        if (strlen(start) == (size_t)(end - start))
            line(start, ctx);
    }
    free(text);
    return 0;
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

/* Splits path into its directory ("." when it has none) and its last part. */
static void split_path(const char *path, char *dir, size_t len, const char **base)
{
    const char *slash = strrchr(path, '/');

    if (!slash) {
        snprintf(dir, len, ".");
        *base = path;
    } else {
        snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* file_replace's temporary beside PATH is PATH.clmm-tutor-PID-XXXXXX.tmp: the tool's name and
   this process's id make it a name that no file of the user's has. */
#define TEMPORARY_MARK ".clmm-tutor-"
#define TEMPORARY_SUFFIX ".tmp"

static int temporary_template(const char *path, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s" TEMPORARY_MARK "%ld-XXXXXX" TEMPORARY_SUFFIX, path, (long)getpid());

    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Whether name is BASE.clmm-tutor-PID-XXXXXX.tmp, XXXXXX being six of mkstemps's letters
   and digits: a temporary of file_replace for BASE, of this run or of another. */
static bool temporary_name(const char *name, const char *base)
{
    size_t n = strlen(base), mark = strlen(TEMPORARY_MARK);

    if (strncmp(name, base, n) != 0 || strncmp(name + n, TEMPORARY_MARK, mark) != 0)
        return false;
    name += n + mark;
    if (!isdigit((unsigned char)*name))
        return false;
    while (isdigit((unsigned char)*name))
        name++;
    if (*name++ != '-')
        return false;
    for (int i = 0; i < 6; i++)
        if (!isalnum((unsigned char)name[i]))
            return false;
    return strcmp(name + 6, TEMPORARY_SUFFIX) == 0;
}

void files_remove_leftovers(const char *path, double min_age)
{
    char dir[4096], file[8192];
    const char *base;
    struct dirent *d;
    time_t now = time(NULL);
    DIR *dh;

    split_path(path, dir, sizeof dir, &base);
    if (!*base || !(dh = opendir(dir)))
        return;
    while ((d = readdir(dh)) != NULL) {
        struct stat st;
        if (!temporary_name(d->d_name, base))
            continue;
        snprintf(file, sizeof file, "%s/%s", dir, d->d_name);
        if (lstat(file, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1 ||
            (min_age > 0 && difftime(now, st.st_mtime) < min_age))
            continue;
        unlink(file);
    }
    closedir(dh);
}

/* Makes a rename in path's directory durable. Filesystems that cannot sync a directory
   say EINVAL: nothing more can be done there. */
static int sync_directory(const char *path, struct error *e)
{
    char dir[4096];
    const char *base;
    int fd, rc;

    split_path(path, dir, sizeof dir, &base);
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    rc = fd < 0 ? -1 : fsync(fd);
    if (rc < 0 && errno != EINVAL) {
        error_set(e, "replaced %s, but cannot make that durable (syncing %s): %s", path, dir, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (fd >= 0)
        close(fd);
    return 0;
}

int file_replace(const char *path, int (*write)(FILE *out, void *ctx), void *ctx, struct error *e)
{
    char tmp[4200];
    struct stat old;
    mode_t mode = 0644;
    FILE *out;
    bool failed;
    int fd;

    if (make_parents(path, e) < 0)
        return -1;
    if (stat(path, &old) == 0 && S_ISREG(old.st_mode))
        mode = old.st_mode & 0777;
    if (temporary_template(path, tmp, sizeof tmp) < 0) {
        error_set(e, "cannot write beside %s: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    fd = mkstemps(tmp, (int)strlen(TEMPORARY_SUFFIX));
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
    failed = failed || fflush(out) != 0 || fchmod(fileno(out), mode) != 0 || fsync(fileno(out)) != 0;
    failed |= fclose(out) != 0;
    if (failed || rename(tmp, path) < 0) {
        error_set(e, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return sync_directory(path, e);
}

static bool inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);

    if (strcmp(dir, "/") == 0)
        return true;
    return strncmp(path, dir, n) == 0 && path[n] == '/';
}

bool files_in_dirs(const char *path, const char *const *dirs, struct str *where)
{
    bool in = false;

    for (; dirs && *dirs; dirs++) {
        char *dir = realpath(*dirs, NULL);
        if (!dir)
            continue;
        in |= inside(path, dir);
        str_appendf(where, " or ", "%s", dir);
        free(dir);
    }
    return in;
}
