/* report_table.c: the benchmark report as a table for people: a header with the device,
   the timing and the ceilings; for each size its rows, the notes on parameters and clocks,
   the rows against the ceilings and the fastest lesson; or, for several devices or a saved
   run, their columns side by side (side.c). */
#include "reportint.h"

#include <stdio.h>
#include <string.h>

#include "report.h"
#include "rowtext.h"
#include "side.h"
#include "engine/chart.h"
#include "engine/errmap.h"
#include "engine/str.h"
#include "engine/needs.h"
#include "engine/text.h"

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

static void table_begin(struct report *rep, const struct measure_config *cfg)
{
    FILE *out = rep->out;
    const struct device_info *device = rep->devices[0];
    char desc[600];

    device_describe(device, desc, sizeof desc);
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
    if (rep->clblast) {
        char kernels[1024];
        clblast_params_describe(rep->clblast, kernels, sizeof kernels);
        fputs("CLBlast: tuned for this device by its tuners: ", out);
        rowtext_put(out, kernels, false);
        fputc('\n', out);
    }
}

static void table_size_begin(struct report *rep, struct gemm_size s)
{
    if (rep->side)
        return;
    fprintf(rep->out, "\nSize %lldx%lldx%lld (M x N x K): %.3g GFLOP per product\n", s.m, s.n, s.k,
            gemm_flops(s) * 1e-9);
    fprintf(rep->out, "  #  %-28s  %9s %5s %9s %9s  %s\n", "lesson", "GFLOPS", "+-", "kernel ms",
            "wall ms", "max err");
    fflush(rep->out);
}

static void table_add(struct report *rep, const struct run_result *r)
{
    if (rep->side)
        side_add(rep->side, rep->size_index, rep->current, r);
    else
        table_row(rep, r);
}

static void table_size_end(struct report *rep, int size)
{
    if (rep->side && rep->current == rep->ndevices - 1)
        side_print(rep->side, rep->out, size);
    if (rep->side)
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
}

const struct report_sink report_table_sink = { table_begin, table_size_begin, table_add, table_size_end, NULL };
