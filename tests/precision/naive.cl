/* Row-major C = A B, one work-item per element. With TF32_INPUTS 1, both inputs are truncated
   to TF32 (10 bits of mantissa, the low 13 cleared) before they are multiplied, in software,
   as NVIDIA's tensor cores may take them: a result of TF32 accuracy on any device. With
   NVIDIA_ONLY 1, only NVIDIA's compiler takes it, as a kernel of inline PTX: the lesson that
   asks for it needs an NVIDIA GPU and is never built elsewhere (a build would fail, not be
   refused). */
#ifndef TF32_INPUTS
#define TF32_INPUTS 0
#endif
#if defined(NVIDIA_ONLY) && !defined(__NV_CL_C_VERSION)
#error "this kernel is for NVIDIA's OpenCL compiler alone"
#endif

#if TF32_INPUTS
#define INPUT(x) as_float(as_uint(x) & 0xffffe000u)
#else
#define INPUT(x) (x)
#endif

__kernel void naive(const int M, const int N, const int K,
                    const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K; k++)
        acc += INPUT(A[row * K + k]) * INPUT(B[k * N + col]);
    C[row * N + col] = acc;
}
