/* rowtext.h: how a run's row and a lesson's title read on the command line, for the tables of
   report.c and of side.c (devices side by side): text from lesson files made printable, a
   title in its column, a refusal's message with its advice, a share of a reference row, a
   label with wrapped text. */
#ifndef CLMM_ROWTEXT_H
#define CLMM_ROWTEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/measure.h"
#include "engine/precision.h"

/* The mark of a side-branch lesson (struct lesson's branch) in the command line's tables. */
#define ROWTEXT_BRANCH_MARK "|"

/* What the command line adds to a refusal by the time estimate: how to allow the launch. */
#define ROWTEXT_ESTIMATE_HINT ": use --max-launch SECONDS or --force to run it anyway"

/* A row's message as the command line shows it: at most this long. */
#define ROWTEXT_MESSAGE_MAX (sizeof ((struct run_result *)0)->error.msg + sizeof ROWTEXT_ESTIMATE_HINT)

/* Text from a lesson file, made printable (text_printable): a lesson may come from anyone. */
void rowtext_put(FILE *out, const char *text, bool keep_lines);
/* The same, cut to width columns and padded to them. */
void rowtext_field(FILE *out, const char *text, int width);

/* A lesson's title in a column of width: a side branch's behind its mark, the main line's
   flush, as --list and the --bench table show them; tag (may be "") at the column's end,
   where the table marks a TF32 lesson's so that its speed is never read as an FP32 one. */
void rowtext_title(FILE *out, const char *title, bool side_branch, const char *tag, int width);
/* The tag of a precision: " [TF32]", or "" for FP32. */
const char *rowtext_tag(enum precision p);
/* A row's lesson title in a column of width columns, as the table shows it. */
void rowtext_run_title(FILE *out, const struct run_result *r, int width);

/* A row's message as the command line shows it: its error, with the advice on a refusal by
   the time estimate (into buf then). */
const char *rowtext_message(const struct run_result *r, char *buf, size_t len);

/* "Label: text", text made printable (its line breaks kept or not) and wrapped to width,
   starting indent columns in, its continuation lines under its start. */
void rowtext_wrapped(FILE *out, const char *label, int indent, const char *text, int width, bool keep_lines);

/* The fastest lesson against a reference row, after the fastest line: ", 213% of CLBlast
   (defaults)", or from ten times on ", 327 times CPU BLAS (16 threads)" (a share of
   32709% says less). Nothing when ref is not above 0. title is made printable. */
void rowtext_share(FILE *out, double best, double ref, const char *title);

#endif
