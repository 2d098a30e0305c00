/*
 * Exercise 11: lesson 12's incomplete tiles -- any M, N and K -- with the
 * edges left to handle.
 *
 * Computes C = A * B for C (M x N) and A (M x K), column-major (element (r, c)
 * of a matrix with R rows at index c*R + r); B is given transposed, as BT
 * (N x K) column-major: B(k, n) = BT[k*N + n].
 *
 * The structure of lesson 11 -- RTSM x RTSN work-items per TSM x TSN tile of
 * C, a WPTM x WPTN block per work-item (rows lr + wm*RTSM, columns
 * lc + wn*RTSN), double-buffered local tiles, one barrier per step -- with
 * single-float loads, and without any padding by the engine: M, N and K are
 * the true sizes. The grid is rounded up to whole tiles; the tile copies put
 * zeros where the tile sticks out of A or B, and the final stores skip
 * elements outside C. A zero in A or B adds nothing to a sum, so the
 * elements inside C come out exact.
 */

#if !defined(TSM) || !defined(TSN) || !defined(TSK) || !defined(WPTM) || !defined(WPTN)
#error "TSM, TSN, TSK, WPTM and WPTN are set by the engine (-DNAME=VALUE)"
#endif

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define WGS (RTSM * RTSN)

/*
 * Copies the TSK x TS slice of a column-major matrix src with `lines` lines
 * of `len` floats, starting at line k0 and at element off of each line, into
 * tile[k][0 .. TS-1]; elements past the end of a line or past the last line
 * are read as 0. For A: len = M, lines = K; for BT: len = N, lines = K.
 */
void copy_tile(__local float *tile, const __global float *src, const int len,
               const int lines, const int k0, const int off, const int TS,
               const int tid)
{
    if (off + TS <= len && k0 + TSK <= lines) {
        /* The tile lies wholly inside the matrix, as almost all do: no
           tests. The condition is the same for the whole group, so its
           warps do not diverge. */
        for (int l = 0; l < TSK * TS / WGS; l++) {
            const int id = l * WGS + tid;
            const int i = id % TS;
            const int k = id / TS;
            tile[k * TS + i] = src[(k0 + k) * len + off + i];
        }
    } else {
        /*
         * An edge tile: part of it lies outside the matrix, past the end
         * of its lines (off + i >= len) or past the last line
         * (k0 + k >= lines).
         *
         * TODO: copy the elements that lie inside the matrix, and store 0
         * for the others. Test each element before its address is used: a
         * load outside the buffer is an error even when its value would be
         * thrown away. (As shipped, an edge tile is all zeros.)
         */
        for (int l = 0; l < TSK * TS / WGS; l++) {
            const int id = l * WGS + tid;
            const int i = id % TS;
            const int k = id / TS;
            tile[k * TS + i] = 0.0f;   /* TODO */
        }
    }
}

__kernel void gemm_any_size(const int M, const int N, const int K,
                            const __global float *A,
                            const __global float *BT,
                            __global float *C)
{
    const int lr = get_local_id(0);
    const int lc = get_local_id(1);
    const int tid = lc * RTSM + lr;
    const int row0 = get_group_id(0) * TSM;
    const int col0 = get_group_id(1) * TSN;

    /* Atile[b][k][r] = A(row0 + r, k0 + k), Btile[b][k][c] = B(k0 + k, col0 + c),
       zero outside the matrices. */
    __local float Atile[2][TSK][TSM];
    __local float Btile[2][TSK][TSN];

    float acc[WPTM][WPTN];
    float bval[WPTN];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0.0f;

    /* The last step may be partial: its missing k are zeros in both tiles. */
    const int steps = (K + TSK - 1) / TSK;

    copy_tile(&Atile[0][0][0], A, M, K, 0, row0, TSM, tid);
    copy_tile(&Btile[0][0][0], BT, N, K, 0, col0, TSN, tid);

    for (int t = 0; t < steps; t++) {
        const int cur = t % 2;

        /* As in lesson 11: buffer cur is complete, buffer 1-cur is free.
           Every work-item gets here, including those whose whole block lies
           outside C: they still copy their share of the tiles, and a barrier
           that some work-items skip is undefined behaviour. */
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t + 1 < steps) {
            copy_tile(&Atile[1 - cur][0][0], A, M, K, (t + 1) * TSK, row0, TSM, tid);
            copy_tile(&Btile[1 - cur][0][0], BT, N, K, (t + 1) * TSK, col0, TSN, tid);
        }

        /* No tests in here: the zeros make the full tile safe to use. */
        for (int k = 0; k < TSK; k++) {
            for (int wn = 0; wn < WPTN; wn++)
                bval[wn] = Btile[cur][k][lc + wn * RTSN];
            for (int wm = 0; wm < WPTM; wm++) {
                const float a = Atile[cur][k][lr + wm * RTSM];
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] += a * bval[wn];
            }
        }
    }

    /* Only now may work-items drop out: each writes the part of its block
       that lies inside C. */
    for (int wm = 0; wm < WPTM; wm++) {
        const int row = row0 + lr + wm * RTSM;
        for (int wn = 0; wn < WPTN; wn++) {
            const int col = col0 + lc + wn * RTSN;
            /* TODO: store every element of the block that lies inside C,
               and none outside it. (As shipped, only groups whose whole
               tile lies inside C store anything.) */
            if (row0 + TSM <= M && col0 + TSN <= N)
                C[col * M + row] = acc[wm][wn];
        }
    }
}
