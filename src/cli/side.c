/* side.c: the --bench table of several columns, a device's or a saved run's each. */
#include "side.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rowtext.h"
#include "engine/str.h"
#include "engine/text.h"
#include "engine/xalloc.h"

#define CELL_W 13               /* a column: 12 characters and the space before them */
#define TITLE_W 28              /* the lesson's title, as the table of one device has it */
#define LINE_W 80               /* the notes are wrapped to it */

struct side_row {
    int size, lesson;
    struct run_result *cells;   /* one per device */
    bool *have;
};

struct side {
    const struct device_info **devices;
    int n;
    struct compare *compare;
    struct side_row *rows;
    size_t count, cap;
};

struct side *side_new(const struct device_info *const *devices, int n, struct compare *compare)
{
    struct side *t = xcalloc(1, sizeof *t);

    t->devices = xcalloc((size_t)n, sizeof *t->devices);
    memcpy(t->devices, devices, (size_t)n * sizeof *devices);
    t->n = n;
    t->compare = compare;
    return t;
}

/* text made printable and cut to width columns (blanks at the cut taken off), right-aligned
   in them. */
static void put_right(FILE *out, const char *text, int width)
{
    char *printable = text_printable(text, false);
    size_t n = str_prefix(printable, (size_t)width);

    while (n > 0 && printable[n - 1] == ' ')
        n--;
    fprintf(out, "%*s", width - (int)str_columns(printable, n), "");
    fwrite(printable, 1, n, out);
    free(printable);
}

/* "label: text", text made printable and wrapped to LINE_W, its lines under its start. */
static void put_wrapped(FILE *out, const char *label, const char *text)
{
    rowtext_wrapped(out, label, (int)strlen(label), text, LINE_W, false);
}

void side_begin(const struct side *t, FILE *out)
{
    char desc[600], line[800];

    fprintf(out, t->n > 1 ? "Devices side by side, each measured and verified on its own:\n"
                          : "Device, measured and verified now:\n");
    for (int i = 0; i < t->n; i++) {
        const struct device_info *d = t->devices[i];
        char label[16];
        device_describe(d, desc, sizeof desc);
        snprintf(label, sizeof label, "  [%d] ", d->index);
        snprintf(line, sizeof line, "%s, %u compute units, %s", desc, d->compute_units, d->driver);
        put_wrapped(out, label, line);
    }
    if (t->compare) {
        snprintf(line, sizeof line, "%s%s%s%s, from %s (its figures as the file gives them, not measured now)",
                 t->compare->device, t->compare->platform[0] ? " (" : "", t->compare->platform,
                 t->compare->platform[0] ? ")" : "", t->compare->file);
        put_wrapped(out, "  saved ", line);
    }
}

static struct side_row *find_row(struct side *t, int size, int lesson)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].size == size && t->rows[i].lesson == lesson)
            return &t->rows[i];
    if (t->count == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 32;
        t->rows = xrealloc(t->rows, t->cap * sizeof *t->rows);
    }
    t->rows[t->count] = (struct side_row){ size, lesson, xcalloc((size_t)t->n, sizeof(struct run_result)),
                                           xcalloc((size_t)t->n, sizeof(bool)) };
    return &t->rows[t->count++];
}

void side_add(struct side *t, int size, int device, const struct run_result *r)
{
    struct side_row *row = find_row(t, size, r->lesson);

    if (row->have[device])
        return;                 /* the same lesson twice in one size: the first is kept */
    row->cells[device] = *r;
    row->cells[device].error.detail = NULL;     /* the build log stays with r */
    row->have[device] = true;
}

/* The header of the columns: the devices' and the saved run's names over "GFLOPS". */
static void print_header(const struct side *t, FILE *out, int title_w)
{
    char label[32];

    fprintf(out, "%*s", 3 + 2 + title_w, "");
    for (int i = 0; i < t->n; i++) {
        fputc(' ', out);
        put_right(out, t->devices[i]->name, CELL_W - 1);
    }
    if (t->compare) {
        fputc(' ', out);
        put_right(out, t->compare->device, CELL_W - 1);
    }
    fprintf(out, "\n  #  %-*s", title_w, "lesson");
    for (int i = 0; i < t->n; i++) {
        snprintf(label, sizeof label, "GFLOPS [%d]", t->devices[i]->index);
        fprintf(out, "%*s", CELL_W, label);
    }
    if (t->compare)
        fprintf(out, "%*s", CELL_W, "GFLOPS saved");
    fputc('\n', out);
}

/* A cell: the median, or what the run was instead. */
static void print_cell(FILE *out, const struct run_result *r, bool have)
{
    if (!have)
        fprintf(out, "%*s", CELL_W, "-");
    else if (r->status == RUN_OK)
        fprintf(out, "%*.1f", CELL_W, r->gflops.median);
    else
        fprintf(out, "%*s", CELL_W, r->status == RUN_WRONG ? "WRONG" : run_status_name(r->status));
}

/* The saved run's cell for row; *other set when its parameters are not those of the first
   device that measured the row. */
static void print_saved(struct side *t, FILE *out, const struct side_row *row, struct gemm_size size, bool *other)
{
    const char *params = "";
    const struct compare_row *saved;
    bool same = true;
    char text[32];

    for (int i = t->n - 1; i >= 0; i--)
        if (row->have[i])
            params = row->cells[i].params;
    saved = compare_find(t->compare, row->lesson, size, params, &same);
    if (!saved)
        snprintf(text, sizeof text, "-");
    else if (saved->ok)
        snprintf(text, sizeof text, "%.1f%s", saved->gflops, same ? "" : "~");
    else
        snprintf(text, sizeof text, "%.12s", saved->status);
    put_right(out, text, CELL_W);
    *other |= saved && !same;
}

/* "   21 [0] ": a note's label, of lesson's row measured on device index. */
static void row_label(char *buf, size_t len, int lesson, int index)
{
    char number[16];

    if (lesson < 0)
        snprintf(number, sizeof number, "ref");
    else
        snprintf(number, sizeof number, "%d", lesson);
    snprintf(buf, len, "  %3s [%d] ", number, index);
}

/* Under the table: each cell that is not a figure, with its reason; the parameters of each
   device's rows; the fastest of each device. */
static void print_notes(const struct side *t, FILE *out, size_t from, size_t to)
{
    char label[32], message[ROWTEXT_MESSAGE_MAX];
    bool first = true;

    for (size_t i = from; i < to; i++)
        for (int d = 0; d < t->n; d++) {
            const struct run_result *r = &t->rows[i].cells[d];
            if (!t->rows[i].have[d] || r->status == RUN_OK)
                continue;
            if (first)
                fputs("Not measured, or not right:\n", out);
            first = false;
            row_label(label, sizeof label, r->lesson, t->devices[d]->index);
            put_wrapped(out, label, rowtext_message(r, message, sizeof message));
        }
    first = true;
    for (size_t i = from; i < to; i++)
        for (int d = 0; d < t->n; d++) {
            const struct run_result *r = &t->rows[i].cells[d];
            if (!t->rows[i].have[d] || !r->params[0] || r->lesson < 0)
                continue;
            if (first)
                fputs("Parameters:\n", out);
            first = false;
            row_label(label, sizeof label, r->lesson, t->devices[d]->index);
            put_wrapped(out, label, r->params);
        }
    for (int d = 0; d < t->n; d++) {
        const struct run_result *best = NULL;
        for (size_t i = from; i < to; i++) {
            const struct run_result *r = &t->rows[i].cells[d];
            if (t->rows[i].have[d] && r->status == RUN_OK && r->lesson >= 0 && r->precision != PRECISION_TF32 &&
                (!best || r->gflops.median > best->gflops.median))
                best = r;
        }
        if (!best)
            continue;
        fprintf(out, "Fastest on [%d]: lesson %d at %.1f GFLOPS", t->devices[d]->index, best->lesson,
                best->gflops.median);
        /* Its share of each reference row (CLBlast, the CPU's BLAS), in the order measured. */
        for (size_t i = from; i < to; i++) {
            const struct run_result *ref = &t->rows[i].cells[d];
            if (t->rows[i].have[d] && ref->status == RUN_OK && ref->lesson < 0)
                rowtext_share(out, best->gflops.median, ref->gflops.median, ref->title);
        }
        fputc('\n', out);
    }
}

void side_print(struct side *t, FILE *out, int size)
{
    size_t from = t->count, to = t->count;
    int cols = t->n + (t->compare != NULL), title_w = LINE_W - 5 - CELL_W * cols;
    struct gemm_size s = { 0, 0, 0 };
    bool other = false;

    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].size == size) {
            from = i < from ? i : from;
            to = i + 1;
        }
    for (size_t i = from; i < to && s.m == 0; i++)
        for (int d = 0; d < t->n && s.m == 0; d++)
            if (t->rows[i].have[d])
                s = t->rows[i].cells[d].size;
    if (from == to)
        return;
    title_w = title_w > TITLE_W ? TITLE_W : title_w < 16 ? 16 : title_w;
    fprintf(out, "\nSize %lldx%lldx%lld (M x N x K): %.3g GFLOP per product\n", s.m, s.n, s.k, gemm_flops(s) * 1e-9);
    print_header(t, out, title_w);
    for (size_t i = from; i < to; i++) {
        const struct side_row *row = &t->rows[i];
        const struct run_result *named = NULL;
        for (int d = t->n - 1; d >= 0; d--)
            if (row->have[d])
                named = &row->cells[d];
        if (row->lesson < 0)
            fprintf(out, "%3s  ", "ref");
        else
            fprintf(out, "%3d  ", row->lesson);
        rowtext_run_title(out, named, title_w);
        for (int d = 0; d < t->n; d++)
            print_cell(out, &row->cells[d], row->have[d]);
        if (t->compare)
            print_saved(t, out, row, s, &other);
        fputc('\n', out);
    }
    if (other)
        fputs("~ the saved run's parameters were not this run's (see its file's \"params\")\n", out);
    print_notes(t, out, from, to);
    fflush(out);
}

void side_free(struct side *t)
{
    for (size_t i = 0; i < t->count; i++) {
        free(t->rows[i].cells);     /* copies that own nothing (side_add) */
        free(t->rows[i].have);
    }
    free(t->rows);
    free(t->devices);
    free(t);
}
