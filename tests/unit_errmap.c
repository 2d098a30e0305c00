/* unit_errmap.c: each pattern of a wrong product is recognised from a synthetic result,
   and the drawing marks the wrong cells. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/errmap.h"
#include "engine/hostgemm.h"
#include "engine/verify.h"

#define TOL 1e-6

/* A reference of m x n values in [-1, 1] with scale 1, and C a copy of it to break. */
struct fake {
    long long m, n;
    double *ref, *scale;
    float *C;
};

static void fake_init(struct fake *f, long long m, long long n)
{
    unsigned x = 12345;

    f->m = m;
    f->n = n;
    f->ref = malloc((size_t)(m * n) * sizeof *f->ref);
    f->scale = malloc((size_t)(m * n) * sizeof *f->scale);
    f->C = malloc((size_t)(m * n) * sizeof *f->C);
    ck_assert(f->ref && f->scale && f->C);
    for (long long i = 0; i < m * n; i++) {
        x = x * 1103515245u + 12345u;
        /* Exactly representable as a float, so that an untouched C is right. */
        f->ref[i] = (double)(float)((double)(x >> 8) / (1u << 23) - 1.0);
        f->scale[i] = 1.0;
        f->C[i] = (float)f->ref[i];
    }
}

static void fake_free(struct fake *f)
{
    free(f->ref);
    free(f->scale);
    free(f->C);
}

static void classify(struct fake *f, long long tr, long long tc, struct errmap *em)
{
    errmap_classify(f->C, f->ref, f->scale, f->m, f->n, TOL, tr, tc, false, em);
}

START_TEST(test_errmap_right)
{
    struct fake f;
    struct errmap em;
    char row[3 * ERRMAP_MAX_COLS + 1];

    fake_init(&f, 20, 36);
    classify(&f, 8, 8, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_RIGHT);
    ck_assert_int_eq(em.wrong, 0);
    ck_assert_int_eq(em.total, 20 * 36);
    /* Tiles of 8x8: 3 x 5 cells. */
    ck_assert_int_eq(em.grid_rows, 3);
    ck_assert_int_eq(em.grid_cols, 5);
    errmap_draw_row(&em, 2, false, row, sizeof row);
    ck_assert_str_eq(row, ".....");
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_unwritten)
{
    struct fake f;
    struct errmap em;
    char row[3 * ERRMAP_MAX_COLS + 1];

    fake_init(&f, 16, 16);
    for (long long i = 0; i < 16 * 16; i++)
        f.C[i] = NAN;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_UNWRITTEN);
    ck_assert_int_eq(em.unwritten, 256);
    /* Some, in no tile pattern: the last column, without a tile known. */
    fake_free(&f);
    fake_init(&f, 16, 16);
    for (long long i = 0; i < 16; i++)
        f.C[i * 16 + 15] = NAN;
    classify(&f, 0, 0, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_UNWRITTEN);
    ck_assert_int_eq(em.wrong, 16);
    ck_assert_int_eq(em.unwritten, 16);
    errmap_draw_row(&em, 0, false, row, sizeof row);
    ck_assert_str_eq(row, "...............?");
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_everywhere)
{
    struct fake f;
    struct errmap em;

    fake_init(&f, 12, 20);
    for (long long i = 0; i < 12 * 20; i++)
        f.C[i] += 0.5f + (float)(i % 7);
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_EVERYWHERE);
    ck_assert_int_eq(em.wrong, 240);
    ck_assert_int_eq(em.unwritten, 0);
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_edges)
{
    struct fake f;
    struct errmap em;
    char row[3 * ERRMAP_MAX_COLS + 1], hint[256];

    /* Tiles of 8x8 over 20 x 36: full tiles cover 16 x 32; the rest is never written. */
    fake_init(&f, 20, 36);
    for (long long i = 0; i < 20; i++)
        for (long long j = 0; j < 36; j++)
            if (i >= 16 || j >= 32)
                f.C[i * 36 + j] = NAN;
    classify(&f, 8, 8, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_EDGES);
    ck_assert_int_eq(em.wrong, 20 * 36 - 16 * 32);
    ck_assert_int_eq(em.unwritten, em.wrong);
    ck_assert(em.edge_rows && em.edge_cols);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "last row and column of tiles") != NULL, "%s", hint);
    errmap_draw_row(&em, 0, false, row, sizeof row);
    ck_assert_str_eq(row, "....?");
    errmap_draw_row(&em, 2, false, row, sizeof row);
    ck_assert_str_eq(row, "?????");
    /* Written but wrong, in the last column of tiles only. */
    fake_free(&f);
    fake_init(&f, 20, 36);
    for (long long i = 0; i < 16; i++)
        f.C[i * 36 + 33] += 1.0f;
    classify(&f, 8, 8, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_EDGES);
    ck_assert(!em.edge_rows && em.edge_cols);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "last column of tiles") != NULL, "%s", hint);
    errmap_draw_row(&em, 1, false, row, sizeof row);
    ck_assert_str_eq(row, "....#");
    /* One wrong element inside a full tile as well: no longer the edges. */
    f.C[0] += 1.0f;
    classify(&f, 8, 8, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_EDGES);
    /* A size that is a multiple of the tile has no edges. */
    fake_free(&f);
    fake_init(&f, 16, 32);
    for (long long i = 0; i < 16; i++)
        f.C[i * 32 + 31] += 1.0f;
    classify(&f, 8, 8, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_EDGES);
    /* One tile larger than C holds all of it: wrong nearly everywhere is not "the edges". */
    fake_free(&f);
    fake_init(&f, 20, 36);
    for (long long i = 1; i < 20 * 36; i++)
        f.C[i] += 1.0f;
    classify(&f, 64, 64, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_EDGES);
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_index)
{
    struct fake f;
    struct errmap em;
    char hint[256];

    /* Position (1, 2) of every 4x4 tile, over a size that is not a multiple of the tile. */
    fake_init(&f, 18, 23);
    for (long long i = 0; i < 18; i++)
        for (long long j = 0; j < 23; j++)
            if (i % 4 == 1 && j % 4 == 2)
                f.C[i * 23 + j] *= 3.0f;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_INDEX);
    ck_assert_int_eq(em.index_row, 1);
    ck_assert_int_eq(em.index_col, 2);
    ck_assert_int_eq(em.index_positions, 1);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "same position inside every tile") != NULL, "%s", hint);
    /* Missing from one tile: not the same in every tile. */
    f.C[1 * 23 + 2] = (float)f.ref[1 * 23 + 2];
    classify(&f, 4, 4, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_INDEX);
    /* Without a tile the pattern cannot be told. */
    f.C[1 * 23 + 2] *= 3.0f;
    classify(&f, 0, 0, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_SCATTERED);
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_transposed)
{
    struct fake f;
    struct errmap em;

    /* 6 x 10: C holds the 10 x 6 transpose. */
    fake_init(&f, 6, 10);
    for (long long i = 0; i < 6; i++)
        for (long long j = 0; j < 10; j++)
            f.C[j * 6 + i] = (float)f.ref[i * 10 + j];
    classify(&f, 2, 2, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_TRANSPOSED);
    /* One element off: no longer a transpose. */
    f.C[7] += 1.0f;
    classify(&f, 2, 2, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_TRANSPOSED);
    fake_free(&f);
}
END_TEST

/* A column-major kernel that stores C row by row, C[row*N + col]: the buffer read back
   column by column puts reference element p = i*n + j at C(p % m, p / m). */
/* One tile spans all of C: the drawing splits the tile so that it still shows where C is
   wrong, and says so; several tiles: one cell per tile. */
START_TEST(test_errmap_cells_of_one_tile)
{
    struct fake f;
    struct errmap em;
    char text[256], row[3 * ERRMAP_MAX_COLS + 1];

    fake_init(&f, 37, 53);
    f.C[36 * 53 + 52] = NAN;    /* the last element */
    classify(&f, 128, 128, &em);
    ck_assert_int_eq(em.grid_rows, 5);
    ck_assert_int_eq(em.grid_cols, 4);
    errmap_cells_describe(&em, text, sizeof text);
    ck_assert_str_eq(text, "5 x 4 cells of 8 x 16 elements, 16 x 8 cells per work-group tile of 128 x 128");
    errmap_draw_row(&em, 4, false, row, sizeof row);
    ck_assert_str_eq(row, "...?");
    errmap_draw_row(&em, 0, false, row, sizeof row);
    ck_assert_str_eq(row, "....");
    fake_free(&f);

    fake_init(&f, 64, 96);
    classify(&f, 16, 32, &em);
    errmap_cells_describe(&em, text, sizeof text);
    ck_assert_str_eq(text, "4 x 3 cells of 16 x 32 elements, one per work-group tile");
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_transposed_column_major)
{
    struct fake f;
    struct errmap em;
    char hint[512];

    fake_init(&f, 6, 10);
    for (long long p = 0; p < 6 * 10; p++)
        f.C[(p % 6) * 10 + p / 6] = (float)f.ref[p];
    errmap_classify(f.C, f.ref, f.scale, f.m, f.n, TOL, 2, 2, true, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_TRANSPOSED);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_ptr_nonnull(strstr(hint, "row*N + col"));
    /* The row-major reading of the same C is no transpose. */
    errmap_classify(f.C, f.ref, f.scale, f.m, f.n, TOL, 2, 2, false, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_TRANSPOSED);
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_factor)
{
    struct fake f;
    struct errmap em;
    char hint[256];

    fake_init(&f, 12, 9);
    for (long long i = 0; i < 12 * 9; i++)
        f.C[i] *= 2.0f;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_FACTOR);
    ck_assert_double_eq_tol(em.factor, 2.0, 1e-6);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "2 times the product") != NULL, "%s", hint);
    for (long long i = 0; i < 12 * 9; i++)
        f.C[i] = 0.0f;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_FACTOR);
    ck_assert(em.factor == 0.0);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "all zeros") != NULL, "%s", hint);
    /* Two factors: none. */
    for (long long i = 0; i < 12 * 9; i++)
        f.C[i] = (float)f.ref[i] * (i < 50 ? 2.0f : 3.0f);
    classify(&f, 4, 4, &em);
    ck_assert_int_ne(em.pattern, ERRMAP_FACTOR);
    fake_free(&f);
}
END_TEST

START_TEST(test_errmap_scattered)
{
    struct fake f;
    struct errmap em;
    char row[3 * ERRMAP_MAX_COLS + 1];

    fake_init(&f, 16, 16);
    f.C[3 * 16 + 5] += 1.0f;
    f.C[9 * 16 + 2] += 1.0f;
    f.C[14 * 16 + 11] = NAN;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_SCATTERED);
    ck_assert_int_eq(em.wrong, 3);
    ck_assert_int_eq(em.unwritten, 1);
    errmap_draw_row(&em, 0, false, row, sizeof row);
    ck_assert_str_eq(row, ".#..");
    errmap_draw_row(&em, 1, true, row, sizeof row);
    ck_assert_str_eq(row, "\u00b7\u00b7\u00b7\u00b7");
    errmap_draw_row(&em, 3, false, row, sizeof row);
    ck_assert_str_eq(row, "..?.");
    errmap_draw_row(&em, 2, true, row, sizeof row);
    ck_assert_str_eq(row, "\u2588\u00b7\u00b7\u00b7");
    fake_free(&f);
}
END_TEST

/* A large C is drawn in blocks of tiles, at most ERRMAP_MAX_ROWS x ERRMAP_MAX_COLS cells. */
START_TEST(test_errmap_coarse_grid)
{
    struct fake f;
    struct errmap em;

    fake_init(&f, 300, 700);
    f.C[299 * 700 + 699] = NAN;
    classify(&f, 8, 8, &em);
    ck_assert_int_le(em.grid_rows, ERRMAP_MAX_ROWS);
    ck_assert_int_le(em.grid_cols, ERRMAP_MAX_COLS);
    ck_assert_int_eq(em.cell_rows % 8, 0);
    ck_assert_int_eq(em.cell_cols % 8, 0);
    ck_assert_int_eq(em.cells[em.grid_rows - 1][em.grid_cols - 1], '?');
    ck_assert_int_eq(em.cells[0][0], '.');
    /* No tile: blocks of elements. */
    classify(&f, 0, 0, &em);
    ck_assert_int_eq(em.grid_rows, 16);     /* 300 rows in blocks of 19 */
    ck_assert_int_eq(em.grid_cols, 32);     /* 700 columns in blocks of 22 */
    fake_free(&f);
}
END_TEST

/* From A and B: the reference is computed, a right product is right and a product above
   verify.h's limit is not classified. */
START_TEST(test_errmap_product)
{
    long long m = 24, n = 20, k = 16;
    float *A = malloc((size_t)(m * k) * sizeof *A), *B = malloc((size_t)(k * n) * sizeof *B);
    float *C = malloc((size_t)(m * n) * sizeof *C);
    struct errmap em;

    ck_assert(A && B && C);
    for (long long i = 0; i < m * k; i++)
        A[i] = (float)((i * 7 % 13) - 6) / 8.0f;
    for (long long i = 0; i < k * n; i++)
        B[i] = (float)((i * 5 % 11) - 5) / 4.0f;
    hostgemm_float(A, B, C, m, n, k);
    ck_assert(errmap_product(A, B, C, m, n, k, verify_tolerance(k), 16, 16, false, &em));
    ck_assert_int_eq(em.pattern, ERRMAP_RIGHT);
    for (long long i = 0; i < m; i++)
        for (long long j = 16; j < n; j++)
            C[i * n + j] = NAN;
    ck_assert(errmap_product(A, B, C, m, n, k, verify_tolerance(k), 16, 16, false, &em));
    ck_assert_int_eq(em.pattern, ERRMAP_EDGES);
    ck_assert(!errmap_product(A, B, C, 1 << 10, 1 << 10, (VERIFY_FULL_LIMIT >> 20) + 1, verify_tolerance(1), 16, 16, false, &em));
    ck_assert_int_eq(em.pattern, ERRMAP_NONE);
    free(A);
    free(B);
    free(C);
}
END_TEST

/* Right values in the wrong places (C written with a wrong leading dimension): misplaced,
   not scattered. */
START_TEST(test_errmap_misplaced)
{
    struct fake f;
    struct errmap em;
    char hint[512];

    fake_init(&f, 12, 20);
    /* Row r written with a stride of 16 instead of 20: its values land 4r places early. */
    for (long long r = 1; r < 12; r++)
        for (long long c = 0; c < 20; c++)
            f.C[r * 16 + c] = (float)f.ref[r * 20 + c];
    for (long long i = 11 * 16 + 20; i < 12 * 20; i++)
        f.C[i] = NAN;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_MISPLACED);
    ck_assert_int_ge(em.misplaced * 2, em.wrong - em.unwritten);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "right values in the wrong places") && strstr(hint, "leading dimension"), "%s", hint);
    /* In a kernel of fragments, the fragment's index first. */
    em.uses |= USES_FRAGMENTS;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "a fragment holds an element of A or B") && !strstr(hint, "leading dimension"), "%s",
                  hint);
    em.uses &= ~(unsigned)USES_FRAGMENTS;
    /* Values that are nobody's: scattered. */
    for (long long i = 0; i < 12 * 20; i++)
        f.C[i] = (float)f.ref[i];
    f.C[5] += 0.5f;
    f.C[77] -= 0.25f;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_SCATTERED);
    ck_assert_int_eq(em.close, 0);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(!strstr(hint, "precision"), "%s", hint);
    /* In a kernel of fragments, the fragments' table first. */
    em.uses = USES_FRAGMENTS;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "fragment's indices"), "%s", hint);
    /* Each wrong element near its value: a loss of precision, not an index. */
    for (long long i = 0; i < 12 * 20; i++)
        f.C[i] = (float)f.ref[i];
    for (long long i = 0; i < 12 * 20; i += 3)
        f.C[i] = (float)(f.ref[i] + 4 * TOL * (i % 2 ? 1 : -1));
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_SCATTERED);
    ck_assert_int_eq(em.close, em.wrong);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "near its right value") && strstr(hint, "precision"), "%s", hint);
    fake_free(&f);
}
END_TEST

/* Where the references lie closer together than the tolerance, a wrong value is near some
   reference by chance: not counted as misplaced. */
START_TEST(test_errmap_misplaced_by_chance)
{
    struct fake f;
    struct errmap em;

    fake_init(&f, 64, 64);
    for (long long i = 0; i < 64 * 64; i++)
        f.C[i] = (float)(f.ref[i] + 0.37 + 0.01 * (double)(i % 7));
    errmap_classify(f.C, f.ref, f.scale, f.m, f.n, 1e-3, 16, 16, false, &em);
    ck_assert_int_eq(em.wrong, em.total);
    ck_assert_int_eq(em.misplaced, 0);
    fake_free(&f);
}
END_TEST

/* A hint names only what the kernel uses; a suspect the check found comes first. */
START_TEST(test_errmap_hint_uses)
{
    struct fake f;
    struct errmap em;
    char hint[512];

    fake_init(&f, 16, 16);
    f.C[3 * 16 + 5] += 1.0f;
    f.C[9 * 16 + 2] += 1.0f;
    classify(&f, 4, 4, &em);
    ck_assert_int_eq(em.pattern, ERRMAP_SCATTERED);
    ck_assert_uint_eq(em.uses, USES_ALL);
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "missing barrier") != NULL, "%s", hint);
    em.uses = 0;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(!strstr(hint, "barrier") && !strstr(hint, "tile") && strstr(hint, "index"), "%s", hint);
    em.uses = USES_LOCAL_MEMORY;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(!strstr(hint, "barrier") && strstr(hint, "beyond a tile"), "%s", hint);
    em.suspect = SUSPECT_RACE;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strncmp(hint, "a race: ", 8) == 0 && strstr(hint, "missing barrier"), "%s", hint);
    em.suspect = SUSPECT_M_N;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "M and N are exchanged") != NULL, "%s", hint);
    /* Never written, in a kernel without local memory: no tile is named. */
    for (long long i = 0; i < 16 * 16; i++)
        f.C[i] = i < 100 ? (float)f.ref[i] : NAN;
    classify(&f, 4, 4, &em);
    em.uses = USES_BARRIERS;
    errmap_hint(&em, hint, sizeof hint);
    ck_assert_msg(strstr(hint, "NaN") && !strstr(hint, "local tile"), "%s", hint);
    fake_free(&f);
}
END_TEST

/* What a kernel uses, read from its text with the comments left out. */
START_TEST(test_errmap_uses_of)
{
    const char *plain = "/* no barrier(CLK_LOCAL_MEM_FENCE) and no __local here */\n"
                        "__kernel void k(__global float *C) { // barrier( is only said\n"
                        "  C[get_global_id(0)] = 0; }\n";
    const char *tiled = "__kernel void k(__global float *C) {\n"
                        "  __local float t[16];\n  t[get_local_id(0)] = 1;\n"
                        "  barrier (CLK_LOCAL_MEM_FENCE);\n  C[get_global_id(0)] = t[0];\n"
                        "  barrier(CLK_LOCAL_MEM_FENCE);\n  int nobarrier = 0; (void)nobarrier; }\n";

    ck_assert_uint_eq(errmap_uses_of(plain), 0);
    ck_assert_int_eq(errmap_barriers_of(plain), 0);
    ck_assert_uint_eq(errmap_uses_of(tiled), USES_LOCAL_MEMORY | USES_BARRIERS | USES_LOCAL_ID);
    ck_assert_int_eq(errmap_barriers_of(tiled), 2);
    /* A call of mma (a warp's instruction on fragments), not the word in a comment or a name. */
    ck_assert_uint_eq(errmap_uses_of("void f(float d[4]) { mma(d, a, b); }"), USES_FRAGMENTS);
    ck_assert_uint_eq(errmap_uses_of("/* mma( */ int mma_count; void f(void) {}"), 0);
}
END_TEST

Suite *errmap_suite(void)
{
    Suite *s = suite_create("errmap");
    TCase *tc = tcase_create("patterns");

    tcase_add_test(tc, test_errmap_right);
    tcase_add_test(tc, test_errmap_unwritten);
    tcase_add_test(tc, test_errmap_everywhere);
    tcase_add_test(tc, test_errmap_edges);
    tcase_add_test(tc, test_errmap_index);
    tcase_add_test(tc, test_errmap_transposed);
    tcase_add_test(tc, test_errmap_transposed_column_major);
    tcase_add_test(tc, test_errmap_cells_of_one_tile);
    tcase_add_test(tc, test_errmap_factor);
    tcase_add_test(tc, test_errmap_scattered);
    tcase_add_test(tc, test_errmap_coarse_grid);
    tcase_add_test(tc, test_errmap_product);
    tcase_add_test(tc, test_errmap_misplaced);
    tcase_add_test(tc, test_errmap_hint_uses);
    tcase_add_test(tc, test_errmap_uses_of);
    tcase_add_test(tc, test_errmap_misplaced_by_chance);
    suite_add_tcase(s, tc);
    return s;
}
