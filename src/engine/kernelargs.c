/* kernelargs.c: the lesson's declared arguments against the kernel's own signature. */
#include "kernelargs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

/* The element type of an argument, as far as the check needs it; BASE_ANY in what a word of
   the lesson format wants: any type will do. */
enum base { BASE_FLOAT, BASE_INT, BASE_OTHER, BASE_UNKNOWN, BASE_ANY };

/* What the lesson format can pass, and what a kernel's argument is. */
struct shape {
    char space;                 /* 'g' __global or __constant, 'l' __local, 'p' private */
    bool pointer;
    enum base base;
};

/* The scalar types of OpenCL C, each also with a vector width after it (float4). */
static const char *const builtin[] = { "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                                       "half", "float", "double", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
                                       "void" };

/* The base of a type name without its pointer: "float4" is a float, "uint" an int, "int4" and
   "double" some other builtin, "floatW" (a typedef) unknown. */
static enum base base_of(const char *type)
{
    char t[128];
    size_t n;

    /* "unsigned int" and the like as "uint". */
    if (strncmp(type, "unsigned", 8) == 0)
        snprintf(t, sizeof t, "u%s", type + 8 + strspn(type + 8, " "));
    else
        snprintf(t, sizeof t, "%s", type);
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        n = strlen(builtin[i]);
        if (strncmp(t, builtin[i], n) != 0 || strspn(t + n, "0123456789") != strlen(t + n))
            continue;
        if (strcmp(builtin[i], "float") == 0)
            return BASE_FLOAT;
        if (t[n] == '\0' && (strcmp(builtin[i], "int") == 0 || strcmp(builtin[i], "uint") == 0))
            return BASE_INT;
        return BASE_OTHER;
    }
    return BASE_UNKNOWN;
}

/* The type name without blanks, its pointer stars counted. */
static struct shape shape_of(const struct kernel_arg_sig *sig, char *type, size_t len)
{
    struct shape s = { 'p', false, BASE_UNKNOWN };
    size_t n;

    snprintf(type, len, "%s", sig->type);
    n = strlen(type);
    while (n > 0 && (type[n - 1] == ' ' || type[n - 1] == '*')) {
        s.pointer |= type[n - 1] == '*';
        type[--n] = '\0';
    }
    s.base = base_of(type);
    if (sig->address == CL_KERNEL_ARG_ADDRESS_GLOBAL || sig->address == CL_KERNEL_ARG_ADDRESS_CONSTANT)
        s.space = 'g';
    else if (sig->address == CL_KERNEL_ARG_ADDRESS_LOCAL)
        s.space = 'l';
    return s;
}

/* What the declared argument needs. */
static struct shape wanted(const struct lesson_arg *a)
{
    switch (a->kind) {
    case ARG_A: case ARG_B: case ARG_C: case ARG_W:
        return (struct shape){ 'g', true, BASE_FLOAT };
    case ARG_LOCAL:     /* bytes, as many as EXPR floats: lesson 19 keeps ints there */
        return (struct shape){ 'l', true, BASE_ANY };
    case ARG_INTS:
        return (struct shape){ 'g', true, BASE_INT };
    default:
        return (struct shape){ 'p', false, BASE_INT };
    }
}

bool kernelargs_fits(const struct lesson_arg *a, const struct kernel_arg_sig *sig)
{
    char type[128];
    struct shape have = shape_of(sig, type, sizeof type), want = wanted(a);

    return have.space == want.space && have.pointer == want.pointer &&
           (have.base == want.base || have.base == BASE_UNKNOWN || want.base == BASE_ANY);
}

const char *kernelargs_describe(const struct kernel_arg_sig *sig, char *buf, size_t len)
{
    static const struct {
        cl_kernel_arg_address_qualifier q;
        const char *word;
    } spaces[] = { { CL_KERNEL_ARG_ADDRESS_GLOBAL, "__global " }, { CL_KERNEL_ARG_ADDRESS_LOCAL, "__local " },
                   { CL_KERNEL_ARG_ADDRESS_CONSTANT, "__constant " } };
    const char *space = "";
    char type[128];
    struct shape s = shape_of(sig, type, sizeof type);

    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (sig->address == spaces[i].q)
            space = spaces[i].word;
    snprintf(buf, len, "%s%s%s%s%s%s", space, s.pointer && sig->const_pointee ? "const " : "", type,
             s.pointer || sig->name[0] ? " " : "", s.pointer ? "*" : "", sig->name);
    return buf;
}

/* What the lesson declares, in words: "K, an int". */
static void declared(const struct lesson_arg *a, const char *text, char *buf, size_t len)
{
    const char *what;

    switch (a->kind) {
    case ARG_A: case ARG_B: case ARG_C: what = "a __global float buffer"; break;
    case ARG_W: what = "the scratch buffer, a __global float buffer"; break;
    case ARG_LOCAL: what = "a __local buffer"; break;
    case ARG_INTS: what = "a __global int buffer"; break;
    default: what = "an int"; break;
    }
    snprintf(buf, len, "%.300s, %s", text, what);
}

/* The word of the lesson format that fits an argument of this shape, made from what the lesson
   declares where it can be: K becomes ints(K) for a __global int *, ints(K) becomes K for an
   int. */
static void fitting(const struct lesson_arg *a, struct shape have, char *buf, size_t len)
{
    const char *one = a->kind == ARG_INT ? a->expr : a->kind == ARG_INTS && a->nvalues == 1 ? a->values[0] : NULL;
    const char *size = a->kind == ARG_M ? "M" : a->kind == ARG_N ? "N" : a->kind == ARG_K ? "K" : NULL;

    if (have.space == 'p' && !have.pointer && (have.base == BASE_INT || have.base == BASE_UNKNOWN)) {
        if (a->kind == ARG_INTS && one && strlen(one) == 1 && strchr("MNK", one[0]))
            snprintf(buf, len, "use %s", one);
        else if (a->kind == ARG_INTS && one)
            snprintf(buf, len, "use int(%.200s)", one);
        else
            snprintf(buf, len, "use M, N, K or int(EXPR)");
    } else if (have.space == 'g' && have.pointer && have.base == BASE_INT) {
        if (size || one)
            snprintf(buf, len, "use ints(%.200s)", size ? size : one);
        else
            snprintf(buf, len, "use ints(EXPR, ...), the values it holds");
    } else if (have.space == 'g' && have.pointer && (have.base == BASE_FLOAT || have.base == BASE_UNKNOWN)) {
        snprintf(buf, len, "use A, B or C (a matrix), or W (the scratch buffer)");
    } else if (have.space == 'l' && have.pointer) {
        snprintf(buf, len, "use local(EXPR), EXPR its size in floats (4 bytes each)");
    } else {
        snprintf(buf, len, "no argument of the lesson format takes that type (lessons/FORMAT, args): change the "
                           "kernel to take one that it has");
    }
}

void kernelargs_mismatch(const char *entry, size_t index, const struct lesson_arg *a,
                         const struct kernel_arg_sig *sig, struct error *e)
{
    char type[128], kernel[300], lesson[400], use[300];
    char *text = lesson_arg_text(a);

    kernelargs_describe(sig, kernel, sizeof kernel);
    declared(a, text, lesson, sizeof lesson);
    fitting(a, shape_of(sig, type, sizeof type), use, sizeof use);
    error_set(e, "argument %zu of %.100s is `%s`; the lesson declares %s: %s", index + 1, entry, kernel, lesson, use);
    free(text);
}

/* Argument i of kernel, read back; false where the implementation does not say. */
static bool read_sig(cl_kernel kernel, cl_uint i, struct kernel_arg_sig *sig)
{
    cl_kernel_arg_type_qualifier q = 0;

    memset(sig, 0, sizeof *sig);
    if (clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof sig->address, &sig->address, NULL) !=
            CL_SUCCESS ||
        clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof sig->type - 1, sig->type, NULL) != CL_SUCCESS)
        return false;
    if (clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof q, &q, NULL) == CL_SUCCESS)
        sig->const_pointee = (q & CL_KERNEL_ARG_TYPE_CONST) != 0;
    if (clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_NAME, sizeof sig->name - 1, sig->name, NULL) != CL_SUCCESS)
        sig->name[0] = '\0';
    /* Names and types come from the kernel's source: keep them to what a C declaration holds. */
    for (char *p = sig->type; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_* ", *p))
            *p = '?';
    for (char *p = sig->name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            *p = '?';
    return true;
}

/* "ENTRY(__global float *A, ...)" where the implementation gives the arguments, else "ENTRY". */
static void signature(cl_kernel kernel, const char *entry, cl_uint count, char *buf, size_t len)
{
    struct kernel_arg_sig sig;
    struct str s;
    char one[300];

    str_init(&s, buf, len);
    str_appendf(&s, "", "%.100s", entry);
    for (cl_uint i = 0; i < count; i++) {
        if (!read_sig(kernel, i, &sig)) {
            str_init(&s, buf, len);
            str_appendf(&s, "", "%.100s", entry);
            return;
        }
        str_appendf(&s, "", "%s%s", i ? ", " : "(", kernelargs_describe(&sig, one, sizeof one));
    }
    str_appendf(&s, "", "%s", count ? ")" : "(void)");
}

int kernelargs_check(const struct lesson *l, size_t i, cl_kernel kernel, struct error *e)
{
    const struct lesson_launch *k = &l->launch[i];
    struct kernel_arg_sig sig;
    cl_uint count = 0;
    cl_int rc;

    rc = clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, NULL);
    if (rc != CL_SUCCESS) {
        clerror_set(e, "clGetKernelInfo", rc);
        error_prefix(e, "kernel \"%.100s\"", k->entry);
        return -1;
    }
    if (count != k->nargs) {
        char sigs[600], line[400];
        struct str s;
        signature(kernel, k->entry, count, sigs, sizeof sigs);
        str_init(&s, line, sizeof line);
        for (size_t a = 0; a < k->nargs; a++) {
            char *text = lesson_arg_text(&k->args[a]);
            str_appendf(&s, " ", "%s", text);
            free(text);
        }
        error_set(e, "%s:%d: %s takes %u argument%s; the %s line declares %zu (%s): declare one for each of the "
                  "kernel's arguments, in its order", l->file, k->args_line, sigs, count, count == 1 ? "" : "s",
                  i == 0 ? "args" : "then-args", k->nargs, line);
        return -1;
    }
    for (cl_uint a = 0; a < count; a++) {
        if (!read_sig(kernel, a, &sig))
            return 0;   /* built without the information, or an implementation that keeps none */
        if (!kernelargs_fits(&k->args[a], &sig)) {
            kernelargs_mismatch(k->entry, a, &k->args[a], &sig, e);
            error_prefix(e, "%s:%d", l->file, k->args_line);
            return -1;
        }
    }
    return 0;
}
