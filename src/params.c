/* params.c: choosing a lesson's parameters: defaults, the tuner's, --param. */
#include "params.h"

#include <stdio.h>
#include <string.h>

#include "str.h"

/* The values a parameter allows, "8, 16, 32". */
static void allowed_values(const struct lesson_param *p, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t v = 0; v < p->nvalues; v++)
        str_appendf(&s, ", ", "%lld", p->values[v]);
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
    /* --param is given against the defaults (the lessons' exercises say so): with one for
       this lesson, the tuner's values are not read. */
    for (size_t i = 0; i < req->noverrides; i++) {
        const struct param_override *o = &req->overrides[i];
        int at = lesson_param_index(l, o->name);
        if (at < 0)
            continue;
        if (!lesson_param_allows(&l->params[at], o->value)) {
            char allowed[256];
            allowed_values(&l->params[at], allowed, sizeof allowed);
            error_set(e, "--param %s=%lld: lesson %d allows %s = %s", o->name, o->value, l->number, o->name,
                      allowed);
            return -1;
        }
        out->values[at] = o->value;
        origin->source = PARAMS_OVERRIDDEN;
    }
    if (origin->source == PARAMS_OVERRIDDEN || req->no_tuned || !device || !req->tuned_path)
        return 0;
    device_describe(device, key, sizeof key);
    if (tuned_find(req->tuned_path, key, l, size, &found)) {
        origin->tuned = found;
        origin->source = tuned_near(found.size, size) ? PARAMS_TUNED : PARAMS_TUNED_NOT_APPLIED;
        if (origin->source == PARAMS_TUNED)
            *out = found.params;
    }
    return 0;
}

void params_origin_describe(const struct param_origin *origin, char *buf, size_t len)
{
    const struct gemm_size *t = &origin->tuned.size, *s = &origin->size;

    if (len == 0)
        return;
    buf[0] = '\0';
    if (origin->source == PARAMS_TUNED)
        snprintf(buf, len, "tuned at %lldx%lldx%lld%s", t->m, t->n, t->k,
                 origin->tuned.complete ? "" : ", partial search");
    else if (origin->source == PARAMS_TUNED_NOT_APPLIED)
        snprintf(buf, len, "defaults; tuned at %lldx%lldx%lld, not applied at %lldx%lldx%lld", t->m, t->n, t->k,
                 s->m, s->n, s->k);
}
