/* expr.c: a recursive-descent evaluator for the integer expressions of lesson files.
   The recursion is bounded: EXPR_MAX_LENGTH characters, EXPR_MAX_DEPTH levels of nesting.

   expr    := or
   or      := and ('||' and)*
   and     := cmp ('&&' cmp)*
   cmp     := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?
   sum     := product (('+'|'-') product)*
   product := unary (('*'|'/'|'%') unary)*
   unary   := ('-'|'!') unary | primary
   primary := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'            */
#include "expr.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct parser {
    const char *text;
    const char *p;
    const struct expr_env *env;
    struct error *e;
    int failed;
    int skipping;               /* inside the side of && or || that C would not evaluate */
    int depth;                  /* parentheses, calls and unary operators around ps->p */
};

static long long parse_or(struct parser *ps);

/* The message quotes the expression, or its first EXPR_QUOTED bytes: the column says where. */
#define EXPR_QUOTED 100

static long long fail_at(struct parser *ps, const char *where, const char *what)
{
    size_t shown = strlen(ps->text);
    bool cut = shown > EXPR_QUOTED;

    if (cut)
        for (shown = EXPR_QUOTED; shown > 0 && ((unsigned char)ps->text[shown] & 0xC0) == 0x80; shown--)
            ;   /* not inside a UTF-8 character */
    if (!ps->failed)
        error_set(ps->e, "%s at column %d of \"%.*s%s\"", what, (int)(where - ps->text) + 1, (int)shown,
                  ps->text, cut ? "..." : "");
    ps->failed = 1;
    return 0;
}

static long long fail(struct parser *ps, const char *what)
{
    return fail_at(ps, ps->p, what);
}

/* One level deeper; false, with the message, past EXPR_MAX_DEPTH. Each level is a few
   frames of the recursion, so this bounds the stack it takes. */
static bool enter(struct parser *ps)
{
    char message[128];

    if (++ps->depth <= EXPR_MAX_DEPTH)
        return true;
    snprintf(message, sizeof message, "nested deeper than %d levels (parentheses, function calls, unary - "
             "and !): write it with fewer", EXPR_MAX_DEPTH);
    fail(ps, message);
    return false;
}

static void skip_space(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int accept(struct parser *ps, const char *token)
{
    size_t n = strlen(token);

    if (ps->failed)
        return 0;               /* after an error, only unwind */
    skip_space(ps);
    if (strncmp(ps->p, token, n) != 0)
        return 0;
    /* "<" must not swallow the first half of "<=", "!" not of "!=". */
    if (n == 1 && (token[0] == '<' || token[0] == '>' || token[0] == '!' || token[0] == '=') && ps->p[1] == '=')
        return 0;
    ps->p += n;
    return 1;
}

static long long call_function(struct parser *ps, const char *name, size_t len)
{
    enum { MIN, MAX, CDIV, ROUNDUP, FUNCTIONS };
    static const char *const names[FUNCTIONS] = { "min", "max", "cdiv", "roundup" };
    char message[96];
    long long a, b, r;
    int f = MIN;

    while (f < FUNCTIONS && !(strlen(names[f]) == len && strncmp(names[f], name, len) == 0))
        f++;
    if (f == FUNCTIONS)
        return fail_at(ps, name, "unknown function (known: min, max, cdiv, roundup)");
    a = parse_or(ps);
    if (!accept(ps, ","))
        return fail(ps, "expected ',' (the functions take two arguments)");
    b = parse_or(ps);
    if (!accept(ps, ")"))
        return fail(ps, "expected ')'");
    if (ps->failed)
        return 0;
    if (f == MIN)
        return a < b ? a : b;
    if (f == MAX)
        return a > b ? a : b;
    if (b <= 0) {
        if (ps->skipping)
            return 0;
        snprintf(message, sizeof message, "%s needs a positive second argument, not %lld", names[f], b);
        return fail_at(ps, name, message);
    }
    if (f == CDIV)
        return a / b + (a % b > 0);
    if (__builtin_mul_overflow(a / b + (a % b > 0), b, &r))
        return ps->skipping ? 0 : fail_at(ps, name, "integer overflow");
    return r;
}

static long long parse_primary(struct parser *ps)
{
    skip_space(ps);
    if (isdigit((unsigned char)*ps->p)) {
        long long v = 0;
        while (isdigit((unsigned char)*ps->p)) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *ps->p - '0', &v))
                return fail(ps, "number too large");
            ps->p++;
        }
        return v;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *name = ps->p;
        size_t len;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        len = (size_t)(ps->p - name);
        if (accept(ps, "(")) {
            long long v = enter(ps) ? call_function(ps, name, len) : 0;
            ps->depth--;
            return v;
        }
        for (size_t i = 0; i < ps->env->count; i++)
            if (strlen(ps->env->vars[i].name) == len && strncmp(ps->env->vars[i].name, name, len) == 0)
                return ps->env->vars[i].value;
        ps->p = name;
        return fail(ps, "unknown name");
    }
    if (accept(ps, "(")) {
        long long v = enter(ps) ? parse_or(ps) : 0;
        ps->depth--;
        if (!accept(ps, ")"))
            return fail(ps, "expected ')'");
        return v;
    }
    return fail(ps, *ps->p ? "unexpected character" : "unexpected end");
}

static long long parse_unary(struct parser *ps)
{
    long long v;

    if (accept(ps, "-")) {
        v = enter(ps) ? parse_unary(ps) : 0;
        ps->depth--;
        if (v == LLONG_MIN)
            return ps->skipping ? 0 : fail(ps, "integer overflow");
        return -v;
    }
    if (accept(ps, "!")) {
        v = enter(ps) ? !parse_unary(ps) : 0;
        ps->depth--;
        return v;
    }
    return parse_primary(ps);
}

static long long parse_product(struct parser *ps)
{
    long long v = parse_unary(ps), r;

    for (;;) {
        if (accept(ps, "*")) {
            r = parse_unary(ps);
            if (__builtin_mul_overflow(v, r, &v) && !ps->skipping)
                return fail(ps, "integer overflow");
        } else if (accept(ps, "/") || accept(ps, "%")) {
            int is_div = ps->p[-1] == '/';
            r = parse_unary(ps);
            if (ps->failed)
                return 0;
            if (ps->skipping)
                continue;
            if (r == 0)
                return fail(ps, "division by zero");
            if (v == LLONG_MIN && r == -1)
                return fail(ps, "integer overflow");
            v = is_div ? v / r : v % r;
        } else {
            return v;
        }
    }
}

static long long parse_sum(struct parser *ps)
{
    long long v = parse_product(ps), r;

    for (;;) {
        if (accept(ps, "+")) {
            r = parse_product(ps);
            if (__builtin_add_overflow(v, r, &v) && !ps->skipping)
                return fail(ps, "integer overflow");
        } else if (accept(ps, "-")) {
            r = parse_product(ps);
            if (__builtin_sub_overflow(v, r, &v) && !ps->skipping)
                return fail(ps, "integer overflow");
        } else {
            return v;
        }
    }
}

static long long parse_cmp(struct parser *ps)
{
    long long v = parse_sum(ps);

    if (accept(ps, "=="))
        return v == parse_sum(ps);
    if (accept(ps, "!="))
        return v != parse_sum(ps);
    if (accept(ps, "<="))
        return v <= parse_sum(ps);
    if (accept(ps, ">="))
        return v >= parse_sum(ps);
    if (accept(ps, "<"))
        return v < parse_sum(ps);
    if (accept(ps, ">"))
        return v > parse_sum(ps);
    return v;
}

static long long parse_and(struct parser *ps)
{
    long long v = parse_cmp(ps);

    while (accept(ps, "&&")) {
        long long r;
        ps->skipping += !v;     /* like C: the right side is parsed, not evaluated */
        r = parse_cmp(ps);
        ps->skipping -= !v;
        v = v && r;
    }
    return v;
}

static long long parse_or(struct parser *ps)
{
    long long v = parse_and(ps);

    while (accept(ps, "||")) {
        long long r;
        ps->skipping += !!v;
        r = parse_and(ps);
        ps->skipping -= !!v;
        v = v || r;
    }
    return v;
}

int expr_eval(const char *text, const struct expr_env *env, long long *value, struct error *e)
{
    struct parser ps = { text, text, env, e, 0, 0, 0 };
    size_t length = strlen(text);
    long long v;

    if (length > EXPR_MAX_LENGTH) {
        error_set(e, "an expression of %zu characters, over the %d allowed: write it shorter", length,
                  EXPR_MAX_LENGTH);
        return -1;
    }
    v = parse_or(&ps);
    skip_space(&ps);
    if (!ps.failed && *ps.p != '\0')
        fail(&ps, "unexpected text");
    if (ps.failed)
        return -1;
    *value = v;
    return 0;
}
