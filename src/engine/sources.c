/* sources.c: reading the SOURCES file (the documents the lessons follow) and finding the
   documents a lesson's sources line cites. */
#include "sources.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "str.h"
#include "xalloc.h"

/* U+FEFF in UTF-8, which some editors put at the start of a file. */
#define BYTE_ORDER_MARK "\xEF\xBB\xBF"

/* The keys of one document, in the order messages list them. */
enum field { FIELD_TITLE, FIELD_AUTHOR, FIELD_ADDRESS, FIELD_ABOUT, FIELD_COUNT };
static const char *const field_names[FIELD_COUNT] = { "title", "author", "address", "about" };

struct reader {
    const char *file;
    int line;
    struct source_set *set;
    struct error *e;
    int source_line;            /* where the current document's source: line is, 0 before the first */
    int field_line[FIELD_COUNT];        /* where each of its keys was given, 0 when not yet */
};

static int bad(struct reader *r, int line, const char *fmt, const char *arg)
{
    char what[700];

    snprintf(what, sizeof what, fmt, arg);
    error_set(r->e, "%s:%d: %s", r->file, line, what);
    return -1;
}

static char **field_of(struct source *s, enum field f)
{
    char **fields[FIELD_COUNT] = { &s->title, &s->author, &s->address, &s->about };

    return fields[f];
}

/* The document being read has every key. */
static int check_complete(struct reader *r)
{
    if (r->source_line == 0)
        return 0;
    for (int f = 0; f < FIELD_COUNT; f++)
        if (!r->field_line[f]) {
            char what[64];
            snprintf(what, sizeof what, "document %s has no \"%s:\" line",
                     r->set->items[r->set->count - 1].id, field_names[f]);
            return bad(r, r->source_line, "%s (every document has title, author, address and about)", what);
        }
    return 0;
}

static bool is_id(const char *s)
{
    for (int i = 0; i < SOURCES_ID_DIGITS; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return s[SOURCES_ID_DIGITS] == '\0';
}

/* "source: NNN" starts a document. */
static int start_source(struct reader *r, const char *value)
{
    struct source *s;

    if (check_complete(r) < 0)
        return -1;
    if (!is_id(value))
        return bad(r, r->line, "expected a three-digit id such as 003 after \"source:\", found \"%s\"", value);
    if (sources_find(r->set, value)) {
        char what[64];
        snprintf(what, sizeof what, "document %s is given twice", value);
        return bad(r, r->line, "%s", what);
    }
    if (r->set->count == SOURCES_MAX)
        return bad(r, r->line, "more than %s documents", "100");
    r->set->items = xrealloc(r->set->items, (r->set->count + 1) * sizeof *r->set->items);
    s = &r->set->items[r->set->count++];
    memset(s, 0, sizeof *s);
    memcpy(s->id, value, SOURCES_ID_DIGITS + 1);
    r->source_line = r->line;
    memset(r->field_line, 0, sizeof r->field_line);
    return 0;
}

static int set_field(struct reader *r, const char *key, const char *value)
{
    for (int f = 0; f < FIELD_COUNT; f++) {
        if (strcmp(key, field_names[f]) != 0)
            continue;
        if (r->source_line == 0)
            return bad(r, r->line, "\"%s:\" before any \"source: NNN\" line: a document starts with its id", key);
        if (r->field_line[f])
            return bad(r, r->line, "\"%s:\" is given twice for this document", key);
        if (value[0] == '\0')
            return bad(r, r->line, "the %s is empty (write \"not given in the document\" where it is not)", key);
        *field_of(&r->set->items[r->set->count - 1], (enum field)f) = xstrdup(value);
        r->field_line[f] = r->line;
        return 0;
    }
    return bad(r, r->line, "unknown key \"%s\" (expected source, title, author, address or about)", key);
}

/* s without the blanks around it, in place. */
static char *trim(char *s)
{
    size_t n;

    while (isspace((unsigned char)*s))
        s++;
    n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* One line: blank, a comment, or "key: value". */
static int parse_line(struct reader *r, char *line)
{
    char *colon, *key, *value;

    line = trim(line);
    if (line[0] == '\0' || line[0] == '#')
        return 0;
    if (!(colon = strchr(line, ':'))) {
        char found[64];
        snprintf(found, sizeof found, "%.40s%s", line, strlen(line) > 40 ? "..." : "");
        return bad(r, r->line, "expected \"key: value\", found \"%s\"", found);
    }
    *colon = '\0';
    key = trim(line);
    value = trim(colon + 1);
    if (strlen(value) > SOURCES_VALUE_MAX)
        return bad(r, r->line, "the value is longer than %s bytes", "500");
    if (strcmp(key, "source") == 0)
        return start_source(r, value);
    if (strlen(key) > 20)
        return bad(r, r->line, "%s", "unknown key (expected source, title, author, address or about)");
    return set_field(r, key, value);
}

int sources_parse(const char *file, const char *text, size_t len, struct source_set *set, struct error *e)
{
    struct reader r = { .file = file, .set = set, .e = e };
    const char *p = text, *end = text + len;
    const char *nul = memchr(text, '\0', len);
    int rc = 0;

    set->items = NULL;
    set->count = 0;
    if (nul) {
        error_set(e, "%s holds a NUL byte (at byte %zu): a SOURCES file is text", file, (size_t)(nul - text));
        return -1;
    }
    if (len >= 3 && memcmp(p, BYTE_ORDER_MARK, 3) == 0)
        p += 3;
    while (p < end && rc == 0) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line = xmalloc(n + 1);

        memcpy(line, p, n);
        line[n] = '\0';
        r.line++;
        rc = parse_line(&r, line);
        free(line);
        p += n + (nl != NULL);
    }
    if (rc == 0)
        rc = check_complete(&r);
    if (rc < 0)
        sources_free(set);
    return rc;
}

int sources_load(const char *path, struct source_set *set, struct error *e)
{
    size_t len;
    char *text;
    int rc;

    set->items = NULL;
    set->count = 0;
    if (!(text = files_read(path, SOURCES_FILE_MAX, "a SOURCES file", &len, e)))
        return errno == ENOENT ? (error_clear(e), 0) : -1;
    rc = sources_parse(path, text, len, set, e);
    free(text);
    return rc;
}

void sources_free(struct source_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        for (int f = 0; f < FIELD_COUNT; f++)
            free(*field_of(&set->items[i], (enum field)f));
    free(set->items);
    set->items = NULL;
    set->count = 0;
}

const struct source *sources_find(const struct source_set *set, const char *id)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->items[i].id, id) == 0)
            return &set->items[i];
    return NULL;
}

size_t sources_cited(const struct source_set *set, const char *text, const struct source **out, size_t max)
{
    bool taken[SOURCES_MAX] = { false };
    size_t count = 0;

    for (const char *p = text; *p;) {
        const char *start = p;
        char id[SOURCES_ID_DIGITS + 1];
        const struct source *s;

        if (!isdigit((unsigned char)*p)) {
            p++;
            continue;
        }
        while (isdigit((unsigned char)*p))
            p++;
        if (p - start != SOURCES_ID_DIGITS)
            continue;
        memcpy(id, start, SOURCES_ID_DIGITS);
        id[SOURCES_ID_DIGITS] = '\0';
        s = sources_find(set, id);
        if (!s || taken[s - set->items])
            continue;
        taken[s - set->items] = true;
        if (count < max)
            out[count] = s;
        count++;
    }
    return count;
}

char *sources_markup(const struct source_set *set, const char *text)
{
    const struct source *cited[SOURCES_MAX];
    size_t n = sources_cited(set, text, cited, SOURCES_MAX), size = strlen(text) + 16;
    char *out;
    struct str s;

    for (size_t i = 0; i < n; i++)
        size += strlen(cited[i]->title) + strlen(cited[i]->author) + strlen(cited[i]->address) + 48;
    out = xmalloc(size);
    str_init(&s, out, size);
    str_appendf(&s, "", "Sources: %s\n", text);
    for (size_t i = 0; i < n; i++)
        str_appendf(&s, "", "- %s: %s; author: %s; address: %s\n", cited[i]->id, cited[i]->title, cited[i]->author,
                    cited[i]->address);
    return out;
}
