/* params.h: the parameters a lesson runs with on a device at a size (its defaults, the
   tuner's saved ones when tuned near that size, or the defaults with --param over them),
   and where they came from, to show beside what is measured with them. */
#ifndef CLMM_PARAMS_H
#define CLMM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "error.h"
#include "geometry.h"
#include "lesson.h"
#include "tuned.h"

/* --param NAME=VALUE. */
struct param_override {
    char name[64];
    long long value;
};

/* What the choice depends on besides the lesson, the device and the size. */
struct params_request {
    const struct param_override *overrides;     /* those naming no parameter of the lesson
                                                   are ignored */
    size_t noverrides;
    bool no_tuned;              /* the defaults even where the tuner saved parameters */
    const char *tuned_path;     /* the file of tuned parameters (tuned_path); NULL: none */
};

enum param_source {
    PARAMS_DEFAULTS,            /* the lesson's defaults: nothing tuned for this device and
                                   lesson, --no-tuned, or no device */
    PARAMS_TUNED,               /* the tuner's, saved at a size near this one (tuned_near) */
    PARAMS_TUNED_NOT_APPLIED,   /* the defaults: the tuner's entries are all of sizes too far
                                   from this one */
    PARAMS_OVERRIDDEN,          /* the defaults with --param over them; the tuner's not read */
};

struct param_origin {
    enum param_source source;
    struct gemm_size size;      /* the size they were chosen for */
    struct tuned_entry tuned;   /* PARAMS_TUNED: the entry applied; PARAMS_TUNED_NOT_APPLIED:
                                   the nearest entry (its size, completeness and GFLOPS);
                                   zero otherwise */
    unsigned by_rule;           /* bit i: parameter i took its rule's value (lessons/FORMAT,
                                   rule:), not its default: where the tuner's are not applied */
    bool rules_unapplied;       /* the lesson has rules, left at their defaults: no device to
                                   count compute units on */
};

/* Chooses the parameters of lesson l on device (NULL: no device, so not the tuner's nor the
   rules') at size into *out, and says in *origin where they came from: the tuner's where
   saved near this size, else the defaults with the lesson's rules over them, and --param
   over those (the tuner's then not read). Returns 0, or -1 with a message in e when an
   override's value is not one the lesson allows ("--param TS=3: lesson 5 allows TS = 8, 16,
   32") or a rule cannot be evaluated. */
int params_choose(const struct params_request *req, const struct lesson *l, const struct device_info *device,
                  struct gemm_size size, struct param_set *out, struct param_origin *origin, struct error *e);

/* The value a parameter's rule gives at size on a device of cu compute units, made one of
   the values it allows: the largest not above it, else the smallest. values are the
   parameters so far (the rules apply in the order of the param lines). */
int params_rule_value(const struct lesson *l, size_t param, const struct param_set *values, struct gemm_size size,
                      long long cu, long long *out, struct error *e);

/* The rules of the range parameters (a fact of the device, such as lesson 19's WAVE, which
   no search and no tuned entry chooses) over values, whatever chose the others: the tuner's
   configurations and its saved values are measured and applied with the device's own.
   Returns the bits of the parameters so set, or -1 with a message in e. */
long long params_apply_range_rules(const struct lesson *l, struct gemm_size size, long long cu,
                                   struct param_set *values, struct error *e);

/* The origin in words, for a note beside the parameters: "tuned at 4096x4096x4096",
   "tuned at 256x256x256, partial search", "defaults; tuned at 256x256x256, not applied at
   4096x4096x4096", "TSM, SPLIT by rule"; empty for the defaults and for --param. */
void params_origin_describe(const struct param_origin *origin, char *buf, size_t len);

#endif
