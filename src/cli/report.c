/* report.c: the benchmark report, whatever its format: the formats are sinks (reportint.h),
   one file each (report_table.c, report_csv.c, report_json.c), in the table below; this
   file keeps what they all need (the devices, the fastest lesson of each size, the
   references, the points set against the ceilings). The lesson pages are report_pages.c's,
   the tuner's lines report_tune.c's, the look inside report_inside.c's. */
#include "report.h"

#include <string.h>

#include "reportint.h"
#include "side.h"

/* The formats (enum report_format): a new one is a file with its sink, a line here, and its
   name in options.c and the manual. */
static const struct report_sink *const sinks[] = {
    [FORMAT_TABLE] = &report_table_sink,
    [FORMAT_CSV] = &report_csv_sink,
    [FORMAT_JSON] = &report_json_sink,
};

const char *report_verification_name(const struct verify_result *v)
{
    return v->exhaustive ? "exhaustive" : "sampled+projections";
}

bool report_judge(const struct report *rep, const struct run_result *r, struct roofline_verdict *v)
{
    const struct ceilings *c = &rep->ceilings;

    roofline_judge(r->status == RUN_OK ? r->gflops.median : 0.0, r->intensity, r->units, c->have ? c->gflops : 0.0,
                   c->have ? c->gbps : 0.0, v);
    return r->status == RUN_OK && c->have && !r->on_host && !v->no_ceiling;
}

bool report_reference_tuned(const struct run_result *r)
{
    return r->lesson < 0 && r->params[0] != '\0';
}

void report_begin(struct report *rep, FILE *out, enum report_format format,
                  const struct device_info *const *devices, const struct ceilings *ceilings, int ndevices,
                  bool side, const struct measure_config *cfg, const struct clblast_params *clblast, struct compare *compare)
{
    memset(rep, 0, sizeof *rep);
    rep->out = out;
    rep->format = format;
    rep->sink = sinks[format];
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
    rep->sink->begin(rep, cfg);
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
    if (rep->sink->size_begin)
        rep->sink->size_begin(rep, s);
}

void report_row(struct report *rep, const struct run_result *r)
{
    rep->sink->row(rep, r);
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

void report_size_end(struct report *rep)
{
    int size = rep->size_index++;

    if (rep->sink->size_end)
        rep->sink->size_end(rep, size);
    fflush(rep->out);
}

void report_end(struct report *rep)
{
    if (rep->sink->end)
        rep->sink->end(rep);
    if (rep->side)
        side_free(rep->side);
    rep->side = NULL;
    run_result_free(&rep->best);
    run_result_free(&rep->best_tf32);
    fflush(rep->out);
}
