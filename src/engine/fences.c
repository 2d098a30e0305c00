/* fences.c: the two fences of a kernel whose work-groups pass results between them
   (fences.h). The text, cut into tokens by ctext.c (comments and preprocessor lines left out,
   the macros kept aside), is read statement by statement on each side of the entry's first
   atomic read-modify-write. */
#include "fences.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctext.h"
#include "files.h"
#include "str.h"

#define MACRO_DEPTH 4
#define SOURCE_MAX (4u << 20)

enum fence_kind { FENCE_NONE = 0, FENCE_RELEASE = 1, FENCE_ACQUIRE = 2, FENCE_BOTH = 3 };

static enum fence_kind fence_in(const struct ctext *t, const struct ctext_tokens *ts, size_t from, size_t to,
                                int depth);

/* Token i ends a statement or opens or closes a block. */
static bool boundary(const struct ctext_tokens *ts, size_t i)
{
    return ctext_is(ts, i, ";") || ctext_is(ts, i, "{") || ctext_is(ts, i, "}");
}

/* What a macro named name orders: every one of its definitions must be a fence of that
   kind (a file may define it once per device). */
static enum fence_kind macro_fence(const struct ctext *t, const char *name, int depth)
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
static enum fence_kind call_fence(const struct ctext *t, const struct ctext_tokens *ts, size_t i, size_t end,
                                  int depth)
{
    const char *name = ts->t[i].text;

    if (strcmp(name, "mem_fence") == 0 || strcmp(name, "write_mem_fence") == 0 ||
        strcmp(name, "read_mem_fence") == 0 || strcmp(name, "atomic_work_item_fence") == 0) {
        if (!ctext_mentions(ts, i, end, "CLK_GLOBAL_MEM_FENCE") ||
            ctext_mentions(ts, i, end, "memory_scope_work_group") ||
            ctext_mentions(ts, i, end, "memory_scope_work_item") || ctext_mentions(ts, i, end, "memory_order_relaxed"))
            return FENCE_NONE;
        if (name[0] == 'w' || ctext_mentions(ts, i, end, "memory_order_release"))
            return FENCE_RELEASE;
        if (name[0] == 'r' || ctext_mentions(ts, i, end, "memory_order_acquire"))
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
static enum fence_kind fence_in(const struct ctext *t, const struct ctext_tokens *ts, size_t from, size_t to,
                                int depth)
{
    unsigned kind = FENCE_NONE;

    for (size_t i = from; i < to; i++) {
        if (!ctext_ident(&ts->t[i]))
            continue;
        if (ctext_is(ts, i + 1, "("))
            kind |= call_fence(t, ts, i, ctext_past_parens(ts, i + 1, ts->n), depth);
        else if (i + 2 < to && ctext_is(ts, i + 1, "volatile") && ctext_is(ts, i + 2, "("))   /* asm volatile */
            kind |= call_fence(t, ts, i, ctext_past_parens(ts, i + 2, ts->n), depth);
        else
            kind |= macro_fence(t, ts->t[i].text, depth);   /* an object-like macro, or none */
    }
    return (enum fence_kind)kind;
}

/* Whether the call at i is an atomic read-modify-write, and if so what order it carries by
   itself (OpenCL 2.0's atomics are sequentially consistent unless told otherwise). */
static bool atomic_rmw(const struct ctext_tokens *ts, size_t i, size_t end, enum fence_kind *carries)
{
    static const char *const old[] = { "atomic_inc", "atomic_dec", "atomic_add", "atomic_sub", "atomic_xchg",
                                       "atomic_cmpxchg", "atomic_min", "atomic_max", "atomic_and", "atomic_or",
                                       "atomic_xor" };
    const char *name = ts->t[i].text;

    *carries = FENCE_NONE;
    if (!ctext_is(ts, i + 1, "("))
        return false;
    for (size_t k = 0; k < sizeof old / sizeof old[0]; k++)
        if (strcmp(name, old[k]) == 0)
            return true;
    if (strncmp(name, "atom_", 5) == 0)
        return true;
    if (strncmp(name, "atomic_fetch_", 13) == 0 || strncmp(name, "atomic_exchange", 15) == 0 ||
        strncmp(name, "atomic_compare_exchange", 23) == 0) {
        size_t close = ctext_past_parens(ts, i + 1, end);
        if (ctext_mentions(ts, i, close, "memory_scope_work_group") ||
            ctext_mentions(ts, i, close, "memory_scope_work_item"))
            return true;
        if (!strstr(name, "_explicit") || ctext_mentions(ts, i, close, "memory_order_seq_cst") ||
            ctext_mentions(ts, i, close, "memory_order_acq_rel"))
            *carries = FENCE_BOTH;
        else if (ctext_mentions(ts, i, close, "memory_order_release"))
            *carries = FENCE_RELEASE;
        else if (ctext_mentions(ts, i, close, "memory_order_acquire"))
            *carries = FENCE_ACQUIRE;
        return true;
    }
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
static bool declares_pointer(const struct ctext_tokens *ts, size_t i, size_t from)
{
    for (size_t k = i; k-- > from && !boundary(ts, k);) {
        if (ctext_is(ts, k, "__global") || ctext_is(ts, k, "global"))
            return true;
    }
    return false;
}

/* The first store to global memory among tokens [from, to): an assignment whose target goes
   through a global pointer, or a call whose name says it stores. Its index, or to. */
static size_t first_store(const struct ctext *t, size_t from, size_t to)
{
    const struct ctext_tokens *ts = &t->code;

    for (size_t i = from; i < to; i++) {
        const char *s = ts->t[i].text;
        if (ctext_ident(&ts->t[i]) && ctext_is(ts, i + 1, "(") && strstr(s, "store") &&
            strncmp(s, "atomic", 6) != 0)
            return i;
        if (assignment(s) && !declares_pointer(ts, i, from)) {
            for (size_t k = i; k-- > from;) {
                if (boundary(ts, k) || ctext_is(ts, k, ")") || assignment(ts->t[k].text))
                    break;
                if (ctext_global(t, &ts->t[k]))
                    return k;
            }
        }
    }
    return to;
}

/* The first read of global memory among tokens [from, to): a global pointer indexed or
   dereferenced, or given to a call, outside an atomic and outside the target of an
   assignment. Its index, or to. */
static size_t first_read(const struct ctext *t, size_t from, size_t to)
{
    const struct ctext_tokens *ts = &t->code;
    enum fence_kind unused;

    for (size_t i = from; i < to; i++) {
        if (ctext_ident(&ts->t[i]) && ctext_is(ts, i + 1, "(") && atomic_rmw(ts, i, to, &unused)) {
            i = ctext_past_parens(ts, i + 1, to) - 1;
            continue;
        }
        if (!ctext_global(t, &ts->t[i]))
            continue;
        /* The target of an assignment: the statement goes on to an = before its end. */
        size_t k = i + 1;
        int depth = 0;
        while (k < to && !ctext_is(ts, k, ";") && !(depth == 0 && (ctext_is(ts, k, ",") || ctext_is(ts, k, ")")))) {
            if (depth == 0 && assignment(ts->t[k].text))
                break;
            depth += ctext_is(ts, k, "(") + ctext_is(ts, k, "[") - ctext_is(ts, k, ")") - ctext_is(ts, k, "]");
            k++;
        }
        if (k < to && assignment(ts->t[k].text) && depth == 0 && (i == from || !ctext_is(ts, i - 1, "(")))
            continue;
        return i;
    }
    return to;
}

/* The statement around token i: from just past the boundary ({, } or ;) before it to the
   next boundary. */
static size_t statement_start(const struct ctext_tokens *ts, size_t i, size_t floor)
{
    while (i > floor && !boundary(ts, i - 1))
        i--;
    return i;
}

/* A fence macro the file defines, to name in the advice; "" when none. */
static const char *fence_macro(const struct ctext *t)
{
    for (size_t i = 0; i < t->nmacros; i++)
        if (macro_fence(t, t->macros[i].name, 0) == FENCE_BOTH)
            return t->macros[i].name;
    return "";
}

static void advice(const struct ctext *t, char *buf, size_t len)
{
    const char *m = fence_macro(t);

    if (*m)
        snprintf(buf, len, "%s() (the file's fence of global memory for the whole device)", m);
    else
        snprintf(buf, len, "mem_fence(CLK_GLOBAL_MEM_FENCE)");
}

/* The first fence of kind in tokens [lo, hi), or hi. */
static size_t first_fence(const struct ctext *t, size_t lo, size_t hi, enum fence_kind kind)
{
    while (lo < hi && !(fence_in(t, &t->code, lo, lo + 1, 0) & kind))
        lo++;
    return lo;
}

/* Release: statement by statement back from the count, a fence must come before any store.
   Returns whether it does; *store is the line of the store met first (0: none before the
   entry's start). */
static bool release_fenced(const struct ctext *t, size_t begin, size_t count, int *store)
{
    const struct ctext_tokens *ts = &t->code;

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
static int acquire_unfenced(const struct ctext *t, size_t count, size_t end)
{
    const struct ctext_tokens *ts = &t->code;
    size_t lo = count;

    while (lo < end && !ctext_is(ts, lo, ";"))
        lo++;
    for (lo++; lo < end;) {
        size_t hi = lo, f, r;
        while (hi < end && !boundary(ts, hi))
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
static bool find_count(const struct ctext_tokens *ts, size_t begin, size_t end, size_t *count, enum fence_kind *carries)
{
    for (size_t i = begin; i < end; i++)
        if (ctext_ident(&ts->t[i]) && atomic_rmw(ts, i, end, carries)) {
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
    struct ctext t;
    size_t begin, end, count;
    enum fence_kind carries = FENCE_NONE;
    char how[CTEXT_TOKEN_MAX + 80];

    memset(out, 0, sizeof *out);
    ctext_read(source, &t);
    advice(&t, how, sizeof how);
    if (!ctext_find_function(&t.code, entry, &begin, &end)) {
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
    ctext_free(&t);
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
