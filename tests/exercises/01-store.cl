/* Test fixture: the naive kernel of lesson 1 with its store left to write. */
__kernel void gemm_naive(const int M, const int N, const int K,
                         const __global float *A,
                         const __global float *B,
                         __global float *C)
{
    const int row = get_global_id(0);
    const int col = get_global_id(1);
    float acc = 0.0f;

    for (int k = 0; k < K; k++)
        acc += A[k * M + row] * B[col * K + k];
    /* TODO: store acc at C(row, col); column-major, so C(row, col) is at col * M + row. */
    C[row * N + col] = acc;
}
