/*
 * Lesson 0: the CPU reference -- the textbook triple loop, on one core.
 *
 * Computes C = A * B for C (M x N), A (M x K), B (K x N), all stored
 * row-major: element (r, c) of a matrix with C columns sits at index r*C + c,
 * so each row is contiguous and moving along a row moves by one float.
 *
 * This is plain C, not OpenCL: the tool compiles this very file into itself
 * (src/hostgemm.c includes it) and runs it on the host when you measure
 * lesson 0. There are no work-items: one core computes every element of C,
 * one after the other.
 *
 * Each element C(i, j) is a dot product of length K: row i of A with column
 * j of B, summed in single precision in the order k = 0, 1, ..., K-1.
 * Every later lesson computes the same C, with the work spread over
 * work-items, and is compared with the speed of this loop.
 */

static void gemm_host_reference(const float *A, const float *B, float *C,
                                long long M, long long N, long long K)
{
    for (long long i = 0; i < M; i++)           /* each row of C */
        for (long long j = 0; j < N; j++) {     /* each column of C */
            float acc = 0.0f;
            /*
             * A(i, k) is at i*K + k: along k the reads walk a row of A,
             * one float after the other. B(k, j) is at k*N + j: along k
             * they jump N floats at a time, down a column of B. Once B
             * no longer fits in the caches, almost every one of those
             * reads waits for memory and uses 4 bytes of the cache line
             * it brought.
             */
            for (long long k = 0; k < K; k++)
                acc += A[i * K + k] * B[k * N + j];
            C[i * N + j] = acc;
        }
}
