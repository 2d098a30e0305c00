/* reference.c: the reference rows that this build has (reference.h), each a library's
   runner in a file of its own. */
#include "reference.h"

#include "runner_cblas.h"
#include "runner_clblast.h"
#include "str.h"

static const struct reference_kind *const kinds[] = {
#ifdef HAVE_CLBLAST
    &reference_clblast,
#endif
#ifdef HAVE_CBLAS
    &reference_cblas,
#endif
    NULL,                       /* a table without a row is not empty */
};

size_t reference_count(void)
{
    return sizeof kinds / sizeof kinds[0] - 1;
}

const struct reference_kind *reference_at(size_t i)
{
    return i < reference_count() ? kinds[i] : NULL;
}

const struct reference_kind *reference_find(int lesson)
{
    for (size_t i = 0; i < reference_count(); i++)
        if (kinds[i]->lesson == lesson)
            return kinds[i];
    return NULL;
}

const char *reference_params(const struct reference_kind *k, const struct reference_settings *rs)
{
    return k->params ? k->params(rs) : "";
}

void reference_measure(const struct reference_kind *k, struct workspace *w, const struct reference_settings *rs,
                       const struct measure_config *cfg, struct run_result *r)
{
    r->lesson = k->lesson;
    k->title(rs, r->title, sizeof r->title);
    str_copy(r->params, sizeof r->params, reference_params(k, rs));
    r->size = r->run = w->size;
    k->measure(w, rs, cfg, r);
    r->run = w->size;
}
