/* matrix.c: random contents and layout changes of host matrices. */
#include "matrix.h"

#include <string.h>

void rng_seed(struct rng *r, uint64_t seed)
{
    r->state = seed ? seed : 0x9E3779B97F4A7C15ull;
}

uint64_t rng_next(struct rng *r)
{
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return r->state * 0x2545F4914F6CDD1Dull;
}

float rng_uniform(struct rng *r)
{
    /* 24 random bits: every value is exact in a float. */
    return (float)(rng_next(r) >> 40) / 8388608.0f - 1.0f;
}

void matrix_fill_random(float *x, size_t count, uint64_t seed)
{
    struct rng r;

    rng_seed(&r, seed);
    for (size_t i = 0; i < count; i++)
        x[i] = rng_uniform(&r);
}

size_t matrix_layout_count(const struct matrix_layout *lay)
{
    size_t count, bytes;

    if (lay->rows <= 0 || lay->cols <= 0 ||
        __builtin_mul_overflow((unsigned long long)lay->rows, (unsigned long long)lay->cols, &count) ||
        __builtin_mul_overflow(count, sizeof(float), &bytes))
        return 0;
    return count;
}

static size_t offset(const struct matrix_layout *lay, long long row, long long col)
{
    return lay->column_major ? (size_t)col * (size_t)lay->rows + (size_t)row
                             : (size_t)row * (size_t)lay->cols + (size_t)col;
}

void matrix_pack(const float *src, long long rows, long long cols, const struct matrix_layout *lay,
                 float *dst)
{
    long long used_rows = lay->transposed ? cols : rows;
    long long used_cols = lay->transposed ? rows : cols;
    size_t count = matrix_layout_count(lay);

    if (count == 0)
        return;
    memset(dst, 0, count * sizeof *dst);
    for (long long i = 0; i < used_rows; i++)
        for (long long j = 0; j < used_cols; j++)
            dst[offset(lay, i, j)] = lay->transposed ? src[j * cols + i] : src[i * cols + j];
}

void matrix_unpack(const float *src, const struct matrix_layout *lay, long long rows, long long cols,
                   float *dst)
{
    if (matrix_layout_count(lay) == 0)
        return;
    for (long long i = 0; i < rows; i++)
        for (long long j = 0; j < cols; j++)
            dst[i * cols + j] = src[offset(lay, i, j)];
}
