/* report_csv.c: the benchmark report as CSV, one row per run and a header naming the
   columns, for spreadsheets and scripts. */
#include "reportint.h"

#include <stdio.h>
#include <string.h>

#include "report.h"
#include "engine/errmap.h"
#include "engine/text.h"

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

static void csv_roofline(const struct report *rep, const struct run_result *r)
{
    FILE *out = rep->out;
    struct roofline_verdict v;
    bool judged = report_judge(rep, r, &v);

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
                r->reps, v->max_error, v->tolerance, report_verification_name(v));
    else if (r->status == RUN_WRONG)
        fprintf(out, ",,,,,,,,,%.3g,%.3g,%s", v->max_error, v->tolerance, report_verification_name(v));
    else
        fputs(",,,,,,,,,,,", out);
    fprintf(out, ",%.3g,", r->estimate_s);
    if (r->batch_gflops > 0)
        fprintf(out, "%.6g", r->batch_gflops);
    if (r->origin.source == PARAMS_TUNED)
        fprintf(out, ",yes,%lld,%lld,%lld,%s,", r->origin.tuned.size.m, r->origin.tuned.size.n,
                r->origin.tuned.size.k, r->origin.tuned.complete ? "no" : "yes");
    else
        fprintf(out, ",%s,,,,,", report_reference_tuned(r) ? "yes" : "no");
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

static void csv_begin(struct report *rep, const struct measure_config *cfg)
{
    (void)cfg;
    fputs("device,lesson,title,params,m,n,k,run_m,run_n,run_k,status,gflops_median,gflops_q1,"
          "gflops_q3,gflops_min,gflops_max,kernel_ms_median,wall_ms,reps,max_error,tolerance,"
          "verification,estimate_s,batch_gflops,tuned,tuned_m,tuned_n,tuned_k,tuned_partial,"
          "clocks_disagree,message,error_pattern,wrong_elements,unwritten_elements,pct_peak,intensity,"
          "bound_gflops,pct_bound,bound_by,peak_gflops,bandwidth_gbps,branch,precision,units,"
          "device_index,compare_device,compare_status,compare_gflops_median,compare_params,emulated\n", rep->out);
}

const struct report_sink report_csv_sink = { csv_begin, NULL, csv_row, NULL, NULL };
