/* stats.c: median, quartiles, mean and standard deviation. */
#include "stats.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The quantile q of sorted data, interpolating between neighbours. */
static double quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    double frac = pos - (double)lo;

    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void stats_compute(const double *x, size_t n, struct stats *s)
{
    double *sorted, sum = 0.0, sq = 0.0;

    memset(s, 0, sizeof *s);
    if (n == 0)
        return;
    sorted = xmalloc(n * sizeof *sorted);
    memcpy(sorted, x, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_value);
    s->n = n;
    s->min = sorted[0];
    s->max = sorted[n - 1];
    s->median = quantile(sorted, n, 0.5);
    s->q1 = quantile(sorted, n, 0.25);
    s->q3 = quantile(sorted, n, 0.75);
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    s->mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        sq += (x[i] - s->mean) * (x[i] - s->mean);
    s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
    free(sorted);
}

double stats_relative_spread(const struct stats *s)
{
    return s->median != 0.0 ? (s->q3 - s->q1) / s->median : 0.0;
}
