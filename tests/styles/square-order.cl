/* C = A B for square row-major matrices of order n, one work-item per element:
   the signature (N, A, B, C) of the documents' notebook. */

__kernel void square_multiply(const int n, const __global float *A, const __global float *B,
                              __global float *C)
{
    const int i = get_global_id(0), j = get_global_id(1);
    float sum = 0.0f;

    for (int k = 0; k < n; k++)
        sum += A[i * n + k] * B[k * n + j];
    C[i * n + j] = sum;
}
