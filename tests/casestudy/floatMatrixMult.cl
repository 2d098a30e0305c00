/* Document 004, section 2, "OpenCL calculation without __local": the kernel as the document
   writes it, with the braces its text lost (the loop's and the function's) put back and
   nothing else changed. Work-item (i, j) computes element [i, j] of MResp = M1 M2, all three
   column-major: M1 is P x Q, M2 is Q x R, and the inner dimension Q comes in a one-int
   __global buffer, q[0], as the document's host code passes it. */
__kernel void
floatMatrixMult(__global float * MResp,
                __global float * M1,
                __global float * M2,
                __global int * q)
{
    // Vector element index
    int i = get_global_id(0);
    int j = get_global_id(1);
    int p = get_global_size(0);
    int r = get_global_size(1);
    MResp[i + p * j] = 0;
    int QQ = q[0];
    for (int k = 0; k < QQ; k++)
    {
        MResp[i + p * j] += M1[i + p * k] * M2[k + QQ * j];
    }
}
