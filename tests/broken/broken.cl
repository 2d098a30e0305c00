/* Kernels that are wrong on purpose, to show that verification catches them.
   Row-major C = A B, one work-item per element. */

__kernel void correct(const int M, const int N, const int K,
                      const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

__kernel void short_sum(const int M, const int N, const int K,
                        const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K - 1; k++)     /* the bug: one product short */
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

__kernel void missing_column(const int M, const int N, const int K,
                             const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N - 1)       /* the bug: the last column is skipped */
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
