/* highlight.c: the roles of the pieces of a line of OpenCL C, for the source pane's colours. */
#include "highlight.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Each list in strcmp order (capitals and '_' before small letters), for bsearch. */
static const char *const keywords[] = {
    "auto", "break", "case", "const", "continue", "default", "do", "else", "enum", "extern", "for",
    "goto", "if", "inline", "register", "restrict", "return", "sizeof", "static", "struct", "switch",
    "typedef", "union", "volatile", "while",
};

static const char *const types[] = {
    "_Bool", "bool", "char", "double", "event_t", "float", "half", "image2d_t", "image3d_t", "int",
    "intptr_t", "long", "ptrdiff_t", "sampler_t", "short", "signed", "size_t", "uchar", "uint",
    "uintptr_t", "ulong", "unsigned", "ushort", "void",
};

/* Address spaces, access and attributes, and the synchronisation that local memory needs. */
static const char *const qualifiers[] = {
    "CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE", "__attribute__", "__constant", "__global",
    "__kernel", "__local", "__private", "__read_only", "__read_write", "__write_only", "barrier",
    "constant", "global", "kernel", "local", "mem_fence", "private", "read_mem_fence", "read_only",
    "read_write", "reqd_work_group_size", "vec_type_hint", "work_group_size_hint", "write_mem_fence",
    "write_only",
};

/* Work-item functions and the built-ins the lessons use; vload and vstore are in vector_io. */
static const char *const builtins[] = {
    "async_work_group_copy", "async_work_group_strided_copy", "clamp", "fma", "get_global_id",
    "get_global_offset", "get_global_size", "get_group_id", "get_local_id", "get_local_size",
    "get_num_groups", "get_work_dim", "mad", "mad24", "max", "min", "mul24", "wait_group_events",
};

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

struct word_list {
    const char *const *names;
    size_t count;
    enum hl_role role;
};

static const struct word_list word_lists[] = {
    { keywords, COUNT(keywords), HL_KEYWORD },
    { types, COUNT(types), HL_TYPE },
    { qualifiers, COUNT(qualifiers), HL_QUALIFIER },
    { builtins, COUNT(builtins), HL_BUILTIN },
};

static int by_name(const void *key, const void *item)
{
    return strcmp(key, *(const char *const *)item);
}

static bool in_list(const char *name, const char *const *names, size_t count)
{
    return bsearch(name, names, count, sizeof *names, by_name) != NULL;
}

/* float4, uchar16, ...: a scalar type that has vectors, then a vector width. */
static bool vector_type(const char *name)
{
    static const char *const scalars[] = {
        "char", "double", "float", "half", "int", "long", "short", "uchar", "uint", "ulong", "ushort",
    };
    static const char *const widths[] = { "16", "2", "3", "4", "8" };

    for (size_t i = 0; i < COUNT(scalars); i++) {
        size_t n = strlen(scalars[i]);
        if (strncmp(name, scalars[i], n) == 0 && in_list(name + n, widths, COUNT(widths)))
            return true;
    }
    return false;
}

/* The vload and vstore family: vload4, vstore_half8_rte, vloada_half4, ... */
static bool vector_io(const char *name)
{
    const char *rest;

    if (strncmp(name, "vload", 5) == 0)
        rest = name + 5;
    else if (strncmp(name, "vstore", 6) == 0)
        rest = name + 6;
    else
        return false;
    return isdigit((unsigned char)rest[0]) || rest[0] == '_' || strncmp(rest, "a_", 2) == 0;
}

/* The role of the identifier of n bytes at s; directive: it is part of a preprocessor line. */
static enum hl_role word_role(const char *s, size_t n, bool directive)
{
    char name[32];

    if (n >= sizeof name)
        return HL_PLAIN;        /* longer than any word with a role */
    memcpy(name, s, n);
    name[n] = '\0';
    if (directive && strcmp(name, "defined") == 0)
        return HL_PREPROC;
    for (size_t i = 0; i < COUNT(word_lists); i++)
        if (in_list(name, word_lists[i].names, word_lists[i].count))
            return word_lists[i].role;
    if (vector_type(name))
        return HL_TYPE;
    if (vector_io(name))
        return HL_BUILTIN;
    return HL_PLAIN;
}

struct scanner {
    const char *line;
    size_t len, pos;
    struct hl_state *st;
    bool directive;             /* the line belongs to a preprocessor directive */
    bool code_seen;             /* something other than blanks and comments lies before pos */
};

static bool at(const struct scanner *s, const char *text)
{
    size_t n = strlen(text);

    return s->len - s->pos >= n && memcmp(s->line + s->pos, text, n) == 0;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Inside a block comment: to just after its end, or to the end of the line, leaving it open. */
static enum hl_role comment(struct scanner *s)
{
    const char *end = memmem(s->line + s->pos, s->len - s->pos, "*/", 2);

    s->st->in_comment = end == NULL;
    s->pos = end ? (size_t)(end - s->line) + 2 : s->len;
    return HL_COMMENT;
}

/* '#', blanks, and the directive's name. */
static enum hl_role directive_name(struct scanner *s)
{
    s->directive = true;
    s->pos++;
    while (s->pos < s->len && isblank((unsigned char)s->line[s->pos]))
        s->pos++;
    while (s->pos < s->len && word_char(s->line[s->pos]))
        s->pos++;
    return HL_PREPROC;
}

/* A string or character constant; an unclosed one runs to the end of the line. */
static enum hl_role quoted(struct scanner *s)
{
    char quote = s->line[s->pos++];

    while (s->pos < s->len) {
        char c = s->line[s->pos++];
        if (c == '\\' && s->pos < s->len)
            s->pos++;
        else if (c == quote)
            break;
    }
    return HL_STRING;
}

/* A digit, or '.' and a digit: .5f is a number, the '.' of v.s0 is not. */
static bool number_start(const struct scanner *s)
{
    const char *p = s->line + s->pos;

    return isdigit((unsigned char)p[0]) ||
           (p[0] == '.' && s->pos + 1 < s->len && isdigit((unsigned char)p[1]));
}

/* A preprocessing number, as the compiler reads it: digits, letters, '.', '_', and a sign
   after an exponent's e or p. That takes 0x1F, 1e-3, 2.5e+3f and 10UL whole. */
static enum hl_role number(struct scanner *s)
{
    s->pos++;
    while (s->pos < s->len) {
        char c = s->line[s->pos], before = s->line[s->pos - 1];
        bool sign = (c == '+' || c == '-') && memchr("eEpP", before, 4) != NULL;
        if (!word_char(c) && c != '.' && !sign)
            break;
        s->pos++;
    }
    return HL_NUMBER;
}

/* An identifier, digits included: float4 and TS2 are words, not numbers. */
static enum hl_role word(struct scanner *s)
{
    size_t start = s->pos;

    while (s->pos < s->len && word_char(s->line[s->pos]))
        s->pos++;
    return word_role(s->line + start, s->pos - start, s->directive);
}

/* Moves past the next piece of the line and returns its role. */
static enum hl_role next(struct scanner *s)
{
    const char *p = s->line + s->pos;
    bool first;

    if (at(s, "/*")) {
        s->pos += 2;
        s->st->in_comment = 1;
    }
    if (s->st->in_comment)
        return comment(s);
    if (at(s, "//")) {
        s->pos = s->len;
        return HL_COMMENT;
    }
    if (isspace((unsigned char)*p)) {
        while (s->pos < s->len && isspace((unsigned char)s->line[s->pos]))
            s->pos++;
        return HL_PLAIN;
    }
    first = !s->code_seen;
    s->code_seen = true;
    /* In a continued directive, '#' is the stringizing operator, not a new directive. */
    if (*p == '#' && first && !s->directive)
        return directive_name(s);
    if (*p == '"' || *p == '\'')
        return quoted(s);
    if (number_start(s))
        return number(s);
    if (isalpha((unsigned char)*p) || *p == '_')
        return word(s);
    s->pos++;
    return HL_PLAIN;
}

struct spans {
    struct hl_span *items;
    size_t count, max;
};

/* Appends [start, end); a span of the same role just before grows instead, and so does the
   last one when there is no room for more. */
static void emit(struct spans *out, size_t start, size_t end, enum hl_role role)
{
    struct hl_span *last = out->count > 0 ? &out->items[out->count - 1] : NULL;

    if (last && (last->role == role || out->count == out->max))
        last->len = end - last->start;
    else if (out->count < out->max)
        out->items[out->count++] = (struct hl_span){ start, end - start, role };
}

/* A backslash at the end, blanks after it allowed as compilers do, joins the next line. */
static bool continued(const char *line, size_t len)
{
    while (len > 0 && isspace((unsigned char)line[len - 1]))
        len--;
    return len > 0 && line[len - 1] == '\\';
}

/* Scans a line, its pieces into out unless it is NULL; returns whether the line holds
   anything but blanks and comments. */
static bool scan(const char *line, size_t len, struct hl_state *st, struct spans *out)
{
    struct scanner s = { line, len, 0, st, st->in_preproc != 0, false };

    while (s.pos < len) {
        size_t start = s.pos;
        enum hl_role role = next(&s);
        if (out)
            emit(out, start, s.pos, role);
    }
    /* Comments are blanks to the preprocessor: one still open keeps the directive going. */
    st->in_preproc = s.directive && (continued(line, len) || st->in_comment);
    return s.code_seen;
}

size_t highlight_line(const char *line, size_t len, struct hl_state *st, struct hl_span *spans, size_t max)
{
    struct spans out = { spans, 0, max };

    scan(line, len, st, &out);
    return out.count;
}

void highlight_comment_lines(char *const *lines, size_t count, bool *marks)
{
    struct hl_state st = { 0, 0 };

    for (size_t i = 0; i < count; i++)
        marks[i] = !scan(lines[i], strlen(lines[i]), &st, NULL);
}

const char *hl_role_name(enum hl_role r)
{
    static const char *const names[] = {
        [HL_PLAIN] = "plain", [HL_KEYWORD] = "keyword", [HL_TYPE] = "type",
        [HL_QUALIFIER] = "qualifier", [HL_BUILTIN] = "builtin", [HL_COMMENT] = "comment",
        [HL_NUMBER] = "number", [HL_STRING] = "string", [HL_PREPROC] = "preproc",
    };

    return (size_t)r < COUNT(names) ? names[r] : "unknown";
}
