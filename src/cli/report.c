/* report.c: lesson lists, lesson pages and benchmark tables in three formats. */
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/chart.h"
#include "engine/errmap.h"
#include "engine/needs.h"
#include "engine/roofline.h"
#include "rowtext.h"
#include "side.h"
#include "engine/sources.h"
#include "engine/waves.h"
#include "engine/str.h"
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

/* ---- benchmark reports ---- */

/* A JSON string, valid UTF-8 whatever s holds: a byte that is not part of a UTF-8 character
   becomes U+FFFD; control characters (C0, Del, C1) are escaped. */
void report_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    while (*s) {
        unsigned long c;
        size_t n = str_utf8_char(s, &c);
        if (n == 0) {
            fputs("\\ufffd", out);
            s++;
            continue;
        }
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", (char)c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c < 0x20 || (c >= 0x7F && c < 0xA0))
            fprintf(out, "\\u%04lx", c);
        else
            fwrite(s, 1, n, out);
        s += n;
    }
    fputc('"', out);
}

/* A CSV field, quoted, of printable text (text_printable) on one line. */
static void csv_string(FILE *out, const char *s)
{
    char *printable = text_printable(s, false);

    fputc('"', out);
    for (const char *p = printable; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
    free(printable);
}

static void json_number(FILE *out, const char *key, double v)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(v))
        fprintf(out, "%.6g", v);
    else
        fputs("null", out);
}

/* The ceilings in the table's header. */
static void table_ceilings(FILE *out, const struct ceilings *c)
{
    char peak[32], gbps[32], theory[32];

    if (!c->have)
        return;
    chart_format_value(c->gflops, peak, sizeof peak);
    chart_format_value(c->gbps, gbps, sizeof gbps);
    fprintf(out, "Ceilings: FP32 peak %s GFLOPS, bandwidth %s GB/s (measured by clmm-tutor%s %s)\n", peak, gbps,
            c->from_cache ? " on" : " now,", c->measured_on);
    chart_format_value(c->theory_gflops, theory, sizeof theory);
    if (c->theory_gflops > 0)
        fprintf(out, "          theoretical peak %s GFLOPS: %s\n", theory, c->theory);
}

static void json_ceilings(FILE *out, const struct ceilings *c)
{
    fputs(", \"ceilings\": ", out);
    if (!c->have) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"fp32_gflops\": %.6g, \"bandwidth_gbps\": %.6g, \"measured_on\": ", c->gflops, c->gbps);
    report_json_string(out, c->measured_on);
    fputs(", \"theory_gflops\": ", out);
    if (c->theory_gflops > 0)
        fprintf(out, "%.6g", c->theory_gflops);
    else
        fputs("null", out);
    fputs(", \"theory\": ", out);
    report_json_string(out, c->theory);
    fputc('}', out);
}

/* "clblast_params": the files applied to CLBlast and each kernel's parameters, or null. */
static void json_clblast(FILE *out, const struct clblast_params *cp)
{
    fputs(",\n  \"clblast_params\": ", out);
    if (!cp) {
        fputs("null", out);
        return;
    }
    fputs("{\"files\": [", out);
    for (size_t i = 0; i < cp->nfiles; i++) {
        fputs(i ? ", " : "", out);
        report_json_string(out, cp->files[i]);
    }
    fputs("], \"device\": ", out);
    report_json_string(out, cp->device);
    fputs(", \"key\": ", out);
    report_json_string(out, cp->key);
    fputs(", \"kernels\": [", out);
    for (size_t i = 0; i < cp->nkernels; i++) {
        const struct clblast_kernel *k = &cp->kernels[i];
        fputs(i ? ",\n    " : "\n    ", out);
        fputs("{\"name\": ", out);
        report_json_string(out, k->name);
        fputs(", \"family\": ", out);
        report_json_string(out, k->family);
        fputs(", \"file\": ", out);
        report_json_string(out, k->file);
        json_number(out, "best_ms", k->best_ms);
        fputs(", \"parameters\": {", out);
        for (size_t j = 0; j < k->count; j++) {
            fputs(j ? ", " : "", out);
            report_json_string(out, k->names[j]);
            fprintf(out, ": %zu", k->values[j]);
        }
        fputs("}}", out);
    }
    fputs("]}", out);
}

/* A device as the JSON's "device" and "devices" say it, its ceilings with it. */
static void json_device(FILE *out, const struct device_info *device, const struct ceilings *c)
{
    fputs("{\"name\": ", out);
    report_json_string(out, device->name);
    fputs(", \"platform\": ", out);
    report_json_string(out, device->platform_name);
    fprintf(out, ", \"type\": \"%s\", \"compute_units\": %u, \"clock_mhz\": %u, \"driver\": ",
            device_type_name(device->type), device->compute_units, device->clock_mhz);
    report_json_string(out, device->driver);
    json_ceilings(out, c);
    fprintf(out, ", \"index\": %d}", device->index);
}

/* "compare": the saved run set beside this one, or nothing when there is none. */
static void json_compare(FILE *out, const struct compare *c)
{
    const char *const keys[] = { "file", "device", "platform" }, *values[] = { c ? c->file : NULL, c ? c->device : NULL,
                                                                                 c ? c->platform : NULL };

    if (!c)
        return;
    fputs(",\n  \"compare\": {", out);
    for (size_t i = 0; i < 3; i++) {
        fprintf(out, "%s\"%s\": ", i ? ", " : "", keys[i]);
        report_json_string(out, values[i]);
    }
    fprintf(out, ", \"rows\": %zu}", c->count);
}

void report_begin(struct report *rep, FILE *out, enum report_format format,
                  const struct device_info *const *devices, const struct ceilings *ceilings, int ndevices,
                  bool side, const struct measure_config *cfg, const struct clblast_params *clblast, struct compare *compare)
{
    const struct device_info *device = devices[0];
    char desc[600];

    memset(rep, 0, sizeof *rep);
    rep->out = out;
    rep->format = format;
    rep->clblast = clblast;
    rep->compare = compare;
    rep->ndevices = ndevices < REPORT_MAX_DEVICES ? ndevices : REPORT_MAX_DEVICES;
    for (int i = 0; i < rep->ndevices; i++) {
        rep->devices[i] = devices[i];
        if (ceilings)
            rep->device_ceilings[i] = ceilings[i];
    }
    report_device(rep, 0);
    run_result_init(&rep->best);
    run_result_init(&rep->best_tf32);
    if (format == FORMAT_TABLE && (rep->ndevices > 1 || side || compare))
        rep->side = side_new(rep->devices, rep->ndevices, compare);
    device_describe(device, desc, sizeof desc);
    switch (format) {
    case FORMAT_TABLE:
        if (rep->side)
            side_begin(rep->side, out);
        else
            fprintf(out, "Device: %s, %u compute units, %s\n", desc, device->compute_units, device->driver);
        if (cfg->reps > 0)
            fprintf(out, "Timing: %d launch%s each after a verified warm-up launch\n", cfg->reps,
                    cfg->reps == 1 ? "" : "es");
        else
            fprintf(out, "Timing: launches for about %g s each after a verified warm-up launch\n",
                    cfg->budget_s);
        if (!rep->side)
            table_ceilings(out, &rep->ceilings);
        if (clblast) {
            char kernels[1024];
            clblast_params_describe(clblast, kernels, sizeof kernels);
            fputs("CLBlast: tuned for this device by its tuners: ", out);
            rowtext_put(out, kernels, false);
            fputc('\n', out);
        }
        break;
    case FORMAT_CSV:
        fputs("device,lesson,title,params,m,n,k,run_m,run_n,run_k,status,gflops_median,gflops_q1,"
              "gflops_q3,gflops_min,gflops_max,kernel_ms_median,wall_ms,reps,max_error,tolerance,"
              "verification,estimate_s,batch_gflops,tuned,tuned_m,tuned_n,tuned_k,tuned_partial,"
              "clocks_disagree,message,error_pattern,wrong_elements,unwritten_elements,pct_peak,intensity,"
              "bound_gflops,pct_bound,bound_by,peak_gflops,bandwidth_gbps,branch,precision,units,"
              "device_index,compare_device,compare_status,compare_gflops_median,compare_params,emulated\n", out);
        break;
    case FORMAT_JSON:
        fputs("{\n  \"device\": ", out);
        json_device(out, device, &rep->ceilings);
        fputs(",\n  \"devices\": [", out);
        for (int i = 0; i < rep->ndevices; i++) {
            fputs(i ? ",\n    " : "\n    ", out);
            json_device(out, rep->devices[i], &rep->device_ceilings[i]);
        }
        fputs("]", out);
        json_compare(out, compare);
        json_clblast(out, clblast);
        fputs(",\n  \"results\": [", out);
        break;
    }
    fflush(out);
}

void report_device(struct report *rep, int i)
{
    rep->current = i;
    rep->device = rep->devices[i];
    rep->ceilings = rep->device_ceilings[i];
    rep->size_index = 0;
}

void report_size_begin(struct report *rep, struct gemm_size s)
{
    run_result_free(&rep->best);
    run_result_init(&rep->best);
    run_result_free(&rep->best_tf32);
    run_result_init(&rep->best_tf32);
    rep->nrefs = 0;
    rep->notes[0] = '\0';
    rep->clock_notes[0] = '\0';
    rep->branch[0] = '\0';
    rep->npoints = 0;
    if (rep->format != FORMAT_TABLE || rep->side)
        return;
    fprintf(rep->out, "\nSize %lldx%lldx%lld (M x N x K): %.3g GFLOP per product\n", s.m, s.n, s.k,
            gemm_flops(s) * 1e-9);
    fprintf(rep->out, "  #  %-28s  %9s %5s %9s %9s  %s\n", "lesson", "GFLOPS", "+-", "kernel ms",
            "wall ms", "max err");
    fflush(rep->out);
}

static const char *verification_name(const struct verify_result *v)
{
    return v->exhaustive ? "exhaustive" : "sampled+projections";
}

static void note(struct report *rep, const struct run_result *r)
{
    bool padded = r->status == RUN_OK && memcmp(&r->run, &r->size, sizeof r->size) != 0;
    struct str s;
    char line[512], origin[160];

    if ((!r->params[0] && !padded) || r->lesson < 0)
        return;                 /* the reference's tuned parameters are said above the table */
    params_origin_describe(&r->origin, origin, sizeof origin);
    str_init(&s, line, sizeof line);
    str_appendf(&s, "", "  %3d  %s", r->lesson, r->params);
    if (origin[0])
        str_appendf(&s, "", " (%s)", origin);
    if (padded)
        str_appendf(&s, r->params[0] ? "; " : "", "padded to %lldx%lldx%lld", r->run.m, r->run.n, r->run.k);
    /* The notes of one size; a line that does not fit is left out whole. */
    if (strlen(rep->notes) + s.len + 2 <= sizeof rep->notes)
        strcat(strcat(rep->notes, line), "\n");
}

/* A row whose wall time is shown as its kernel time: its footnote. */
static void clock_note(struct report *rep, const char *label, const struct run_result *r, double disagreement)
{
    char line[160];

    snprintf(line, sizeof line, "  %3s  host clock %.3f ms, %.3g%% below the kernel's %.3f ms\n", label,
             r->wall_s * 1e3, 100.0 * disagreement, r->seconds.median * 1e3);
    if (strlen(rep->clock_notes) + strlen(line) < sizeof rep->clock_notes)
        strcat(rep->clock_notes, line);
}

/* Under a wrong row: the pattern of the wrong elements, its hint and a drawing of C. */
static void table_errmap(FILE *out, const struct errmap *em)
{
    struct text_lines lines;
    char line[256], hint[256], row[3 * ERRMAP_MAX_COLS + 1];

    if (em->pattern == ERRMAP_NONE || em->pattern == ERRMAP_RIGHT)
        return;
    errmap_summary(em, line, sizeof line);
    errmap_hint(em, hint, sizeof hint);
    text_layout(line, 80 - 7 - 11, &lines);
    for (size_t i = 0; i < lines.count; i++)
        fprintf(out, "     %s%s\n", i == 0 ? "error map: " : "           ", lines.items[i].text);
    text_lines_free(&lines);
    text_layout(hint, 80 - 7, &lines);
    for (size_t i = 0; i < lines.count; i++)
        fprintf(out, "       %s\n", lines.items[i].text);
    text_lines_free(&lines);
    fprintf(out, "     C by %s of %lldx%lld: '.' right, '#' wrong, '?' never written\n",
            em->cell_rows == em->tile_rows && em->cell_cols == em->tile_cols ? "tiles" : "blocks",
            em->cell_rows, em->cell_cols);
    for (int i = 0; i < em->grid_rows; i++) {
        errmap_draw_row(em, i, false, row, sizeof row);
        fprintf(out, "       %s\n", row);
    }
}

static void table_row(struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    char label[12], message[sizeof r->error.msg + sizeof ROWTEXT_ESTIMATE_HINT];

    if (r->lesson < 0)
        snprintf(label, sizeof label, "ref");
    else
        snprintf(label, sizeof label, "%d", r->lesson);
    fprintf(out, "%3s  ", label);
    rowtext_title(out, r->title, r->branch[0] != '\0', rowtext_tag(r->precision), 28);
    if (r->branch[0] && !rep->branch[0])
        snprintf(rep->branch, sizeof rep->branch, "%s", r->branch);
    fprintf(out, "  ");
    if (r->status == RUN_OK) {
        double wall, disagreement;
        bool marked = measure_wall_shown(r->seconds.median, r->wall_s, &wall, &disagreement);
        fprintf(out, "%9.1f %4.0f%% %9.3f %9.3f%c %.1e\n", r->gflops.median,
                100.0 * stats_relative_spread(&r->gflops), r->seconds.median * 1e3, wall * 1e3,
                marked ? '*' : ' ', r->verify.max_error);
        if (marked)
            clock_note(rep, label, r, disagreement);
        if (r->emulated) {
            char note[160];
            fprintf(out, "     %s\n", lesson_emulation_note(rep->device, note, sizeof note));
        }
        if (r->batch_gflops > 0)
            fprintf(out, "     %.1f GFLOPS on the host clock over %d back-to-back %s (%+.1f%%)\n",
                    r->batch_gflops, r->batch_count, r->lesson < 0 ? "calls" : "launches",
                    100.0 * (r->batch_gflops / r->gflops.median - 1.0));
    } else {
        struct text_lines lines;
        fprintf(out, "%s\n", r->status == RUN_WRONG ? "WRONG RESULT (not timed)" : run_status_name(r->status));
        char *printable = text_printable(rowtext_message(r, message, sizeof message), false);
        text_layout(printable, 80 - 5, &lines);
        free(printable);
        for (size_t i = 0; i < lines.count; i++)
            fprintf(out, "     %s\n", lines.items[i].text);
        text_lines_free(&lines);
        if (r->status == RUN_WRONG)
            table_errmap(out, &r->errmap);
        if (r->error.detail) {
            /* The compiler quotes the kernel's lines. */
            char *log = text_printable(r->error.detail, true);
            fprintf(out, "     build log:\n");
            for (const char *p = log; *p;) {
                const char *end = strchr(p, '\n');
                int n = end ? (int)(end - p) : (int)strlen(p);
                fprintf(out, "       %.*s\n", n, p);
                p += n + (end != NULL);
            }
            free(log);
        }
    }
    note(rep, r);
}

/* A row against the ceilings: judged only for a speed measured with the ceilings known. */
static bool judge(const struct report *rep, const struct run_result *r, struct roofline_verdict *v)
{
    const struct ceilings *c = &rep->ceilings;

    roofline_judge(r->status == RUN_OK ? r->gflops.median : 0.0, r->intensity, r->units, c->have ? c->gflops : 0.0,
                   c->have ? c->gbps : 0.0, v);
    return r->status == RUN_OK && c->have && !r->on_host && !v->no_ceiling;
}

static void csv_roofline(const struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    struct roofline_verdict v;
    bool judged = judge(rep, r, &v);

    fputc(',', out);
    if (judged)
        fprintf(out, "%.4g", 100.0 * v.of_peak);
    fputc(',', out);
    if (r->intensity > 0)
        fprintf(out, "%.6g", r->intensity);
    fputc(',', out);
    if (judged && v.bound > 0)
        fprintf(out, "%.6g,%.4g,%s", v.bound, 100.0 * v.of_bound, v.memory_bound ? "memory" : "compute");
    else
        fputs(",,", out);
    fputc(',', out);
    if (rep->ceilings.have)
        fprintf(out, "%.6g,%.6g", rep->ceilings.gflops, rep->ceilings.gbps);
    else
        fputc(',', out);
}

/* A reference row measured with tuned parameters: its parameters are their key (CLBlast's). */
static bool reference_tuned(const struct run_result *r)
{
    return r->lesson < 0 && r->params[0] != '\0';
}

static void csv_row(struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    const struct compare_row *saved = compare_find(rep->compare, r->lesson, r->size, r->params, NULL);
    const struct verify_result *v = &r->verify;
    char message[sizeof r->error.msg + sizeof ROWTEXT_ESTIMATE_HINT];

    csv_string(out, rep->device->name);
    fprintf(out, ",%d,", r->lesson);
    csv_string(out, r->title);
    fputc(',', out);
    csv_string(out, r->params);
    fprintf(out, ",%lld,%lld,%lld,%lld,%lld,%lld,%s", r->size.m, r->size.n, r->size.k, r->run.m, r->run.n,
            r->run.k, run_status_name(r->status));
    if (r->status == RUN_OK)
        fprintf(out, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%.3g,%.3g,%s", r->gflops.median, r->gflops.q1,
                r->gflops.q3, r->gflops.min, r->gflops.max, r->seconds.median * 1e3, r->wall_s * 1e3,
                r->reps, v->max_error, v->tolerance, verification_name(v));
    else if (r->status == RUN_WRONG)
        fprintf(out, ",,,,,,,,,%.3g,%.3g,%s", v->max_error, v->tolerance, verification_name(v));
    else
        fputs(",,,,,,,,,,,", out);
    fprintf(out, ",%.3g,", r->estimate_s);
    if (r->batch_gflops > 0)
        fprintf(out, "%.6g", r->batch_gflops);
    if (r->origin.source == PARAMS_TUNED)
        fprintf(out, ",yes,%lld,%lld,%lld,%s,", r->origin.tuned.size.m, r->origin.tuned.size.n,
                r->origin.tuned.size.k, r->origin.tuned.complete ? "no" : "yes");
    else
        fprintf(out, ",%s,,,,,", reference_tuned(r) ? "yes" : "no");
    fprintf(out, "%s,", r->status != RUN_OK ? "" : r->clocks_disagree ? "yes" : "no");
    csv_string(out, r->status == RUN_OK ? "" : rowtext_message(r, message, sizeof message));
    if (r->status == RUN_WRONG && r->errmap.pattern != ERRMAP_NONE)
        fprintf(out, ",%s,%lld,%lld", errmap_pattern_name(r->errmap.pattern), r->errmap.wrong,
                r->errmap.unwritten);
    else
        fputs(",,,", out);
    csv_roofline(rep, r);
    fputc(',', out);
    csv_string(out, r->branch);
    fprintf(out, ",%s,%s,%d,", precision_name(r->precision), units_name(r->units), rep->device->index);
    if (saved) {
        csv_string(out, rep->compare->device);
        fputc(',', out);
        csv_string(out, saved->status);
        fputc(',', out);
        if (saved->ok)
            fprintf(out, "%.6g", saved->gflops);
        fputc(',', out);
        if (saved->params)
            csv_string(out, saved->params);
    } else {
        fputs(",,,", out);
    }
    fprintf(out, ",%s\n", r->emulated ? "yes" : "no");
}

static void json_roofline(const struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    struct roofline_verdict v;
    bool judged = judge(rep, r, &v);

    if (r->intensity > 0)
        json_number(out, "intensity", r->intensity);
    if (!judged)
        return;
    json_number(out, "pct_peak", 100.0 * v.of_peak);
    if (v.bound > 0) {
        json_number(out, "bound_gflops", v.bound);
        json_number(out, "pct_bound", 100.0 * v.of_bound);
        fprintf(out, ", \"bound_by\": \"%s\", \"above_bound\": %s", v.memory_bound ? "memory" : "compute",
                v.above ? "true" : "false");
    }
}

/* "compare": the saved run's row of the same lesson and size, null when it has none. */
static void json_saved(struct report *rep, const struct run_result *r)
{
    bool same;
    const struct compare_row *saved = compare_find(rep->compare, r->lesson, r->size, r->params, &same);

    if (!rep->compare)
        return;
    fputs(", \"compare\": ", rep->out);
    if (!saved) {
        fputs("null", rep->out);
        return;
    }
    fprintf(rep->out, "{\"status\": ");
    report_json_string(rep->out, saved->status);
    if (saved->ok)
        json_number(rep->out, "gflops_median", saved->gflops);
    fputs(", \"params\": ", rep->out);
    if (saved->params)
        report_json_string(rep->out, saved->params);
    else
        fputs("null", rep->out);
    fprintf(rep->out, ", \"same_params\": %s}", same ? "true" : "false");
}

static void json_row(struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    char message[sizeof r->error.msg + sizeof ROWTEXT_ESTIMATE_HINT];

    fprintf(out, "%s\n    {\"lesson\": %d, \"device_index\": %d, \"title\": ", rep->rows ? "," : "", r->lesson,
            rep->device->index);
    report_json_string(out, r->title);
    fputs(", \"branch\": ", out);
    if (r->branch[0])
        report_json_string(out, r->branch);
    else
        fputs("null", out);
    fprintf(out, ", \"precision\": \"%s\", \"units\": \"%s\", \"emulated\": %s", precision_name(r->precision),
            units_name(r->units), r->emulated ? "true" : "false");
    if (r->emulated) {
        char note[160];
        fputs(", \"emulated_note\": ", out);
        report_json_string(out, lesson_emulation_note(rep->device, note, sizeof note));
    }
    fputs(", \"params\": ", out);
    report_json_string(out, r->params);
    fprintf(out, ", \"tuned\": %s",
            r->origin.source == PARAMS_TUNED || reference_tuned(r) ? "true" : "false");
    if (r->origin.source == PARAMS_TUNED)
        fprintf(out, ", \"tuned_m\": %lld, \"tuned_n\": %lld, \"tuned_k\": %lld, \"tuned_partial\": %s",
                r->origin.tuned.size.m, r->origin.tuned.size.n, r->origin.tuned.size.k,
                r->origin.tuned.complete ? "false" : "true");
    fprintf(out, ", \"m\": %lld, \"n\": %lld, \"k\": %lld, \"run_m\": %lld, \"run_n\": %lld, \"run_k\": %lld, "
                 "\"status\": \"%s\"",
            r->size.m, r->size.n, r->size.k, r->run.m, r->run.n, r->run.k, run_status_name(r->status));
    if (r->status == RUN_OK) {
        json_number(out, "gflops_median", r->gflops.median);
        json_number(out, "gflops_q1", r->gflops.q1);
        json_number(out, "gflops_q3", r->gflops.q3);
        json_number(out, "gflops_min", r->gflops.min);
        json_number(out, "gflops_max", r->gflops.max);
        json_number(out, "kernel_ms_median", r->seconds.median * 1e3);
        json_number(out, "wall_ms", r->wall_s * 1e3);
        fprintf(out, ", \"clocks_disagree\": %s", r->clocks_disagree ? "true" : "false");
        fprintf(out, ", \"reps\": %d", r->reps);
    }
    if (r->status == RUN_OK || r->status == RUN_WRONG) {
        json_number(out, "max_error", r->verify.max_error);
        json_number(out, "tolerance", r->verify.tolerance);
        fprintf(out, ", \"verification\": \"%s\"", verification_name(&r->verify));
    }
    if (r->status == RUN_WRONG && r->errmap.pattern != ERRMAP_NONE)
        fprintf(out, ", \"error_pattern\": \"%s\", \"wrong_elements\": %lld, \"unwritten_elements\": %lld",
                errmap_pattern_name(r->errmap.pattern), r->errmap.wrong, r->errmap.unwritten);
    json_roofline(rep, r);
    json_saved(rep, r);
    if (r->estimate_s > 0)
        json_number(out, "estimate_s", r->estimate_s);
    if (r->batch_gflops > 0)
        json_number(out, "batch_gflops", r->batch_gflops);
    if (r->status != RUN_OK) {
        fputs(", \"message\": ", out);
        report_json_string(out, rowtext_message(r, message, sizeof message));
        if (r->error.detail) {
            fputs(", \"build_log\": ", out);
            report_json_string(out, r->error.detail);
        }
    }
    fputc('}', out);
}

void report_row(struct report *rep, const struct run_result *r)
{
    switch (rep->format) {
    case FORMAT_TABLE:
        if (rep->side)
            side_add(rep->side, rep->size_index, rep->current, r);
        else
            table_row(rep, r);
        break;
    case FORMAT_CSV: csv_row(rep, r); break;
    case FORMAT_JSON: json_row(rep, r); break;
    }
    rep->rows++;
    if (r->status == RUN_OK && rep->npoints < REPORT_MAX_POINTS)
        rep->points[rep->npoints++] = (struct report_point){ r->lesson, r->gflops.median, r->intensity, r->on_host,
                                                                    r->units, r->emulated };
    if (r->status == RUN_OK && r->lesson < 0) {
        if (rep->nrefs < REPORT_MAX_REFERENCES) {
            struct report_reference *ref = &rep->refs[rep->nrefs++];
            ref->gflops = r->gflops.median;
            snprintf(ref->title, sizeof ref->title, "%s", r->title);
        }
    }
    else if (r->status == RUN_OK && !r->emulated) {    /* an emulated speed is no kernel's */
        struct run_result *best = r->precision == PRECISION_TF32 ? &rep->best_tf32 : &rep->best;
        if (r->gflops.median > best->gflops.median) {
            run_result_free(best);
            *best = *r;
            error_init(&best->error);   /* the copy does not own r's messages */
        }
    }
    fflush(rep->out);
}

/* The rows of a size against the ceilings, under its table. */
static void table_roofline(const struct report *rep)
{
    const struct ceilings *c = &rep->ceilings;
    bool above = false;

    if (!c->have || rep->npoints == 0)
        return;
    fprintf(rep->out, "Against the ceilings (no-cache model: every load from global memory, C written once):\n"
                      "  #  of peak  flop/byte  bound GFLOPS  of bound\n");
    for (int i = 0; i < rep->npoints; i++) {
        const struct report_point *p = &rep->points[i];
        struct roofline_verdict v;
        char label[12], bound[32];
        roofline_judge(p->gflops, p->intensity, p->units, c->gflops, c->gbps, &v);
        if (p->lesson < 0)
            snprintf(label, sizeof label, "ref");
        else
            snprintf(label, sizeof label, "%d", p->lesson);
        if (p->on_host) {
            fprintf(rep->out, "%3s  %7s  runs on the host CPU: not against this device's ceilings\n", label, "-");
            continue;
        }
        if (p->emulated) {
            fprintf(rep->out, "%3s  %7s  emulated: ran as plain OpenCL C, not on tensor cores\n", label, "-");
            continue;
        }
        if (v.no_ceiling) {
            fprintf(rep->out, "%3s  %7s  runs on the tensor cores, whose peak is not measured\n", label, "-");
            continue;
        }
        fprintf(rep->out, "%3s  %6.1f%%", label, 100.0 * v.of_peak);
        chart_format_value(v.bound, bound, sizeof bound);     /* rounded as the ceilings above */
        if (v.bound > 0)
            fprintf(rep->out, "  %9.3g  %12s  %7.0f%%  %s\n", v.intensity, bound, 100.0 * v.of_bound,
                    v.above ? "above the slope: caches" : v.memory_bound ? "memory-bound" : "compute-bound");
        else
            fprintf(rep->out, "  %9s  %s\n", "-",
                    p->lesson < 0         ? ""
                    : p->intensity < 0.0 ? "its layout lines give no figure at this size"
                                         : "no loads line in the lesson file");
        above |= v.above;
    }
    if (above)
        fputs("Above the slope: caches served part of the traffic that the model counts from global memory.\n",
              rep->out);
}

void report_size_end(struct report *rep)
{
    int size = rep->size_index++;

    if (rep->side && rep->current == rep->ndevices - 1)
        side_print(rep->side, rep->out, size);
    if (rep->format != FORMAT_TABLE || rep->side)
        return;
    if (rep->clock_notes[0])
        fprintf(rep->out, "* wall ms shows the kernel time where the host clock measured less\n"
                          "  than the device's profiling clock (the two clocks disagreed):\n%s",
                rep->clock_notes);
    if (rep->branch[0]) {
        fprintf(rep->out, "%s side branch \"", ROWTEXT_BRANCH_MARK);
        rowtext_put(rep->out, rep->branch, false);
        fputs("\": a detour from the main line of the ladder (see --list)\n", rep->out);
    }
    if (rep->notes[0])
        fprintf(rep->out, "Parameters:\n%s", rep->notes);
    table_roofline(rep);
    /* The FP32 lessons' fastest against each reference, an FP32 library; the TF32 lessons'
       fastest apart, its speed never set against FP32 figures. */
    if (rep->best.gflops.median > 0) {
        fprintf(rep->out, "Fastest: lesson %d at %.1f GFLOPS", rep->best.lesson, rep->best.gflops.median);
        for (int i = 0; i < rep->nrefs; i++)
            rowtext_share(rep->out, rep->best.gflops.median, rep->refs[i].gflops, rep->refs[i].title);
        fputc('\n', rep->out);
    }
    if (rep->best_tf32.gflops.median > 0)
        fprintf(rep->out, "Fastest in TF32 (not FP32 results): lesson %d at %.1f TF32 GFLOPS\n",
                rep->best_tf32.lesson, rep->best_tf32.gflops.median);
    fflush(rep->out);
}

void report_end(struct report *rep)
{
    if (rep->format == FORMAT_JSON)
        fputs("\n  ]\n}\n", rep->out);
    if (rep->side)
        side_free(rep->side);
    rep->side = NULL;
    run_result_free(&rep->best);
    run_result_free(&rep->best_tf32);
    fflush(rep->out);
}

/* ---- the tuner ---- */

void report_tune_step(FILE *out, const struct lesson *l, const struct tune_step *st)
{
    char params[256], message[sizeof st->result->error.msg + sizeof ROWTEXT_ESTIMATE_HINT];
    int width = snprintf(NULL, 0, "%zu", st->space);

    param_set_format(l, st->params, params, sizeof params);
    fprintf(out, "[%*zu/%zu] %-34s ", width, st->done, st->space, params);
    if (st->result->status == RUN_OK)
        fprintf(out, "%10.1f GFLOPS%s%s\n", st->result->gflops.median, st->best ? "  best so far" : "",
                st->from_log ? "  (earlier run)" : "");
    else {
        fprintf(out, "%s: ", run_status_name(st->result->status));
        rowtext_put(out, rowtext_message(st->result, message, sizeof message), false);
        fprintf(out, "%s\n", st->from_log ? "  (earlier run)" : "");
    }
    fflush(out);
}

#define HISTOGRAM_BINS 8
#define HISTOGRAM_WIDTH 40

/* How sensitive speed is to the parameters: the verified configurations by GFLOPS. */
static void histogram(FILE *out, const double *x, size_t n)
{
    size_t count[HISTOGRAM_BINS] = { 0 }, most = 0;
    double lo = x[0], hi = x[0], step;

    for (size_t i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    /* Bins narrower than the printed precision would all read alike. */
    step = hi - lo >= 0.8 ? (hi - lo) / HISTOGRAM_BINS : 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t b = step > 0 ? (size_t)((x[i] - lo) / step) : 0;
        count[b < HISTOGRAM_BINS ? b : HISTOGRAM_BINS - 1]++;
    }
    for (size_t b = 0; b < HISTOGRAM_BINS; b++)
        most = count[b] > most ? count[b] : most;
    fprintf(out, "GFLOPS of the %zu verified configurations:\n", n);
    for (size_t b = 0; b < HISTOGRAM_BINS && step > 0; b++) {
        size_t bar = (count[b] * HISTOGRAM_WIDTH + most - 1) / most;
        fprintf(out, "  %10.1f - %10.1f |", lo + step * (double)b, lo + step * (double)(b + 1));
        for (size_t i = 0; i < bar; i++)
            fputc('#', out);
        fprintf(out, " %zu\n", count[b]);
    }
    if (step <= 0)
        fprintf(out, "  all within %.1f - %.1f\n", lo, hi);
}

void report_tune_summary(FILE *out, const struct lesson *l, const struct tune_result *res, bool restarted)
{
    char params[256];

    fputc('\n', out);
    if (res->space_changed)
        fprintf(out, "(The log of an earlier search was of other parameter values: started afresh.)\n");
    if (res->complete)
        fprintf(out, "Searched all %zu configurations (%zu in this run).\n", res->space, res->measured);
    else
        fprintf(out, "%s at %zu of %zu configurations: the same command%s goes on.\n",
                res->stopped_by_cancel ? "Interrupted"
                : res->stopped_by_time ? "Stopped by --time-limit" : "Stopped by --max-configs",
                res->done, res->space, restarted ? " without --restart" : "");
    fprintf(out, "%zu verified, %zu refused, failed or wrong.\n", res->verified, res->done - res->verified);
    if (res->ngflops == 0)
        return;
    histogram(out, res->gflops, res->ngflops);
    param_set_format(l, &res->best, params, sizeof params);
    fprintf(out, "Best: %s at %.1f GFLOPS\n", params, res->best_gflops);
}

/* ---- a look inside a kernel ---- */

/* ", \"key\": v", or null when not known. */
static void json_figure(FILE *out, const char *key, bool known, unsigned long long v)
{
    fprintf(out, ", \"%s\": ", key);
    if (known)
        fprintf(out, "%llu", v);
    else
        fputs("null", out);
}

/* The counts of the hot loop under key, divided by steps: "per_iteration" (1) or "per_k". */
static void json_counts(FILE *out, const char *key, const struct ptx_loop *c, long long steps)
{
    fprintf(out, ",\n    \"%s\": {\"fma_f32\": %.6g", key, (double)c->fma / (double)steps);
    for (int load = 1; load >= 0; load--)
        for (int sp = 0; sp < PTX_SPACES; sp++)
            for (int w = 0; w < PTX_WIDTHS; w++) {
                long long n = load ? c->ld[sp][w] : c->st[sp][w];
                fprintf(out, ", \"%s\": %.6g", inside_memory_name(load, (enum ptx_space)sp, (enum ptx_width)w),
                        (double)n / (double)steps);
            }
    fprintf(out, ", \"bar\": %.6g, \"total\": %.6g}", (double)c->bar / (double)steps,
            (double)c->total / (double)steps);
}

void report_inside_json(FILE *out, const struct inside *in, struct gemm_size size, const char *origin,
                        const char *binary_file, const struct waves *waves)
{
    const struct nv_report *nv = &in->nv;
    const struct ptx_loop *c = &in->loop;

    fprintf(out, "{\"lesson\": %d, \"title\": ", in->lesson);
    report_json_string(out, in->title);
    fputs(", \"kernel\": ", out);
    report_json_string(out, in->entry);
    fputs(", \"params\": ", out);
    report_json_string(out, in->params);
    fputs(", \"params_origin\": ", out);
    report_json_string(out, origin);
    fprintf(out, ", \"size\": \"%lldx%lldx%lld\",\n  \"device\": ", size.m, size.n, size.k);
    report_json_string(out, in->device);
    fprintf(out, ", \"emulated\": %s", in->emulated ? "true" : "false");
    if (in->emulated) {
        fputs(", \"emulated_note\": ", out);
        report_json_string(out, in->emulated_note);
    }
    fprintf(out, ",\n  \"platform\": {\"verbose_build\": %s", in->verbose ? "true" : "false");
    json_figure(out, "private_mem_bytes", in->has_private_mem, in->private_mem);
    json_figure(out, "local_mem_bytes", in->has_local_mem, in->local_mem);
    json_figure(out, "work_group_size", in->has_work_group_size, in->work_group_size);
    json_figure(out, "preferred_multiple", in->has_preferred_multiple, in->preferred_multiple);
    fputs("},\n  \"compiler\": {\"target\": ", out);
    if (nv->target[0])
        report_json_string(out, nv->target);
    else
        fputs("null", out);
    json_figure(out, "registers", nv->registers >= 0, (unsigned long long)nv->registers);
    json_figure(out, "stack_frame_bytes", nv->stack_frame >= 0, (unsigned long long)nv->stack_frame);
    json_figure(out, "spill_stores_bytes", nv->spill_stores >= 0, (unsigned long long)nv->spill_stores);
    json_figure(out, "spill_loads_bytes", nv->spill_loads >= 0, (unsigned long long)nv->spill_loads);
    json_figure(out, "smem_bytes", nv->smem >= 0, (unsigned long long)nv->smem);
    json_figure(out, "barriers", nv->barriers >= 0, (unsigned long long)nv->barriers);
    fprintf(out, "},\n  \"binary\": {\"bytes\": %zu, \"ptx\": %s, \"saved_to\": ", in->binary_size,
            in->binary_is_ptx ? "true" : "false");
    if (binary_file)
        report_json_string(out, binary_file);
    else
        fputs("null", out);
    fputs("},\n  \"hot_loop\": ", out);
    if (!c->found) {
        fputs("null", out);
    } else {
        fputs("{\"label\": ", out);
        report_json_string(out, c->label);
        fprintf(out, ", \"first_line\": %d, \"last_line\": %d, \"loops\": %d, \"innermost\": %d",
                c->first_line, c->last_line, c->loops, c->innermost);
        json_counts(out, "per_iteration", c, 1);
        fprintf(out, ",\n    \"outputs_per_item\": %lld, \"k_per_iteration\": ", in->outputs_per_item);
        if (in->k_per_iteration > 0) {
            fprintf(out, "%lld", in->k_per_iteration);
            json_counts(out, "per_k", c, in->k_per_iteration);
        } else {
            fputs("null, \"per_k\": null", out);
        }
        fputs("}", out);
    }
    fputs(",\n  \"missing\": [", out);
    for (int i = 0; i < in->nmissing; i++) {
        fputs(i ? ", " : "", out);
        report_json_string(out, in->missing[i]);
    }
    fputs("],\n  \"waves\": ", out);
    if (waves)
        waves_json(out, waves);
    else
        fputs("null", out);
    fputs("}\n", out);
}
