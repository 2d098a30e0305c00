/* geometry.c: padding and launch geometry of a lesson, from its expressions. */
#include "geometry.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "str.h"

struct env_storage {
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
};

static void make_env(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                     struct env_storage *st)
{
    st->vars[0] = (struct expr_var){ "M", s.m };
    st->vars[1] = (struct expr_var){ "N", s.n };
    st->vars[2] = (struct expr_var){ "K", s.k };
    for (size_t i = 0; i < l->nparams; i++)
        st->vars[3 + i] = (struct expr_var){ l->params[i].name, ps->values[i] };
    st->env.vars = st->vars;
    st->env.count = 3 + l->nparams;
}

void param_set_defaults(const struct lesson *l, struct param_set *ps)
{
    memset(ps, 0, sizeof *ps);
    for (size_t i = 0; i < l->nparams; i++)
        ps->values[i] = l->params[i].def;
}

void param_set_format(const struct lesson *l, const struct param_set *ps, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t i = 0; i < l->nparams; i++)
        str_appendf(&s, " ", "%s=%lld", l->params[i].name, ps->values[i]);
}

double gemm_flops(struct gemm_size s)
{
    return 2.0 * (double)s.m * (double)s.n * (double)s.k;
}

static long long *dim_of(struct gemm_size *s, char dim)
{
    return dim == 'M' ? &s->m : dim == 'N' ? &s->n : &s->k;
}

static int eval(const char *expr, const struct env_storage *st, long long *v, struct error *e)
{
    if (expr_eval(expr, &st->env, v, e) < 0)
        return -1;
    return 0;
}

int geometry_eval(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                  const char *expr, long long *value, struct error *e)
{
    return geometry_eval_with(l, ps, s, NULL, expr, value, e);
}

int geometry_eval_with(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                       const struct expr_var *extra, const char *expr, long long *value, struct error *e)
{
    struct env_storage st;

    make_env(l, ps, s, &st);
    if (extra)
        st.vars[st.env.count++] = *extra;
    return eval(expr, &st, value, e);
}

/* Rounds *side up to a multiple of m, refusing a result over GEOMETRY_MAX_SIDE: a lesson file
   may give any multiple. */
static int round_up(const struct lesson_multiple *line, long long m, long long *side, struct error *e)
{
    long long missing = (m - *side % m) % m;

    if (missing > GEOMETRY_MAX_SIDE - *side) {
        error_set(e, "padding %c from %lld to a multiple of %lld (multiple: %c %s) goes over %d, the largest "
                     "size an int argument of the kernel holds: choose smaller parameters, or a smaller "
                     "multiple in the lesson file", line->dim, *side, m, line->dim, line->expr, GEOMETRY_MAX_SIDE);
        return -1;
    }
    *side += missing;
    return 0;
}

/* The smallest size at or above s that meets the lesson's multiple and square lines. */
static int padded_size(const struct lesson *l, const struct param_set *ps, struct gemm_size s,
                       struct gemm_size *out, struct error *e)
{
    struct env_storage st;

    /* Padding one dimension can change another only through square, so this settles
       within a few rounds; the bound guards against expressions that grow with the size. */
    for (int round = 0; round < 8; round++) {
        struct gemm_size before = s;
        make_env(l, ps, s, &st);
        for (size_t i = 0; i < l->nmultiples; i++) {
            long long m;
            if (eval(l->multiples[i].expr, &st, &m, e) < 0)
                return -1;
            if (m <= 0) {
                error_set(e, "the multiple of %c (%s) is %lld, not positive", l->multiples[i].dim,
                          l->multiples[i].expr, m);
                return -1;
            }
            if (round_up(&l->multiples[i], m, dim_of(&s, l->multiples[i].dim), e) < 0)
                return -1;
        }
        if (l->square) {
            long long n = s.m > s.n ? s.m : s.n;
            n = n > s.k ? n : s.k;
            s.m = s.n = s.k = n;
        }
        if (memcmp(&before, &s, sizeof s) == 0) {
            *out = s;
            return 0;
        }
    }
    error_set(e, "the multiple lines of lesson %d do not settle on a size", l->number);
    return -1;
}

static void describe_constraints(const struct lesson *l, const struct param_set *ps,
                                 struct gemm_size size, char *buf, size_t len)
{
    struct env_storage st;
    struct error ignored;
    struct str s;

    make_env(l, ps, size, &st);
    str_init(&s, buf, len);
    if (l->square)
        str_appendf(&s, ", ", "M = N = K");
    for (size_t i = 0; i < l->nmultiples; i++) {
        long long m = 0;
        eval(l->multiples[i].expr, &st, &m, &ignored);
        str_appendf(&s, ", ", "%c a multiple of %lld", l->multiples[i].dim, m);
    }
}

/* "M, N / 4": a launch's global line, for messages. */
static const char *global_line(const struct lesson_launch *k, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t d = 0; d < k->dims; d++)
        str_appendf(&s, ", ", "%s", k->global[d]);
    return buf;
}

/* The values of ints(...) argument a of a launch (lessons/FORMAT), each an int, after those of
   the launch's ints(...) arguments before it; its first one's index into arg_values[a]. */
static int ints_values(const struct lesson_arg *arg, size_t a, const struct env_storage *st,
                       const struct geometry *g, struct launch_geometry *lg, const char *which, struct error *e)
{
    long long v;

    lg->arg_values[a] = (long long)lg->nints;
    for (size_t i = 0; i < arg->nvalues; i++) {
        if (eval(arg->values[i], st, &v, e) < 0)
            return -1;
        if (v < INT_MIN || v > INT_MAX) {
            error_set(e, "value %zu of argument %zu (ints(...): %s)%s is %lld at %lldx%lldx%lld, outside the range "
                      "of an int", i + 1, a + 1, arg->values[i], which, v, g->run.m, g->run.n, g->run.k);
            return -1;
        }
        /* The parser allows at most LESSON_MAX_INTS values for all of a launch's ints(...). */
        lg->ints[lg->nints++] = (int)v;
    }
    return 0;
}

/* Launch i of the lesson at the size g->run, into g->launch[i]. A launch after the first whose
   then-when is 0 is skipped: nothing else about it is computed. */
static int compute_launch(const struct lesson *l, size_t i, const struct env_storage *st, struct geometry *g,
                          struct error *e)
{
    const struct lesson_launch *k = &l->launch[i];
    struct launch_geometry *lg = &g->launch[i];
    char buf[256], which[128];
    long long v;

    lesson_launch_which(l, i, which, sizeof which);
    if (i > 0 && k->when) {
        if (eval(k->when, st, &v, e) < 0)
            return -1;
        if (v == 0) {
            lg->skipped = true;
            return 0;
        }
    }
    lg->dims = k->dims;
    lg->has_local = k->local_dims > 0;
    lg->work_items = 1;
    lg->groups = lg->has_local ? 1 : 0;
    lg->group_items = lg->has_local ? 1 : 0;
    for (size_t d = 0; d < k->dims; d++) {
        if (eval(k->global[d], st, &v, e) < 0)
            return -1;
        if (v <= 0) {
            error_set(e, "global size %zu (%s)%s is %lld at %lldx%lldx%lld", d, k->global[d], which, v,
                      g->run.m, g->run.n, g->run.k);
            return -1;
        }
        lg->global[d] = (size_t)v;
        if (__builtin_mul_overflow(lg->work_items, lg->global[d], &lg->work_items)) {
            error_set(e, "the global NDRange (%s)%s has more work-items than a size_t holds at %lldx%lldx%lld: "
                         "choose a smaller size or parameters, or smaller values in the lesson's global line",
                      global_line(k, buf, sizeof buf), which, g->run.m, g->run.n, g->run.k);
            return -1;
        }
        if (!lg->has_local)
            continue;
        if (eval(k->local[d], st, &v, e) < 0)
            return -1;
        if (v <= 0) {
            error_set(e, "local size %zu (%s)%s is %lld", d, k->local[d], which, v);
            return -1;
        }
        lg->local[d] = (size_t)v;
        if (lg->global[d] % lg->local[d] != 0) {
            error_set(e, "global size %zu (%s = %zu)%s is not a multiple of the local size (%s = %zu)",
                      d, k->global[d], lg->global[d], which, k->local[d], lg->local[d]);
            return -1;
        }
        /* Both within work_items, which fits: each local size divides its global size. */
        lg->groups *= lg->global[d] / lg->local[d];
        lg->group_items *= lg->local[d];
    }
    for (size_t a = 0; a < k->nargs; a++) {
        const struct lesson_arg *arg = &k->args[a];
        if (arg->kind == ARG_INTS && ints_values(arg, a, st, g, lg, which, e) < 0)
            return -1;
        if (arg->kind != ARG_INT && arg->kind != ARG_LOCAL)
            continue;
        if (eval(arg->expr, st, &lg->arg_values[a], e) < 0)
            return -1;
        if (lg->arg_values[a] < INT_MIN || lg->arg_values[a] > INT_MAX) {
            error_set(e, "argument %zu (%s)%s is %lld at %lldx%lldx%lld, outside the range of an int",
                      a + 1, arg->expr, which, lg->arg_values[a], g->run.m, g->run.n, g->run.k);
            return -1;
        }
        if (arg->kind == ARG_LOCAL) {
            if (lg->arg_values[a] <= 0) {
                error_set(e, "local buffer argument %zu (%s)%s has %lld floats", a + 1, arg->expr, which,
                          lg->arg_values[a]);
                return -1;
            }
            /* At most LESSON_MAX_ARGS of INT_MAX floats: within a 64-bit size_t. */
            lg->local_bytes += (size_t)lg->arg_values[a] * sizeof(float);
        }
    }
    return 0;
}

int geometry_compute(const struct lesson *l, const struct param_set *ps, struct gemm_size asked,
                     struct geometry *g, struct error *e)
{
    struct env_storage st;
    long long v;

    memset(g, 0, sizeof *g);
    g->asked = asked;
    if (asked.m <= 0 || asked.n <= 0 || asked.k <= 0) {
        error_set(e, "sizes must be positive");
        return -1;
    }
    if (asked.m > GEOMETRY_MAX_SIDE || asked.n > GEOMETRY_MAX_SIDE || asked.k > GEOMETRY_MAX_SIDE) {
        error_set(e, "%lldx%lldx%lld has a side over %d, the largest size an int argument of the kernel "
                     "holds: choose a smaller size", asked.m, asked.n, asked.k, GEOMETRY_MAX_SIDE);
        return -1;
    }
    if (padded_size(l, ps, asked, &g->run, e) < 0)
        return -1;
    g->padded = memcmp(&g->run, &asked, sizeof asked) != 0;
    if (g->padded && !l->pad) {
        char need[256];
        describe_constraints(l, ps, asked, need, sizeof need);
        error_set(e, "lesson %d needs %s and does not pad; try %lldx%lldx%lld", l->number, need,
                  g->run.m, g->run.n, g->run.k);
        return -1;
    }
    make_env(l, ps, g->run, &st);
    for (size_t i = 0; i < l->nrequires; i++) {
        if (eval(l->requires[i].expr, &st, &v, e) < 0)
            return -1;
        if (!v) {
            error_set(e, "%s (%s does not hold)", l->requires[i].message, l->requires[i].expr);
            return -1;
        }
    }
    if (l->engine == ENGINE_HOST)
        return 0;

    if (l->scratch) {
        if (eval(l->scratch, &st, &g->scratch, e) < 0)
            return -1;
        /* The kernels index it with int, as they do the matrices. */
        if (g->scratch < 0 || g->scratch > INT_MAX) {
            error_set(e, "the scratch buffer (%s) is %lld floats at %lldx%lldx%lld: %s", l->scratch, g->scratch,
                      g->run.m, g->run.n, g->run.k,
                      g->scratch < 0 ? "not a size" : "more than the kernels' int indices reach; choose a "
                                                      "smaller size or parameters");
            return -1;
        }
        if (l->scratch_zero) {
            if (eval(l->scratch_zero, &st, &g->scratch_zero, e) < 0)
                return -1;
            if (g->scratch_zero < 0 || g->scratch_zero > g->scratch) {
                error_set(e, "scratch-zero (%s) is %lld floats at %lldx%lldx%lld, the scratch buffer %lld: it must "
                             "name a part of the buffer, from 0 to all of it", l->scratch_zero, g->scratch_zero,
                          g->run.m, g->run.n, g->run.k, g->scratch);
                return -1;
            }
        }
    }
    for (size_t i = 0; i < l->nlaunches; i++)
        if (compute_launch(l, i, &st, g, e) < 0)
            return -1;
    g->nlaunches = l->nlaunches;
    return 0;
}
