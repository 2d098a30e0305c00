/*
 * bench/mma-peak: how fast mma.sync.m16n8k8 with TF32 inputs runs on its own, with nothing
 * but registers: each warp issues ITER rounds of ACC independent products (each into its
 * own accumulator, with its own B), so that no product waits for the one before. The
 * product of the matrices the engine checks is computed beside it by a plain loop, at a
 * size of a few elements; the time is the mma loop's. bench/mma-peak.sh turns the kernel
 * time into TFLOPS: 2 * 16 * 8 * 8 flops per mma.
 */
#if !defined(cl_nv_pragma_unroll)
#error "this kernel issues NVIDIA PTX (mma.sync with TF32): it builds only with NVIDIA's OpenCL"
#endif

void mma(float d[4], const uint a[4], const uint b[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__kernel void mma_peak(const int M, const int N, const int K, const __global float *A,
                       const __global float *B, __global float *C, __global float *W)
{
    const uint l = get_local_id(0);
    const uint a[4] = { as_uint(1.0f + l), as_uint(2.0f), as_uint(0.5f), as_uint(1.0f) };
    uint b[ACC][2];
    float d[ACC][4];

    for (int j = 0; j < ACC; j++) {
        b[j][0] = as_uint(0.25f + j + l);
        b[j][1] = as_uint(0.125f * j + l);
        for (int c = 0; c < 4; c++)
            d[j][c] = 0.0f;
    }
    for (int i = 0; i < ITER; i++) {
        #pragma unroll
        for (int j = 0; j < ACC; j++)
            mma(d[j], a, b[j]);
    }
    /* The sums go somewhere, so that nothing is left out. */
    float s = 0.0f;
    for (int j = 0; j < ACC; j++)
        s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
    W[get_global_id(0)] = s;

    const int gid = get_global_id(0);
    if (gid < M * N) {
        const int r = gid / N, c = gid % N;
        float acc = 0.0f;
        for (int k = 0; k < K; k++)
            acc += A[r * K + k] * B[k * N + c];
        C[gid] = acc;
    }
}
