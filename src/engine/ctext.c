/* ctext.c: a kernel's text as tokens (ctext.h). */
#include "ctext.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

static void find_globals(struct ctext *t);

static void push(struct ctext_tokens *ts, const char *s, size_t len, int line)
{
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? 2 * ts->cap : 256;
        ts->t = xrealloc(ts->t, ts->cap * sizeof *ts->t);
    }
    if (len >= CTEXT_TOKEN_MAX)
        len = CTEXT_TOKEN_MAX - 1;
    memcpy(ts->t[ts->n].text, s, len);
    ts->t[ts->n].text[len] = '\0';
    ts->t[ts->n].line = line;
    ts->n++;
}

bool ctext_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Cuts s[0..len) into tokens from line; comments go, strings stay whole. */
static void tokenize(const char *s, size_t len, int line, struct ctext_tokens *ts)
{
    static const char *const ops[] = { "<<=", ">>=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=",
                                       "|=", "^=", "++", "--", "->", "&&", "||", "<<", ">>" };
    size_t i = 0;

    while (i < len) {
        char c = s[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (isspace((unsigned char)c) || (c == '\\' && i + 1 < len && s[i + 1] == '\n')) {
            i++;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            for (i += 2; i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/'); i++)
                line += s[i] == '\n';
            i += 2;
        } else if (c == '"' || c == '\'') {
            size_t start = i++;
            while (i < len && s[i] != c && s[i] != '\n')
                i += s[i] == '\\' ? 2 : 1;
            i = i < len ? i + 1 : len;
            push(ts, s + start, i - start, line);
        } else if (ctext_ident_char(c)) {
            size_t start = i;
            while (i < len && ctext_ident_char(s[i]))
                i++;
            push(ts, s + start, i - start, line);
        } else {
            size_t k, n = 1;
            for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
                if (strncmp(s + i, ops[k], strlen(ops[k])) == 0 && i + strlen(ops[k]) <= len) {
                    n = strlen(ops[k]);
                    break;
                }
            push(ts, s + i, n, line);
            i += n;
        }
    }
}

/* Keeps "#define NAME(params) body" or "#define NAME body" (d points past "define") as a
   macro: its name and the tokens of its body. */
static void add_macro(struct ctext *t, const char *d, const char *end, int line)
{
    const char *name, *body;
    struct ctext_macro *m;
    size_t nlen;

    while (d < end && (*d == ' ' || *d == '\t'))
        d++;
    name = d;
    while (d < end && ctext_ident_char(*d))
        d++;
    if (d == name)
        return;
    nlen = (size_t)(d - name) < CTEXT_TOKEN_MAX - 1 ? (size_t)(d - name) : CTEXT_TOKEN_MAX - 1;
    body = d;
    if (d < end && *d == '(') {         /* function-like: the parameters are not the body */
        while (d < end && *d != ')')
            d++;
        body = d < end ? d + 1 : end;
    }
    t->macros = xrealloc(t->macros, (t->nmacros + 1) * sizeof *t->macros);
    m = &t->macros[t->nmacros++];
    memset(m, 0, sizeof *m);
    memcpy(m->name, name, nlen);
    tokenize(body, (size_t)(end - body), line, &m->body);
}

/* The end of the preprocessor line that starts at p (continuations included). */
static const char *directive_end(const char *p)
{
    while (*p && *p != '\n')
        p += (*p == '\\' && p[1] == '\n') ? 2 : 1;
    return p;
}

/* Splits the source: preprocessor lines apart (#define kept as a macro), code tokenized.
   Comments that begin in code are handled by tokenize; a directive inside a block comment
   is rare enough in a kernel to be read as a directive. */
void ctext_read(const char *src, struct ctext *t)
{
    const char *p = src, *code = src;
    int line = 1, code_line = 1;

    memset(t, 0, sizeof *t);
    while (*p) {
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '#') {
            const char *end = directive_end(q);
            tokenize(code, (size_t)(p - code), code_line, &t->code);
            q++;
            while (*q == ' ' || *q == '\t')
                q++;
            if (strncmp(q, "define", 6) == 0 && (q[6] == ' ' || q[6] == '\t'))
                add_macro(t, q + 7, end, line);
            for (const char *r = p; r < end; r++)
                line += *r == '\n';
            p = *end ? end + 1 : end;
            line += *end == '\n';
            code = p;
            code_line = line;
            continue;
        }
        q = strchr(p, '\n');
        p = q ? q + 1 : p + strlen(p);
        line += q != NULL;
    }
    tokenize(code, (size_t)(p - code), code_line, &t->code);
    find_globals(t);
}

void ctext_free(struct ctext *t)
{
    for (size_t i = 0; i < t->nmacros; i++)
        free(t->macros[i].body.t);
    free(t->macros);
    free(t->code.t);
    free(t->global);
}

bool ctext_is(const struct ctext_tokens *ts, size_t i, const char *s)
{
    return i < ts->n && strcmp(ts->t[i].text, s) == 0;
}

bool ctext_ident(const struct ctext_token *t)
{
    return ctext_ident_char(t->text[0]) && !isdigit((unsigned char)t->text[0]);
}

/* The index just past the parenthesis that closes the one at open. */
size_t ctext_past_parens(const struct ctext_tokens *ts, size_t open, size_t end)
{
    int depth = 0;

    for (size_t i = open; i < end; i++) {
        depth += ctext_is(ts, i, "(") - ctext_is(ts, i, ")");
        if (depth == 0)
            return i + 1;
    }
    return end;
}

/* Whether tokens [from, to) mention s. */
bool ctext_mentions(const struct ctext_tokens *ts, size_t from, size_t to, const char *s)
{
    for (size_t i = from; i < to; i++)
        if (ctext_is(ts, i, s))
            return true;
    return false;
}

/* The names declared as pointers to global memory: parameters and variables alike. */
static void find_globals(struct ctext *t)
{
    const struct ctext_tokens *ts = &t->code;

    for (size_t i = 0; i < ts->n; i++) {
        if (!ctext_is(ts, i, "__global") && !ctext_is(ts, i, "global"))
            continue;
        for (size_t k = i + 1; k < ts->n && k < i + 10; k++) {
            if (ctext_is(ts, k, ";") || ctext_is(ts, k, ",") || ctext_is(ts, k, ")") || ctext_is(ts, k, "="))
                break;
            if (ctext_is(ts, k, "*") && k + 1 < ts->n) {
                size_t n = k + 1;
                while (ctext_is(ts, n, "const") || ctext_is(ts, n, "volatile") || ctext_is(ts, n, "restrict"))
                    n++;
                if (n < ts->n && ctext_ident(&ts->t[n])) {
                    t->global = xrealloc(t->global, (t->nglobal + 1) * sizeof *t->global);
                    str_copy(t->global[t->nglobal++], CTEXT_TOKEN_MAX, ts->t[n].text);
                }
                break;
            }
        }
    }
}

bool ctext_global(const struct ctext *t, const struct ctext_token *tok)
{
    for (size_t i = 0; i < t->nglobal; i++)
        if (strcmp(t->global[i], tok->text) == 0)
            return true;
    return false;
}

/* The body of the kernel named entry: the token after its { and the one of its }. */
bool ctext_find_function(const struct ctext_tokens *ts, const char *entry, size_t *begin, size_t *end)
{
    for (size_t i = 0; i + 1 < ts->n; i++) {
        if (strcmp(ts->t[i].text, entry) != 0 || !ctext_is(ts, i + 1, "("))
            continue;
        size_t k = ctext_past_parens(ts, i + 1, ts->n);
        if (!ctext_is(ts, k, "{"))
            continue;   /* a call or a declaration */
        int depth = 0;
        for (size_t j = k; j < ts->n; j++) {
            depth += ctext_is(ts, j, "{") - ctext_is(ts, j, "}");
            if (depth == 0) {
                *begin = k + 1;
                *end = j;
                return true;
            }
        }
        return false;
    }
    return false;
}

static int count_in(const struct ctext_tokens *ts, const char *word, bool call)
{
    int n = 0;

    for (size_t i = 0; i < ts->n; i++)
        n += strcmp(ts->t[i].text, word) == 0 && (!call || ctext_is(ts, i + 1, "("));
    return n;
}

int ctext_count(const struct ctext *t, const char *word, bool call)
{
    int n = count_in(&t->code, word, call);

    for (size_t i = 0; i < t->nmacros; i++)
        n += count_in(&t->macros[i].body, word, call);
    return n;
}
