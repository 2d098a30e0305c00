/* hostgemm.c: the CPU baseline (lesson 0) and the double-precision reference. */
#include "hostgemm.h"

#include <math.h>
#include <stddef.h>

/* Lesson 0's loop, in the file its lesson shows as its source: the code shown is the code
   that runs. */
#include "00-host-reference.c"

void hostgemm_float(const float *A, const float *B, float *C, long long m, long long n, long long k)
{
    gemm_host_reference(A, B, C, m, n, k);
}

void hostgemm_double(const float *A, const float *B, double *C, double *S,
                     long long m, long long n, long long k)
{
    /* i-p-j order: the inner loop walks rows of B and C, which is kind to the cache. */
    for (long long i = 0; i < m; i++) {
        double *row = C + i * n, *scale = S ? S + i * n : NULL;
        for (long long j = 0; j < n; j++) {
            row[j] = 0.0;
            if (scale)
                scale[j] = 0.0;
        }
        for (long long p = 0; p < k; p++) {
            double a = A[i * k + p];
            const float *b = B + p * n;
            for (long long j = 0; j < n; j++)
                row[j] += a * (double)b[j];
            if (scale)
                for (long long j = 0; j < n; j++)
                    scale[j] += fabs(a * (double)b[j]);
        }
    }
}
