/* json.c: a recursive-descent reader of RFC 8259 JSON, bounded in input size, depth (so
   that the recursion is too) and number of values. Lines are counted as whitespace is
   skipped (a newline can appear nowhere else); a column is counted in characters from the
   line's start only when a message needs it. Numbers are read with strtod once their
   syntax is checked, which the program's LC_NUMERIC of "C" makes locale-proof. */
#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "xalloc.h"

struct parser {
    const char *p, *end;
    const char *name;
    int line;
    const char *line_start;
    const char *counted;        /* columns of the current line are counted up to here: */
    int counted_column;         /* the column of that position */
    int depth;
    size_t values;
    struct error *e;
};

/* The column of at, on the current line. Every value asks for its own, so the count goes on
   from the last one asked for: a long line is counted once, not once per value on it. */
static int column_at(struct parser *ps, const char *at)
{
    const char *c = ps->line_start;
    int column = 1;

    if (ps->counted >= ps->line_start && ps->counted <= at) {
        c = ps->counted;
        column = ps->counted_column;
    }
    for (; c < at; c++)
        if (((unsigned char)*c & 0xC0) != 0x80)
            column++;
    ps->counted = at;
    ps->counted_column = column;
    return column;
}

/* What is at `at`, for a message: "'x'", "the end of the file", "byte 0x1f". */
static void describe(const struct parser *ps, const char *at, char *buf, size_t len)
{
    unsigned char c = at < ps->end ? (unsigned char)*at : 0;

    if (at >= ps->end)
        snprintf(buf, len, "the end of the file");
    else if (c == '\n')
        snprintf(buf, len, "the end of the line");
    else if (c > 0x20 && c < 0x7f)
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "byte 0x%02x", c);
}

__attribute__((format(printf, 3, 4)))
static int fail_at(struct parser *ps, const char *at, const char *fmt, ...)
{
    char msg[768];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error_set(ps->e, "%s:%d:%d: %s", ps->name, ps->line, column_at(ps, at), msg);
    return -1;
}

/* "expected X, found Y" at the parser's position. */
static int expected(struct parser *ps, const char *what)
{
    char found[32];

    describe(ps, ps->p, found, sizeof found);
    return fail_at(ps, ps->p, "expected %s, found %s", what, found);
}

static void skip_space(struct parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r')
            return;
        ps->p++;
    }
}

/* The length of the UTF-8 sequence at s (at most n bytes there), 0 when it is not a valid
   one (overlong forms, surrogates and values above U+10FFFF are not). */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    unsigned char lo = 0x80, hi = 0xBF;
    size_t len;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        len = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        lo = s[0] == 0xE0 ? 0xA0 : 0x80;
        hi = s[0] == 0xED ? 0x9F : 0xBF;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        lo = s[0] == 0xF0 ? 0x90 : 0x80;
        hi = s[0] == 0xF4 ? 0x8F : 0xBF;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

static size_t utf8_encode(unsigned long cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The four hex digits of a \u escape at s (s[-2] is the backslash): their value, or -1. */
static long hex4(struct parser *ps, const char *s)
{
    long v = 0;

    for (int i = 0; i < 4; i++) {
        char c = s + i < ps->end ? s[i] : '\0';
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) {
            char found[32];
            describe(ps, s + i, found, sizeof found);
            return fail_at(ps, s + i, "expected four hexadecimal digits after \\u, found %s", found);
        }
        v = v * 16 + d;
    }
    return v;
}

#define NO_NUL "a NUL character, which no text here may hold; remove it"

/* A \u escape at ps->p (after the backslash and the u), a surrogate pair taken whole:
   appended to out. \u0000 is refused here, where the file has it: the text the tool reads
   (names, parameters, statuses) is C strings, which a NUL byte would cut short. */
static int unicode_escape(struct parser *ps, const char *escape, char *out, size_t *n)
{
    long cp = hex4(ps, ps->p), low;

    if (cp < 0)
        return -1;
    ps->p += 4;
    if (cp == 0)
        return fail_at(ps, escape, "\\u0000 in a string: " NO_NUL);
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return fail_at(ps, escape, "\\u%04lx is the second half of a surrogate pair without a first", cp);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
            return fail_at(ps, escape, "\\u%04lx is the first half of a surrogate pair: a \\uDC00 to \\uDFFF "
                                       "must follow", cp);
        if ((low = hex4(ps, ps->p + 2)) < 0)
            return -1;
        if (low < 0xDC00 || low > 0xDFFF)
            return fail_at(ps, escape, "\\u%04lx is the first half of a surrogate pair, but \\u%04lx is not a "
                                       "second half (\\uDC00 to \\uDFFF)", cp, low);
        ps->p += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    *n += utf8_encode((unsigned long)cp, out + *n);
    return 0;
}

/* A string at ps->p (its opening quote): decoded into a malloc'd text. Escapes never make
   it longer than it is in the file. */
static int parse_string(struct parser *ps, char **text, size_t *len)
{
    const char *start = ps->p++;
    size_t cap = 1, n = 0;
    char *out;

    for (const char *s = ps->p; s < ps->end && *s != '"'; s++, cap++)
        if (*s == '\\' && s + 1 < ps->end)
            s++, cap++;
    out = xmalloc(cap);
    for (;;) {
        unsigned char c;
        if (ps->p >= ps->end) {
            free(out);
            return fail_at(ps, start, "a string that never ends: its closing '\"' is missing");
        }
        c = (unsigned char)*ps->p;
        if (c == '"')
            break;
        if (c == 0) {
            free(out);
            return fail_at(ps, ps->p, "byte 0x00 in a string: " NO_NUL);
        }
        if (c < 0x20) {
            free(out);
            return fail_at(ps, ps->p, "a control character (byte 0x%02x) in a string: write it as an escape "
                                      "such as \\n or \\u%04x", c, c);
        }
        if (c == '\\') {
            const char *escape = ps->p;
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *which = ps->p + 1 < ps->end && ps->p[1] ? strchr(from, ps->p[1]) : NULL;
            ps->p += 2;
            if (which)
                out[n++] = to[which - from];
            else if (escape + 1 < ps->end && escape[1] == 'u') {
                if (unicode_escape(ps, escape, out, &n) < 0) {
                    free(out);
                    return -1;
                }
            } else {
                char found[32];
                describe(ps, escape + 1, found, sizeof found);
                free(out);
                return fail_at(ps, escape, "an unknown escape: \\ followed by %s (known: \\\" \\\\ \\/ \\b \\f "
                                           "\\n \\r \\t \\uXXXX)", found);
            }
            continue;
        }
        {
            size_t l = utf8_length((const unsigned char *)ps->p, (size_t)(ps->end - ps->p));
            if (l == 0) {
                free(out);
                return fail_at(ps, ps->p, "byte 0x%02x in a string is not valid UTF-8", c);
            }
            memcpy(out + n, ps->p, l);
            n += l;
            ps->p += l;
        }
    }
    ps->p++;
    out[n] = '\0';
    *text = out;
    *len = n;
    return 0;
}

static bool is_digit(const struct parser *ps, const char *s)
{
    return s < ps->end && *s >= '0' && *s <= '9';
}

static const char *skip_digits(const struct parser *ps, const char *s)
{
    while (is_digit(ps, s))
        s++;
    return s;
}

static int parse_number(struct parser *ps, double *out)
{
    const char *start = ps->p, *s = ps->p;
    char buf[64], *copy, *end;
    size_t len;

    if (*s == '-')
        s++;
    if (!is_digit(ps, s)) {
        ps->p = s;
        return expected(ps, "a digit after '-'");
    }
    if (*s == '0' && is_digit(ps, s + 1))
        return fail_at(ps, start, "a number with a leading zero (JSON has no octal numbers: write 7, not 07)");
    s = skip_digits(ps, s);
    if (s < ps->end && *s == '.') {
        if (!is_digit(ps, s + 1)) {
            ps->p = s + 1;
            return expected(ps, "a digit after the decimal point");
        }
        s = skip_digits(ps, s + 1);
    }
    if (s < ps->end && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < ps->end && (*s == '+' || *s == '-'))
            s++;
        if (!is_digit(ps, s)) {
            ps->p = s;
            return expected(ps, "a digit in the exponent");
        }
        s = skip_digits(ps, s);
    }
    len = (size_t)(s - start);
    copy = len < sizeof buf ? buf : xmalloc(len + 1);
    memcpy(copy, start, len);
    copy[len] = '\0';
    *out = strtod(copy, &end);
    if (copy != buf)
        free(copy);
    if (isinf(*out))
        return fail_at(ps, start, "the number %.*s%s is out of range (at most about 1.8e308 in magnitude)",
                       len > 24 ? 24 : (int)len, start, len > 24 ? "..." : "");
    ps->p = s;
    return 0;
}

static int parse_value(struct parser *ps, struct json_value *v);

/* Whether ps->p is the close of the array or object being read; it is then left. */
static bool leave(struct parser *ps, char close)
{
    if (ps->p >= ps->end || *ps->p != close)
        return false;
    ps->p++;
    ps->depth--;
    return true;
}

/* Enters an array or object at ps->p: 1 when it is empty (and left already), 0 when an
   item follows, -1 past the depth limit. */
static int enter(struct parser *ps, char close)
{
    if (++ps->depth > JSON_MAX_DEPTH)
        return fail_at(ps, ps->p, "arrays and objects nested more than %d deep", JSON_MAX_DEPTH);
    ps->p++;
    skip_space(ps);
    return leave(ps, close);
}

/* After an item of an array or object: ',' (1: another follows), or close (0). */
static int next_item(struct parser *ps, char close, const char *what)
{
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == ',') {
        ps->p++;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == close)
            return fail_at(ps, ps->p, "a '%c' after a ',': JSON allows no trailing comma", close);
        return 1;
    }
    return leave(ps, close) ? 0 : expected(ps, what);
}

/* items, of count elements of size bytes in room for *cap, with room for one more. */
static void *grow(void *items, size_t count, size_t *cap, size_t size)
{
    if (count < *cap)
        return items;
    *cap = *cap ? *cap * 2 : 4;
    return xreallocarray(items, *cap, size);
}

static int parse_array(struct parser *ps, struct json_value *v)
{
    size_t cap = 0;
    int more;

    v->type = JSON_ARRAY;
    if ((more = enter(ps, ']')) != 0)
        return more < 0 ? -1 : 0;
    do {
        v->u.array.items = grow(v->u.array.items, v->u.array.count, &cap, sizeof *v->u.array.items);
        if (parse_value(ps, &v->u.array.items[v->u.array.count++]) < 0)
            return -1;
    } while ((more = next_item(ps, ']', "',' or ']' after an array item")) == 1);
    return more;
}

static int compare_members(const void *a, const void *b)
{
    const struct json_member *x = *(const struct json_member *const *)a, *y = *(const struct json_member *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);

    if (c)
        return c;
    if (x->key_len != y->key_len)
        return x->key_len < y->key_len ? -1 : 1;
    return x < y ? -1 : x > y;    /* equal keys in the document's order */
}

/* Duplicate keys, found by sorting, reported at the later one. */
static int check_unique(struct parser *ps, const struct json_value *v)
{
    size_t n = v->u.object.count;
    const struct json_member **sorted;
    int rc = 0;

    if (n < 2)
        return 0;
    sorted = xreallocarray(NULL, n, sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = &v->u.object.members[i];
    qsort(sorted, n, sizeof *sorted, compare_members);
    for (size_t i = 1; i < n && rc == 0; i++)
        if (sorted[i]->key_len == sorted[i - 1]->key_len &&
            memcmp(sorted[i]->key, sorted[i - 1]->key, sorted[i]->key_len) == 0) {
            const struct json_member *later = sorted[i];
            int shown = later->key_len > 64 ? 64 : (int)later->key_len;
            error_set(ps->e, "%s:%d:%d: the key \"%.*s\" appears twice in one object (first at line %d)",
                      ps->name, later->value.line, later->value.column, shown, later->key, sorted[i - 1]->value.line);
            rc = -1;
        }
    free(sorted);
    return rc;
}

static int parse_object(struct parser *ps, struct json_value *v)
{
    size_t cap = 0;
    int more;

    v->type = JSON_OBJECT;
    if ((more = enter(ps, '}')) != 0)
        return more < 0 ? -1 : 0;
    do {
        struct json_member *m;
        if (ps->p >= ps->end || *ps->p != '"')
            return expected(ps, "a '\"' starting an object key");
        v->u.object.members = grow(v->u.object.members, v->u.object.count, &cap, sizeof *v->u.object.members);
        m = &v->u.object.members[v->u.object.count];
        memset(m, 0, sizeof *m);
        if (parse_string(ps, &m->key, &m->key_len) < 0)
            return -1;
        v->u.object.count++;
        skip_space(ps);
        if (ps->p >= ps->end || *ps->p != ':')
            return expected(ps, "':' after an object key");
        ps->p++;
        if (parse_value(ps, &m->value) < 0)
            return -1;
    } while ((more = next_item(ps, '}', "',' or '}' after an object member")) == 1);
    return more < 0 ? -1 : check_unique(ps, v);
}

static int parse_literal(struct parser *ps, struct json_value *v)
{
    static const struct { const char *word; enum json_type type; } literals[] = {
        { "true", JSON_TRUE }, { "false", JSON_FALSE }, { "null", JSON_NULL },
    };
    size_t avail = (size_t)(ps->end - ps->p);

    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        size_t n = strlen(literals[i].word);
        if (avail >= n && memcmp(ps->p, literals[i].word, n) == 0) {
            v->type = literals[i].type;
            ps->p += n;
            return 0;
        }
    }
    return expected(ps, "a value (an object, array, string, number, true, false or null)");
}

static int parse_value(struct parser *ps, struct json_value *v)
{
    memset(v, 0, sizeof *v);
    skip_space(ps);
    v->line = ps->line;
    v->column = column_at(ps, ps->p);
    if (++ps->values > JSON_MAX_VALUES)
        return fail_at(ps, ps->p, "more than %u values in one document", JSON_MAX_VALUES);
    if (ps->p >= ps->end)
        return expected(ps, "a value");
    switch (*ps->p) {
    case '{': return parse_object(ps, v);
    case '[': return parse_array(ps, v);
    case '"':
        v->type = JSON_STRING;
        return parse_string(ps, &v->u.string.text, &v->u.string.len);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        v->type = JSON_NUMBER;
        return parse_number(ps, &v->u.number);
    default:
        return parse_literal(ps, v);
    }
}

int json_parse(const char *text, size_t len, const char *name, struct json_value *out, struct error *e)
{
    struct parser ps = { text, text + len, name, 1, text, text, 1, 0, 0, e };

    memset(out, 0, sizeof *out);
    if (len > JSON_MAX_INPUT) {
        error_set(e, "%s: %zu bytes: larger than a JSON file can be here (%u MiB)", name, len, JSON_MAX_INPUT >> 20);
        return -1;
    }
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        ps.p = ps.line_start = ps.counted = text + 3;
    skip_space(&ps);
    if (ps.p == ps.end) {
        error_set(e, "%s:%d:%d: expected a JSON value, found only %s", name, ps.line, column_at(&ps, ps.p),
                  len ? "white space" : "an empty file");
        return -1;
    }
    if (parse_value(&ps, out) == 0) {
        skip_space(&ps);
        if (ps.p == ps.end)
            return 0;
        expected(&ps, "the end of the file after the JSON value");
    }
    json_free(out);
    return -1;
}

int json_parse_file(const char *path, struct json_value *out, struct error *e)
{
    size_t len;
    char *text = files_read(path, JSON_MAX_INPUT, "a JSON file", &len, e);
    int rc;

    if (!text) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    rc = json_parse(text, len, path, out, e);
    free(text);
    return rc;
}

void json_free(struct json_value *v)
{
    switch (v->type) {
    case JSON_STRING:
        free(v->u.string.text);
        break;
    case JSON_ARRAY:
        for (size_t i = 0; i < v->u.array.count; i++)
            json_free(&v->u.array.items[i]);
        free(v->u.array.items);
        break;
    case JSON_OBJECT:
        for (size_t i = 0; i < v->u.object.count; i++) {
            free(v->u.object.members[i].key);
            json_free(&v->u.object.members[i].value);
        }
        free(v->u.object.members);
        break;
    default:
        break;
    }
    memset(v, 0, sizeof *v);
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
    size_t len = strlen(key);

    if (!v || v->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->u.object.count; i++) {
        const struct json_member *m = &v->u.object.members[i];
        if (m->key_len == len && memcmp(m->key, key, len) == 0)
            return &m->value;
    }
    return NULL;
}

const struct json_value *json_at(const struct json_value *v, size_t i)
{
    return v && v->type == JSON_ARRAY && i < v->u.array.count ? &v->u.array.items[i] : NULL;
}

const char *json_string(const struct json_value *v)
{
    if (!v || v->type != JSON_STRING)
        return NULL;
    return v->u.string.text;
}

bool json_number(const struct json_value *v, double *out)
{
    if (!v || v->type != JSON_NUMBER)
        return false;
    *out = v->u.number;
    return true;
}

bool json_integer(const struct json_value *v, long long *out)
{
    double d;

    if (!json_number(v, &d) || d != floor(d) || fabs(d) > 9007199254740992.0)
        return false;
    *out = (long long)d;
    return true;
}

const char *json_type_name(enum json_type type)
{
    switch (type) {
    case JSON_NULL: return "null";
    case JSON_FALSE: case JSON_TRUE: return "a boolean";
    case JSON_NUMBER: return "a number";
    case JSON_STRING: return "a string";
    case JSON_ARRAY: return "an array";
    case JSON_OBJECT: return "an object";
    }
    return "a value";
}
