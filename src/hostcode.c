/* hostcode.c: a lesson's launch written out as a plain OpenCL C function: what the engine
   does for one run (measure.c), with every size, argument and NDRange evaluated from the
   lesson file (geometry.c) and the compiler options measure.c builds with. */
#include "hostcode.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Where element (r, c) of a rows x cols matrix lies in its array. */
static void emit_index(struct out *o, bool column_major, const char *r, const char *c, long long rows,
                       long long cols)
{
    if (column_major)
        emit(o, "[%s + %s * %lld]", r, c, rows);
    else
        emit(o, "[%s * %lld + %s]", r, cols, c);
}

static bool has_arg(const struct lesson *l, enum arg_kind kind)
{
    for (size_t i = 0; i < l->nargs; i++)
        if (l->args[i].kind == kind)
            return true;
    return false;
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
static void emit_matrices(struct out *o, const struct lesson *l, const struct gemm_size *s)
{
    bool cm = l->column_major;

    emit(o, "/* Builds source (the kernel's text) for device, runs C = A B once on queue and\n"
            "   reads C into c. The matrices are %s: element (i, j) of a matrix\n"
            "   of R rows and C columns is at [%s].\n",
         cm ? "column-major" : "row-major", cm ? "i + j * R" : "i * C + j");
    if (has_arg(l, ARG_A)) {
        emit(o, "   a: A, M x K = %lld x %lld floats, A(i, p) at a", s->m, s->k);
        emit_index(o, cm, "i", "p", s->m, s->k);
        emit(o, "\n");
    }
    if (has_arg(l, ARG_B) && l->b_transposed) {
        emit(o, "   b: B^T, N x K = %lld x %lld floats (the kernel takes B transposed),\n"
                "      B(p, j) at b", s->n, s->k);
        emit_index(o, cm, "j", "p", s->n, s->k);
        emit(o, "\n");
    } else if (has_arg(l, ARG_B)) {
        emit(o, "   b: B, K x N = %lld x %lld floats, B(p, j) at b", s->k, s->n);
        emit_index(o, cm, "p", "j", s->k, s->n);
        emit(o, "\n");
    }
    if (has_arg(l, ARG_C)) {
        emit(o, "   c: C, M x N = %lld x %lld floats, C(i, j) at c", s->m, s->n);
        emit_index(o, cm, "i", "j", s->m, s->n);
    }
    emit(o, " */\n");
}

/* The sizes and int arguments as constants, each int(EXPR) with its expression. */
static void emit_constants(struct out *o, const struct lesson *l, const struct geometry *g)
{
    const char *names = "MNK";
    const long long sides[3] = { g->run.m, g->run.n, g->run.k };
    const enum arg_kind kinds[3] = { ARG_M, ARG_N, ARG_K };
    bool any = false;

    for (int d = 0; d < 3; d++) {
        if (!has_arg(l, kinds[d]))
            continue;
        if (!any)
            emit(o, "    /* The sizes the kernel computes%s. */\n", g->padded ? " (after padding)" : "");
        emit(o, "    const cl_int %c = %lld;\n", names[d], sides[d]);
        any = true;
    }
    for (size_t i = 0; i < l->nargs; i++) {
        if (l->args[i].kind != ARG_INT)
            continue;
        emit(o, "    const cl_int arg%zu = %lld;   /* int(", i, g->arg_values[i]);
        emit_expr(o, l->args[i].expr);
        emit(o, ") */\n");
        any = true;
    }
    if (any)
        emit(o, "\n");
}

static void emit_build(struct out *o, const struct lesson *l, const char *options)
{
    emit(o, "    /* The program, built with the lesson's options and parameters as -DNAME=VALUE. */\n"
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
            "    }\n"
            "    cl_kernel kernel = clCreateKernel(program, ");
    emit_literal(o, l->entry);
    emit(o, ", &err);\n"
            "    CHECK(err);\n");
}

static void emit_buffers(struct out *o, const struct lesson *l, const struct gemm_size *s)
{
    size_t f = sizeof(float);

    emit(o, "\n    /* The buffers, in bytes: A and B copied from a and b, C written by the kernel. */\n");
    if (has_arg(l, ARG_A))
        emit(o, "    cl_mem a_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n"
                "                                  %zu, (void *)a, &err);   /* M * K * 4 */\n"
                "    CHECK(err);\n", (size_t)s->m * (size_t)s->k * f);
    if (has_arg(l, ARG_B))
        emit(o, "    cl_mem b_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n"
                "                                  %zu, (void *)b, &err);   /* %s */\n"
                "    CHECK(err);\n", (size_t)s->k * (size_t)s->n * f, l->b_transposed ? "N * K * 4: B^T" : "K * N * 4");
    if (has_arg(l, ARG_C))
        emit(o, "    cl_mem c_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, %zu, NULL, &err);   /* M * N * 4 */\n"
                "    CHECK(err);\n", (size_t)s->m * (size_t)s->n * f);
}

static void emit_args(struct out *o, const struct lesson *l, const struct geometry *g)
{
    emit(o, "\n    /* The arguments, in the kernel's order (args:");
    for (size_t i = 0; i < l->nargs; i++) {
        static const char *const plain[] = { [ARG_M] = "M", [ARG_N] = "N", [ARG_K] = "K",
                                             [ARG_A] = "A", [ARG_B] = "B", [ARG_C] = "C" };
        const struct lesson_arg *a = &l->args[i];
        if (a->kind == ARG_INT || a->kind == ARG_LOCAL) {
            emit(o, " %s(", a->kind == ARG_INT ? "int" : "local");
            emit_expr(o, a->expr);
            emit(o, ")");
        } else {
            emit(o, " %s", plain[a->kind]);
        }
    }
    emit(o, "). */\n");
    for (size_t i = 0; i < l->nargs; i++) {
        const struct lesson_arg *a = &l->args[i];
        switch (a->kind) {
        case ARG_M: case ARG_N: case ARG_K:
            emit(o, "    CHECK(clSetKernelArg(kernel, %zu, sizeof(cl_int), &%c));\n", i,
                 a->kind == ARG_M ? 'M' : a->kind == ARG_N ? 'N' : 'K');
            break;
        case ARG_INT:
            emit(o, "    CHECK(clSetKernelArg(kernel, %zu, sizeof(cl_int), &arg%zu));\n", i, i);
            break;
        case ARG_A: case ARG_B: case ARG_C:
            emit(o, "    CHECK(clSetKernelArg(kernel, %zu, sizeof(cl_mem), &%c_buf));%s\n", i,
                 a->kind == ARG_A ? 'a' : a->kind == ARG_B ? 'b' : 'c',
                 a->kind == ARG_B && l->b_transposed ? "   /* B^T */" : "");
            break;
        case ARG_LOCAL:
            emit(o, "    CHECK(clSetKernelArg(kernel, %zu, %zu, NULL));   /* local(", i,
                 (size_t)g->arg_values[i] * sizeof(float));
            emit_expr(o, a->expr);
            emit(o, "): %lld floats of local memory */\n", g->arg_values[i]);
            break;
        }
    }
}

/* "{ 128, 96 }   EXPR, EXPR" */
static void emit_range(struct out *o, const char *name, const size_t *sizes, char *const *exprs, size_t dims)
{
    emit(o, "    const size_t %s[%zu] = { ", name, dims);
    for (size_t d = 0; d < dims; d++)
        emit(o, "%s%zu", d ? ", " : "", sizes[d]);
    emit(o, " };   /* ");
    for (size_t d = 0; d < dims; d++) {
        emit(o, "%s", d ? ", " : "");
        emit_expr(o, exprs[d]);
    }
    emit(o, " */\n");
}

static void emit_launch(struct out *o, const struct lesson *l, const struct geometry *g)
{
    emit(o, "\n    /* The NDRange: %zu work-items", g->work_items);
    if (g->has_local)
        emit(o, " in %zu work-group%s of %zu. */\n", g->groups, g->groups == 1 ? "" : "s", g->group_items);
    else
        emit(o, "; the lesson has no local line, so the implementation chooses the\n"
                "       work-group size (local is NULL). */\n");
    emit_range(o, "global", g->global, l->global, g->dims);
    if (g->has_local)
        emit_range(o, "local", g->local, l->local, g->dims);
    emit(o, "    CHECK(clEnqueueNDRangeKernel(queue, kernel, %zu, NULL, global, %s, 0, NULL, NULL));\n", g->dims,
         g->has_local ? "local" : "NULL");
}

static void emit_finish(struct out *o, const struct lesson *l, const struct gemm_size *s)
{
    if (has_arg(l, ARG_C))
        emit(o, "\n    /* C, read back when the kernel is done (a blocking read). */\n"
                "    CHECK(clEnqueueReadBuffer(queue, c_buf, CL_TRUE, 0, %zu, c, 0, NULL, NULL));\n",
             (size_t)s->m * (size_t)s->n * sizeof(float));
    else
        emit(o, "\n    CHECK(clFinish(queue));\n    (void)c;\n");
    emit(o, "\n");
    if (has_arg(l, ARG_A))
        emit(o, "    clReleaseMemObject(a_buf);\n");
    else
        emit(o, "    (void)a;\n");
    if (has_arg(l, ARG_B))
        emit(o, "    clReleaseMemObject(b_buf);\n");
    else
        emit(o, "    (void)b;\n");
    if (has_arg(l, ARG_C))
        emit(o, "    clReleaseMemObject(c_buf);\n");
    emit(o, "    clReleaseKernel(kernel);\n"
            "    clReleaseProgram(program);\n"
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
    emit_matrices(&o, l, &g.run);
    emit(&o, "void run_lesson_%d(cl_context context, cl_device_id device, cl_command_queue queue,\n"
             "                  const char *source, const float *a, const float *b, float *c)\n"
             "{\n", l->number);
    emit_constants(&o, l, &g);
    emit_build(&o, l, options);
    emit_buffers(&o, l, &g.run);
    emit_args(&o, l, &g);
    emit_launch(&o, l, &g);
    emit_finish(&o, l, &g.run);
    return o.buf;
}
