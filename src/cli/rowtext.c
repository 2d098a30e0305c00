/* rowtext.c: how a run's row and a lesson's title read on the command line (rowtext.h). */
#include "rowtext.h"

#include <stdlib.h>
#include <string.h>

#include "engine/str.h"
#include "engine/text.h"

/* Text from a lesson file, made printable (text_printable): a lesson may come from anyone. */
void rowtext_put(FILE *out, const char *text, bool keep_lines)
{
    char *printable = text_printable(text, keep_lines);

    fputs(printable, out);
    free(printable);
}

/* The same, cut to width columns and padded to them. */
void rowtext_field(FILE *out, const char *text, int width)
{
    char *printable = text_printable(text, false);
    size_t n = str_prefix(printable, (size_t)width);

    fwrite(printable, 1, n, out);
    fprintf(out, "%*s", width - (int)str_columns(printable, n), "");
    free(printable);
}

/* A lesson's title in a column of width: a side branch's behind its mark, the main line's
   flush, as --list and the --bench table show them; tag (may be "") at the column's end, where
   the table marks a TF32 lesson's so that its speed is never read as an FP32 one. */
void rowtext_title(FILE *out, const char *title, bool side_branch, const char *tag, int width)
{
    if (side_branch)
        fprintf(out, "%s ", ROWTEXT_BRANCH_MARK);
    rowtext_field(out, title, width - (side_branch ? 2 : 0) - (int)strlen(tag));
    fputs(tag, out);
}

const char *rowtext_tag(enum precision p)
{
    return p == PRECISION_TF32 ? " [TF32]" : "";
}

void rowtext_wrapped(FILE *out, const char *label, int indent, const char *text, int width, bool keep_lines)
{
    struct text_lines lines;
    char *printable = text_printable(text, keep_lines);

    text_layout(printable, width - indent, &lines);
    for (size_t i = 0; i < lines.count; i++)
        fprintf(out, "%-*s%s\n", indent, i == 0 ? label : "", lines.items[i].text);
    text_lines_free(&lines);
    free(printable);
}

/* The row's message as the command line shows it. */
const char *rowtext_message(const struct run_result *r, char *buf, size_t len)
{
    if (!r->refused_by_estimate)
        return r->error.msg;
    snprintf(buf, len, "%s%s", r->error.msg, ROWTEXT_ESTIMATE_HINT);
    return buf;
}

void rowtext_run_title(FILE *out, const struct run_result *r, int width)
{
    rowtext_title(out, r->title, r->branch[0] != '\0', rowtext_tag(r->precision), width);
}

void rowtext_share(FILE *out, double best, double ref, const char *title)
{
    char *printable;

    if (!(ref > 0))
        return;
    printable = text_printable(title, false);
    if (best >= 10 * ref)
        fprintf(out, ", %.0f times %s", best / ref, printable);
    else
        fprintf(out, ", %.0f%% of %s", 100.0 * best / ref, printable);
    free(printable);
}
