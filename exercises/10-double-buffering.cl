/*
 * Exercise 10: lesson 11's prefetching with double-buffered local memory,
 * with the choice of buffers and the prefetch left to write.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
 * of a matrix with R rows at index c*R + r); B is given transposed, as BT
 * (N x K) column-major: B(k, n) = BT[k*N + n].
 *
 * Lesson 10's kernel (RTSM x RTSN work-items per TSM x TSN tile of C, a
 * WPTM x WPTN block per work-item in registers, vector loads of WIDTH
 * floats), with two copies of each local tile. While the group computes
 * with the tiles of step t in one buffer, it already copies the tiles of
 * step t+1 into the other. A tile is then overwritten only two steps after
 * it was filled, which leaves one barrier per step instead of two.
 *
 * The engine pads M, N and K to multiples of TSM, TSN and TSK.
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WPTM) || !defined(WPTN) || !defined(WIDTH)
#error "TSM, TSN, TSK, WPTM, WPTN and WIDTH are set by the engine (-DNAME=VALUE)"
#endif

#if WIDTH == 1
typedef float floatW;
#define STORE_W(v, i, p) ((p)[i] = (v))
#elif WIDTH == 2
typedef float2 floatW;
#define STORE_W(v, i, p) vstore2((v), (i), (p))
#elif WIDTH == 4
typedef float4 floatW;
#define STORE_W(v, i, p) vstore4((v), (i), (p))
#elif WIDTH == 8
typedef float8 floatW;
#define STORE_W(v, i, p) vstore8((v), (i), (p))
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define WGS (RTSM * RTSN)

/*
 * Lesson 10's tile copy as a function, since it now runs in two places:
 * copies the TSK x TS slice of a column-major matrix that starts at line k0
 * (of K) and at element off (a multiple of WIDTH) of each line into
 * tile[k][0 .. TS-1]; src holds lines of ldw vectors. Called with TS = TSM
 * for A and TS = TSN for BT, constants once the call is inlined, so the
 * divisions become shifts and the loop can be unrolled. The require lines
 * make TSK*TS/WIDTH a multiple of WGS: every work-item copies as many
 * vectors as the others.
 */
void copy_tile(__local float *tile, const __global floatW *src, const int ldw,
               const int k0, const int off, const int TS, const int tid)
{
    for (int l = 0; l < TSK * TS / WIDTH / WGS; l++) {
        const int id = l * WGS + tid;
        const int v = id % (TS / WIDTH);
        const int k = id / (TS / WIDTH);
        const floatW x = src[(k0 + k) * ldw + off / WIDTH + v];
        STORE_W(x, v, tile + k * TS);
    }
}

__kernel void gemm_prefetch(const int M, const int N, const int K,
                            const __global floatW *A,
                            const __global floatW *BT,
                            __global float *C)
{
    const int lr = get_local_id(0);
    const int lc = get_local_id(1);
    const int tid = lc * RTSM + lr;
    const int row0 = get_group_id(0) * TSM;
    const int col0 = get_group_id(1) * TSN;

    /* Atile[b][k][r] = A(row0 + r, k0 + k), Btile[b][k][c] = B(k0 + k, col0 + c),
       for the step whose tiles sit in buffer b. Twice lesson 10's memory. */
    __local float Atile[2][TSK][TSM];
    __local float Btile[2][TSK][TSN];

    float acc[WPTM][WPTN];
    float bval[WPTN];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0.0f;

    const int steps = K / TSK;

    /* Step 0's tiles go into buffer 0 before the loop. */
    copy_tile(&Atile[0][0][0], A, M / WIDTH, 0, row0, TSM, tid);
    copy_tile(&Btile[0][0][0], BT, N / WIDTH, 0, col0, TSN, tid);

    for (int t = 0; t < steps; t++) {
        /* TODO: the buffer that holds step t's tiles. (As shipped, every
           step computes with buffer 0, which only ever holds step 0's.) */
        const int cur = 0;

        /*
         * The one barrier of the step. Before it, every work-item has
         * finished writing buffer cur (in step t-1, or before the loop) and
         * finished computing with buffer 1-cur (in step t-1). After it,
         * buffer cur may be read and buffer 1-cur overwritten.
         */
        barrier(CLK_LOCAL_MEM_FENCE);

        /*
         * TODO: start the next step's copy, into the other buffer, so that
         * its global loads are in flight while this step computes. Use
         * copy_tile as the copy of step 0 above does. After the last step
         * there is nothing to fetch: a copy of step `steps` would read past
         * the end of A and BT. (That test has the same outcome for every
         * work-item of the group.)
         */

        for (int k = 0; k < TSK; k++) {
            for (int wn = 0; wn < WPTN; wn++)
                bval[wn] = Btile[cur][k][lc + wn * RTSN];
            for (int wm = 0; wm < WPTM; wm++) {
                const float a = Atile[cur][k][lr + wm * RTSM];
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] += a * bval[wn];
            }
        }
        /* No barrier here: the next writes to buffer cur happen only after
           the barrier at the top of step t+1. */
    }

    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            C[(col0 + lc + wn * RTSN) * M + row0 + lr + wm * RTSM] = acc[wm][wn];
}
