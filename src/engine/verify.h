/* verify.h: is C really A B? Checked on the host before any speed is shown. */
#ifndef CLMM_VERIFY_H
#define CLMM_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "precision.h"

/* Products up to this many multiply-adds are checked element by element in full. */
#define VERIFY_FULL_LIMIT (1LL << 27)
#define VERIFY_VECTORS 8        /* Freivalds projections at larger sizes */
#define VERIFY_SAMPLES 4096     /* random elements checked directly at larger sizes */
/* Their rows and columns: rng_seed(seed ^ VERIFY_SAMPLE_SALT), then column, row in turn,
   each rng_next() modulo N or M (bench/inputs.c draws the same ones). */
#define VERIFY_SAMPLE_SALT 0x5A3F1E5ull

struct verify_result {
    bool ok;
    bool exhaustive;            /* every element against the reference, else sampled */
    long long checked;          /* elements compared directly */
    int vectors;                /* random projections of the whole of C */
    double max_error;           /* max |C - ref| / (|A||B|) over the checked elements */
    double tolerance;           /* what max_error may reach: grows with sqrt(K) */
    char detail[256];           /* where and how it failed, empty when ok */
};

/* The tolerance for a sum of k products in float, relative to the sum of their magnitudes. */
double verify_tolerance(long long k);

/* The tolerance for a sum of k products of inputs of precision p: for FP32 verify_tolerance;
   for TF32 (inputs rounded or truncated to 10 bits of mantissa) min(2, 12 / sqrt(k)) 2^-10
   more (verify.c says why). */
double verify_tolerance_for(enum precision p, long long k);

/* One element's error: |value - ref| / scale, where scale = |A||B| of the element; infinite
   for a value that is not finite. Right when it is within verify_tolerance. */
double verify_element_error(double value, double ref, double scale);

/* Checks the row-major m x n C against the row-major A (m x k) and B (k x n), to the
   tolerance of precision p. */
void verify_product(const float *A, const float *B, const float *C, long long m, long long n, long long k,
                    enum precision p, uint64_t seed, struct verify_result *v);

#endif
