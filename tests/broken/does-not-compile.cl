/* Does not compile, on purpose: the tool must show this file's build log. */
__kernel void nothing(const int M, const int N, const int K,
                      const __global float *A, const __global float *B, __global float *C)
{
    C[0] = undeclared_variable;
}
