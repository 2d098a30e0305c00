/* files.h: where the tool keeps its own files (the XDG directories), reading a file only
   when it is a regular one of a bounded size, and replacing a file so that a crash leaves
   either the old one or the new one. */
#ifndef CLMM_FILES_H
#define CLMM_FILES_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "str.h"

/* A temporary file of file_replace this old (seconds) is taken for one a killed write left
   (files_remove_leftovers). */
#define FILES_STALE_SECONDS 600

/* $XDG_DATA_HOME/clmm-tutor/NAME, else ~/.local/share/clmm-tutor/NAME. -1 when neither
   variable is set (or the path does not fit). */
int files_data_path(const char *name, char *buf, size_t len);
/* $XDG_STATE_HOME/clmm-tutor/NAME, else ~/.local/state/clmm-tutor/NAME. */
int files_state_path(const char *name, char *buf, size_t len);
/* $XDG_CACHE_HOME/clmm-tutor/NAME, else ~/.cache/clmm-tutor/NAME. */
int files_cache_path(const char *name, char *buf, size_t len);

/* "a directory", "a FIFO (named pipe)", "a character device", ...: what a file of this
   mode is, for messages about a file that is not a regular one. */
const char *files_kind(mode_t mode);

/* What path is, for messages, as files_kind says, and where a symbolic link leads: "a
   directory", "a symbolic link to TARGET, a regular file", "a symbolic link to TARGET, which
   does not exist", ... */
void files_describe(const char *path, char *buf, size_t len);

/* The file that writing to path reaches, as a shell's > does: path itself, or, when path is
   a symbolic link, the file its links lead to (a canonical path). -1 with "PATH is a symbolic
   link to TARGET, which does not exist" (or why else it leads nowhere) in e. */
int files_write_target(const char *path, char *buf, size_t len, struct error *e);

/* Writes or reads exactly len bytes of fd, through short writes and reads and EINTR: 0, or
   -1 when one fails or the other end closes first (errno says why, where it was a failure). */
int files_write_all(int fd, const void *data, size_t len);
int files_read_all(int fd, void *data, size_t len);

/* Reads path whole when it is a regular file (symbolic links followed) of at most limit
   bytes, without ever blocking on a FIFO or reading from a device: malloc'd, NUL-terminated
   (it may hold other NUL bytes), its length in *len. what names the file in messages ("a
   lesson file"). NULL with a message in e, and errno ENOENT when there is no such file. */
char *files_read(const char *path, size_t limit, const char *what, size_t *len, struct error *e);

/* Reads path as files_read does and calls line(text, ctx) for each of its lines (the newline
   taken off, NUL-terminated, writable); a line holding a NUL byte is skipped. Returns -1
   with a message in e when the file cannot be read (errno ENOENT when there is none). */
int files_read_lines(const char *path, size_t limit, const char *what, void (*line)(char *text, void *ctx),
                     void *ctx, struct error *e);

/* Whether the canonical path real lies inside one of dirs (made canonical too): a file a
   lesson or exercise names, symbolic links followed, stays in its own directories. Their
   canonical names go to where, joined by " or ". */
bool files_in_dirs(const char *real, const char *const *dirs, struct str *where);

/* Creates the directories above path. */
int make_parents(const char *path, struct error *e);

/* For the tool's own files (the state, the progress, the tuned parameters, the cache of
   ceilings), not for a file the user names: removes the temporaries that file_replace left
   beside path when an earlier run was killed before its rename (PATH.clmm-tutor-PID-XXXXXX.tmp,
   a name no file of the user's has), if they are ours (owner, one link, a regular file) and
   at least min_age seconds old. A writer holding a lock that all writers of path take passes
   0. Files of other names, those of earlier versions (PATH.XXXXXX.tmp) among them, are left
   alone. */
void files_remove_leftovers(const char *path, double min_age);

/* Writes a new file beside path (PATH.clmm-tutor-PID-XXXXXX.tmp) with write(out, ctx) (which
   returns -1 on a failure, with errno set), with the mode of the file it replaces (0644 for a
   new one), makes it durable, renames it over path and makes the rename durable. On a
   failure it removes that temporary file, and it removes no other file. The caller
   serialises writers (a lock) where several processes may write. */
int file_replace(const char *path, int (*write)(FILE *out, void *ctx), void *ctx, struct error *e);

#endif
