/* fuzz_progress.c: fuzzes progress_load, the reader of the student's progress in the
   exercises ($XDG_STATE_HOME/clmm-tutor/progress).

   The input is the file's bytes. Lines that do not parse are ignored, so whatever the file
   holds, progress_load must return, never crash; what it gives is written back by recording
   a hint and read again, which must give the same. Seeds: tests/fuzz/seeds/progress. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "engine/progress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct progress p, saved, again;
    const char *path = fuzz_file("progress", data, size);
    struct error e;

    progress_load(path, &p);
    error_init(&e);
    /* Revealing no new hint of exercise 1 rewrites the file with what it holds. */
    if (progress_note(path, 1, 0, false, &saved, &e) != 0)
        abort();
    progress_load(path, &again);
    if (memcmp(&saved, &again, sizeof saved) != 0)
        abort();    /* what was saved does not read back */
    for (int i = 0; i < PROGRESS_MAX_EXERCISES; i++)
        if (i != 1 && memcmp(&p.e[i], &again.e[i], sizeof p.e[i]) != 0 &&
            !(p.e[i].best == PROGRESS_NOT_STARTED && p.e[i].checks == 0 && p.e[i].hints == 0 &&
              !p.e[i].solution_shown))
            abort();    /* an entry was lost or changed */
    error_clear(&e);
    return 0;
}
