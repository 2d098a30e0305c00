/* str.c: appending to fixed buffers without losing track of truncation. */
#include "str.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void str_init(struct str *s, char *buf, size_t size)
{
    s->buf = buf;
    s->size = size;
    s->len = 0;
    s->truncated = false;
    buf[0] = '\0';
}

void str_appendf(struct str *s, const char *sep, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (s->len > 0 && *sep)
        str_appendf(s, "", "%s", sep);
    if (s->len + 1 >= s->size) {
        s->truncated = true;
        return;
    }
    va_start(ap, fmt);
    n = vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= s->size - s->len) {
        s->truncated = true;
        s->len = s->size - 1;
    } else {
        s->len += (size_t)n;
    }
}

/* A byte that continues a UTF-8 character. */
static bool continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

size_t str_columns(const char *s, size_t n)
{
    size_t columns = 0;

    for (size_t i = 0; i < n; i++)
        columns += !continuation(s[i]);
    return columns;
}

size_t str_prefix(const char *s, size_t columns)
{
    size_t i = 0;

    for (size_t c = 0; s[i] && c < columns; c++)
        do
            i++;
        while (continuation(s[i]));
    return i;
}

size_t str_utf8_char(const char *s, unsigned long *code)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned long c, least;
    size_t n;

    if (u[0] < 0x80) {
        *code = u[0];
        return 1;
    }
    if (u[0] >= 0xC2 && u[0] <= 0xDF) {
        n = 2;
        least = 0x80;
    } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
        n = 3;
        least = 0x800;
    } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
        n = 4;
        least = 0x10000;
    } else {
        return 0;
    }
    c = u[0] & (0x7Fu >> n);    /* the lead byte's bits */
    for (size_t i = 1; i < n; i++) {
        if (!continuation((char)u[i]))
            return 0;               /* also where the string ends */
        c = c << 6 | (u[i] & 0x3Fu);
    }
    if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *code = c;
    return n;
}

int str_to_ll(const char *text, long long *value)
{
    char *end;

    errno = 0;
    *value = strtoll(text, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    return (end == text || *end != '\0' || errno) ? -1 : 0;
}

void str_copy(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);

    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

bool str_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}
