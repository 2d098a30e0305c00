/* params.c: choosing a lesson's parameters: defaults, the tuner's, --param. */
#include "params.h"

#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "str.h"

int params_rule_value(const struct lesson *l, size_t param, const struct param_set *values, struct gemm_size size,
                      long long cu, long long *out, struct error *e)
{
    const struct lesson_param *p = &l->params[param];
    const struct expr_var units = { LESSON_RULE_CU, cu };
    long long v, best = 0;
    bool below = false;

    if (geometry_eval_with(l, values, size, &units, p->rule, &v, e) < 0) {
        error_prefix(e, "%s:%d: rule for %s at %lldx%lldx%lld", l->file, p->rule_line, p->name, size.m, size.n,
                     size.k);
        return -1;
    }
    if (p->is_range) {      /* any value of the range: the rule's, brought inside it */
        *out = v < p->values[0] ? p->values[0] : v > p->values[1] ? p->values[1] : v;
        return 0;
    }
    for (size_t i = 0; i < p->nvalues; i++)
        if (p->values[i] <= v && (!below || p->values[i] > best)) {
            best = p->values[i];
            below = true;
        }
    for (size_t i = 0; !below && i < p->nvalues; i++)
        if (i == 0 || p->values[i] < best)
            best = p->values[i];
    *out = best;
    return 0;
}

/* The lesson's rules over the defaults in out, on a device of cu compute units. */
static int apply_rules(const struct lesson *l, struct gemm_size size, long long cu, struct param_set *out,
                       struct param_origin *origin, struct error *e)
{
    for (size_t i = 0; i < l->nparams; i++) {
        long long v;
        if (!l->params[i].rule)
            continue;
        if (params_rule_value(l, i, out, size, cu, &v, e) < 0)
            return -1;
        if (v != l->params[i].def)
            origin->by_rule |= 1u << i;
        out->values[i] = v;
    }
    return 0;
}

static bool has_rules(const struct lesson *l)
{
    for (size_t i = 0; i < l->nparams; i++)
        if (l->params[i].rule)
            return true;
    return false;
}

long long params_apply_range_rules(const struct lesson *l, struct gemm_size size, long long cu,
                                   struct param_set *values, struct error *e)
{
    long long set = 0;

    for (size_t i = 0; i < l->nparams; i++) {
        long long v;
        if (!l->params[i].is_range || !l->params[i].rule)
            continue;
        if (params_rule_value(l, i, values, size, cu, &v, e) < 0)
            return -1;
        values->values[i] = v;
        set |= 1ll << i;
    }
    return set;
}

int params_choose(const struct params_request *req, const struct lesson *l, const struct device_info *device,
                  struct gemm_size size, struct param_set *out, struct param_origin *origin, struct error *e)
{
    struct tuned_entry found;
    char key[600];

    param_set_defaults(l, out);
    memset(origin, 0, sizeof *origin);
    origin->source = PARAMS_DEFAULTS;
    origin->size = size;
    if (device && apply_rules(l, size, (long long)device->compute_units, out, origin, e) < 0)
        return -1;
    origin->rules_unapplied = !device && has_rules(l);
    /* --param is given against the defaults (the lessons' exercises say so): with one for
       this lesson, the tuner's values are not read. */
    for (size_t i = 0; i < req->noverrides; i++) {
        const struct param_override *o = &req->overrides[i];
        int at = lesson_param_index(l, o->name);
        if (at < 0)
            continue;
        if (!lesson_param_allows(&l->params[at], o->value)) {
            char allowed[256];
            lesson_param_describe(&l->params[at], allowed, sizeof allowed);
            error_set(e, "--param %s=%lld: lesson %d allows %s = %s", o->name, o->value, l->number, o->name,
                      allowed);
            return -1;
        }
        out->values[at] = o->value;
        origin->by_rule &= ~(1u << at);
        origin->source = PARAMS_OVERRIDDEN;
    }
    if (origin->source == PARAMS_OVERRIDDEN || req->no_tuned || !device || !req->tuned_path)
        return 0;
    device_describe(device, key, sizeof key);
    if (tuned_find(req->tuned_path, key, l, size, &found)) {
        origin->tuned = found;
        origin->source = tuned_near(found.size, size) ? PARAMS_TUNED : PARAMS_TUNED_NOT_APPLIED;
        if (origin->source == PARAMS_TUNED) {
            long long set;
            *out = found.params;
            if ((set = params_apply_range_rules(l, size, (long long)device->compute_units, out, e)) < 0)
                return -1;
            origin->by_rule = (unsigned)set;
        }
    }
    return 0;
}

void params_origin_describe(const struct param_origin *origin, char *buf, size_t len)
{
    const struct gemm_size *t = &origin->tuned.size, *s = &origin->size;
    const char *base = origin->by_rule ? "rules" : "defaults";

    if (len == 0)
        return;
    buf[0] = '\0';
    if (origin->source == PARAMS_TUNED)
        snprintf(buf, len, "tuned at %lldx%lldx%lld%s", t->m, t->n, t->k,
                 origin->tuned.complete ? "" : ", partial search");
    else if (origin->source == PARAMS_TUNED_NOT_APPLIED)
        snprintf(buf, len, "%s; tuned at %lldx%lldx%lld, not applied at %lldx%lldx%lld", base, t->m, t->n, t->k,
                 s->m, s->n, s->k);
    else if (origin->by_rule)
        snprintf(buf, len, "%sby the lesson's rules at %lldx%lldx%lld",
                 origin->source == PARAMS_OVERRIDDEN ? "--param, the rest " : "", s->m, s->n, s->k);
    else if (origin->rules_unapplied)
        snprintf(buf, len, "defaults: the lesson's rules need a device's compute units");
}
