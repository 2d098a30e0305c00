/*
 * ptx-emulated.h: the PTX instructions of the tensor-core lessons, written
 * in plain OpenCL C for devices without tensor cores that take TF32.
 *
 * clmm-tutor puts this file in front of such a lesson's kernel (its
 * emulation line) when the device cannot run the PTX: any device that is
 * not an NVIDIA GPU, and NVIDIA GPUs below compute capability 8.0. Then
 * PTX_EMULATED is defined, and the kernel calls these functions where it
 * would issue the instruction. You still read the instruction in the kernel.
 *
 * Each function gives every work-item what the instruction gives it on an
 * NVIDIA GPU. The fragment layouts are those of the PTX ISA ("Matrix
 * fragments for mma.m16n8k8", "ldmatrix"). So a wrong index in a kernel
 * gives wrong elements of C here at the same places as on the GPU.
 *
 * How: the 32 work-items of a warp (32 consecutive work-items of the
 * group) swap their values through local memory, the warp's swap area of
 * PTX_SWAP_FLOATS floats, with barriers between the writes and the reads.
 * The rules are those of the real instructions, and the barriers need
 * them: every work-item of the group reaches each call together.
 *
 * One thing is not the same. The tensor cores add the 8 products and the
 * sum in their own way; NVIDIA does not document how, and the result is
 * not rounded to nearest. Here the products of one call are added in the
 * order of k, in FP32 rounded to nearest, and then added to the sum. The
 * products of two TF32 values are exact in both. So a result may differ
 * from the GPU's in its last bits, within the TF32 tolerance of the check.
 *
 * It is slow: two barriers per instruction. Its speed says nothing about
 * tensor cores, and clmm-tutor marks every figure of an emulated run so.
 */

#define PTX_EMULATED 1
#define PTX_SWAP_FLOATS 192     /* per warp: A's 16 x 8 and B's 8 x 8 values */

/* The work-item's lane: its place in its warp of 32. */
int emulated_lane(void)
{
    const size_t id = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0)
                      + get_local_id(0);
    return (int)(id % 32);
}

/* x as the tensor core reads it: the low 13 bits of the mantissa cut. */
float emulated_tf32_cut(const float x)
{
    return as_float(as_uint(x) & 0xffffe000u);
}

/* cvt.rna.tf32.f32: x rounded to 10 bits of mantissa, to nearest, ties
   away from zero: add half of the last kept bit, clear the 13 bits below
   it. Infinities and NaNs are kept as they are. */
float emulated_cvt_rna_tf32(const float x)
{
    const uint u = as_uint(x);

    if ((u & 0x7f800000u) == 0x7f800000u)
        return x;
    return as_float((u + 0x1000u) & 0xffffe000u);
}

/*
 * mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {d}, {a}, {b}, {d}:
 * D (16 x 8) += A (16 x 8) B (8 x 8) for the warp. Work-item l, with
 * g = l / 4 and t = l % 4, holds
 *   a[0] = A(g, t)   a[1] = A(g + 8, t)   a[2] = A(g, t + 4)   a[3] = A(g + 8, t + 4)
 *   b[0] = B(t, g)   b[1] = B(t + 4, g)
 *   d[0] = D(g, 2t)  d[1] = D(g, 2t + 1)  d[2] = D(g + 8, 2t)  d[3] = D(g + 8, 2t + 1)
 */
void emulated_mma_m16n8k8_tf32(float d[4], const float a[4], const float b[2], __local float *swap)
{
    const int lane = emulated_lane(), g = lane / 4, t = lane % 4;
    __local float *as = swap;           /* A, 16 rows of 8 */
    __local float *bs = swap + 128;     /* B, 8 rows (k) of 8 */

    as[g * 8 + t] = emulated_tf32_cut(a[0]);
    as[(g + 8) * 8 + t] = emulated_tf32_cut(a[1]);
    as[g * 8 + t + 4] = emulated_tf32_cut(a[2]);
    as[(g + 8) * 8 + t + 4] = emulated_tf32_cut(a[3]);
    bs[t * 8 + g] = emulated_tf32_cut(b[0]);
    bs[(t + 4) * 8 + g] = emulated_tf32_cut(b[1]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int c = 0; c < 4; c++) {
        const int row = g + 8 * (c / 2), col = 2 * t + c % 2;
        float s = 0.0f;
        for (int k = 0; k < 8; k++)
            s += as[row * 8 + k] * bs[k * 8 + col];
        d[c] += s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/*
 * ldmatrix.sync.aligned.m8n8.x4.shared.b16 {r0, r1, r2, r3}, [row]:
 * work-items 8q .. 8q + 7 give the addresses of rows 0 .. 7 of block q,
 * 16 bytes each; work-item l receives in r[q] the 32 bits at byte 4 (l % 4)
 * of row l / 4 of block q.
 */
void emulated_ldmatrix_x4(uint r[4], __local const float *row, __local float *swap)
{
    const int lane = emulated_lane();
    __local uint *where = (__local uint *)swap;     /* 32 addresses, two halves each */
    const ulong mine = (ulong)(size_t)row;

    where[2 * lane] = (uint)mine;
    where[2 * lane + 1] = (uint)(mine >> 32);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = 0; q < 4; q++) {
        const int from = 8 * q + lane / 4;
        const ulong at = (ulong)where[2 * from] | ((ulong)where[2 * from + 1] << 32);
        r[q] = ((__local const uint *)(size_t)at)[lane % 4];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
