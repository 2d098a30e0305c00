/* main.c: clmm-tutor, a tutor of OpenCL matrix multiplication. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "engine/isolate.h"
#include "cli/options.h"
#include "tui/tutor.h"

int main(int argc, char **argv)
{
    struct options opts;
    struct error e;

    /* Started again by itself to run kernels apart (isolate.h). */
    if (argc == 2 && strcmp(argv[1], ISOLATE_CHILD_ARG) == 0)
        return isolate_child_main();
    error_init(&e);
    if (options_parse(argc, argv, &opts, &e) < 0) {
        fprintf(stderr, "clmm-tutor: %s\nTry 'clmm-tutor --help'.\n", e.msg);
        return EXIT_USAGE;
    }
    return commands_run(&opts, tutor_run);
}
