/* A correct kernel for the lessons of these tests, whose sizes or expressions are hostile.
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
