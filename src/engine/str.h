/* str.h: building strings in fixed buffers, and reading integers. */
#ifndef CLMM_STR_H
#define CLMM_STR_H

#include <stdbool.h>
#include <stddef.h>

struct str {
    char *buf;
    size_t size;
    size_t len;
    bool truncated;             /* something did not fit */
};

/* Starts an empty string in buf (size bytes, at least 1). */
void str_init(struct str *s, char *buf, size_t size);
/* Appends, with sep first unless the string is empty (sep may be ""). */
void str_appendf(struct str *s, const char *sep, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies src into dst (len bytes, at least 1), cut to fit. */
void str_copy(char *dst, size_t len, const char *src);

/* The columns of the first n bytes of UTF-8 text: its characters. */
size_t str_columns(const char *s, size_t n);
/* The bytes of the longest prefix of s that is at most columns characters. */
size_t str_prefix(const char *s, size_t columns);

/* The UTF-8 character at s: its length (1 to 4 bytes) with its code point in *code, or 0
   when the bytes at s are not a character (a stray continuation byte, a sequence cut short,
   an overlong form, a surrogate, beyond U+10FFFF). A NUL byte is a character of length 1. */
size_t str_utf8_char(const char *s, unsigned long *code);

/* s ends with suffix and has something before it ("x.lesson", not ".lesson"). */
bool str_has_suffix(const char *s, const char *suffix);

/* A whole decimal integer, blanks around it allowed. Returns 0, or -1 if text is not one. */
int str_to_ll(const char *text, long long *value);

#endif
