/* report_json.c: the benchmark report as one JSON object: the devices with their ceilings,
   the saved run compared, CLBlast's parameters, and every run's result (clmm-tutor(1) names
   the fields); and the JSON string every JSON output of the command line writes. */
#include "reportint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "engine/errmap.h"
#include "engine/needs.h"
#include "engine/str.h"

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

static void json_number(FILE *out, const char *key, double v)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(v))
        fprintf(out, "%.6g", v);
    else
        fputs("null", out);
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

static void json_roofline(const struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    struct roofline_verdict v;
    bool judged = report_judge(rep, r, &v);

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
            r->origin.source == PARAMS_TUNED || report_reference_tuned(r) ? "true" : "false");
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
        fprintf(out, ", \"verification\": \"%s\"", report_verification_name(&r->verify));
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

static void json_begin(struct report *rep, const struct measure_config *cfg)
{
    FILE *out = rep->out;

    (void)cfg;
    fputs("{\n  \"device\": ", out);
    json_device(out, rep->devices[0], &rep->ceilings);
    fputs(",\n  \"devices\": [", out);
    for (int i = 0; i < rep->ndevices; i++) {
        fputs(i ? ",\n    " : "\n    ", out);
        json_device(out, rep->devices[i], &rep->device_ceilings[i]);
    }
    fputs("]", out);
    json_compare(out, rep->compare);
    json_clblast(out, rep->clblast);
    fputs(",\n  \"results\": [", out);
}

static void json_end(struct report *rep)
{
    fputs("\n  ]\n}\n", rep->out);
}

const struct report_sink report_json_sink = { json_begin, NULL, json_row, NULL, json_end };
