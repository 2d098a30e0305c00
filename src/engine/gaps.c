/* gaps.c: a starting kernel made from its lesson's kernel by the edits of a gap file
   (gaps.h). */
#include "gaps.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

enum block { OUTSIDE, REPLACE, WITH };

/* A growing text. */
struct buf {
    char *s;
    size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = 2 * (b->n + n + 1) + 256;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static size_t count_in(const char *text, const char *what, const char **first)
{
    size_t count = 0;

    *first = NULL;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) {
        if (!*first)
            *first = p;
        count++;
    }
    return count;
}

/* Replaces the one occurrence of from in *text by to. */
static int replace_once(char **text, const char *from, const char *to, const char *base_name,
                        const char *gaps_name, int line, struct error *e)
{
    const char *at;
    size_t count = count_in(*text, from, &at);
    struct buf out = { 0 };

    if (count != 1) {
        error_set(e, "%s:%d: the text to replace is %s %s: %s", gaps_name, line,
                  count == 0 ? "not in" : "found more than once in", base_name,
                  count == 0 ? "the lesson's kernel has changed, or the block was edited: copy the lines "
                               "from the kernel exactly"
                             : "give more lines, so that they are found once");
        return -1;
    }
    buf_add(&out, *text, (size_t)(at - *text));
    buf_add(&out, to, strlen(to));
    buf_add(&out, at + strlen(from), strlen(at + strlen(from)));
    free(*text);
    *text = out.s;
    return 0;
}

int gaps_apply(const char *base, const char *base_name, const char *gaps, const char *gaps_name, char **out,
               size_t *len, struct error *e)
{
    struct buf from = { 0 }, to = { 0 };
    enum block in = OUTSIDE;
    char *text = xstrdup(base);
    int line = 0, block_line = 0, blocks = 0;
    bool failed = false;

    for (const char *p = gaps; *p && !failed;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *next = end ? end + 1 : p + n;
        bool marker = n >= 2 && p[0] == '@' && p[1] == '@';

        line++;
        if (marker) {
            char word[16];
            size_t k = 2;
            while (k < n && p[k] == ' ')
                k++;
            snprintf(word, sizeof word, "%.*s", (int)(n - k < sizeof word - 1 ? n - k : sizeof word - 1), p + k);
            while (word[0] && (word[strlen(word) - 1] == ' ' || word[strlen(word) - 1] == '\r'))
                word[strlen(word) - 1] = '\0';
            if (in == OUTSIDE && strcmp(word, "replace") == 0) {
                in = REPLACE;
                block_line = line;
                from.n = to.n = 0;
                buf_add(&from, "", 0);
                buf_add(&to, "", 0);
            } else if (in == REPLACE && strcmp(word, "with") == 0) {
                in = WITH;
            } else if (in == WITH && strcmp(word, "end") == 0) {
                in = OUTSIDE;
                blocks++;
                if (from.n == 0) {
                    error_set(e, "%s:%d: the block has no text to replace", gaps_name, block_line);
                    failed = true;
                } else if (replace_once(&text, from.s, to.s, base_name, gaps_name, block_line, e) < 0) {
                    failed = true;
                }
            } else {
                error_set(e, "%s:%d: \"%.*s\" where %s was expected", gaps_name, line, (int)(n < 40 ? n : 40), p,
                          in == OUTSIDE ? "\"@@ replace\"" : in == REPLACE ? "\"@@ with\"" : "\"@@ end\"");
                failed = true;
            }
        } else if (in == REPLACE) {
            buf_add(&from, p, n);
            buf_add(&from, "\n", 1);
        } else if (in == WITH) {
            buf_add(&to, p, n);
            buf_add(&to, "\n", 1);
        } else {
            size_t k = 0;
            while (k < n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
                k++;
            if (k < n && p[k] != '#') {
                error_set(e, "%s:%d: text outside a block: between blocks, only blank lines and comments "
                             "(# ...) may stand", gaps_name, line);
                failed = true;
            }
        }
        p = next;
    }
    if (!failed && in != OUTSIDE) {
        error_set(e, "%s:%d: the block that starts here has no \"@@ %s\"", gaps_name, block_line,
                  in == REPLACE ? "with" : "end");
        failed = true;
    }
    if (!failed && blocks == 0) {
        error_set(e, "%s: no block (\"@@ replace\" ... \"@@ with\" ... \"@@ end\"): the start would be the "
                     "lesson's kernel itself", gaps_name);
        failed = true;
    }
    free(from.s);
    free(to.s);
    if (failed) {
        free(text);
        return -1;
    }
    *out = text;
    *len = strlen(text);
    return 0;
}
