/* text.c: layout of lesson explanations, lines cut to a window of columns, and text made safe
   to print. */
#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

static void push(struct text_lines *out, enum text_kind kind, int indent, const char *s, size_t n)
{
    struct text_line *l;

    out->items = xrealloc(out->items, (out->count + 1) * sizeof *out->items);
    l = &out->items[out->count++];
    l->kind = kind;
    l->indent = indent;
    l->text = xmalloc(n + 1);
    memcpy(l->text, s, n);
    l->text[n] = '\0';
}

/* Greedy word wrap of one paragraph's words into lines of at most width - indent columns. */
static void wrap(struct text_lines *out, enum text_kind kind, int first_indent, int indent,
                 const char *text, int width)
{
    const char *p = text;
    char *line = xmalloc(strlen(text) + 1);
    size_t len = 0, cols = 0;
    int cur_indent = first_indent;

    while (*p) {
        const char *word;
        size_t n, w;
        while (*p == ' ' || *p == '\n' || *p == '\t')
            p++;
        if (!*p)
            break;
        word = p;
        while (*p && *p != ' ' && *p != '\n' && *p != '\t')
            p++;
        n = (size_t)(p - word);
        w = str_columns(word, n);
        /* A word wider than a whole line (an address, say) is broken where the line
           ends, after a '/' when one falls in the line's second half: never cut off. */
        while ((int)w > width - indent && width - indent > 1) {
            int room = width - cur_indent - (len > 0 ? (int)cols + 1 : 0);
            size_t fit = 0, fit_cols = 0, slash = 0;
            while (fit < n) {
                unsigned long c;
                size_t k = str_utf8_char(word + fit, &c);
                size_t kw = str_columns(word + fit, k);
                if ((int)(fit_cols + kw) > room)
                    break;
                fit += k;
                fit_cols += kw;
                if (word[fit - 1] == '/' && (int)fit_cols * 2 > room)
                    slash = fit;
            }
            if (slash > 0 && slash < fit)
                fit = slash, fit_cols = str_columns(word, slash);
            if (fit == 0) {         /* not even one character fits after the line so far */
                push(out, kind, cur_indent, line, len);
                kind = kind == TEXT_ITEM ? TEXT_PARAGRAPH : kind;
                cur_indent = indent;
                len = cols = 0;
                continue;
            }
            if (len > 0)
                line[len++] = ' ';
            memcpy(line + len, word, fit);
            push(out, kind, cur_indent, line, len + fit);
            kind = kind == TEXT_ITEM ? TEXT_PARAGRAPH : kind;
            cur_indent = indent;
            len = cols = 0;
            word += fit;
            n -= fit;
            w -= fit_cols;
        }
        if (len > 0 && (int)(cols + 1 + w) > width - cur_indent) {
            push(out, kind, cur_indent, line, len);
            kind = kind == TEXT_ITEM ? TEXT_PARAGRAPH : kind;   /* continuation lines */
            cur_indent = indent;
            len = cols = 0;
        }
        if (len > 0) {
            line[len++] = ' ';
            cols++;
        }
        memcpy(line + len, word, n);
        len += n;
        cols += w;
    }
    if (len > 0)
        push(out, kind, cur_indent, line, len);
    free(line);
}

static void flush(struct text_lines *out, char *para, size_t *len, enum text_kind kind, int width)
{
    if (*len == 0)
        return;
    para[*len] = '\0';
    if (kind == TEXT_ITEM)
        wrap(out, TEXT_ITEM, 2, 2, para, width);
    else
        wrap(out, kind, 0, 0, para, width);
    *len = 0;
}

void text_layout(const char *markup, int width, struct text_lines *out)
{
    char *para = xmalloc(strlen(markup) + 1);
    size_t len = 0;
    enum text_kind kind = TEXT_PARAGRAPH;
    const char *p = markup;

    out->items = NULL;
    out->count = 0;
    if (width < 20)
        width = 20;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *line = p;
        int blank = 1;

        p += n + (end != NULL);
        for (size_t i = 0; i < n; i++)
            if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
                blank = 0;
        if (blank) {
            flush(out, para, &len, kind, width);
            if (out->count && out->items[out->count - 1].kind != TEXT_BLANK)
                push(out, TEXT_BLANK, 0, "", 0);
            continue;
        }
        if (n >= 4 && strncmp(line, "    ", 4) == 0) {
            flush(out, para, &len, kind, width);
            push(out, TEXT_VERBATIM, 4, line + 4, n - 4);
            continue;
        }
        if (n > 3 && strncmp(line, "## ", 3) == 0) {
            flush(out, para, &len, kind, width);
            push(out, TEXT_HEADING, 0, line + 3, n - 3);
            continue;
        }
        if (n > 2 && strncmp(line, "- ", 2) == 0) {
            flush(out, para, &len, kind, width);
            kind = TEXT_ITEM;
            line += 2;
            n -= 2;
        } else if (len == 0) {
            kind = TEXT_PARAGRAPH;
        }
        if (len > 0)
            para[len++] = ' ';
        memcpy(para + len, line, n);
        len += n;
    }
    flush(out, para, &len, kind, width);
    while (out->count && out->items[out->count - 1].kind == TEXT_BLANK)
        free(out->items[--out->count].text);
    free(para);
}

void text_lines_free(struct text_lines *lines)
{
    for (size_t i = 0; i < lines->count; i++)
        free(lines->items[i].text);
    free(lines->items);
    lines->items = NULL;
    lines->count = 0;
}

/* The closing '*' of an emphasis opened at s[0], or NULL: emphasis is *text* with no blank
   just inside either mark, so "c*R + r" and "2 * M" keep their asterisks. */
static const char *emphasis_end(const char *s)
{
    const char *end;

    if (s[1] == '\0' || s[1] == ' ' || s[1] == '*')
        return NULL;
    end = strchr(s + 1, '*');
    if (!end || end[-1] == ' ')
        return NULL;
    if (isalnum((unsigned char)end[1]))
        return NULL;    /* "a*b*c" is arithmetic, not emphasis */
    return end;
}

static size_t push_span(struct text_span *out, size_t n, size_t max, enum span_kind kind,
                        const char *text, size_t len)
{
    if (len == 0)
        return n;
    if (n < max)
        out[n] = (struct text_span){ kind, text, len };
    return n + 1;
}

size_t text_spans(const char *s, struct text_span *out, size_t max)
{
    const char *start = s, *run = s;
    size_t n = 0;

    while (*s) {
        const char *close;
        if (*s == '`' && (close = strchr(s + 1, '`'))) {
            n = push_span(out, n, max, SPAN_PLAIN, run, (size_t)(s - run));
            n = push_span(out, n, max, SPAN_CODE, s, (size_t)(close + 1 - s));
            s = run = close + 1;
        } else if (*s == '*' && (s == start || !isalnum((unsigned char)s[-1])) && (close = emphasis_end(s))) {
            n = push_span(out, n, max, SPAN_PLAIN, run, (size_t)(s - run));
            n = push_span(out, n, max, SPAN_EMPHASIS, s + 1, (size_t)(close - s - 1));
            s = run = close + 1;
        } else {
            s++;
        }
    }
    return push_span(out, n, max, SPAN_PLAIN, run, (size_t)(s - run));
}

/* Drops the marks of *emphasis*; keeps everything inside `code` as it is. Returns the
   number of columns printed. */
static size_t print_plain(FILE *out, const char *s)
{
    struct text_span spans[64];
    size_t n = text_spans(s, spans, 64), columns = 0;

    if (n > 64) {
        fputs(s, out);          /* more spans than any line holds: the markup as written */
        return str_columns(s, strlen(s));
    }
    for (size_t i = 0; i < n; i++) {
        fwrite(spans[i].text, 1, spans[i].len, out);
        columns += str_columns(spans[i].text, spans[i].len);
    }
    return columns;
}

void text_print(FILE *out, const char *markup, int width)
{
    struct text_lines lines;
    char *printable = text_printable(markup, true);

    text_layout(printable, width, &lines);
    free(printable);
    for (size_t i = 0; i < lines.count; i++) {
        const struct text_line *l = &lines.items[i];
        size_t columns;
        /* An item's first line has its bullet in the indent. */
        if (l->kind == TEXT_ITEM)
            fprintf(out, "%*s- ", l->indent - 2, "");
        else
            fprintf(out, "%*s", l->indent, "");
        if (l->kind == TEXT_VERBATIM) {
            fputs(l->text, out);
            columns = 0;
        } else {
            columns = print_plain(out, l->text);
        }
        fputc('\n', out);
        if (l->kind == TEXT_HEADING) {
            for (; columns > 0; columns--)
                fputc('-', out);
            fputc('\n', out);
        }
    }
    text_lines_free(&lines);
}

static bool blank_char(char c)
{
    return c == ' ' || c == '\t';
}

/* The byte offset of column col of s (its end when s is shorter). */
static size_t column_offset(const char *s, int col)
{
    return col > 0 ? str_prefix(s, (size_t)col) : 0;
}

/* Whether the n bytes at s hold a character other than a blank. */
static bool has_text(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!blank_char(s[i]))
            return true;
    return false;
}

void text_cut(const char *line, int first, int width, struct text_cut *out)
{
    size_t len = strlen(line), begin, end;
    int last;

    if (first < 0)
        first = 0;
    if (width < 0)
        width = 0;
    begin = column_offset(line, first);
    end = begin + column_offset(line + begin, width);
    out->left = width >= 2 && has_text(line, begin);
    out->right = width >= 2 && has_text(line + end, len - end);
    out->at = out->left;
    /* The marks take the edge columns from the text. */
    last = width - out->left - out->right;
    begin += column_offset(line + begin, out->left);
    out->start = begin;
    out->len = column_offset(line + begin, last);
}

int text_width(const char *line)
{
    size_t n = strlen(line);

    while (n > 0 && blank_char(line[n - 1]))
        n--;
    return (int)str_columns(line, n);
}

int text_clamp_offset(int offset, int widest, int width)
{
    if (offset > widest - width)
        offset = widest - width;
    return offset < 0 ? 0 : offset;
}

char *text_printable(const char *s, bool keep_lines)
{
    char *out = xmalloc(3 * strlen(s) + 1), *o = out;   /* U+FFFD: 3 bytes for one */

    while (*s) {
        unsigned long c;
        size_t n = str_utf8_char(s, &c);
        if (n == 0) {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            s++;
            continue;
        }
        if (c == '\r' && s[1] == '\n') {
            s++;                                /* a line ending written CR LF */
            continue;
        }
        if (c == '\n' || c == '\t') {
            *o++ = keep_lines ? (char)c : ' ';
        } else if (c < 0x20 || c == 0x7F) {
            *o++ = '^';
            *o++ = (char)(c ^ 0x40);
        } else if (c >= 0x80 && c < 0xA0) {
            *o++ = '~';
            *o++ = (char)(c - 0x40);
        } else {
            memcpy(o, s, n);
            o += n;
        }
        s += n;
    }
    *o = '\0';
    return out;
}
