/* json.h: a strict reader of JSON (RFC 8259) into a tree of values, for files the tool did
   not write itself: CLBlast's tuning results, and the tool's own --format json output read
   back. The input is untrusted: its size, its nesting and its number of values are
   bounded, and every mistake is one message naming FILE:LINE:COLUMN. */
#ifndef CLMM_JSON_H
#define CLMM_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define JSON_MAX_INPUT (16u << 20)  /* bytes of one document */
#define JSON_MAX_DEPTH 256          /* arrays and objects inside one another */
#define JSON_MAX_VALUES (1u << 22)  /* values of one document, members' keys not counted */

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_member;

/* One value; line and column (1-based, in characters) say where it starts, for messages
   about what it holds. */
struct json_value {
    enum json_type type;
    int line, column;
    union {
        double number;
        struct {
            char *text;         /* UTF-8, NUL-terminated, without other NUL bytes */
            size_t len;         /* bytes, the terminating NUL not counted */
        } string;
        struct {
            struct json_value *items;
            size_t count;
        } array;
        struct {
            struct json_member *members;    /* in the document's order; keys are unique */
            size_t count;
        } object;
    } u;
};

struct json_member {
    char *key;                  /* as a string's text */
    size_t key_len;
    struct json_value value;
};

/* Parses len bytes of text as one JSON document into *out (json_free it). name is the
   file's name in messages ("NAME:3:14: expected ':' after an object key"). A leading UTF-8
   byte order mark is skipped; duplicate keys in an object, numbers out of the range of a
   double, invalid UTF-8, lone surrogates (\ud800) and NUL characters (\u0000) are errors. Returns 0, or -1 with a
   message in e and *out a null value. */
int json_parse(const char *text, size_t len, const char *name, struct json_value *out, struct error *e);

/* Reads path (a regular file of at most JSON_MAX_INPUT bytes) and parses it. */
int json_parse_file(const char *path, struct json_value *out, struct error *e);

void json_free(struct json_value *v);

/* The member of object v called key, NULL when v is not an object or has none. */
const struct json_value *json_get(const struct json_value *v, const char *key);

/* Item i of array v, NULL when v is not an array or is shorter. */
const struct json_value *json_at(const struct json_value *v, size_t i);

/* The text of string v, NULL when v is not a string. */
const char *json_string(const struct json_value *v);

/* Whether v is a number; its value to *out. */
bool json_number(const struct json_value *v, double *out);

/* Whether v is a number that is an integer of at most 2^53 in magnitude; it to *out. */
bool json_integer(const struct json_value *v, long long *out);

/* "an object", "a string", "true", ...: the type as a message says it. */
const char *json_type_name(enum json_type type);

#endif
