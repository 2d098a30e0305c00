/* fuzz_state.c: fuzzes state_load, the reader of the file that remembers the tutor's
   lesson, size and device ($XDG_STATE_HOME/clmm-tutor/state).

   The input is the file's bytes. Lines that do not parse are ignored, so whatever the file
   holds, state_load must return, never crash; what it gives is written back with
   state_save and read again, which must give the same. Seeds: tests/fuzz/seeds/state. Run
   with `make fuzz`. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "engine/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tutor_state st, again;
    struct error e;

    state_load(fuzz_file("state", data, size), &st);
    error_init(&e);
    if (state_save(fuzz_file("saved", NULL, 0), &st, &e) != 0)
        abort();
    state_load(fuzz_file("saved", NULL, 0), &again);
    if (again.has_lesson != st.has_lesson || again.has_size != st.has_size || again.has_device != st.has_device ||
        (st.has_lesson && again.lesson != st.lesson) ||
        (st.has_size && memcmp(&again.size, &st.size, sizeof st.size) != 0) ||
        (st.has_device && strcmp(again.device, st.device) != 0))
        abort();    /* what was saved does not read back */
    error_clear(&e);
    return 0;
}
