/* stats.h: summary statistics of repeated measurements. */
#ifndef CLMM_STATS_H
#define CLMM_STATS_H

#include <stddef.h>

struct stats {
    size_t n;
    double median, min, max, q1, q3;   /* q1 and q3: the quartiles */
    double mean, stddev;
};

/* Summarises x[0..n-1] (left unchanged). With n == 0 everything is zero. */
void stats_compute(const double *x, size_t n, struct stats *s);

/* The spread as a fraction of the median: (q3 - q1) / median; 0 when the median is 0. */
double stats_relative_spread(const struct stats *s);

#endif
