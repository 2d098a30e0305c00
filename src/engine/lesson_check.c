/* lesson_check.c: a lesson's header checked as a whole once it is read: the
   expressions and rules against the parameters, the strides and splits of its layout, its
   launches, and what every lesson must have. */
#include "lesson_reader.h"

#include <string.h>

#include "expr.h"
#include "str.h"
#include "xalloc.h"

/* The values the header's expressions are checked with: the parameters at their defaults,
   M = N = K = 1024. vars has room for LESSON_MAX_PARAMS + 4. */
static void check_env(const struct lesson *l, struct expr_var *vars, struct expr_env *env)
{
    vars[0] = (struct expr_var){ "M", 1024 };
    vars[1] = (struct expr_var){ "N", 1024 };
    vars[2] = (struct expr_var){ "K", 1024 };
    for (size_t i = 0; i < l->nparams; i++) {
        vars[3 + i].name = l->params[i].name;
        vars[3 + i].value = l->params[i].def;
    }
    *env = (struct expr_env){ vars, 3 + l->nparams };
}

/* Rules are checked as the other expressions, with CU = 132 as well. */
static int check_rules(struct reader *r)
{
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
    long long v;

    check_env(r->l, vars, &env);
    vars[env.count++] = (struct expr_var){ LESSON_RULE_CU, 132 };
    for (size_t i = 0; i < r->l->nparams; i++) {
        const struct lesson_param *p = &r->l->params[i];
        if (p->rule && expr_eval(p->rule, &env, &v, r->e) < 0) {
            error_prefix(r->e, "%s:%d: rule for %s", r->file, p->rule_line, p->name);
            return -1;
        }
    }
    return 0;
}

/* Every expression must evaluate with the parameters at their defaults and some sizes:
   this catches unknown names and syntax errors when the file is read, not at launch. */
static int check_expressions(struct reader *r)
{
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
    long long v;

    check_env(r->l, vars, &env);
    for (size_t i = 0; i < r->nexprs; i++) {
        if (expr_eval(r->exprs[i].expr, &env, &v, r->e) < 0) {
            error_prefix(r->e, "%s:%d", r->file, r->exprs[i].line);
            return -1;
        }
    }
    return 0;
}

int lesson_check_stride(const struct lesson *l, const char *dim, long long tile, long long item, long long run,
                        long long stride, struct error *e)
{
    long long runs = item / run, span;

    if (stride <= 0) {
        error_set(e, "%s:%d: item-stride: %lld %s between the starts of a work-item's runs: not positive", l->file,
                  l->layout.item_stride_line, stride, dim);
        return -1;
    }
    if (stride % run != 0) {
        error_set(e, "%s:%d: item-stride: %lld %s between the starts of a work-item's runs is not a multiple of "
                  "its runs of %lld", l->file, l->layout.item_stride_line, stride, dim, run);
        return -1;
    }
    if (__builtin_mul_overflow(runs - 1, stride, &span) || __builtin_add_overflow(span, run, &span) ||
        span > tile) {
        error_set(e, "%s:%d: item-stride: %lld runs of %lld %s, %lld apart, do not fit in the work-group's tile "
                  "of %lld %s", l->file, l->layout.item_stride_line, runs, run, dim, stride, tile, dim);
        return -1;
    }
    return 0;
}

/* The item-stride line with the parameters at their defaults at 1024 x 1024 x 1024, so that a
   stride that cannot be is reported when the file is read. Lines whose values the work-group
   diagram refuses anyway (not positive, runs that do not make up the block) are left to it. */
static int check_stride(struct reader *r)
{
    const struct lesson_layout *y = &r->l->layout;
    static const char *const dims[2] = { "rows", "columns" };
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;

    if (!y->item_stride[0])
        return 0;
    check_env(r->l, vars, &env);
    for (int i = 0; i < 2; i++) {
        long long tile, item, run, stride;
        if (expr_eval(y->tile[i], &env, &tile, r->e) < 0 || expr_eval(y->item[i], &env, &item, r->e) < 0 ||
            expr_eval(y->item_run[i], &env, &run, r->e) < 0 || expr_eval(y->item_stride[i], &env, &stride, r->e) < 0)
            return -1;      /* not reached: check_expressions evaluated them */
        if (tile <= 0 || item <= 0 || run <= 0 || item % run != 0)
            continue;
        if (lesson_check_stride(r->l, dims[i], tile, item, run, stride, r->e) < 0)
            return -1;
    }
    return 0;
}

int lesson_split_groups(const struct lesson *l, long long tiles, long long k_split, long long split_tiles,
                        long long split_groups, long long *groups, struct error *e)
{
    const struct lesson_layout *y = &l->layout;
    const char *key = "k-split";
    int line = y->k_split_line;
    long long more;

    /* tiles - split_tiles cannot overflow: neither is below 0. */
    if (split_groups >= 0 && !__builtin_add_overflow(tiles - split_tiles, split_groups, groups))
        return 0;
    if (split_groups < 0 && !__builtin_mul_overflow(split_tiles, k_split - 1, &more) &&
        !__builtin_add_overflow(tiles, more, groups))
        return 0;
    /* The line at fault: the groups given, else more tiles split than there are, else the split. */
    if (split_groups >= 0) {
        key = "k-split-groups";
        line = y->k_split_groups_line;
    } else if (split_tiles > tiles) {
        key = "k-split-tiles";
        line = y->k_split_tiles_line;
    }
    error_set(e, "%s:%d: %s: %lld tiles, the last %lld of them in %lld work-groups%s: the work-groups do not fit "
              "in 64 bits; make %s smaller", l->file, line, key, tiles, split_tiles,
              split_groups >= 0 ? split_groups : k_split, split_groups >= 0 ? "" : " each", key);
    return -1;
}

/* The k-split lines with the parameters at their defaults at 1024 x 1024 x 1024, so that
   work-groups too many to count are reported when the file is read. Values the work-group
   diagram refuses anyway (not positive, below 0) are left to it. */
static int check_split(struct reader *r)
{
    const struct lesson_layout *y = &r->l->layout;
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
    long long rows, cols, tiles, k_split = 1, split_tiles = -1, split_groups = -1, groups;

    if (!y->tile[0] || (!y->k_split && !y->k_split_tiles && !y->k_split_groups))
        return 0;
    check_env(r->l, vars, &env);
    if (expr_eval(y->tile[0], &env, &rows, r->e) < 0 || expr_eval(y->tile[1], &env, &cols, r->e) < 0 ||
        (y->k_split && expr_eval(y->k_split, &env, &k_split, r->e) < 0) ||
        (y->k_split_tiles && expr_eval(y->k_split_tiles, &env, &split_tiles, r->e) < 0) ||
        (y->k_split_groups && expr_eval(y->k_split_groups, &env, &split_groups, r->e) < 0))
        return -1;      /* not reached: check_expressions evaluated them */
    if (rows <= 0 || cols <= 0 || k_split <= 0 || (y->k_split_tiles && split_tiles < 0) ||
        (y->k_split_groups && split_groups < 0))
        return 0;
    /* At most 1024 x 1024 tiles: no overflow. */
    tiles = (1024 / rows + (1024 % rows != 0)) * (1024 / cols + (1024 % cols != 0));
    return lesson_split_groups(r->l, tiles, k_split, y->k_split_tiles ? split_tiles : tiles, split_groups, &groups,
                               r->e);
}

/* A title that fits a table: as it is, or cut after a whole word and marked with "...". */
static char *shorten(const char *title)
{
    size_t cut, keep;
    char *out;

    if (str_columns(title, strlen(title)) <= LESSON_SHORT_TITLE_MAX)
        return xstrdup(title);
    cut = str_prefix(title, LESSON_SHORT_TITLE_MAX - 3);
    /* At the last blank inside the prefix; one long word is cut at a character. */
    for (keep = cut - 1; keep > 0 && title[keep] != ' '; keep--)
        ;
    if (keep == 0)
        keep = cut;
    while (keep > 0 && (title[keep - 1] == ' ' || title[keep - 1] == ',' || title[keep - 1] == ':'))
        keep--;
    out = xmalloc(keep + 4);
    memcpy(out, title, keep);
    memcpy(out + keep, "...", 4);
    return out;
}

static bool has_layout(const struct lesson_layout *y)
{
    return y->tile[0] || y->item[0] || y->item_run[0] || y->item_stride[0] || y->local_a[0] || y->local_b[0] ||
           y->local_copies || y->k_split || y->k_split_tiles || y->k_split_groups || y->loads;
}

/* The further launches are complete, and W is passed where there is a scratch buffer. */
static int check_launches(struct reader *r)
{
    struct lesson *l = r->l;
    bool takes_w = false;

    for (size_t i = 1; i < l->nlaunches; i++) {
        const struct lesson_launch *k = &l->launch[i];
        r->line = k->line;
        if (k->nargs == 0)
            return reader_bad(r, "the launch of this then line (%s) has no then-args line", k->entry);
        if (k->dims == 0)
            return reader_bad(r, "the launch of this then line (%s) has no then-global line", k->entry);
        if (k->local_dims && k->local_dims != k->dims)
            return reader_bad(r, "the launch of this then line (%s): then-local has a different number of dimensions "
                          "than then-global", k->entry);
    }
    for (size_t i = 0; i < l->nlaunches; i++)
        for (size_t a = 0; a < l->launch[i].nargs; a++)
            if (l->launch[i].args[a].kind == ARG_W) {
                takes_w = true;
                r->line = l->launch[i].args_line;
                if (!l->scratch)
                    return reader_bad(r, "%s", "argument W is the scratch buffer, and the header has no scratch line "
                                        "giving its size");
            }
    if (l->scratch && !takes_w) {
        r->line = reader_key_line(r, "scratch");
        return reader_bad(r, "%s", "a scratch buffer that no launch takes: pass it with the argument W");
    }
    if (l->scratch_zero && !l->scratch) {
        r->line = reader_key_line(r, "scratch-zero");
        return reader_bad(r, "%s", "scratch-zero names the first floats of the scratch buffer, and the header has no "
                            "scratch line giving its size");
    }
    return 0;
}

int reader_check(struct reader *r)
{
    struct lesson *l = r->l;
    const char *missing = NULL;

    if (!l->sources && r->extra && r->extra->sources_optional)
        l->sources = xstrdup("");
    if (l->number < 0)
        missing = r->extra ? r->extra->number_key : "lesson";
    else if (!l->title)
        missing = "title";
    else if (!l->sources)
        missing = "sources";
    else if (l->engine == ENGINE_OPENCL && !l->kernel_file)
        missing = "kernel";
    else if (l->engine == ENGINE_OPENCL && !l->launch[0].entry)
        missing = "entry";
    else if (l->engine == ENGINE_OPENCL && l->launch[0].nargs == 0)
        missing = "args";
    else if (l->engine == ENGINE_OPENCL && l->launch[0].dims == 0)
        missing = "global";
    if (missing)
        return reader_bad(r, "the header has no \"%s:\" line", missing);
    if (!l->short_title)
        l->short_title = shorten(l->title);
    /* A host lesson's kernel line names the C source it shows, which the tool runs built in:
       nothing about launching it applies. */
    if (l->engine == ENGINE_HOST && (l->launch[0].entry || l->options || l->launch[0].nargs ||
                                     l->launch[0].dims || l->launch[0].local_dims || l->nlaunches > 1 ||
                                     l->scratch || l->b_transposed || l->column_major ||
                                     has_layout(&l->layout)))
        return reader_bad(r, "%s", "a host lesson (engine: host) takes no entry, options, args, "
                            "global, local, then, scratch, order or b-transposed lines, nor the keys of its "
                            "work-groups (tile, item, item-run, item-stride, local-a, local-b, local-copies, "
                            "k-split, loads); "
                            "its kernel line, if any, names the C source shown");
    if (l->engine == ENGINE_HOST && l->needs.nvidia) {
        r->line = reader_key_line(r, "needs");
        return reader_bad(r, "%s", "a host lesson (engine: host) runs on the CPU, built into the tool: it needs no device; "
                            "delete the needs line");
    }
    if (l->emulation && !l->needs.nvidia) {
        r->line = reader_key_line(r, "emulation");
        return reader_bad(r, "%s", "an emulation line stands in for what the needs line asks of the device, and this "
                            "lesson has no needs line: add one, or delete the emulation line");
    }
    if (l->engine == ENGINE_HOST)
        l->nlaunches = 0;
    if (l->launch[0].local_dims && l->launch[0].local_dims != l->launch[0].dims) {
        r->line = reader_key_line(r, "local");
        return reader_bad(r, "%s", "local has a different number of dimensions than global");
    }
    if (check_launches(r) < 0)
        return -1;
    if (l->layout.item_run[0] && !l->layout.item[0]) {
        r->line = reader_key_line(r, "item-run");
        return reader_bad(r, "%s", "item-run needs an item line: runs of the work-item's block");
    }
    if (l->layout.item_stride[0] && (!l->layout.item_run[0] || !l->layout.tile[0])) {
        r->line = l->layout.item_stride_line;
        return reader_bad(r, "%s", l->layout.item_run[0]
                                ? "item-stride needs a tile line: the runs lie in the work-group's tile"
                                : "item-stride needs an item-run line: the distance between the starts of a "
                                  "work-item's runs");
    }
    if (l->layout.local_copies && !l->layout.local_a[0] && !l->layout.local_b[0]) {
        r->line = reader_key_line(r, "local-copies");
        return reader_bad(r, "%s", "local-copies needs a local-a or local-b line: copies of those tiles");
    }
    return check_expressions(r) < 0 || check_rules(r) < 0 || check_stride(r) < 0 ? -1 : check_split(r);
}
