/* Test fixture: lesson 5's tiles, complete. */
__kernel void gemm_local_tiles(const int M, const int N, const int K,
                               const __global float *A,
                               const __global float *B,
                               __global float *C)
{
    const int lr = get_local_id(0), lc = get_local_id(1);
    const int row = get_group_id(0) * TS + lr, col = get_group_id(1) * TS + lc;
    __local float Atile[TS][TS], Btile[TS][TS];
    float acc = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TS) {
        Atile[lc][lr] = A[(k0 + lc) * M + row];
        Btile[lc][lr] = B[col * K + k0 + lr];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += Atile[k][lr] * Btile[lc][k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* The sum is complete. */
    C[col * M + row] = acc;
}
