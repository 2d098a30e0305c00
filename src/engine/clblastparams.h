/* clblastparams.h: the parameters that CLBlast's own tuners found for a device, read from
   the JSON files they write (clblast_tuner_xgemm writes clblast_xgemm_1_32.json and three
   more, one per phase; clblast_tuner_xgemm_direct, _copy_fast, _copy_pad, _transpose_fast,
   _transpose_pad and _routine_xgemm one each), for the reference row to apply with
   CLBlastOverrideParameters before it measures. Knows nothing of CLBlast's library: a
   build without it reads the files all the same. */
#ifndef CLMM_CLBLASTPARAMS_H
#define CLMM_CLBLASTPARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

struct json_value;

#define CLBLAST_PARAMS_ENV "CLMM_TUTOR_CLBLAST_PARAMS"  /* files separated by ':' */
#define CLBLAST_PARAMS_MAX_FILES 16
#define CLBLAST_PARAMS_MAX_KERNELS 8
#define CLBLAST_PARAMS_MAX_VALUES 32

/* The parameters of one of CLBlast's kernels, from one file. */
struct clblast_kernel {
    char name[32];              /* as CLBlastOverrideParameters names it: "Xgemm" */
    char family[64];            /* as the tuner named it: "xgemm_2" */
    char file[512];
    double best_ms;             /* the tuner's best time */
    long long m, n, k;          /* the size it was tuned at; -1 where the file does not say */
    size_t count;
    char names[CLBLAST_PARAMS_MAX_VALUES][32];  /* PRECISION, not a kernel parameter, left out */
    size_t values[CLBLAST_PARAMS_MAX_VALUES];
};

struct clblast_params {
    size_t nfiles;
    char files[CLBLAST_PARAMS_MAX_FILES][512];
    size_t nkernels;
    struct clblast_kernel kernels[CLBLAST_PARAMS_MAX_KERNELS];  /* one per kernel name */
    char device[256];           /* the OpenCL device name the files were tuned on */
    char key[32];               /* "tuned:" and a hash of every kernel's name and values: results
                                   of other parameters are kept apart by it */
    char notes[1024];           /* which file of several for one kernel was kept, one a line */
};

/* Reads the files (at most CLBLAST_PARAMS_MAX_FILES) into cp. For several files of one kernel
   (the phases of clblast_tuner_xgemm), the one with the lowest best time is kept and
   cp->notes says so. Returns -1 with a message naming the file (and line:column where one
   value is wrong) when a file cannot be read, is not JSON or not a tuner's result, is of
   another precision than 32, names a kernel family not known here, or when the files are
   of different devices or sizes. */
int clblast_params_load(struct clblast_params *cp, const char *const *paths, size_t npaths, struct error *e);

/* Adds one parsed file (name: its path, in messages) to cp, as clblast_params_load does;
   cp starts zeroed. Then clblast_params_finish computes the key. */
int clblast_params_add(struct clblast_params *cp, const struct json_value *doc, const char *name, struct error *e);
void clblast_params_finish(struct clblast_params *cp);

/* -1 with a message naming both devices when cp was tuned on another device than the one
   named device_name (CL_DEVICE_NAME, as the tuners write it). */
int clblast_params_check_device(const struct clblast_params *cp, const char *device_name, struct error *e);

/* "Xgemm (clblast_xgemm_2_32.json), XgemmDirect (clblast_xgemm_direct_1_32.json)": the
   kernels and the base names of their files. */
void clblast_params_describe(const struct clblast_params *cp, char *buf, size_t len);

#endif
