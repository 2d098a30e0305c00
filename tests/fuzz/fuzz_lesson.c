/* fuzz_lesson.c: fuzzes lesson_parse, the parser of lesson files (lessons/FORMAT).

   Lessons are shared between students and teachers, so a lesson file is input from someone
   else: whatever its bytes, the parser must give a lesson or a message, never crash, hang
   or leak. The input is the text of one lesson file; kernels are looked up in the shipped
   kernels directory. Seeds: the shipped lessons and tests/broken; lesson.dict holds the
   keys. Run all targets with `make fuzz FUZZ_SECONDS=60`, or one by hand from the build
   made there: clmm-tutor-fuzz/tests/fuzz/fuzz_lesson -dict=tests/fuzz/lesson.dict DIR... */
#include <stdlib.h>

#include "fuzz.h"
#include "engine/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const kernel_dirs[] = { CLMM_SRCDIR "/kernels", NULL };
    char *text = fuzz_string(data, size);
    struct lesson l;
    struct error e;

    error_init(&e);
    if (lesson_parse("fuzz.lesson", text, kernel_dirs, &l, &e) == 0)
        lesson_free(&l);
    error_clear(&e);
    free(text);
    return 0;
}
