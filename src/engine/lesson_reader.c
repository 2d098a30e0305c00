/* lesson_reader.c: reading a lesson file: the header line by line, each key by the table of
   lesson_keys.c (or the extra keys of an exercise file first), then its explanation after the
   "---" line, and the header checked as a whole (lesson_check.c). */
#include "lesson_reader.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

int lesson_parse(const char *file, const char *text, const char *const *kernel_dirs,
                 struct lesson *l, struct error *e)
{
    return lesson_parse_extra(file, text, kernel_dirs, NULL, l, e);
}

/* A header line: the extra keys first, then the lesson's. */
static int header_line(struct reader *r, const char *key, const char *value)
{
    if (r->extra) {
        int taken = r->extra->key(r->extra->ctx, r->l, key, value, r->e);
        if (taken < 0) {
            error_prefix(r->e, "%s:%d", r->file, r->line);
            return -1;
        }
        if (taken > 0)
            return 0;
    }
    return reader_line(r, key, value);
}

int lesson_parse_extra(const char *file, const char *text, const char *const *kernel_dirs,
                       const struct lesson_extra *extra, struct lesson *l, struct error *e)
{
    struct reader r = { .file = file, .line = 0, .l = l, .e = e, .extra = extra, .kernel_dirs = kernel_dirs };
    const char *p = text;
    int rc = -2;    /* -2: no "---" yet */

    memset(l, 0, sizeof *l);
    l->number = -1;
    l->pad = true;
    l->nlaunches = 1;   /* the first launch, from the entry, args, global and local lines */
    l->file = xstrdup(file);
    /* The byte-order mark some editors put at the start of a UTF-8 file: skipped. */
    if (strncmp(p, BYTE_ORDER_MARK, 3) == 0)
        p += 3;
    while (*p && rc == -2) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *line = reader_trimmed(p, n);

        r.line++;
        p += n + (end != NULL);
        if (strncmp(line, BYTE_ORDER_MARK, 3) == 0) {
            rc = reader_bad(&r, "%s", "a byte-order mark (the bytes EF BB BF, invisible in most editors) starts "
                     "this line: only the file's first line may have one; delete it");
        } else if (strcmp(line, "---") == 0) {
            l->text = xstrdup(p);
            rc = reader_check(&r);
        } else if (line[0] != '\0' && line[0] != '#') {
            char *colon = strchr(line, ':');
            if (!colon) {
                rc = reader_bad(&r, "expected \"key: value\" or \"---\", found \"%s\"", line);
            } else {
                char *key = reader_trimmed(line, (size_t)(colon - line));
                char *value = reader_trimmed(colon + 1, strlen(colon + 1));
                if (header_line(&r, key, value) < 0)
                    rc = -1;
                free(key);
                free(value);
            }
        }
        free(line);
    }
    if (rc == -2) {
        r.line++;
        rc = reader_bad(&r, "%s", "no \"---\" line between the header and the explanation");
    }
    free(r.exprs);
    if (rc < 0)
        lesson_free(l);
    return rc;
}
