/* report_pages.c: the lesson pages of the command line: the list of lessons with their branches and
   needs (--list), a lesson with its facts, the documents it follows and its text (--show),
   and the documents (--sources). */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "rowtext.h"
#include "engine/needs.h"
#include "engine/sources.h"
#include "engine/text.h"

/* The main-line lesson before set->items[i], the one its side branch leaves; -1 when none. */
static int branch_root(const struct lesson_set *set, size_t i)
{
    while (i-- > 0)
        if (!set->items[i].branch)
            return set->items[i].number;
    return -1;
}

/* Under the list, what each run of side-branch lessons is: ": side branch "row per
   work-item": lessons 2 to 4, off lesson 1". */
static void list_branches(FILE *out, const struct lesson_set *set)
{
    bool first = true;

    for (size_t i = 0; i < set->count; i++) {
        const struct lesson *l = &set->items[i];
        size_t end = i;
        int root = branch_root(set, i);
        if (!l->branch || (i > 0 && set->items[i - 1].branch && strcmp(set->items[i - 1].branch, l->branch) == 0))
            continue;
        while (end + 1 < set->count && set->items[end + 1].branch &&
               strcmp(set->items[end + 1].branch, l->branch) == 0)
            end++;
        if (first)
            fputc('\n', out);
        first = false;
        fprintf(out, "%s side branch \"", ROWTEXT_BRANCH_MARK);
        rowtext_put(out, l->branch, false);
        if (end > i)
            fprintf(out, "\": lessons %d to %d", l->number, set->items[end].number);
        else
            fprintf(out, "\": lesson %d", l->number);
        if (root >= 0)
            fprintf(out, ", off lesson %d", root);
        fputc('\n', out);
    }
}

/* Under the list, the lessons that need a device of their own, run by run of the same need:
   "Lessons 20 to 24: an NVIDIA GPU of compute capability 8.0 or later only." Elsewhere they
   are shown, and their measurement is refused with the reason. */
static void list_needs(FILE *out, const struct lesson_set *set)
{
    bool first = true;

    for (size_t i = 0; i < set->count; i++) {
        const struct lesson *l = &set->items[i];
        size_t end = i;
        char what[160];
        if (!l->needs.nvidia)
            continue;
        while (end + 1 < set->count && set->items[end + 1].needs.nvidia &&
               set->items[end + 1].needs.major == l->needs.major && set->items[end + 1].needs.minor == l->needs.minor)
            end++;
        if (first)
            fputc('\n', out);
        first = false;
        lesson_needs_describe(l, what, sizeof what);
        /* Emulated elsewhere where every lesson of the run has an emulation line. */
        bool emulated = true;
        for (size_t j = i; j <= end; j++)
            emulated = emulated && set->items[j].emulation;
        if (end > i)
            fprintf(out, "Lessons %d to %d: %s", l->number, set->items[end].number, what);
        else
            fprintf(out, "Lesson %d: %s", l->number, what);
        fputs(emulated ? ";\n  elsewhere emulated: results as on NVIDIA, speed not comparable.\n" : " only.\n", out);
        i = end;
    }
}

/* The mark --list and the --bench table put at the end of a TF32 lesson's title, so that its
   speed is never read as an FP32 one; "" for the others. */
void report_list(FILE *out, const struct lesson_set *set)
{
    bool tf32 = false;

    fprintf(out, " #  %-52s  %s\n", "lesson", "sizes");
    for (size_t i = 0; i < set->count; i++) {
        const struct lesson *l = &set->items[i];
        const char *sizes = l->engine == ENGINE_HOST ? "any (host)"
                          : l->square ? (l->pad ? "square (pads)" : "square only")
                          : l->nmultiples ? (l->pad ? "multiples (pads)" : "multiples only")
                          : "any";
        fprintf(out, "%2d  ", l->number);
        rowtext_title(out, l->title, l->branch != NULL, rowtext_tag(l->precision), 52);
        fprintf(out, "  %s\n", sizes);
        tf32 = tf32 || l->precision == PRECISION_TF32;
    }
    list_branches(out, set);
    list_needs(out, set);
    if (tf32)
        fputs("[TF32]: inputs with 10 bits of mantissa, checked to the TF32 tolerance.\n", out);
}

static void print_wrapped(FILE *out, const char *label, int indent, const char *text, int width)
{
    rowtext_wrapped(out, label, indent, text, width, true);
}

/* One document of the SOURCES file, whole, margin columns in: its id and title, then its
   other fields under the title. */
static void print_source(FILE *out, const struct source *s, int margin, int width)
{
    static const char *const labels[] = { "Author:", "Address:", "About:" };
    const char *values[] = { s->author, s->address, s->about };
    char label[64];

    snprintf(label, sizeof label, "%*s%s", margin, "", s->id);
    print_wrapped(out, label, margin + 5, s->title, width);
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        snprintf(label, sizeof label, "%*s%s", margin + 5, "", labels[i]);
        print_wrapped(out, label, margin + 14, values[i], width);
    }
}

/* A launch's arguments, global range and work-group size. */
static void print_launch(FILE *out, const struct lesson_launch *k)
{
    fprintf(out, "Arguments:");
    for (size_t i = 0; i < k->nargs; i++) {
        char *text = lesson_arg_text(&k->args[i]);
        fputc(' ', out);
        rowtext_put(out, text, false);
        free(text);
    }
    fprintf(out, "\nGlobal range:");
    for (size_t d = 0; d < k->dims; d++) {
        fprintf(out, "%s ", d ? " x" : "");
        rowtext_put(out, k->global[d], false);
    }
    fprintf(out, "\nWork-group:  ");
    if (k->local_dims == 0)
        fprintf(out, " chosen by the OpenCL implementation");
    for (size_t d = 0; d < k->local_dims; d++) {
        fprintf(out, "%s ", d ? " x" : "");
        rowtext_put(out, k->local[d], false);
    }
    fputc('\n', out);
}

/* The lesson's facts: its sources line followed by the documents it cites, then how its
   kernel is launched. */
static void print_facts(FILE *out, const struct lesson *l, const struct source_set *sources, int width)
{
    const struct source *cited[SOURCES_MAX];
    size_t ncited = sources_cited(sources, l->sources, cited, SOURCES_MAX);

    fprintf(out, "Lesson %d: ", l->number);
    rowtext_put(out, l->title, false);
    fputc('\n', out);
    print_wrapped(out, "From:", 6, l->sources, width);
    for (size_t i = 0; i < ncited; i++)
        print_source(out, cited[i], 6, width);
    if (l->engine == ENGINE_HOST) {
        fprintf(out, "Runs on the host CPU, one core; no OpenCL kernel.\n");
        if (l->kernel_file) {
            fprintf(out, "Source: C, built into the tool, in ");
            rowtext_put(out, l->kernel_file, false);
            fputc('\n', out);
        }
        return;
    }
    fprintf(out, "Kernel: ");
    rowtext_put(out, l->launch[0].entry, false);
    fprintf(out, " in ");
    rowtext_put(out, l->kernel_file, false);
    fputc('\n', out);
    if (l->precision == PRECISION_TF32)
        print_wrapped(out, "Precision:", 11, "TF32, inputs of 10 bits of mantissa: its GFLOPS are TF32's, "
                      "checked to min(2, 12 / sqrt(K)) 2^-10 + 8 sqrt(K) 2^-24, not FP32's 8 sqrt(K) 2^-24", width);
    if (l->units == UNITS_TENSOR)
        print_wrapped(out, "Units:", 7, "the tensor cores, whose peak clmm-tutor does not measure (no FP32 ceiling)",
                      width);
    if (l->needs.nvidia) {
        char needs[96], line[LESSON_NEEDS_WHY_MAX + 256];
        snprintf(line, sizeof line, "%s (%s); %s", lesson_needs_describe(l, needs, sizeof needs), l->needs.why,
                 l->emulation ? "on another device it runs emulated: its PTX done in plain OpenCL C by the emulation "
                                "header, right or wrong as on NVIDIA, its speed not comparable"
                              : "on another device it is shown, not measured");
        print_wrapped(out, "Needs:", 7, line, width);
    }
    fprintf(out, "Storage: %s, B %s%s\n", l->column_major ? "column-major" : "row-major",
            l->b_transposed ? "transposed (B^T, N x K)" : "as is (K x N)",
            l->square ? ", square matrices only" : "");
    print_launch(out, &l->launch[0]);
    for (size_t k = 1; k < l->nlaunches; k++) {
        fprintf(out, "Then kernel: ");
        rowtext_put(out, l->launch[k].entry, false);
        if (l->launch[k].when) {
            fprintf(out, ", where ");
            rowtext_put(out, l->launch[k].when, false);
            fprintf(out, " is not 0");
        }
        fputc('\n', out);
        print_launch(out, &l->launch[k]);
    }
    if (l->scratch) {
        fprintf(out, "Scratch:      ");
        rowtext_put(out, l->scratch, false);
        fprintf(out, " floats (argument W)\n");
    }
    if (l->scratch_zero) {
        fprintf(out, "Scratch zero: ");
        rowtext_put(out, l->scratch_zero, false);
        fprintf(out, " floats at its start, counters that start at 0\n");
    }
    for (size_t i = 0; i < l->nparams; i++) {
        char allowed[512];
        lesson_param_describe(&l->params[i], allowed, sizeof allowed);
        fprintf(out, "%s %s = %lld (allowed: %s)\n", l->params[i].is_switch ? "Switch" : "Parameter",
                l->params[i].name, l->params[i].def, allowed);
        if (l->params[i].rule) {
            fprintf(out, "  by rule, where not tuned (CU: compute units): %s = ", l->params[i].name);
            rowtext_put(out, l->params[i].rule, false);
            fputc('\n', out);
        }
    }
    for (size_t i = 0; i < l->nmultiples; i++) {
        fprintf(out, "Size: %c a multiple of ", l->multiples[i].dim);
        rowtext_put(out, l->multiples[i].expr, false);
        fprintf(out, "%s\n", l->pad ? " (padded with zeros otherwise)" : "");
    }
    for (size_t i = 0; i < l->nrequires; i++) {
        fprintf(out, "Requires: ");
        rowtext_put(out, l->requires[i].expr, false);
        fputc('\n', out);
    }
}

void report_sources(FILE *out, const struct source_set *sources, const char *dir, int width)
{
    if (sources->count == 0) {
        fprintf(out, "No documents: %s/SOURCES does not exist.\n", dir);
        return;
    }
    for (size_t i = 0; i < sources->count; i++) {
        if (i > 0)
            fputc('\n', out);
        print_source(out, &sources->items[i], 0, width);
    }
}

void report_show(FILE *out, const struct lesson *l, const struct source_set *sources, int width)
{
    struct error e;
    char *source;

    error_init(&e);
    print_facts(out, l, sources, width);
    fputc('\n', out);
    text_print(out, l->text, width);
    if (!l->kernel_file)
        return;
    fprintf(out, "\n==== ");
    rowtext_put(out, l->kernel_file, false);
    fprintf(out, " ====\n");
    source = lesson_kernel_source(l, &e);
    if (source) {
        rowtext_put(out, source, true);
        if (source[0] && source[strlen(source) - 1] != '\n')
            fputc('\n', out);
    } else {
        fputc('(', out);
        rowtext_put(out, e.msg, false);
        fprintf(out, ")\n");
    }
    free(source);
    error_clear(&e);
}
