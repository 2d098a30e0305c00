/* fences.c: the two fences of a kernel whose work-groups pass results between them
   (fences.h). The text is cut into tokens (comments and preprocessor lines left out, the
   macros kept aside), and the entry's statements are read on each side of its first atomic
   read-modify-write. */
#include "fences.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "str.h"
#include "xalloc.h"

#define TOKEN_MAX 160
#define MACRO_DEPTH 4
#define SOURCE_MAX (4u << 20)

struct token {
    char text[TOKEN_MAX];       /* an identifier, a number, a string with its quotes, or an
                                   operator */
    int line;
};

struct tokens {
    struct token *t;
    size_t n, cap;
};

struct macro {
    char name[TOKEN_MAX];
    struct tokens body;
};

struct text {
    struct tokens code;         /* the code outside preprocessor lines */
    struct macro *macros;
    size_t nmacros;
    char (*global)[TOKEN_MAX];  /* names declared as pointers to __global memory */
    size_t nglobal;
};

enum fence_kind { FENCE_NONE = 0, FENCE_RELEASE = 1, FENCE_ACQUIRE = 2, FENCE_BOTH = 3 };

static void push(struct tokens *ts, const char *s, size_t len, int line)
{
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? 2 * ts->cap : 256;
        ts->t = xrealloc(ts->t, ts->cap * sizeof *ts->t);
    }
    if (len >= TOKEN_MAX)
        len = TOKEN_MAX - 1;
    memcpy(ts->t[ts->n].text, s, len);
    ts->t[ts->n].text[len] = '\0';
    ts->t[ts->n].line = line;
    ts->n++;
}

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Cuts s[0..len) into tokens from line; comments go, strings stay whole. */
static void tokenize(const char *s, size_t len, int line, struct tokens *ts)
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
        } else if (is_ident_char(c)) {
            size_t start = i;
            while (i < len && is_ident_char(s[i]))
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
static void add_macro(struct text *t, const char *d, const char *end, int line)
{
    const char *name, *body;
    struct macro *m;
    size_t nlen;

    while (d < end && (*d == ' ' || *d == '\t'))
        d++;
    name = d;
    while (d < end && is_ident_char(*d))
        d++;
    if (d == name)
        return;
    nlen = (size_t)(d - name) < TOKEN_MAX - 1 ? (size_t)(d - name) : TOKEN_MAX - 1;
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
static void read_text(const char *src, struct text *t)
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
}

static void free_text(struct text *t)
{
    for (size_t i = 0; i < t->nmacros; i++)
        free(t->macros[i].body.t);
    free(t->macros);
    free(t->code.t);
    free(t->global);
}

static bool is(const struct tokens *ts, size_t i, const char *s)
{
    return i < ts->n && strcmp(ts->t[i].text, s) == 0;
}

static bool is_ident(const struct token *t)
{
    return is_ident_char(t->text[0]) && !isdigit((unsigned char)t->text[0]);
}

/* The index just past the parenthesis that closes the one at open. */
static size_t past_parens(const struct tokens *ts, size_t open, size_t end)
{
    int depth = 0;

    for (size_t i = open; i < end; i++) {
        depth += is(ts, i, "(") - is(ts, i, ")");
        if (depth == 0)
            return i + 1;
    }
    return end;
}

/* Whether tokens [from, to) mention s. */
static bool mentions(const struct tokens *ts, size_t from, size_t to, const char *s)
{
    for (size_t i = from; i < to; i++)
        if (is(ts, i, s))
            return true;
    return false;
}

static enum fence_kind fence_in(const struct text *t, const struct tokens *ts, size_t from, size_t to, int depth);

/* What a macro named name orders: every one of its definitions must be a fence of that
   kind (a file may define it once per device). */
static enum fence_kind macro_fence(const struct text *t, const char *name, int depth)
{
    unsigned kind = FENCE_BOTH;
    bool found = false;

    if (depth >= MACRO_DEPTH)
        return FENCE_NONE;
    for (size_t i = 0; i < t->nmacros; i++)
        if (strcmp(t->macros[i].name, name) == 0) {
            found = true;
            kind &= fence_in(t, &t->macros[i].body, 0, t->macros[i].body.n, depth + 1);
        }
    return found ? (enum fence_kind)kind : FENCE_NONE;
}

/* The kind of the call at i (its name) with arguments up to end, if it is a fence of global
   memory for the whole device: OpenCL's mem_fence family with CLK_GLOBAL_MEM_FENCE, an
   atomic_work_item_fence of device scope, inline PTX membar.gl/.sys or fence.sc/acq_rel of
   .gpu/.sys scope, or a macro that is one of these. */
static enum fence_kind call_fence(const struct text *t, const struct tokens *ts, size_t i, size_t end, int depth)
{
    const char *name = ts->t[i].text;

    if (strcmp(name, "mem_fence") == 0 || strcmp(name, "write_mem_fence") == 0 ||
        strcmp(name, "read_mem_fence") == 0 || strcmp(name, "atomic_work_item_fence") == 0) {
        if (!mentions(ts, i, end, "CLK_GLOBAL_MEM_FENCE") || mentions(ts, i, end, "memory_scope_work_group") ||
            mentions(ts, i, end, "memory_scope_work_item") || mentions(ts, i, end, "memory_order_relaxed"))
            return FENCE_NONE;
        if (name[0] == 'w' || mentions(ts, i, end, "memory_order_release"))
            return FENCE_RELEASE;
        if (name[0] == 'r' || mentions(ts, i, end, "memory_order_acquire"))
            return FENCE_ACQUIRE;
        return FENCE_BOTH;
    }
    if (strcmp(name, "asm") == 0 || strcmp(name, "__asm__") == 0 || strcmp(name, "__asm") == 0) {
        for (size_t k = i; k < end; k++) {
            const char *s = ts->t[k].text;
            if (s[0] == '"' && (strstr(s, "membar.gl") || strstr(s, "membar.sys") ||
                                ((strstr(s, "fence.sc.") || strstr(s, "fence.acq_rel.")) &&
                                 (strstr(s, ".gpu") || strstr(s, ".sys")))))
                return FENCE_BOTH;
        }
        return FENCE_NONE;
    }
    return macro_fence(t, name, depth);
}

/* The union of the fences called in tokens [from, to). */
static enum fence_kind fence_in(const struct text *t, const struct tokens *ts, size_t from, size_t to, int depth)
{
    unsigned kind = FENCE_NONE;

    for (size_t i = from; i < to; i++) {
        if (!is_ident(&ts->t[i]))
            continue;
        if (is(ts, i + 1, "(") || (i + 2 < to && is(ts, i + 1, "volatile") && is(ts, i + 2, "(")))
            kind |= call_fence(t, ts, i, past_parens(ts, is(ts, i + 1, "(") ? i + 1 : i + 2, ts->n), depth);
        else if (macro_fence(t, ts->t[i].text, depth) != FENCE_NONE)
            kind |= macro_fence(t, ts->t[i].text, depth);   /* an object-like macro */
    }
    return (enum fence_kind)kind;
}

/* Whether the call at i is an atomic read-modify-write, and if so what order it carries by
   itself (OpenCL 2.0's atomics are sequentially consistent unless told otherwise). */
static bool atomic_rmw(const struct tokens *ts, size_t i, size_t end, enum fence_kind *carries)
{
    static const char *const old[] = { "atomic_inc", "atomic_dec", "atomic_add", "atomic_sub", "atomic_xchg",
                                       "atomic_cmpxchg", "atomic_min", "atomic_max", "atomic_and", "atomic_or",
                                       "atomic_xor" };
    const char *name = ts->t[i].text;

    *carries = FENCE_NONE;
    if (!is(ts, i + 1, "("))
        return false;
    for (size_t k = 0; k < sizeof old / sizeof old[0]; k++)
        if (strcmp(name, old[k]) == 0)
            return true;
    if (strncmp(name, "atom_", 5) == 0)
        return true;
    if (strncmp(name, "atomic_fetch_", 13) == 0 || strncmp(name, "atomic_exchange", 15) == 0 ||
        strncmp(name, "atomic_compare_exchange", 23) == 0) {
        size_t close = past_parens(ts, i + 1, end);
        if (mentions(ts, i, close, "memory_scope_work_group") || mentions(ts, i, close, "memory_scope_work_item"))
            return true;
        if (!strstr(name, "_explicit") || mentions(ts, i, close, "memory_order_seq_cst") ||
            mentions(ts, i, close, "memory_order_acq_rel"))
            *carries = FENCE_BOTH;
        else if (mentions(ts, i, close, "memory_order_release"))
            *carries = FENCE_RELEASE;
        else if (mentions(ts, i, close, "memory_order_acquire"))
            *carries = FENCE_ACQUIRE;
        return true;
    }
    return false;
}

/* The names declared as pointers to global memory: parameters and variables alike. */
static void find_globals(struct text *t)
{
    const struct tokens *ts = &t->code;

    for (size_t i = 0; i < ts->n; i++) {
        if (!is(ts, i, "__global") && !is(ts, i, "global"))
            continue;
        for (size_t k = i + 1; k < ts->n && k < i + 10; k++) {
            if (is(ts, k, ";") || is(ts, k, ",") || is(ts, k, ")") || is(ts, k, "="))
                break;
            if (is(ts, k, "*") && k + 1 < ts->n) {
                size_t n = k + 1;
                while (is(ts, n, "const") || is(ts, n, "volatile") || is(ts, n, "restrict"))
                    n++;
                if (n < ts->n && is_ident(&ts->t[n])) {
                    t->global = xrealloc(t->global, (t->nglobal + 1) * sizeof *t->global);
                    str_copy(t->global[t->nglobal++], TOKEN_MAX, ts->t[n].text);
                }
                break;
            }
        }
    }
}

static bool is_global(const struct text *t, const struct token *tok)
{
    for (size_t i = 0; i < t->nglobal; i++)
        if (strcmp(t->global[i], tok->text) == 0)
            return true;
    return false;
}

static bool assignment(const char *s)
{
    size_t n = strlen(s);

    return n > 0 && s[n - 1] == '=' && strcmp(s, "==") != 0 && strcmp(s, "!=") != 0 && strcmp(s, "<=") != 0 &&
           strcmp(s, ">=") != 0;
}

/* Whether the assignment at i declares a pointer to global memory ("__global float *P = ...")
   rather than storing through one. */
static bool declares_pointer(const struct tokens *ts, size_t i, size_t from)
{
    for (size_t k = i; k-- > from;) {
        if (is(ts, k, ";") || is(ts, k, "{") || is(ts, k, "}"))
            break;
        if (is(ts, k, "__global") || is(ts, k, "global"))
            return true;
    }
    return false;
}

/* The first store to global memory among tokens [from, to): an assignment whose target goes
   through a global pointer, or a call whose name says it stores. Its index, or to. */
static size_t first_store(const struct text *t, size_t from, size_t to)
{
    const struct tokens *ts = &t->code;

    for (size_t i = from; i < to; i++) {
        const char *s = ts->t[i].text;
        if (is_ident(&ts->t[i]) && is(ts, i + 1, "(") && strstr(s, "store") && strncmp(s, "atomic", 6) != 0)
            return i;
        if (assignment(s) && !declares_pointer(ts, i, from)) {
            for (size_t k = i; k-- > from;) {
                if (is(ts, k, ";") || is(ts, k, "{") || is(ts, k, "}") || is(ts, k, ")") || assignment(ts->t[k].text))
                    break;
                if (is_global(t, &ts->t[k]))
                    return k;
            }
        }
    }
    return to;
}

/* The first read of global memory among tokens [from, to): a global pointer indexed or
   dereferenced, or given to a call, outside an atomic and outside the target of an
   assignment. Its index, or to. */
static size_t first_read(const struct text *t, size_t from, size_t to)
{
    const struct tokens *ts = &t->code;
    enum fence_kind unused;

    for (size_t i = from; i < to; i++) {
        if (is_ident(&ts->t[i]) && is(ts, i + 1, "(") && atomic_rmw(ts, i, to, &unused)) {
            i = past_parens(ts, i + 1, to) - 1;
            continue;
        }
        if (!is_global(t, &ts->t[i]))
            continue;
        /* The target of an assignment: the statement goes on to an = before its end. */
        size_t k = i + 1;
        int depth = 0;
        while (k < to && !is(ts, k, ";") && !(depth == 0 && (is(ts, k, ",") || is(ts, k, ")")))) {
            if (depth == 0 && assignment(ts->t[k].text))
                break;
            depth += is(ts, k, "(") + is(ts, k, "[") - is(ts, k, ")") - is(ts, k, "]");
            k++;
        }
        if (k < to && assignment(ts->t[k].text) && depth == 0 && (i == from || !is(ts, i - 1, "(")))
            continue;
        return i;
    }
    return to;
}

/* The statement around token i: from just past the boundary ({, } or ;) before it to the
   next boundary. */
static size_t statement_start(const struct tokens *ts, size_t i, size_t floor)
{
    while (i > floor && !is(ts, i - 1, ";") && !is(ts, i - 1, "{") && !is(ts, i - 1, "}"))
        i--;
    return i;
}

/* The body of the kernel named entry: the token after its { and the one of its }. */
static bool find_entry(const struct tokens *ts, const char *entry, size_t *begin, size_t *end)
{
    for (size_t i = 0; i + 1 < ts->n; i++) {
        if (strcmp(ts->t[i].text, entry) != 0 || !is(ts, i + 1, "("))
            continue;
        size_t k = past_parens(ts, i + 1, ts->n);
        if (!is(ts, k, "{"))
            continue;   /* a call or a declaration */
        int depth = 0;
        for (size_t j = k; j < ts->n; j++) {
            depth += is(ts, j, "{") - is(ts, j, "}");
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

/* A fence macro the file defines, to name in the advice; "" when none. */
static const char *fence_macro(const struct text *t)
{
    for (size_t i = 0; i < t->nmacros; i++)
        if (macro_fence(t, t->macros[i].name, 0) == FENCE_BOTH)
            return t->macros[i].name;
    return "";
}

static void advice(const struct text *t, char *buf, size_t len)
{
    const char *m = fence_macro(t);

    if (*m)
        snprintf(buf, len, "%s() (the file's fence of global memory for the whole device)", m);
    else
        snprintf(buf, len, "mem_fence(CLK_GLOBAL_MEM_FENCE)");
}

/* The first fence of kind in tokens [lo, hi), or hi. */
static size_t first_fence(const struct text *t, size_t lo, size_t hi, enum fence_kind kind)
{
    while (lo < hi && !(fence_in(t, &t->code, lo, lo + 1, 0) & kind))
        lo++;
    return lo;
}

/* Release: statement by statement back from the count, a fence must come before any store.
   Returns whether it does; *store is the line of the store met first (0: none before the
   entry's start). */
static bool release_fenced(const struct text *t, size_t begin, size_t count, int *store)
{
    const struct tokens *ts = &t->code;

    *store = 0;
    for (size_t hi = count; hi > begin;) {
        size_t lo = statement_start(ts, hi, begin);
        /* With a fence in the statement, only a store after it counts against it. */
        size_t f = first_fence(t, lo, hi, FENCE_RELEASE);
        size_t s = first_store(t, f < hi ? f : lo, hi);
        if (s < hi) {
            *store = ts->t[s].line;
            return false;
        }
        if (f < hi)
            return true;
        hi = lo > begin ? lo - 1 : begin;
    }
    return false;
}

/* Acquire: statement by statement on from the count's, a fence must come before any read.
   Returns the line of the first read before a fence, 0 when none. */
static int acquire_unfenced(const struct text *t, size_t count, size_t end)
{
    const struct tokens *ts = &t->code;
    size_t lo = count;

    while (lo < end && !is(ts, lo, ";"))
        lo++;
    for (lo++; lo < end;) {
        size_t hi = lo, f, r;
        while (hi < end && !is(ts, hi, ";") && !is(ts, hi, "{") && !is(ts, hi, "}"))
            hi++;
        f = first_fence(t, lo, hi, FENCE_ACQUIRE);
        r = first_read(t, lo, f);
        if (r < f)
            return ts->t[r].line;
        if (f < hi)
            return 0;
        lo = hi + 1;
    }
    return 0;
}

/* The entry's first atomic read-modify-write: true with its index and the order it carries. */
static bool find_count(const struct tokens *ts, size_t begin, size_t end, size_t *count, enum fence_kind *carries)
{
    for (size_t i = begin; i < end; i++)
        if (is_ident(&ts->t[i]) && atomic_rmw(ts, i, end, carries)) {
            *count = i;
            return true;
        }
    return false;
}

/* The audit's sentence, with its lines and the fence to write (how). */
static void describe(struct fences_audit *a, const char *how)
{
    if (a->verdict == FENCES_NO_RELEASE && a->line > 0)
        snprintf(a->message, sizeof a->message,
                 "a fence is missing: line %d writes to global memory and line %d counts the group in with no "
                 "fence of the whole device between them. A barrier orders memory for the group's own "
                 "work-items only: on a GPU another group can count in after this one and read its part "
                 "before the part is in memory. Put %s after the stores and before the count",
                 a->line, a->count_line, how);
    else if (a->verdict == FENCES_NO_RELEASE)
        snprintf(a->message, sizeof a->message,
                 "a fence is missing: line %d counts the group in with no fence of the whole device before "
                 "it. Put %s after the group's stores and before the count", a->count_line, how);
    else if (a->verdict == FENCES_NO_ACQUIRE)
        snprintf(a->message, sizeof a->message,
                 "a fence is missing: line %d counts the group in and line %d reads global memory with no "
                 "fence of the whole device between them. The last group may then read another group's "
                 "part from an old copy. Put %s after the count and before the reads",
                 a->count_line, a->line, how);
    else
        snprintf(a->message, sizeof a->message,
                 "the count at line %d has a fence of the whole device on each side", a->count_line);
}

void fences_audit(const char *source, const char *entry, struct fences_audit *out)
{
    struct text t;
    size_t begin, end, count;
    enum fence_kind carries = FENCE_NONE;
    char how[200];

    memset(out, 0, sizeof *out);
    read_text(source, &t);
    find_globals(&t);
    advice(&t, how, sizeof how);
    if (!find_entry(&t.code, entry, &begin, &end)) {
        out->verdict = FENCES_NO_ENTRY;
        snprintf(out->message, sizeof out->message, "no kernel %s in the file", entry);
    } else if (!find_count(&t.code, begin, end, &count, &carries)) {
        out->verdict = FENCES_NO_COUNT;
        snprintf(out->message, sizeof out->message, "%s has no atomic count: nothing to order", entry);
    } else {
        out->count_line = t.code.t[count].line;
        if (!(carries & FENCE_RELEASE) && !release_fenced(&t, begin, count, &out->line))
            out->verdict = FENCES_NO_RELEASE;
        else if (!(carries & FENCE_ACQUIRE) && (out->line = acquire_unfenced(&t, count, end)) > 0)
            out->verdict = FENCES_NO_ACQUIRE;
        else
            out->verdict = FENCES_RIGHT;
        describe(out, how);
    }
    free_text(&t);
}

void fences_run(const struct exercise *x, const struct check_options *o, struct check_report *r)
{
    struct fences_audit a;
    struct error e;
    size_t len;
    char *source;

    if (!x->between_groups || r->verdict != CHECK_VERIFIED)
        return;
    error_init(&e);
    source = files_read(o->file, SOURCE_MAX, "the kernel", &len, &e);
    if (!source)
        return;     /* it was read for the check a moment ago; nothing to add */
    fences_audit(source, x->l.launch[0].entry, &a);
    free(source);
    if (a.verdict != FENCES_NO_RELEASE && a.verdict != FENCES_NO_ACQUIRE)
        return;
    r->verdict = CHECK_FENCE;
    r->speed = CHECK_SPEED_NONE;
    str_copy(r->message, sizeof r->message, a.message);
}
