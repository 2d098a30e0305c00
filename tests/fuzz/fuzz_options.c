/* fuzz_options.c: fuzzes options_parse, the command line.

   The input is the arguments after the program's name, separated by NUL bytes (at most
   63 of them). Whatever they are, options_parse must fill the options or give one line of
   message, never crash. Seeds: tests/fuzz/seeds/options, command lines from the manual
   and tests/cli.sh. Run with `make fuzz`. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "cli/options.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    struct options opts;
    struct error e;

    argv[argc++] = "clmm-tutor";
    for (size_t at = 0; at < size && argc < MAX_ARGS; at += strlen(text + at) + 1)
        argv[argc++] = text + at;
    argv[argc] = NULL;
    error_init(&e);
    (void)options_parse(argc, argv, &opts, &e);
    error_clear(&e);
    free(text);
    return 0;
}
