/* Kernels that are wrong on purpose, to show that verification catches them.
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

__kernel void short_sum(const int M, const int N, const int K,
                        const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K - 1; k++)     /* the bug: one product short */
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

__kernel void missing_column(const int M, const int N, const int K,
                             const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N - 1)       /* the bug: the last column is skipped */
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

/* One element per work-item; only the work-groups wholly inside C compute. */
__kernel void full_tiles_only(const int M, const int N, const int K,
                              const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    const int rows = get_local_size(0), cols = get_local_size(1);
    float acc = 0.0f;

    if (row >= M / rows * rows || col >= N / cols * cols)  /* the bug: the partial tiles are skipped */
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

__kernel void transposed(const int M, const int N, const int K,
                         const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[col * M + row] = acc;             /* the bug: C is written as an N x M matrix */
}

/* One element per work-item. */
__kernel void one_item_doubled(const int M, const int N, const int K,
                               const __global float *A, const __global float *B, __global float *C)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    if (get_local_id(0) == 1 && get_local_id(1) == 2)
        acc += acc;                     /* the bug: one work-item of each group counts twice */
    C[row * N + col] = acc;
}

/* Right product, wrong bookkeeping: the first work-item of each group counts the group in a
   counter of the scratch buffer and never sets it back to 0, as a split-K kernel that adds
   in its last group must. The next run would find the counters counted. */
__kernel void counter_kept(const int M, const int N, const int K,
                           const __global float *A, const __global float *B, __global float *C,
                           __global float *W)
{
    const int row = get_global_id(0), col = get_global_id(1);
    float acc = 0.0f;

    if (get_local_id(0) == 0 && get_local_id(1) == 0)
        atomic_inc((volatile __global int *)W + get_group_id(0) * get_num_groups(1) + get_group_id(1));
    if (row >= M || col >= N)
        return;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
