/* fuzz_json.c: fuzzes json_parse, the reader of JSON files the tool did not write, the
   lookups on what it returns, and clblast_params_add, which reads CLBlast's tuning results
   from the tree.

   The input is a file's bytes, NUL bytes included. It must give a tree or a message, never
   crash, hang, leak or run into undefined behaviour; on a tree, every member is looked up
   by its key and every string, number and item read, as the readers of the tree do, and
   the tree is read twice as a tuner's file (the second time merged with the first). Seeds:
   tests/fuzz/seeds/json and CLBlast's tuners' files (tests/clblast). Run with `make fuzz`. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "engine/clblastparams.h"
#include "engine/json.h"

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
        struct clblast_params *cp = calloc(1, sizeof *cp);
        walk(&v);
        if (clblast_params_add(cp, &v, "fuzz.json", &e) == 0 && clblast_params_add(cp, &v, "again.json", &e) == 0) {
            char text[1024];
            clblast_params_finish(cp);
            clblast_params_describe(cp, text, sizeof text);
            if (cp->nkernels != 1)
                __builtin_trap();   /* one file's kernel, kept once */
        }
        free(cp);
        json_free(&v);
    }
    error_clear(&e);
    return 0;
}
