/* report_inside.c: the look inside a built kernel (--inside --format json) as one JSON
   object: the platform's figures, ptxas's, the hot loop's counts and the waves. */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "engine/inside.h"
#include "engine/waves.h"

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
