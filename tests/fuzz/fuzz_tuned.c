/* fuzz_tuned.c: fuzzes the file of tuned parameters ($XDG_DATA_HOME/clmm-tutor/tuned):
   tuned_find, which reads it, and tuned_save, which rewrites it keeping the other entries.

   The input is the file's bytes. For the shipped lesson 13 on a device named "fuzz
   device", the harness looks up an entry, then saves one; neither may crash, whatever the
   file holds. Seeds: tests/fuzz/seeds/tuned. Run with `make fuzz`. */
#include <stdlib.h>

#include "fuzz.h"
#include "engine/tuned.h"

static struct lesson_set lessons;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct lesson *l;
    const char *path = fuzz_file("tuned", data, size);
    struct gemm_size at = { 4096, 4096, 4096 };
    struct tuned_entry found;
    struct param_set ps;
    struct error e;
    bool kept;

    error_init(&e);
    if (!l) {
        if (lesson_set_load(CLMM_SRCDIR "/lessons", &lessons, &e) != 0 || !(l = lesson_set_find(&lessons, 13)))
            abort();
    }
    if (!tuned_find(path, "fuzz device", l, at, &found))
        param_set_defaults(l, &found.params);
    ps = found.params;
    if (tuned_save(path, "fuzz device", l, &ps, 1234.5, at, false, &kept, &e) != 0)
        abort();    /* the file is ours and writable: a save must succeed */
    error_clear(&e);
    return 0;
}
