/* build.c: a lesson's kernels built with its parameters, for its runner, the look inside and
   the checks (build.h). */
#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmap.h"
#include "kernelargs.h"
#include "needs.h"
#include "str.h"
#include "xalloc.h"

int measure_build(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *given,
                  struct lesson_kernels *k, struct error *e)
{
    return measure_build_extra(cl, l, ps, given, NULL, k, e);
}

void measure_kernels_release(struct lesson_kernels *k)
{
    for (size_t i = 0; i < k->count; i++)
        clReleaseKernel(k->kernel[i]);
    if (k->program)
        clReleaseProgram(k->program);
    memset(k, 0, sizeof *k);
}

int measure_options(const struct lesson *l, const struct param_set *ps, const char *extra, char *buf,
                    size_t len, struct error *e)
{
    struct str s;

    str_init(&s, buf, len);
    if (l->options)
        str_appendf(&s, " ", "%s", l->options);
    for (size_t i = 0; i < l->nparams; i++)
        str_appendf(&s, " ", "-D%s=%lld", l->params[i].name, ps->values[i]);
    str_appendf(&s, " ", "%s", MEASURE_ARG_INFO_OPTION);
    if (extra)
        str_appendf(&s, " ", "%s", extra);
    if (s.truncated) {
        error_set(e, "the compiler options of lesson %d are longer than %zu characters", l->number, len - 1);
        return -1;
    }
    return 0;
}

int measure_build_extra(struct ocl *cl, const struct lesson *l, const struct param_set *ps, const char *given,
                        const char *extra, struct lesson_kernels *k, struct error *e)
{
    char options[MEASURE_OPTIONS_MAX];
    char *source = NULL;
    int rc;

    memset(k, 0, sizeof *k);
    /* A kernel written for one device (inline PTX) may not even compile on another: not tried,
       whoever builds it. */
    if (lesson_device_check(l, cl->device, e) < 0)
        return -1;
    if (measure_options(l, ps, extra, options, sizeof options, e) < 0)
        return -1;
    if (!given && !(given = source = lesson_kernel_source(l, e)))
        return -1;
    k->uses = errmap_uses_of(given);
    /* Where the device cannot run the kernel's PTX, the lesson's emulation header goes in front
       of it; #line keeps the compiler's line numbers those of the kernel file. */
    if (lesson_emulated(l, cl->device)) {
        char *header = lesson_emulation_source(l, e);
        if (!header) {
            free(source);
            return -1;
        }
        char *both = xmalloc(strlen(header) + strlen(given) + 16);
        sprintf(both, "%s\n#line 1\n%s", header, given);
        free(header);
        free(source);
        given = source = both;
    }
    rc = ocl_build(cl, given, options, l->launch[0].entry, &k->program, &k->kernel[0], e);
    free(source);
    if (rc == 0)
        k->count = 1;
    /* The further launches' kernels, from the same program. */
    while (rc == 0 && k->count < l->nlaunches) {
        rc = ocl_kernel(k->program, l->launch[k->count].entry, &k->kernel[k->count], e);
        if (rc == 0)
            k->count++;
        else
            measure_kernels_release(k);
    }
    if (rc < 0) {
        error_prefix(e, "%s", l->kernel_file);
        return rc;
    }
    /* Each kernel's signature against the lesson's args: a mismatch named before any launch. */
    for (size_t i = 0; i < k->count; i++)
        if (kernelargs_check(l, i, k->kernel[i], e) < 0) {
            measure_kernels_release(k);
            return MEASURE_ARGS_DIFFER;
        }
    return 0;
}

int measure_check_indices(const struct geometry *g, struct error *e)
{
    struct gemm_size s = g->run;
    long long mk, kn, mn;

    if (!__builtin_mul_overflow(s.m, s.k, &mk) && mk <= INT_MAX && !__builtin_mul_overflow(s.k, s.n, &kn) &&
        kn <= INT_MAX && !__builtin_mul_overflow(s.m, s.n, &mn) && mn <= INT_MAX)
        return 0;
    error_set(e, "%lldx%lldx%lld has a matrix of more than %d elements, too many for the kernels' int "
                 "indices: choose a smaller size%s", s.m, s.n, s.k, INT_MAX,
              g->padded ? " or parameters that pad less" : "");
    return -1;
}
