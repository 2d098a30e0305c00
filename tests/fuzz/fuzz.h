/* fuzz.h: what the fuzz harnesses share: libFuzzer's entry point, the input as a C string,
   and a private file to hand to the parsers that read files. */
#ifndef CLMM_FUZZ_H
#define CLMM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string, malloc'd (a NUL byte inside ends it early, as it
   would for the parsers reading a file). */
char *fuzz_string(const uint8_t *data, size_t size);

/* A path in a private directory made on the first call (removed at exit), named name;
   with data, the file is written with those bytes first. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);

#endif
