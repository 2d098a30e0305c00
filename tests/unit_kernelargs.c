/* unit_kernelargs.c: a declared argument against a kernel's argument, and the message that
   names both and the word that fits. */
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "engine/kernelargs.h"

static struct kernel_arg_sig sig(cl_kernel_arg_address_qualifier address, const char *type, const char *name)
{
    struct kernel_arg_sig s;

    memset(&s, 0, sizeof s);
    s.address = address;
    snprintf(s.type, sizeof s.type, "%s", type);
    snprintf(s.name, sizeof s.name, "%s", name);
    return s;
}

#define GLOBAL CL_KERNEL_ARG_ADDRESS_GLOBAL
#define LOCAL CL_KERNEL_ARG_ADDRESS_LOCAL
#define CONSTANT CL_KERNEL_ARG_ADDRESS_CONSTANT
#define PRIVATE CL_KERNEL_ARG_ADDRESS_PRIVATE

static char one_value[] = "K", *k_values[] = { one_value };
static char tiles[] = "TS * TS";
static const struct lesson_arg arg_k = { ARG_K, NULL, NULL, 0 };
static const struct lesson_arg arg_a = { ARG_A, NULL, NULL, 0 };
static const struct lesson_arg arg_w = { ARG_W, NULL, NULL, 0 };
static const struct lesson_arg arg_local = { ARG_LOCAL, tiles, NULL, 0 };
static const struct lesson_arg arg_ints_k = { ARG_INTS, NULL, k_values, 1 };

START_TEST(test_kernelargs_fits)
{
    /* Sizes and int(EXPR): an int or uint by value. */
    ck_assert(kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ PRIVATE, false, "int", "K" }));
    ck_assert(kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ PRIVATE, false, "uint", "K" }));
    ck_assert(kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ PRIVATE, false, "unsigned int", "K" }));
    ck_assert(!kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ GLOBAL, false, "int*", "q" }));
    ck_assert(!kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ PRIVATE, false, "float", "K" }));
    ck_assert(!kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ PRIVATE, false, "long", "K" }));
    ck_assert(!kernelargs_fits(&arg_k, &(struct kernel_arg_sig){ PRIVATE, false, "int2", "K" }));
    /* Matrices: __global or __constant pointers to float or a float vector. */
    ck_assert(kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ GLOBAL, true, "float*", "A" }));
    ck_assert(kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ GLOBAL, false, "float4 *", "A" }));
    ck_assert(kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ CONSTANT, true, "float*", "A" }));
    ck_assert(!kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ GLOBAL, false, "int*", "A" }));
    ck_assert(!kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ GLOBAL, false, "double*", "A" }));
    ck_assert(!kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ LOCAL, false, "float*", "A" }));
    ck_assert(!kernelargs_fits(&arg_w, &(struct kernel_arg_sig){ PRIVATE, false, "float", "W" }));
    /* A typedef (lessons 7 and 8: floatW) is taken on its address space and pointer alone. */
    ck_assert(kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ GLOBAL, false, "floatW*", "A" }));
    ck_assert(!kernelargs_fits(&arg_a, &(struct kernel_arg_sig){ PRIVATE, false, "floatW", "A" }));
    /* local(EXPR): any __local pointer (lesson 19 keeps ints there). */
    ck_assert(kernelargs_fits(&arg_local, &(struct kernel_arg_sig){ LOCAL, false, "float*", "t" }));
    ck_assert(kernelargs_fits(&arg_local, &(struct kernel_arg_sig){ LOCAL, false, "int*", "t" }));
    ck_assert(!kernelargs_fits(&arg_local, &(struct kernel_arg_sig){ GLOBAL, false, "float*", "t" }));
    /* ints(...): a __global pointer to int or uint. */
    ck_assert(kernelargs_fits(&arg_ints_k, &(struct kernel_arg_sig){ GLOBAL, false, "int*", "q" }));
    ck_assert(kernelargs_fits(&arg_ints_k, &(struct kernel_arg_sig){ GLOBAL, true, "uint*", "q" }));
    ck_assert(!kernelargs_fits(&arg_ints_k, &(struct kernel_arg_sig){ GLOBAL, false, "float*", "q" }));
    ck_assert(!kernelargs_fits(&arg_ints_k, &(struct kernel_arg_sig){ GLOBAL, false, "int4*", "q" }));
    ck_assert(!kernelargs_fits(&arg_ints_k, &(struct kernel_arg_sig){ PRIVATE, false, "int", "q" }));
    ck_assert(!kernelargs_fits(&arg_ints_k, &(struct kernel_arg_sig){ LOCAL, false, "int*", "q" }));
}
END_TEST

START_TEST(test_kernelargs_describe)
{
    char buf[128];
    struct kernel_arg_sig s = sig(GLOBAL, "int*", "q");

    ck_assert_str_eq(kernelargs_describe(&s, buf, sizeof buf), "__global int *q");
    s = sig(GLOBAL, "float4*", "A");
    s.const_pointee = true;
    ck_assert_str_eq(kernelargs_describe(&s, buf, sizeof buf), "__global const float4 *A");
    s = sig(PRIVATE, "int", "K");
    ck_assert_str_eq(kernelargs_describe(&s, buf, sizeof buf), "int K");
    s = sig(LOCAL, "float*", "");
    ck_assert_str_eq(kernelargs_describe(&s, buf, sizeof buf), "__local float *");
    s = sig(CONSTANT, "float*", "B");
    ck_assert_str_eq(kernelargs_describe(&s, buf, sizeof buf), "__constant float *B");
}
END_TEST

/* The message names the argument, its type in the kernel, what the lesson declared and the
   word that fits, made from what was declared where it can be. */
static void mismatch_is(const struct lesson_arg *a, struct kernel_arg_sig s, const char *want)
{
    struct error e;

    error_init(&e);
    kernelargs_mismatch("floatMatrixMult", 3, a, &s, &e);
    ck_assert_str_eq(e.msg, want);
}

START_TEST(test_kernelargs_mismatch)
{
    static char k_over_ts[] = "K / TS";
    static char m_value[] = "M", *mk_values[] = { m_value, one_value };
    const struct lesson_arg int_expr = { ARG_INT, k_over_ts, NULL, 0 };
    const struct lesson_arg ints_mk = { ARG_INTS, NULL, mk_values, 2 };

    mismatch_is(&arg_k, sig(GLOBAL, "int*", "q"),
                "argument 4 of floatMatrixMult is `__global int *q`; the lesson declares K, an int: use ints(K)");
    mismatch_is(&int_expr, sig(GLOBAL, "int*", "q"),
                "argument 4 of floatMatrixMult is `__global int *q`; the lesson declares int(K / TS), an int: use "
                "ints(K / TS)");
    mismatch_is(&arg_ints_k, sig(PRIVATE, "int", "K"),
                "argument 4 of floatMatrixMult is `int K`; the lesson declares ints(K), a __global int buffer: use K");
    mismatch_is(&ints_mk, sig(PRIVATE, "int", "K"),
                "argument 4 of floatMatrixMult is `int K`; the lesson declares ints(M, K), a __global int buffer: "
                "use M, N, K or int(EXPR)");
    mismatch_is(&arg_a, sig(GLOBAL, "int*", "q"),
                "argument 4 of floatMatrixMult is `__global int *q`; the lesson declares A, a __global float buffer: "
                "use ints(EXPR, ...), the values it holds");
    mismatch_is(&arg_ints_k, sig(GLOBAL, "float*", "M2"),
                "argument 4 of floatMatrixMult is `__global float *M2`; the lesson declares ints(K), a __global int "
                "buffer: use A, B or C (a matrix), or W (the scratch buffer)");
    mismatch_is(&arg_a, sig(LOCAL, "float*", "tile"),
                "argument 4 of floatMatrixMult is `__local float *tile`; the lesson declares A, a __global float "
                "buffer: use local(EXPR), EXPR its size in floats (4 bytes each)");
    mismatch_is(&arg_local, sig(GLOBAL, "float*", "A"),
                "argument 4 of floatMatrixMult is `__global float *A`; the lesson declares local(TS * TS), a __local "
                "buffer: use A, B or C (a matrix), or W (the scratch buffer)");
    mismatch_is(&arg_w, sig(GLOBAL, "double*", "D"),
                "argument 4 of floatMatrixMult is `__global double *D`; the lesson declares W, the scratch buffer, a "
                "__global float buffer: no argument of the lesson format takes that type (lessons/FORMAT, args): "
                "change the kernel to take one that it has");
}
END_TEST

Suite *kernelargs_suite(void)
{
    Suite *s = suite_create("kernelargs");
    TCase *tc = tcase_create("kernelargs");

    tcase_add_test(tc, test_kernelargs_fits);
    tcase_add_test(tc, test_kernelargs_describe);
    tcase_add_test(tc, test_kernelargs_mismatch);
    suite_add_tcase(s, tc);
    return s;
}
