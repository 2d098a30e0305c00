/* highlight.h: OpenCL C source split into spans by role, one line at a time, for colouring. */
#ifndef CLMM_HIGHLIGHT_H
#define CLMM_HIGHLIGHT_H

#include <stdbool.h>
#include <stddef.h>

enum hl_role {
    HL_PLAIN, HL_KEYWORD, HL_TYPE, HL_QUALIFIER, HL_BUILTIN, HL_COMMENT, HL_NUMBER, HL_STRING,
    HL_PREPROC
};

struct hl_span {
    size_t start, len;          /* byte offsets into the line */
    enum hl_role role;
};

/* What a line leaves open for the next one; zero it before line 1. */
struct hl_state {
    int in_comment;             /* a block comment */
    int in_preproc;             /* a preprocessor directive, continued by a trailing backslash */
};

/* Splits one line (no newline) into consecutive spans covering all of it, in order; a block
   comment open at the end sets st->in_comment for the next line. Returns the number of spans
   written (at most max; when more would be needed, the last span covers the rest of the line
   in its current role). */
size_t highlight_line(const char *line, size_t len, struct hl_state *st, struct hl_span *spans, size_t max);

/* marks[i] = true for each of the count lines of a text that holds only comments and blanks
   (a line inside a block comment does, and so does an empty line). */
void highlight_comment_lines(char *const *lines, size_t count, bool *marks);

/* "keyword", "type", ... for tests and debugging. */
const char *hl_role_name(enum hl_role r);

#endif
