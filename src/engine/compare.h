/* compare.h: a saved --bench run (the JSON that --format json writes) read back, to set
   beside this one: --compare's columns in the --bench table and ghost bars in the tutor.
   The file is untrusted: every mistake is one message naming the file and the value. */
#ifndef CLMM_COMPARE_H
#define CLMM_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"

#define COMPARE_MAX_LESSON 9999     /* lesson numbers of a saved row: -COMPARE_MAX_LESSON to this */
#define COMPARE_MAX_SIDE 65536      /* a saved size's sides, as --size allows */
#define COMPARE_MAX_GFLOPS 1e9      /* a saved figure above this is not a measurement */

/* One result of the saved run. */
struct compare_row {
    int lesson;                 /* -1: the reference library, as --bench writes it */
    struct gemm_size size;      /* as asked (m, n, k), not as padded */
    char *title;                /* "" when the file gives none */
    char *params;               /* "" when none; NULL when the file does not say (any parameters
                                   match, as the same) */
    char *status;               /* "ok", "refused", ...: as the file says */
    bool ok;                    /* status "ok" with a figure */
    double gflops;              /* its median, when ok */
    bool used;                  /* compare_find returned it */
};

struct compare {
    char *file;                 /* the path, as given */
    char *device;               /* the saved run's device ("NVIDIA H100 80GB HBM3") */
    char *platform;             /* its platform, "" when not given */
    struct compare_row *rows;
    size_t count;
    size_t other_devices;       /* rows of the file's other devices, left out */
};

/* Parses len bytes of a saved run; name is the file's name in messages. Returns 0, or -1
   with a message in e (nothing to free). */
int compare_parse(struct compare *c, const char *text, size_t len, const char *name, struct error *e);

/* Reads path and parses it. */
int compare_load(struct compare *c, const char *path, struct error *e);

void compare_free(struct compare *c);

/* The saved row of lesson at size, marked used: of the same parameters where the file has
   one, else the first; NULL when the file has none. *same_params (may be NULL) says whether
   its parameters are params. */
struct compare_row *compare_find(struct compare *c, int lesson, struct gemm_size size, const char *params,
                                 bool *same_params);

/* The rows never found: their count, and into buf (len bytes) their lessons and sizes, each
   once: "lessons 0 1 ref, sizes 2048x2048x2048 4096x4096x4096". */
size_t compare_unused(const struct compare *c, char *buf, size_t len);

#endif
