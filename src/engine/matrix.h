/* matrix.h: host matrices: seeded random contents and the layouts kernels expect. */
#ifndef CLMM_MATRIX_H
#define CLMM_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A small, fast, seeded generator (xorshift64*), so runs are repeatable. */
struct rng {
    uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
float rng_uniform(struct rng *r);     /* in [-1, 1) */

void matrix_fill_random(float *x, size_t count, uint64_t seed);

/* How a kernel wants a matrix: its logical shape after padding, and its storage. */
struct matrix_layout {
    long long rows, cols;       /* of the padded (and possibly transposed) matrix */
    bool column_major;
    bool transposed;            /* the kernel gets the transpose of the source */
};

/* Floats the layout holds; 0 when it has no rows or columns, or when its bytes do not fit a
   size_t (a size from a hostile lesson file: refuse it). */
size_t matrix_layout_count(const struct matrix_layout *lay);

/* Copies the row-major rows x cols matrix src into dst in layout lay, zero-filling the
   padding; a layout of count 0 is left alone. */
void matrix_pack(const float *src, long long rows, long long cols, const struct matrix_layout *lay,
                 float *dst);

/* The inverse for a result: takes the rows x cols top-left part of src, stored in layout lay
   (never transposed), into the row-major dst; a layout of count 0 is left alone. */
void matrix_unpack(const float *src, const struct matrix_layout *lay, long long rows, long long cols,
                   float *dst);

#endif
