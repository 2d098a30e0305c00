/* Lesson 0: the textbook triple loop on one CPU core, C = A * B, all row-major
   (element (r, c) of a matrix with C columns at r*C + c). Plain C, not OpenCL:
   the tool compiles this file into itself (src/engine/hostgemm.c includes it). */

static void gemm_host_reference(const float *A, const float *B, float *C,
                                long long M, long long N, long long K)
{
    for (long long i = 0; i < M; i++)           /* each row of C */
        for (long long j = 0; j < N; j++) {     /* each column of C */
            float acc = 0.0f;
            /* A(i, k) at i*K + k: the reads walk along a row of A.
               B(k, j) at k*N + j: they jump N floats at a time, down a
               column of B; once B no longer fits in the caches, almost
               every such read waits for memory and uses 4 bytes of the
               cache line it brought. */
            for (long long k = 0; k < K; k++)
                acc += A[i * K + k] * B[k * N + j];
            C[i * N + j] = acc;
        }
}

/* Each C(i, j) is a dot product of length K, summed in single precision in
   the order k = 0, 1, ..., K-1. There are no work-items: one core computes
   every element of C, one after the other. Every later lesson computes the
   same C with the work spread over work-items, and is compared with the speed
   of this loop. */
