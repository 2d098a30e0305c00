/* text.h: lesson explanations (light markup, see lessons/FORMAT) laid out as lines, and lines
   cut to the columns of a window with a mark where they go on. */
#ifndef CLMM_TEXT_H
#define CLMM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum text_kind { TEXT_PARAGRAPH, TEXT_HEADING, TEXT_ITEM, TEXT_VERBATIM, TEXT_BLANK };

struct text_line {
    enum text_kind kind;
    int indent;                 /* columns before the text; an item's bullet "- " is in it */
    char *text;                 /* markup spans (*emphasis*, `code`) kept for the caller */
};

struct text_lines {
    struct text_line *items;
    size_t count;
};

/* Wraps markup to width columns (counting UTF-8 characters). */
void text_layout(const char *markup, int width, struct text_lines *out);
void text_lines_free(struct text_lines *lines);

enum span_kind { SPAN_PLAIN, SPAN_EMPHASIS, SPAN_CODE };

struct text_span {
    enum span_kind kind;
    const char *text;           /* into the line: emphasis without its marks, code with its
                                   backquotes */
    size_t len;
};

/* Splits a line's markup into spans, in order; returns how many there are (only the
   first max are written). Emphasis is *text* with no blank just inside the marks and no
   letter or digit just outside, so "2 * M" and "a*b*c" stay plain. */
size_t text_spans(const char *line, struct text_span *out, size_t max);

/* A line seen through a window of width columns that starts first columns into it (columns
   are characters). Where characters other than blanks lie beyond an edge, the window's
   column at that edge is given to a mark instead of the text: with a mark on the left, the
   text drawn starts one column into the window. Marks need a window of 2 columns or more. */
struct text_cut {
    size_t start, len;          /* the bytes of the line to draw */
    int at;                     /* the column of the window they start at: 0, or 1 after a left mark */
    bool left, right;           /* a mark is due at the left, the right edge */
};

void text_cut(const char *line, int first, int width, struct text_cut *out);

/* The columns of a line up to its last character other than a blank: what a window has to
   show of it. */
int text_width(const char *line);

/* offset kept within 0 and widest - width: a window of width columns over lines at most
   widest columns wide never scrolls past their ends. */
int text_clamp_offset(int offset, int widest, int width);

/* Plain-text rendering: headings underlined, emphasis marks removed, code spans kept; made
   printable as text_printable does. */
void text_print(FILE *out, const char *markup, int width);

/* Text from a file (a lesson's title, explanation, kernel) that is safe to print on a
   terminal, shown as the screen shows it: a control character becomes ^ and a character
   (^[ for Esc, ^? for Del), a C1 control ~ and a character (~[ for U+009B), and a byte
   that is not part of a UTF-8 character U+FFFD. A carriage return before a newline is
   dropped; newlines and tabs stay with keep_lines, else they become spaces. Returns a
   malloc'd string, valid UTF-8. */
char *text_printable(const char *s, bool keep_lines);

#endif
