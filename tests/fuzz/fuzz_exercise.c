/* fuzz_exercise.c: fuzzes exercise_parse, the parser of exercise files (exercises/FORMAT).

   Exercise sets are shared like lesson sets: whatever the bytes of an exercise file, the
   parser must give an exercise or a message, never crash, hang or leak. The input is the
   text of one exercise file; its kernels are looked up in the shipped exercises directory.
   Seeds: the shipped exercises, tests/exercises and tests/exercises-bad; lesson.dict holds
   the lesson keys. Run with `make fuzz`. */
#include <stdlib.h>

#include "fuzz.h"
#include "engine/exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const kernel_dirs[] = { CLMM_SRCDIR "/exercises", NULL };
    char *text = fuzz_string(data, size);
    struct exercise x;
    struct error e;

    error_init(&e);
    if (exercise_parse("fuzz.exercise", text, kernel_dirs, &x, &e) == 0)
        exercise_free(&x);
    error_clear(&e);
    free(text);
    return 0;
}
