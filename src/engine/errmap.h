/* errmap.h: where a wrong product is wrong, the pattern that names the likely bug, and a
   coarse drawing of C. Engine code: no terminal. */
#ifndef CLMM_ERRMAP_H
#define CLMM_ERRMAP_H

#include <stdbool.h>
#include <stddef.h>

#define ERRMAP_MAX_ELEMENTS (1LL << 22)   /* elements of C a map is drawn for (64 MiB of reference) */

/* The drawing has at most this many rows and columns of cells. */
#define ERRMAP_MAX_ROWS 16
#define ERRMAP_MAX_COLS 32

enum errmap_pattern {
    ERRMAP_NONE,        /* not classified: the product is too large to compare in full */
    ERRMAP_RIGHT,       /* every element within the tolerance */
    ERRMAP_UNWRITTEN,   /* every wrong element is NaN: never written */
    ERRMAP_EVERYWHERE,  /* every element wrong */
    ERRMAP_EDGES,       /* wrong only beyond the last full tile, in rows or columns */
    ERRMAP_INDEX,       /* the same positions inside every tile wrong, and only those */
    ERRMAP_TRANSPOSED,  /* C stored in the other order (row-major for column-major, or the
                           reverse): the row and column swapped where it is written */
    ERRMAP_FACTOR,      /* C = factor * reference */
    ERRMAP_MISPLACED,   /* most wrong elements hold the right value of another element: C is
                           written at the wrong places (a leading dimension, M and N swapped) */
    ERRMAP_SCATTERED,   /* none of the above */
};

/* What a kernel uses, so that a hint names only what the kernel has (errmap_hint). */
enum errmap_uses {
    USES_LOCAL_MEMORY = 1,      /* __local arrays or arguments */
    USES_BARRIERS = 2,          /* barrier() */
    USES_LOCAL_ID = 4,          /* get_local_id(), get_group_id() */
    USES_FRAGMENTS = 8,         /* a warp's instruction (mma) on fragments the work-items hold:
                                   named only where the kernel has one, never when not known */
    USES_ALL = 7,
};

/* A cause a check found beyond the map (check.c), which the hint names first. */
enum errmap_suspect {
    SUSPECT_NONE,
    SUSPECT_RACE,               /* a barrier fewer than the exercise's kernel has */
    SUSPECT_M_N,                /* right when M = N, wrong when M != N */
};

/* A wrong element this near its value (times the tolerance) is a loss of precision. */
#define ERRMAP_CLOSE 100

struct errmap {
    enum errmap_pattern pattern;
    long long m, n;
    long long tile_rows, tile_cols; /* as given; 0: not known */
    bool column_major;              /* the kernel stores C column by column */
    long long total;                /* m * n */
    long long wrong;                /* elements out of tolerance, the unwritten among them */
    long long unwritten;            /* NaN elements */
    bool edge_rows, edge_cols;      /* ERRMAP_EDGES: wrong rows below / columns right of the
                                       last full tile */
    long long index_row, index_col; /* ERRMAP_INDEX: the first wrong position in a tile */
    long long index_positions;      /* ERRMAP_INDEX: how many positions of a tile are wrong */
    double factor;                  /* ERRMAP_FACTOR */
    int grid_rows, grid_cols;       /* the drawing's cells */
    long long cell_rows, cell_cols; /* elements of C per cell: whole tiles when known */
    char cells[ERRMAP_MAX_ROWS][ERRMAP_MAX_COLS];  /* '.' right, '#' wrong, '?' never written */
    long long misplaced;            /* wrong elements that hold another element's right value */
    long long close;                /* wrong elements within ERRMAP_CLOSE times the tolerance */
    unsigned uses;                  /* enum errmap_uses: what the hint may name (USES_ALL when
                                       not known) */
    enum errmap_suspect suspect;
};

/* What the kernel's text uses (enum errmap_uses), its comments left out. */
unsigned errmap_uses_of(const char *source);
/* How many times the text calls barrier(), its comments left out. */
int errmap_barriers_of(const char *source);

/* Classifies the row-major m x n C against its reference ref with the scales of verify.h's
   error (scale[i] = |A||B| of element i) and that tolerance. tile_rows x tile_cols is the
   block of C one work-group computes, 0 x 0 when not known (no edge or index pattern then).
   column_major: the kernel stores C column by column (C, as given, is row-major all the same),
   which decides what a C written in the other order looks like. */
void errmap_classify(const float *C, const double *ref, const double *scale, long long m, long long n,
                     double tolerance, long long tile_rows, long long tile_cols, bool column_major,
                     struct errmap *em);

/* Computes the reference of C = A B (A m x k, B k x n, row-major) and classifies C against
   tolerance (verify_tolerance_for the product's precision), when the
   product is small enough to verify in full (VERIFY_FULL_LIMIT multiply-adds), C has at
   most ERRMAP_MAX_ELEMENTS elements and the host has the memory; otherwise sets ERRMAP_NONE
   and returns false. */
bool errmap_product(const float *A, const float *B, const float *C, long long m, long long n, long long k,
                    double tolerance, long long tile_rows, long long tile_cols, bool column_major, struct errmap *em);

/* "edges", "index", ...: one word, for CSV and JSON. */
const char *errmap_pattern_name(enum errmap_pattern p);

/* "312 of 2000 elements wrong, 0 never written" and what is known of the pattern. */
void errmap_summary(const struct errmap *em, char *buf, size_t len);

/* What a cell of the drawing stands for: "4 x 8 cells of 16 x 16 elements, one per
   work-group tile", "... of 8 x 16 elements, 16 x 8 cells per work-group tile of 128 x 128",
   "... of 1 x 3 elements". */
void errmap_cells_describe(const struct errmap *em, char *buf, size_t len);

/* A sentence for a student: what is wrong and the likely cause, naming only what em->uses
   says the kernel has; a suspect first. */
void errmap_hint(const struct errmap *em, char *buf, size_t len);

/* Row `row` of the drawing (0 <= row < grid_rows), NUL-terminated. ASCII: '.', '#', '?';
   with utf8: U+00B7, U+2588 and '?'. len of 3 * ERRMAP_MAX_COLS + 1 always suffices. */
void errmap_draw_row(const struct errmap *em, int row, bool utf8, char *buf, size_t len);

#endif
