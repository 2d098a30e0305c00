/* errmap.c: classifies the wrong elements of a product into the pattern of a likely bug.

   The tests go from the most specific to the least: nothing written at all, C transposed,
   C a constant multiple of the reference, every element wrong, only the partial tiles at
   the bottom and right wrong, the same positions of every tile wrong, only NaN wrong, most
   wrong elements holding another element's value; what is left is scattered. An element is
   wrong by verify.c's own measure and tolerance. */
#include "errmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctext.h"
#include "hostgemm.h"
#include "str.h"
#include "verify.h"
#include "xalloc.h"

static long long cdiv(long long a, long long b)
{
    return a / b + (a % b != 0);
}

static bool is_wrong(float value, double ref, double scale, double tolerance)
{
    return !(verify_element_error(value, ref, scale) <= tolerance);
}

/* The kernel stored C in the other order than the lesson's: where the lesson keeps C
   row-major, C read as an n x m matrix matches the reference's transpose; where it keeps C
   column-major (and C is read back column by column), element p of the buffer, C(p % m,
   p / m) as read, holds the reference's element p in row-major order. */
static bool transposed(const float *C, const double *ref, const double *scale, long long m, long long n,
                       bool column_major, double tolerance)
{
    for (long long i = 0; i < m; i++)
        for (long long j = 0; j < n; j++) {
            long long p = i * n + j, at = column_major ? (p % m) * n + p / m : j * m + i;
            if (is_wrong(C[at], ref[p], scale[p], tolerance))
                return false;
        }
    return true;
}

/* C = s * ref for one s, taken where the reference is largest; the tolerance grows with |s|. */
static bool scaled(const float *C, const double *ref, const double *scale, long long count,
                   double tolerance, double *factor)
{
    long long big = 0;
    double s;

    for (long long i = 1; i < count; i++)
        if (fabs(ref[i]) > fabs(ref[big]))
            big = i;
    if (ref[big] == 0.0 || !isfinite(C[big]))
        return false;
    s = C[big] / ref[big];
    for (long long i = 0; i < count; i++)
        if (!(fabs(C[i] - s * ref[i]) <= tolerance * fmax(fabs(s), 1.0) * scale[i]))
            return false;
    *factor = s;
    return true;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* Whether a reference lies within reach of v: the sorted references are searched. */
static bool near_some(const double *sorted, long long count, double v, double reach)
{
    long long lo = 0, hi = count;

    while (lo < hi) {       /* the first reference >= v - reach */
        long long mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v - reach)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && sorted[lo] <= v + reach;
}

/* How many wrong elements that hold a number hold, within the tolerance, the reference of
   some other element; 0 when chance explains them. Where the references lie closer together
   than the tolerance (a large C, a TF32 tolerance), any value is near one: each value moved
   by three tolerances is tried too, and the count stands only where the values themselves
   match at least twice as often as the moved ones. */
static long long count_misplaced(const float *C, const double *ref, const double *scale, const bool *wrong,
                                 long long count, double tolerance)
{
    double *sorted = malloc((size_t)count * sizeof *sorted), widest = 0.0;
    long long found = 0, chance = 0;

    if (!sorted)
        return 0;
    for (long long i = 0; i < count; i++) {
        sorted[i] = ref[i];
        widest = scale[i] > widest ? scale[i] : widest;
    }
    qsort(sorted, (size_t)count, sizeof *sorted, by_value);
    for (long long i = 0; i < count; i++) {
        double v = C[i], reach = tolerance * widest;
        if (!wrong[i] || !isfinite(v))
            continue;
        found += near_some(sorted, count, v, reach);
        chance += near_some(sorted, count, v + 3 * reach, reach);
    }
    free(sorted);
    return found > 2 * chance ? found : 0;
}

/* Every wrong element lies beyond the last full tile, and there is such a part. */
static bool edges(const bool *wrong, struct errmap *em)
{
    long long full_r = em->m / em->tile_rows * em->tile_rows, full_c = em->n / em->tile_cols * em->tile_cols;
    bool rows = false, cols = false;

    if (full_r == em->m && full_c == em->n)
        return false;
    for (long long i = 0; i < em->m; i++)
        for (long long j = 0; j < em->n; j++) {
            if (!wrong[i * em->n + j])
                continue;
            if (i < full_r && j < full_c)
                return false;
            rows |= i >= full_r;
            cols |= j >= full_c;
        }
    em->edge_rows = rows;
    em->edge_cols = cols;
    return true;
}

/* The wrong elements are exactly those at some set of positions inside the tiles, over more
   than one tile. The set is read from the first tile. */
static bool index_bug(const bool *wrong, struct errmap *em)
{
    long long tr = em->tile_rows < em->m ? em->tile_rows : em->m;
    long long tc = em->tile_cols < em->n ? em->tile_cols : em->n;
    long long positions = 0;

    if (cdiv(em->m, em->tile_rows) * cdiv(em->n, em->tile_cols) < 2)
        return false;
    for (long long i = 0; i < em->m; i++)
        for (long long j = 0; j < em->n; j++) {
            long long r = i % em->tile_rows, c = j % em->tile_cols;
            if (r >= tr || c >= tc || wrong[i * em->n + j] != wrong[r * em->n + c])
                return false;
        }
    for (long long r = 0; r < tr; r++)
        for (long long c = 0; c < tc; c++)
            if (wrong[r * em->n + c] && positions++ == 0) {
                em->index_row = r;
                em->index_col = c;
            }
    em->index_positions = positions;
    return positions > 0;
}

/* The cell a drawing is made of along one dimension: the tile, or where one tile spans all
   of C, a part of it (halved while it divides) so that the drawing still shows where inside
   that tile C is wrong. */
static long long unit_of(long long tile, long long extent, long long max_cells)
{
    long long unit = tile > 0 ? tile : 1;

    if (cdiv(extent, unit) > 1)
        return unit;
    while (unit % 2 == 0 && cdiv(extent, unit) < 4 && cdiv(extent, unit / 2) <= max_cells)
        unit /= 2;
    return unit;
}

/* The cells: whole tiles when the tile is known (parts of it where one tile spans C), as
   many per cell as the grid needs. */
static void draw(const float *C, const bool *wrong, struct errmap *em)
{
    long long unit_r = unit_of(em->tile_rows, em->m, ERRMAP_MAX_ROWS);
    long long unit_c = unit_of(em->tile_cols, em->n, ERRMAP_MAX_COLS);

    em->cell_rows = unit_r * cdiv(cdiv(em->m, unit_r), ERRMAP_MAX_ROWS);
    em->cell_cols = unit_c * cdiv(cdiv(em->n, unit_c), ERRMAP_MAX_COLS);
    em->grid_rows = (int)cdiv(em->m, em->cell_rows);
    em->grid_cols = (int)cdiv(em->n, em->cell_cols);
    memset(em->cells, '.', sizeof em->cells);
    for (long long i = 0; i < em->m; i++)
        for (long long j = 0; j < em->n; j++) {
            char *cell = &em->cells[i / em->cell_rows][j / em->cell_cols];
            if (!wrong[i * em->n + j])
                continue;
            if (!isnan(C[i * em->n + j]))
                *cell = '#';
            else if (*cell == '.')
                *cell = '?';
        }
}

void errmap_classify(const float *C, const double *ref, const double *scale, long long m, long long n,
                     double tolerance, long long tile_rows, long long tile_cols, bool column_major,
                     struct errmap *em)
{
    bool *wrong = xmalloc((size_t)(m * n) * sizeof *wrong);

    memset(em, 0, sizeof *em);
    em->m = m;
    em->n = n;
    em->total = m * n;
    em->column_major = column_major;
    if (tile_rows > 0 && tile_cols > 0) {
        em->tile_rows = tile_rows;
        em->tile_cols = tile_cols;
    }
    for (long long i = 0; i < m * n; i++) {
        wrong[i] = is_wrong(C[i], ref[i], scale[i], tolerance);
        em->wrong += wrong[i];
        em->unwritten += isnan(C[i]) != 0;
        em->close += wrong[i] && !is_wrong(C[i], ref[i], scale[i], ERRMAP_CLOSE * tolerance);
    }
    em->uses = USES_ALL;
    draw(C, wrong, em);
    em->misplaced = count_misplaced(C, ref, scale, wrong, m * n, tolerance);
    if (em->wrong == 0)
        em->pattern = ERRMAP_RIGHT;
    else if (em->unwritten == em->total)
        em->pattern = ERRMAP_UNWRITTEN;
    else if (transposed(C, ref, scale, m, n, column_major, tolerance))
        em->pattern = ERRMAP_TRANSPOSED;
    else if (scaled(C, ref, scale, em->total, tolerance, &em->factor))
        em->pattern = ERRMAP_FACTOR;
    else if (em->wrong == em->total)
        em->pattern = ERRMAP_EVERYWHERE;
    else if (em->tile_rows > 0 && (m > em->tile_rows || n > em->tile_cols) && edges(wrong, em))
        /* Where one tile holds all of C, its edge is all there is: no pattern to name. */
        em->pattern = ERRMAP_EDGES;
    else if (em->tile_rows > 0 && index_bug(wrong, em))
        em->pattern = ERRMAP_INDEX;
    else if (em->wrong == em->unwritten)
        em->pattern = ERRMAP_UNWRITTEN;
    else if (em->misplaced * 2 >= em->wrong - em->unwritten)
        em->pattern = ERRMAP_MISPLACED;
    else
        em->pattern = ERRMAP_SCATTERED;
    free(wrong);
}

bool errmap_product(const float *A, const float *B, const float *C, long long m, long long n, long long k,
                    double tolerance, long long tile_rows, long long tile_cols, bool column_major, struct errmap *em)
{
    double *ref, *scale;

    memset(em, 0, sizeof *em);
    em->pattern = ERRMAP_NONE;
    /* The whole reference is kept (16 bytes an element): at most ERRMAP_MAX_ELEMENTS, and
       never a reason to end the program. */
    if (m <= 0 || n <= 0 || k <= 0 || m * n > ERRMAP_MAX_ELEMENTS || m * n * k > VERIFY_FULL_LIMIT)
        return false;
    ref = malloc((size_t)(m * n) * sizeof *ref);
    scale = malloc((size_t)(m * n) * sizeof *scale);
    if (!ref || !scale) {
        free(ref);
        free(scale);
        return false;
    }
    hostgemm_double(A, B, ref, scale, m, n, k);
    errmap_classify(C, ref, scale, m, n, tolerance, tile_rows, tile_cols, column_major, em);
    free(ref);
    free(scale);
    return true;
}

unsigned errmap_uses_of(const char *source)
{
    struct ctext t;
    unsigned uses = 0;

    ctext_read(source, &t);
    if (ctext_count(&t, "__local", false) || ctext_count(&t, "local", false))
        uses |= USES_LOCAL_MEMORY;
    if (ctext_count(&t, "barrier", true) || ctext_count(&t, "work_group_barrier", true))
        uses |= USES_BARRIERS;
    if (ctext_count(&t, "get_local_id", true) || ctext_count(&t, "get_group_id", true))
        uses |= USES_LOCAL_ID;
    if (ctext_count(&t, "mma", true))
        uses |= USES_FRAGMENTS;
    ctext_free(&t);
    return uses;
}

int errmap_barriers_of(const char *source)
{
    struct ctext t;
    int n;

    ctext_read(source, &t);
    n = ctext_count(&t, "barrier", true) + ctext_count(&t, "work_group_barrier", true);
    ctext_free(&t);
    return n;
}

const char *errmap_pattern_name(enum errmap_pattern p)
{
    switch (p) {
    case ERRMAP_NONE: return "unclassified";
    case ERRMAP_RIGHT: return "right";
    case ERRMAP_UNWRITTEN: return "never-written";
    case ERRMAP_EVERYWHERE: return "everywhere";
    case ERRMAP_EDGES: return "edges";
    case ERRMAP_INDEX: return "index";
    case ERRMAP_TRANSPOSED: return "transposed";
    case ERRMAP_FACTOR: return "factor";
    case ERRMAP_MISPLACED: return "misplaced";
    case ERRMAP_SCATTERED: return "scattered";
    }
    return "?";
}

void errmap_summary(const struct errmap *em, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    if (em->pattern == ERRMAP_NONE) {
        str_appendf(&s, "", "too large to map: only sampled");
        return;
    }
    str_appendf(&s, "", "%s: %lld of %lld elements wrong, %lld never written",
                errmap_pattern_name(em->pattern), em->wrong, em->total, em->unwritten);
    if (em->pattern == ERRMAP_FACTOR)
        str_appendf(&s, "", "; C = %.4g x the product", em->factor);
    else if (em->pattern == ERRMAP_MISPLACED)
        str_appendf(&s, "", "; %lld hold the right value of another element", em->misplaced);
    else if (em->pattern == ERRMAP_INDEX)
        str_appendf(&s, "", "; %lld of %lld positions in every %lldx%lld tile, first (%lld, %lld)",
                    em->index_positions, em->tile_rows * em->tile_cols, em->tile_rows, em->tile_cols,
                    em->index_row, em->index_col);
}

void errmap_cells_describe(const struct errmap *em, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%d x %d cells of %lld x %lld elements", em->grid_rows, em->grid_cols, em->cell_rows,
                     em->cell_cols);

    if (n < 0 || (size_t)n >= len || em->tile_rows <= 0 || em->tile_cols <= 0)
        return;
    if (em->cell_rows == em->tile_rows && em->cell_cols == em->tile_cols)
        snprintf(buf + n, len - (size_t)n, ", one per work-group tile");
    else if (em->tile_rows % em->cell_rows == 0 && em->tile_cols % em->cell_cols == 0)
        snprintf(buf + n, len - (size_t)n, ", %lld x %lld cells per work-group tile of %lld x %lld",
                 em->tile_rows / em->cell_rows, em->tile_cols / em->cell_cols, em->tile_rows, em->tile_cols);
    else if (em->cell_rows % em->tile_rows == 0 && em->cell_cols % em->tile_cols == 0)
        snprintf(buf + n, len - (size_t)n, ", %lld x %lld work-group tiles per cell",
                 em->cell_rows / em->tile_rows, em->cell_cols / em->tile_cols);
}

/* The hint of a suspect that a check found, or NULL. */
static const char *suspect_hint(enum errmap_suspect suspect)
{
    switch (suspect) {
    case SUSPECT_RACE:
        return "a race: work-items read local memory before another work-item of the group has written "
               "it, or after it has overwritten it; look for a missing barrier";
    case SUSPECT_M_N:
        return "right when M = N, wrong when M and N differ: M and N are exchanged somewhere, in how the "
               "work-item's id becomes a row and a column, in a bound, or in a leading dimension (row*N + "
               "col for a row-major C)";
    case SUSPECT_NONE:
        break;
    }
    return NULL;
}

void errmap_hint(const struct errmap *em, char *buf, size_t len)
{
    const char *where = em->edge_rows && em->edge_cols ? "last row and column"
                        : em->edge_rows ? "last row" : "last column";
    const char *suspect = suspect_hint(em->suspect);
    bool tiles = em->uses & USES_LOCAL_MEMORY, barriers = em->uses & USES_BARRIERS;

    if (suspect) {
        snprintf(buf, len, "%s", suspect);
        return;
    }
    switch (em->pattern) {
    case ERRMAP_NONE:
        snprintf(buf, len, "the product is too large to compare every element on the host");
        break;
    case ERRMAP_RIGHT:
        snprintf(buf, len, "every element is right");
        break;
    case ERRMAP_UNWRITTEN:
        if (em->unwritten == em->total)
            snprintf(buf, len, "no element of C holds a number (NaN): the kernel stores nothing, stores "
                               "outside C%s", tiles ? ", or sums values never written (a local tile never "
                                                      "filled)" : "");
        else
            snprintf(buf, len, "some elements hold no number (NaN): the NDRange does not cover C, a "
                               "bounds check returns too early%s", tiles ? ", or they sum values never "
                                                                          "written (a local tile never "
                                                                          "filled)" : "");
        break;
    case ERRMAP_EVERYWHERE:
        snprintf(buf, len, "every element is wrong: check how A, B and C are indexed%s and the loop "
                           "over K", em->uses & USES_FRAGMENTS ? " (the fragments: the lesson's table of "
                                                                 "which element each work-item holds)" : "");
        break;
    case ERRMAP_EDGES:
        snprintf(buf, len, "the %s of tiles are wrong: the kernel does not handle sizes that are "
                           "not multiples of the tile", where);
        break;
    case ERRMAP_INDEX:
        snprintf(buf, len, "the same position%s inside every tile %s wrong: an index computed from "
                           "the work-item's %s is off%s",
                 em->index_positions > 1 ? "s" : "", em->index_positions > 1 ? "are" : "is",
                 em->uses & USES_LOCAL_ID ? "local id" : "id",
                 barriers ? ", or a barrier is missing (a race looks the same on a CPU device)" : "");
        break;
    case ERRMAP_TRANSPOSED:
        if (em->column_major && em->m != em->n)
            snprintf(buf, len, "C is stored row by row (C(row, col) at row*N + col) where the kernel's "
                               "C is column-major, at col*M + row: the row and column are swapped where "
                               "C is written");
        else
            snprintf(buf, len, "C holds the transpose of the product: the row and column are swapped "
                               "where C is written");
        break;
    case ERRMAP_FACTOR:
        if (em->factor == 0.0)
            snprintf(buf, len, "C is all zeros: the sum is never accumulated, or never stored");
        else
            snprintf(buf, len, "C is %.4g times the product: a term is missing or counted more than "
                               "once (a loop bound, %s)", em->factor, tiles ? "a duplicated tile" : "a step of K");
        break;
    case ERRMAP_MISPLACED:
        if (em->uses & USES_FRAGMENTS)
            snprintf(buf, len, "right values in the wrong places: a fragment holds an element of A or B "
                               "where the instruction's layout wants another (which element each "
                               "work-item holds is fixed: see the lesson's table), or the index where C "
                               "is written is off");
        else
            snprintf(buf, len, "right values in the wrong places: the index where C is written is off (a "
                               "leading dimension: row*N + col for a row-major C, col*M + row for a "
                               "column-major one), or M and N are exchanged");
        break;
    case ERRMAP_SCATTERED:
        if (em->close == em->wrong)
            snprintf(buf, len, "every wrong element is near its right value (within %d times the tolerance): "
                               "a loss of precision, not an index (a term of the sum left out, or values "
                               "rounded where they should not be)", ERRMAP_CLOSE);
        else if (em->uses & USES_FRAGMENTS)
            snprintf(buf, len, "the wrong elements follow no pattern: check each fragment's indices "
                               "against the lesson's table (which element of A and B each work-item "
                               "holds)%s", barriers ? ", and the barriers" : "");
        else if (barriers)
            snprintf(buf, len, "the wrong elements follow no pattern: look for a missing barrier or a "
                               "read beyond a tile");
        else if (tiles)
            snprintf(buf, len, "the wrong elements follow no pattern: look for a read beyond a tile, or an "
                               "index that runs past a row of A or a column of B");
        else
            snprintf(buf, len, "the wrong elements follow no pattern: look for an index that runs past a "
                               "row of A or a column of B (M, N and K in the right places), or a loop "
                               "bound");
        break;
    }
}

void errmap_draw_row(const struct errmap *em, int row, bool utf8, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    if (row < 0 || row >= em->grid_rows)
        return;
    for (int c = 0; c < em->grid_cols; c++) {
        char cell = em->cells[row][c];
        if (!utf8 || cell == '?')
            str_appendf(&s, "", "%c", cell);
        else
            str_appendf(&s, "", "%s", cell == '#' ? "\u2588" : "\u00b7");
    }
}
