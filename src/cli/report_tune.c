/* report_tune.c: the tuner's report: a line for each configuration measured, then the best
   and the spread of GFLOPS over the search. */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "rowtext.h"

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
