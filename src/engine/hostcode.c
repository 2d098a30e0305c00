/* hostcode.c: a lesson's launch written out as a plain OpenCL C function: what the engine
   does for one run (measure.c), with every size, argument and NDRange evaluated from the
   lesson file (geometry.c) and the compiler options measure.c builds with. */
#include "hostcode.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "measure.h"
#include "text.h"
#include "xalloc.h"

/* The text being written, grown as it goes. */
struct out {
    char *buf;
    size_t len, cap;
};

static void emit(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(struct out *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();                /* only a bad format does this */
    if (o->len + (size_t)n + 1 > o->cap) {
        o->cap = (o->len + (size_t)n + 1) * 2;
        o->buf = xrealloc(o->buf, o->cap);
    }
    va_start(ap, fmt);
    vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

/* Text from the lesson file (a title, an expression), safe inside a C comment: printable,
   and neither ending the comment nor opening one within it. Malloc'd. */
static char *comment_text(const char *s)
{
    char *printable = text_printable(s, false), *safe = xmalloc(2 * strlen(printable) + 1), *to = safe;

    for (const char *p = printable; *p; p++) {
        *to++ = *p;
        if ((p[0] == '*' && p[1] == '/') || (p[0] == '/' && p[1] == '*'))
            *to++ = ' ';
    }
    *to = '\0';
    free(printable);
    return safe;
}

/* s as a C string literal, byte for byte: the compiler options must be exactly the engine's. */
static void emit_literal(struct out *o, const char *s)
{
    emit(o, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            emit(o, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            emit(o, "\\%03o", *p);
        else
            emit(o, "%c", *p);
    }
    emit(o, "\"");
}

/* "the expression" in a comment, made safe. */
static void emit_expr(struct out *o, const char *expr)
{
    char *safe = comment_text(expr);

    emit(o, "%s", safe);
    free(safe);
}

/* The argument as the args line writes it, in a comment, made safe. */
static void emit_text(struct out *o, const struct lesson_arg *a)
{
    char *text = lesson_arg_text(a);

    emit_expr(o, text);
    free(text);
}

/* Where element (r, c) of a rows x cols matrix lies in its array. */
static void emit_index(struct out *o, bool column_major, const char *r, const char *c, long long rows,
                       long long cols)
{
    if (column_major)
        emit(o, "[%s + %s * %lld]", r, c, rows);
    else
        emit(o, "[%s * %lld + %s]", r, cols, c);
}

/* Whether a launch that runs at this size takes an argument of this kind. */
static bool has_arg(const struct lesson *l, const struct geometry *g, enum arg_kind kind)
{
    for (size_t k = 0; k < g->nlaunches; k++)
        for (size_t i = 0; !g->launch[k].skipped && i < l->launch[k].nargs; i++)
            if (l->launch[k].args[i].kind == kind)
                return true;
    return false;
}

/* The name of launch k's kernel, int argument i, NDRange in the code: kernel, arg3, global
   for the first launch, kernel2, arg3_2, global2 for the second. */
static void emit_name(struct out *o, const char *base, size_t k)
{
    emit(o, "%s", base);
    if (k > 0)
        emit(o, "%s%zu", base[strlen(base) - 1] >= '0' && base[strlen(base) - 1] <= '9' ? "_" : "", k + 1);
}

/* The name of argument i of launch k in the code: base and i, as emit_name makes it. */
static void emit_arg_name(struct out *o, const char *base, size_t i, size_t k)
{
    char name[32];

    snprintf(name, sizeof name, "%s%zu", base, i);
    emit_name(o, name, k);
}

/* The values of ints(...) argument i of launch k, the array its buffer is made from. */
static void emit_ints_values(struct out *o, const struct lesson_arg *a, const struct launch_geometry *lg,
                             size_t k, size_t i)
{
    emit(o, "    const cl_int ");
    emit_arg_name(o, "ints", i, k);
    emit(o, "[%zu] = { ", a->nvalues);
    for (size_t v = 0; v < a->nvalues; v++)
        emit(o, "%s%d", v ? ", " : "", lg->ints[(size_t)lg->arg_values[i] + v]);
    emit(o, " };   /* ");
    emit_text(o, a);
    emit(o, " */\n");
}

/* Whether argument i of launch k is an ints(...) that is passed at this size. */
static bool passes_ints(const struct lesson *l, const struct geometry *g, size_t k, size_t i)
{
    return !g->launch[k].skipped && l->launch[k].args[i].kind == ARG_INTS;
}

/* What padding did to the size, for the comment at the top. */
static void emit_padding(struct out *o, const struct lesson *l, const struct param_set *ps, const struct geometry *g)
{
    struct error ignored;

    emit(o, "\n\n   Padding: the kernel takes only sizes with\n");
    if (l->square)
        emit(o, "     M = N = K (square: yes)\n");
    error_init(&ignored);
    for (size_t i = 0; i < l->nmultiples; i++) {
        long long m = 0;
        geometry_eval(l, ps, g->asked, l->multiples[i].expr, &m, &ignored);
        emit(o, "     %c a multiple of %lld (", l->multiples[i].dim, m);
        emit_expr(o, l->multiples[i].expr);
        emit(o, ")\n");
    }
    error_clear(&ignored);
    emit(o, "   so %lldx%lldx%lld is padded to %lldx%lldx%lld: clmm-tutor copies A and B into\n"
            "   zero-filled arrays of the padded size and cuts C back to the %lld x %lld asked for.\n"
            "   a, b and c below are of the padded size.",
         g->asked.m, g->asked.n, g->asked.k, g->run.m, g->run.n, g->run.k, g->asked.m, g->asked.n);
}

/* The comment at the top, the includes and the CHECK macro. */
static void emit_preamble(struct out *o, const struct lesson *l, const struct param_set *ps, const struct geometry *g)
{
    char params[256];
    char *title = comment_text(l->title), *file = comment_text(strrchr(l->kernel_file, '/')
                                                                  ? strrchr(l->kernel_file, '/') + 1
                                                                  : l->kernel_file);

    param_set_format(l, ps, params, sizeof params);
    emit(o, "/* Lesson %d: %s.\n"
            "   C = A B at %lldx%lldx%lld (M x N x K), launched once as clmm-tutor launches it:\n"
            "   kernel %s%s%s.",
         l->number, title, g->asked.m, g->asked.n, g->asked.k, file, params[0] ? ", parameters " : "", params);
    if (g->nlaunches > 1) {
        emit(o, "\n   One run is %zu launches, one after the other, of the kernels", g->nlaunches);
        for (size_t k = 0; k < g->nlaunches; k++)
            emit(o, "%s %s%s", k == 0 ? "" : k + 1 < g->nlaunches ? "," : " and", l->launch[k].entry,
                 g->launch[k].skipped ? " (skipped at this size)" : "");
        emit(o, ".");
    }
    if (g->padded)
        emit_padding(o, l, ps, g);
    emit(o, " */\n"
            "#include <stdio.h>\n"
            "#include <stdlib.h>\n"
            "#ifndef CL_TARGET_OPENCL_VERSION\n"
            "#define CL_TARGET_OPENCL_VERSION 120\n"
            "#endif\n"
            "#include <CL/cl.h>\n"
            "\n"
            "/* Ends the program when an OpenCL call fails, naming it. */\n"
            "#define CHECK(call)                                                          \\\n"
            "    do {                                                                     \\\n"
            "        cl_int status_ = (call);                                             \\\n"
            "        if (status_ != CL_SUCCESS) {                                         \\\n"
            "            fprintf(stderr, \"%%s failed: %%d\\n\", #call, (int)status_);          \\\n"
            "            exit(EXIT_FAILURE);                                              \\\n"
            "        }                                                                    \\\n"
            "    } while (0)\n"
            "\n");
    free(title);
    free(file);
}

/* The comment above the function: what its arguments hold. */
static void emit_matrices(struct out *o, const struct lesson *l, const struct geometry *g)
{
    const struct gemm_size *s = &g->run;
    bool cm = l->column_major;

    emit(o, "/* Builds source (the kernel's text) for device, runs C = A B once on queue and\n"
            "   reads C into c. The matrices are %s: element (i, j) of a matrix\n"
            "   of R rows and C columns is at [%s].\n",
         cm ? "column-major" : "row-major", cm ? "i + j * R" : "i * C + j");
    if (has_arg(l, g, ARG_A)) {
        emit(o, "   a: A, M x K = %lld x %lld floats, A(i, p) at a", s->m, s->k);
        emit_index(o, cm, "i", "p", s->m, s->k);
        emit(o, "\n");
    }
    if (has_arg(l, g, ARG_B) && l->b_transposed) {
        emit(o, "   b: B^T, N x K = %lld x %lld floats (the kernel takes B transposed),\n"
                "      B(p, j) at b", s->n, s->k);
        emit_index(o, cm, "j", "p", s->n, s->k);
        emit(o, "\n");
    } else if (has_arg(l, g, ARG_B)) {
        emit(o, "   b: B, K x N = %lld x %lld floats, B(p, j) at b", s->k, s->n);
        emit_index(o, cm, "p", "j", s->k, s->n);
        emit(o, "\n");
    }
    if (has_arg(l, g, ARG_C)) {
        emit(o, "   c: C, M x N = %lld x %lld floats, C(i, j) at c", s->m, s->n);
        emit_index(o, cm, "i", "j", s->m, s->n);
    }
    emit(o, " */\n");
}

/* The sizes and int arguments as constants, each int(EXPR) with its expression, and the values
   of each ints(EXPR, ...) as an array. */
static void emit_constants(struct out *o, const struct lesson *l, const struct geometry *g)
{
    const char *names = "MNK";
    const long long sides[3] = { g->run.m, g->run.n, g->run.k };
    const enum arg_kind kinds[3] = { ARG_M, ARG_N, ARG_K };
    bool any = false;

    for (int d = 0; d < 3; d++) {
        if (!has_arg(l, g, kinds[d]))
            continue;
        if (!any)
            emit(o, "    /* The sizes the kernel computes%s. */\n", g->padded ? " (after padding)" : "");
        emit(o, "    const cl_int %c = %lld;\n", names[d], sides[d]);
        any = true;
    }
    for (size_t k = 0; k < g->nlaunches; k++)
        for (size_t i = 0; !g->launch[k].skipped && i < l->launch[k].nargs; i++) {
            const struct lesson_arg *a = &l->launch[k].args[i];
            if (a->kind == ARG_INTS) {
                emit_ints_values(o, a, &g->launch[k], k, i);
                any = true;
            }
            if (a->kind != ARG_INT)
                continue;
            emit(o, "    const cl_int ");
            emit_arg_name(o, "arg", i, k);
            emit(o, " = %lld;   /* int(", g->launch[k].arg_values[i]);
            emit_expr(o, a->expr);
            emit(o, ") */\n");
            any = true;
        }
    if (any)
        emit(o, "\n");
}

static void emit_build(struct out *o, const struct lesson *l, const char *options)
{
    emit(o, "    /* The program, built with the lesson's options and parameters as -DNAME=VALUE, and\n"
            "       %s, which keeps the arguments' names and types for clGetKernelArgInfo\n"
            "       (clmm-tutor checks them against the lesson's args) and changes no code%s. */\n",
         MEASURE_ARG_INFO_OPTION, l->nlaunches > 1 ? "; the\n       kernel of each launch" : "");
    emit(o, 
            "    cl_int err;\n"
            "    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);\n"
            "    CHECK(err);\n"
            "    err = clBuildProgram(program, 1, &device, ");
    emit_literal(o, options);
    emit(o, ", NULL, NULL);\n"
            "    if (err != CL_SUCCESS) {\n"
            "        static char log[65536];\n"
            "        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);\n"
            "        fprintf(stderr, \"clBuildProgram failed: %%d\\n%%s\\n\", (int)err, log);\n"
            "        exit(EXIT_FAILURE);\n"
            "    }\n");
    for (size_t k = 0; k < l->nlaunches; k++) {
        emit(o, "    cl_kernel ");
        emit_name(o, "kernel", k);
        emit(o, " = clCreateKernel(program, ");
        emit_literal(o, l->launch[k].entry);
        emit(o, ", &err);\n"
                "    CHECK(err);\n");
    }
}

static void emit_buffers(struct out *o, const struct lesson *l, const struct geometry *g)
{
    const struct gemm_size *s = &g->run;
    size_t f = sizeof(float);

    emit(o, "\n    /* The buffers, in bytes: A and B copied from a and b, C written by the kernel. */\n");
    if (has_arg(l, g, ARG_A))
        emit(o, "    cl_mem a_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n"
                "                                  %zu, (void *)a, &err);   /* M * K * 4 */\n"
                "    CHECK(err);\n", (size_t)s->m * (size_t)s->k * f);
    if (has_arg(l, g, ARG_B))
        emit(o, "    cl_mem b_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n"
                "                                  %zu, (void *)b, &err);   /* %s */\n"
                "    CHECK(err);\n", (size_t)s->k * (size_t)s->n * f, l->b_transposed ? "N * K * 4: B^T" : "K * N * 4");
    if (has_arg(l, g, ARG_C))
        emit(o, "    cl_mem c_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, %zu, NULL, &err);   /* M * N * 4 */\n"
                "    CHECK(err);\n", (size_t)s->m * (size_t)s->n * f);
    if (has_arg(l, g, ARG_W)) {
        emit(o, "    /* The scratch buffer (argument W), written and read by the kernels alone: ");
        emit_expr(o, l->scratch);
        if (g->scratch > 0)
            emit(o, " = %lld floats. */\n", g->scratch);
        else
            emit(o, " is 0 here:\n"
                    "       one float, which the kernels do not use (OpenCL has no empty buffers). */\n");
        emit(o, "    cl_mem w_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, %zu, NULL, &err);\n"
                "    CHECK(err);\n", (size_t)(g->scratch > 0 ? g->scratch : 1) * f);
    }
    for (size_t k = 0; k < g->nlaunches; k++)
        for (size_t i = 0; i < l->launch[k].nargs; i++) {
            if (!passes_ints(l, g, k, i))
                continue;
            emit(o, "    /* Argument %zu", i);
            if (k > 0)
                emit(o, " of launch %zu", k + 1);
            emit(o, ", ");
            emit_text(o, &l->launch[k].args[i]);
            emit(o, ": a __global int buffer of the values above, which the kernel reads. */\n"
                    "    cl_mem ");
            emit_arg_name(o, "ints", i, k);
            emit(o, "_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n"
                    "                                      sizeof ");
            emit_arg_name(o, "ints", i, k);
            emit(o, ", (void *)");
            emit_arg_name(o, "ints", i, k);
            emit(o, ", &err);\n"
                    "    CHECK(err);\n");
        }
    if (has_arg(l, g, ARG_W) && g->scratch_zero > 0) {
        emit(o, "    /* Its first ");
        emit_expr(o, l->scratch_zero);
        emit(o, " = %lld floats (scratch-zero) are counters that the kernels\n"
                "       find at 0 (all bits 0: an int 0) and set back to 0 when done. */\n"
                "    const cl_uint zero = 0;\n"
                "    CHECK(clEnqueueFillBuffer(queue, w_buf, &zero, sizeof zero, 0, %zu, 0, NULL, NULL));\n",
             g->scratch_zero, (size_t)g->scratch_zero * f);
    }
}

/* The arguments of launch k, in its kernel's order. */
static void emit_args(struct out *o, const struct lesson *l, const struct geometry *g, size_t k)
{
    const struct lesson_launch *launch = &l->launch[k];
    const long long *values = g->launch[k].arg_values;

    emit(o, "\n    /* The arguments, in the kernel's order (%s:", k == 0 ? "args" : "then-args");
    for (size_t i = 0; i < launch->nargs; i++) {
        emit(o, " ");
        emit_text(o, &launch->args[i]);
    }
    emit(o, "). */\n");
    for (size_t i = 0; i < launch->nargs; i++) {
        const struct lesson_arg *a = &launch->args[i];
        emit(o, "    CHECK(clSetKernelArg(");
        emit_name(o, "kernel", k);
        switch (a->kind) {
        case ARG_M: case ARG_N: case ARG_K:
            emit(o, ", %zu, sizeof(cl_int), &%c));\n", i, a->kind == ARG_M ? 'M' : a->kind == ARG_N ? 'N' : 'K');
            break;
        case ARG_INT:
            emit(o, ", %zu, sizeof(cl_int), &", i);
            emit_arg_name(o, "arg", i, k);
            emit(o, "));\n");
            break;
        case ARG_INTS:
            emit(o, ", %zu, sizeof(cl_mem), &", i);
            emit_arg_name(o, "ints", i, k);
            emit(o, "_buf));\n");
            break;
        case ARG_A: case ARG_B: case ARG_C: case ARG_W:
            emit(o, ", %zu, sizeof(cl_mem), &%c_buf));%s\n", i,
                 a->kind == ARG_A ? 'a' : a->kind == ARG_B ? 'b' : a->kind == ARG_C ? 'c' : 'w',
                 a->kind == ARG_B && l->b_transposed ? "   /* B^T */" : "");
            break;
        case ARG_LOCAL:
            emit(o, ", %zu, %zu, NULL));   /* local(", i, (size_t)values[i] * sizeof(float));
            emit_expr(o, a->expr);
            emit(o, "): %lld floats of local memory */\n", values[i]);
            break;
        }
    }
}

/* "{ 128, 96 }   EXPR, EXPR", the array called name for launch k. */
static void emit_range(struct out *o, const char *name, size_t k, const size_t *sizes, char *const *exprs,
                       size_t dims)
{
    emit(o, "    const size_t ");
    emit_name(o, name, k);
    emit(o, "[%zu] = { ", dims);
    for (size_t d = 0; d < dims; d++)
        emit(o, "%s%zu", d ? ", " : "", sizes[d]);
    emit(o, " };   /* ");
    for (size_t d = 0; d < dims; d++) {
        emit(o, "%s", d ? ", " : "");
        emit_expr(o, exprs[d]);
    }
    emit(o, " */\n");
}

/* Launch k: its NDRange and the call that queues it. The queue runs the launches in order, each
   after the one before has finished. */
static void emit_launch(struct out *o, const struct lesson *l, const struct geometry *g, size_t k)
{
    const struct lesson_launch *launch = &l->launch[k];
    const struct launch_geometry *lg = &g->launch[k];

    emit(o, "\n    /* The NDRange%s: %zu work-items", g->nlaunches > 1 ? (k == 0 ? " of the first launch" : "")
                                                                     : "", lg->work_items);
    if (lg->has_local)
        emit(o, " in %zu work-group%s of %zu. */\n", lg->groups, lg->groups == 1 ? "" : "s", lg->group_items);
    else
        emit(o, "; the lesson has no %s line, so the implementation chooses the\n"
                "       work-group size (local is NULL). */\n", k == 0 ? "local" : "then-local");
    emit_range(o, "global", k, lg->global, launch->global, lg->dims);
    if (lg->has_local)
        emit_range(o, "local", k, lg->local, launch->local, lg->dims);
    emit(o, "    CHECK(clEnqueueNDRangeKernel(queue, ");
    emit_name(o, "kernel", k);
    emit(o, ", %zu, NULL, ", lg->dims);
    emit_name(o, "global", k);
    emit(o, ", ");
    if (lg->has_local)
        emit_name(o, "local", k);
    else
        emit(o, "NULL");
    emit(o, ", 0, NULL, NULL));\n");
}

/* Launch k after the first: its arguments and NDRange, or why it is skipped. */
static void emit_further(struct out *o, const struct lesson *l, const struct geometry *g, size_t k)
{
    emit(o, "\n    /* Launch %zu of %zu (then: %s)", k + 1, g->nlaunches, l->launch[k].entry);
    if (g->launch[k].skipped) {
        emit(o, ": skipped at this size, its then-when line (");
        emit_expr(o, l->launch[k].when);
        emit(o, ") being 0. */\n");
        return;
    }
    if (l->launch[k].when) {
        emit(o, ", run because its then-when line (");
        emit_expr(o, l->launch[k].when);
        emit(o, ") is not 0");
    }
    emit(o, ". */");
    emit_args(o, l, g, k);
    emit_launch(o, l, g, k);
}

static void emit_finish(struct out *o, const struct lesson *l, const struct geometry *g)
{
    const struct gemm_size *s = &g->run;

    if (has_arg(l, g, ARG_C))
        emit(o, "\n    /* C, read back when the kernel is done (a blocking read). */\n"
                "    CHECK(clEnqueueReadBuffer(queue, c_buf, CL_TRUE, 0, %zu, c, 0, NULL, NULL));\n",
             (size_t)s->m * (size_t)s->n * sizeof(float));
    else
        emit(o, "\n    CHECK(clFinish(queue));\n    (void)c;\n");
    emit(o, "\n");
    if (has_arg(l, g, ARG_A))
        emit(o, "    clReleaseMemObject(a_buf);\n");
    else
        emit(o, "    (void)a;\n");
    if (has_arg(l, g, ARG_B))
        emit(o, "    clReleaseMemObject(b_buf);\n");
    else
        emit(o, "    (void)b;\n");
    if (has_arg(l, g, ARG_C))
        emit(o, "    clReleaseMemObject(c_buf);\n");
    if (has_arg(l, g, ARG_W))
        emit(o, "    clReleaseMemObject(w_buf);\n");
    for (size_t k = 0; k < g->nlaunches; k++)
        for (size_t i = 0; i < l->launch[k].nargs; i++)
            if (passes_ints(l, g, k, i)) {
                emit(o, "    clReleaseMemObject(");
                emit_arg_name(o, "ints", i, k);
                emit(o, "_buf);\n");
            }
    for (size_t k = 0; k < l->nlaunches; k++) {
        emit(o, "    clReleaseKernel(");
        emit_name(o, "kernel", k);
        emit(o, ");\n");
    }
    emit(o, "    clReleaseProgram(program);\n"
            "}\n");
}

char *hostcode_generate(const struct lesson *l, const struct param_set *ps, struct gemm_size asked,
                        struct error *e)
{
    char options[MEASURE_OPTIONS_MAX];
    struct geometry g;
    struct out o = { NULL, 0, 0 };

    if (l->engine != ENGINE_OPENCL) {
        error_set(e, "lesson %d runs on the host: it launches no kernel", l->number);
        return NULL;
    }
    if (geometry_compute(l, ps, asked, &g, e) < 0 || measure_check_indices(&g, e) < 0 ||
        measure_options(l, ps, NULL, options, sizeof options, e) < 0)
        return NULL;
    emit_preamble(&o, l, ps, &g);
    emit_matrices(&o, l, &g);
    emit(&o, "void run_lesson_%d(cl_context context, cl_device_id device, cl_command_queue queue,\n"
             "                  const char *source, const float *a, const float *b, float *c)\n"
             "{\n", l->number);
    emit_constants(&o, l, &g);
    emit_build(&o, l, options);
    emit_buffers(&o, l, &g);
    emit_args(&o, l, &g, 0);
    emit_launch(&o, l, &g, 0);
    for (size_t k = 1; k < g.nlaunches; k++)
        emit_further(&o, l, &g, k);
    emit_finish(&o, l, &g);
    return o.buf;
}
