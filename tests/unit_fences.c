/* unit_fences.c: the fences of a kernel whose groups pass results between them (fences.h):
   lesson 18's kernel as shipped is right, and each fence taken out, weakened or put in the
   wrong place is found with its lines; oclgrind's reports of races between groups are left
   out for such an exercise, and a race inside a group is still reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/fences.h"
#include "engine/files.h"
#include "engine/races.h"
#include "engine/str.h"

#define ENTRY "gemm_last_adds"

static char *lesson18(void)
{
    char path[4200];
    const char *top = getenv("top_srcdir");
    struct error e;
    size_t len;
    char *text;

    error_init(&e);
    snprintf(path, sizeof path, "%s/kernels/18-last-group-adds.cl", top ? top : CLMM_SRCDIR);
    text = files_read(path, 1 << 20, "lesson 18's kernel", &len, &e);
    ck_assert_msg(text != NULL, "%s", e.msg);
    return text;
}

/* text with its n-th (from 0) occurrence of what replaced by with; malloc'd. */
static char *replaced(const char *text, const char *what, int n, const char *with)
{
    const char *at = text;
    char *out;

    for (int i = 0; i <= n; i++) {
        at = strstr(i == 0 ? at : at + 1, what);
        ck_assert_msg(at != NULL, "\"%s\" #%d not in the text", what, n);
    }
    out = malloc(strlen(text) - strlen(what) + strlen(with) + 1);
    sprintf(out, "%.*s%s%s", (int)(at - text), text, with, at + strlen(what));
    return out;
}

/* The line of the first occurrence of what in text. */
static int line_of(const char *text, const char *what)
{
    const char *at = strstr(text, what);
    int line = 1;

    ck_assert_ptr_nonnull(at);
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

START_TEST(test_fences_lesson)
{
    char *text = lesson18();
    struct fences_audit a;

    fences_audit(text, ENTRY, &a);
    ck_assert_msg(a.verdict == FENCES_RIGHT, "%s", a.message);
    ck_assert_int_eq(a.count_line, line_of(text, "last = atomic_inc(count)"));
    fences_audit(text, "no_such_kernel", &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_ENTRY);
    fences_audit(text, "reduce_split_k", &a);       /* no atomic there */
    ck_assert_int_eq(a.verdict, FENCES_NO_COUNT);
    free(text);
}
END_TEST

START_TEST(test_fences_release)
{
    char *text = lesson18(), *no_release, *local_only, *too_early, *empty_macro;
    struct fences_audit a;

    /* The first fence, before the count, gone: the part's stores (store4) are named. */
    no_release = replaced(text, "    DEVICE_FENCE();\n", 0, "\n");
    fences_audit(no_release, ENTRY, &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_RELEASE);
    ck_assert_int_eq(a.count_line, line_of(no_release, "last = atomic_inc(count)"));
    ck_assert_int_eq(a.line, line_of(no_release, "store4(P, M, N"));
    ck_assert_msg(strstr(a.message, "DEVICE_FENCE()") && strstr(a.message, "before the count"), "%s", a.message);

    /* A fence of local memory orders nothing between groups. */
    local_only = replaced(text, "    DEVICE_FENCE();\n", 0, "    mem_fence(CLK_LOCAL_MEM_FENCE);\n");
    fences_audit(local_only, ENTRY, &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_RELEASE);

    /* A fence before the stores, not after them. */
    too_early = replaced(no_release, "    #pragma unroll\n    for (int g = 0; g < GM; g++) {\n        #pragma unroll\n"
                                     "        for (int i = 0; i < 4; i++) {\n            #pragma unroll\n"
                                     "            for (int h = 0; h < GN; h++)\n                store4(P",
                         0, "    DEVICE_FENCE();\n    #pragma unroll\n    for (int g = 0; g < GM; g++) {\n"
                            "        #pragma unroll\n        for (int i = 0; i < 4; i++) {\n            #pragma unroll\n"
                            "            for (int h = 0; h < GN; h++)\n                store4(P");
    fences_audit(too_early, ENTRY, &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_RELEASE);
    ck_assert_int_eq(a.line, line_of(too_early, "store4(P, M, N"));

    /* A fence macro that is empty on one device is no fence. */
    empty_macro = replaced(text, "#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)", 0, "#define DEVICE_FENCE()");
    fences_audit(empty_macro, ENTRY, &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_RELEASE);
    ck_assert_msg(strstr(a.message, "mem_fence(CLK_GLOBAL_MEM_FENCE)"), "%s", a.message);
    free(text);
    free(no_release);
    free(local_only);
    free(too_early);
    free(empty_macro);
}
END_TEST

START_TEST(test_fences_acquire)
{
    char *text = lesson18(), *no_acquire, *opencl;
    struct fences_audit a;

    /* The second fence, after the count, gone: the first read of the parts is named. */
    no_acquire = replaced(text, "    DEVICE_FENCE();\n", 1, "\n");
    fences_audit(no_acquire, ENTRY, &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_ACQUIRE);
    ck_assert_int_eq(a.line, line_of(no_acquire, "part[b][p] = part4(parts"));
    ck_assert_msg(strstr(a.message, "after the count and before the reads"), "%s", a.message);

    /* OpenCL's own fence, written out, is one. */
    opencl = replaced(text, "    DEVICE_FENCE();\n", 1, "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
    fences_audit(opencl, ENTRY, &a);
    ck_assert_msg(a.verdict == FENCES_RIGHT, "%s", a.message);
    free(text);
    free(no_acquire);
    free(opencl);
}
END_TEST

/* Small kernels: OpenCL 2.0's atomics carry their order; comments and strings are not code. */
START_TEST(test_fences_small)
{
    static const char *const seq_cst =
        "__kernel void k(__global float *P, __global int *n, __global float *Q) {\n"
        "  P[0] = 1.0f;\n"
        "  if (atomic_fetch_add((volatile __global atomic_int *)n, 1) == 1)\n"
        "    Q[0] = P[1];\n"
        "}\n";
    static const char *const relaxed =
        "__kernel void k(__global float *P, __global int *n, __global float *Q) {\n"
        "  P[0] = 1.0f;\n"
        "  if (atomic_fetch_add_explicit((volatile __global atomic_int *)n, 1, memory_order_relaxed,\n"
        "                                memory_scope_device) == 1)\n"
        "    Q[0] = P[1];\n"
        "}\n";
    static const char *const commented =
        "__kernel void k(__global float *P, __global int *n, __global float *Q) {\n"
        "  P[0] = 1.0f;\n"
        "  /* mem_fence(CLK_GLOBAL_MEM_FENCE); */\n"
        "  atomic_inc(n);\n"
        "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        "  Q[0] = P[1];\n"
        "}\n";
    struct fences_audit a;

    fences_audit(seq_cst, "k", &a);
    ck_assert_msg(a.verdict == FENCES_RIGHT, "%s", a.message);
    fences_audit(relaxed, "k", &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_RELEASE);
    ck_assert_int_eq(a.line, 2);
    ck_assert_int_eq(a.count_line, 3);
    fences_audit(commented, "k", &a);
    ck_assert_int_eq(a.verdict, FENCES_NO_RELEASE);
    ck_assert_int_eq(a.count_line, 4);
}
END_TEST

/* oclgrind's messages: one race between groups, one inside a group. */
START_TEST(test_fences_races_between_groups)
{
    static const char *const log =
        "Read-write data race at global memory address 0x1000000000000\n"
        "\tKernel: gemm_last_adds\n"
        "\t\n"
        "\tFirst entity:  Global(3,6,0) Local(3,6,0) Group(1,0,3)\n"
        "\tAt line 149 (column 5) of input.cl:\n"
        "\t  v.s0 = P[i];\n"
        "\t\n"
        "\tSecond entity: Global(3,6,0) Local(3,6,0) Group(1,0,1)\n"
        "\tAt line 128 (column 5) of input.cl:\n"
        "\t  P[i] = v.s0;\n"
        "\t\n"
        "\n"
        "Read-write data race at local memory address 0x2000000000000\n"
        "\tKernel: gemm_last_adds\n"
        "\t\n"
        "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,1,0)\n"
        "\tAt line 414 (column 9) of input.cl:\n"
        "\t  if (!last)\n"
        "\t\n"
        "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,1,0)\n"
        "\tAt line 413 (column 14) of input.cl:\n"
        "\t  last = atomic_inc(count) == SPLIT - 1;\n"
        "\t\n";
    struct race_log rl;

    races_parse_groups(log, false, &rl);
    ck_assert_int_eq(rl.races, 2);
    ck_assert_int_eq(rl.access[0].line, 149);
    races_parse_groups(log, true, &rl);
    ck_assert_int_eq(rl.races, 1);
    ck_assert_int_eq(rl.messages, 1);
    ck_assert_int_eq(rl.between_groups, 1);
    ck_assert_int_eq(rl.access[0].line, 414);
    ck_assert_int_eq(rl.access[1].line, 413);
}
END_TEST

Suite *fences_suite(void)
{
    Suite *s = suite_create("fences");
    TCase *tc = tcase_create("between groups");

    tcase_add_test(tc, test_fences_lesson);
    tcase_add_test(tc, test_fences_release);
    tcase_add_test(tc, test_fences_acquire);
    tcase_add_test(tc, test_fences_small);
    tcase_add_test(tc, test_fences_races_between_groups);
    suite_add_tcase(s, tc);
    return s;
}
