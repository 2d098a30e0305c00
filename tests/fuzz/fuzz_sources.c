/* fuzz_sources.c: fuzzes the SOURCES file of a lesson directory (lessons/FORMAT), which
   comes with a lesson set from someone else: sources_parse, then what the program does with
   a parsed set (the documents a sources line cites, and the markup the tutor shows).

   The input is the file's bytes. A set that parses must hold what the format promises
   (every document with a three-digit id, found again by it, and every field given); the
   input itself, taken as a lesson's sources line, cites only documents of the set, each
   once. Seeds: lessons/ (its SOURCES). Run with `make fuzz`. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "engine/sources.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct source_set set;
    struct error e;
    const struct source *cited[SOURCES_MAX];

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memset(&set, 0, sizeof set);
    error_init(&e);
    if (sources_parse("SOURCES", text, size, &set, &e) == 0) {
        if (set.count > SOURCES_MAX)
            abort();    /* more documents than the limit */
        for (size_t i = 0; i < set.count; i++) {
            const struct source *s = &set.items[i];
            if (strlen(s->id) != SOURCES_ID_DIGITS || !s->title || !*s->title || !s->author ||
                !*s->author || !s->address || !*s->address || !s->about || !*s->about)
                abort();    /* a document without a field the format requires */
            if (sources_find(&set, s->id) == NULL)
                abort();    /* a document that cannot be found by its id */
        }
        size_t n = sources_cited(&set, text, cited, SOURCES_MAX);
        for (size_t i = 0; i < n && i < SOURCES_MAX; i++)
            for (size_t j = 0; j < i; j++)
                if (cited[i] == cited[j])
                    abort();    /* a document cited twice */
        free(sources_markup(&set, text));
    } else if (set.count != 0) {
        abort();    /* an error leaves the set empty */
    }
    sources_free(&set);
    error_clear(&e);
    free(text);
    return 0;
}
