/* C = A B in the style of the documents' block example: row-major matrices, arguments
   (C, A, B, wA, wB) where wA is the width of A (K) and wB the width of B (N). Each
   work-group computes a BS x BS block of C; x runs along the columns of C. The engine
   pads all sizes to multiples of BS. */

__kernel void block_multiply(__global float *C, const __global float *A, const __global float *B,
                             const int wA, const int wB)
{
    __local float a_block[BS][BS];
    __local float b_block[BS][BS];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_global_id(0), row = get_global_id(1);
    float sum = 0.0f;

    for (int k0 = 0; k0 < wA; k0 += BS) {
        a_block[ty][tx] = A[row * wA + k0 + tx];
        b_block[ty][tx] = B[(k0 + ty) * wB + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < BS; k++)
            sum += a_block[ty][k] * b_block[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * wB + col] = sum;
}
