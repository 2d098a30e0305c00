/* fuzz_json.c: fuzzes json_parse, the reader of JSON files the tool did not write (CLBlast's
   tuning results), and the lookups on what it returns.

   The input is a file's bytes, NUL bytes included. It must give a tree or a message, never
   crash, hang, leak or run into undefined behaviour; on a tree, every member is looked up
   by its key and every string, number and item read, as the readers of the tree do.
   Seeds: tests/fuzz/seeds/json (tuners' files, the tool's own --format json). Run with
   `make fuzz`. */
#include <string.h>

#include "fuzz.h"
#include "../../src/json.h"

/* Reads every part of v, as a reader of the tree would. */
static void walk(const struct json_value *v)
{
    long long n;
    double d;

    (void)json_string(v);
    (void)json_number(v, &d);
    (void)json_integer(v, &n);
    (void)json_type_name(v->type);
    if (v->type == JSON_ARRAY)
        for (size_t i = 0; json_at(v, i); i++)
            walk(json_at(v, i));
    if (v->type == JSON_OBJECT)
        for (size_t i = 0; i < v->u.object.count; i++) {
            const struct json_member *m = &v->u.object.members[i];
            /* A key with a NUL inside is found by its part before the NUL, or not at all. */
            const struct json_value *found = json_get(v, m->key);
            if (strlen(m->key) == m->key_len && found != &m->value)
                __builtin_trap();   /* keys are unique: the lookup finds this very member */
            walk(&m->value);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct json_value v;
    struct error e;

    error_init(&e);
    if (json_parse((const char *)data, size, "fuzz.json", &v, &e) == 0) {
        walk(&v);
        json_free(&v);
    }
    error_clear(&e);
    return 0;
}
