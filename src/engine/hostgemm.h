/* hostgemm.h: matrix multiplication on the host, row-major C = A B. */
#ifndef CLMM_HOSTGEMM_H
#define CLMM_HOSTGEMM_H

/* Lesson 0: the plain triple loop in single precision on one core. */
void hostgemm_float(const float *A, const float *B, float *C, long long m, long long n, long long k);

/* The reference: double-precision sums into C (m x n), and, when S is not NULL, the sums of
   magnitudes |A| |B| into S, the scale against which an error is judged. */
void hostgemm_double(const float *A, const float *B, double *C, double *S,
                     long long m, long long n, long long k);

#endif
