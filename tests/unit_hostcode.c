/* unit_hostcode.c: the host code written for a lesson's launch: its arguments in order with
   their types and values, the NDRange evaluated, the buffers' bytes, the build options. */
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/build.h"
#include "engine/hostcode.h"
#include "engine/measure.h"

/* The generator never reads the kernel, so any existing file will do: this one. */
static const char *const kernel_dirs[] = { CLMM_SRCDIR "/tests", NULL };

#define HEADER "lesson: 7\ntitle: Tiles */ and /* more\nsources: test\nkernel: unit_hostcode.c\nentry: gemm_tiles\n"

/* Column-major, B transposed, an int and a local argument, padding to multiples of TS. */
static const char tiles_lesson[] = HEADER
    "args: M N K A B C int(K / TS) local(TS * TS)\n"
    "order: column-major\n"
    "b-transposed: yes\n"
    "options: -cl-mad-enable -DNAME=\"a\\b\"\n"
    "param: TS = 16 in 8, 16, 32\n"
    "param: WPT = 1 in 1, 2, 4\n"
    "global: M / WPT, N\n"
    "local: TS / WPT, TS\n"
    "multiple: M TS, N TS, K TS\n"
    "require: TS % WPT == 0 : TS must be a multiple of WPT\n"
    "---\n";

/* Row-major, one size argument, no local line. */
static const char plain_lesson[] = HEADER
    "args: A B C N\n"
    "param: WG = 32 in 32, 64\n"
    "global: N\n"
    "---\n";

static struct lesson lesson;
static struct param_set params;

static void parse(const char *text)
{
    struct error e;

    lesson_free(&lesson);
    error_init(&e);
    ck_assert_msg(lesson_parse("h.lesson", text, kernel_dirs, &lesson, &e) == 0, "parse failed: %s", e.msg);
    param_set_defaults(&lesson, &params);
}

static void teardown(void)
{
    lesson_free(&lesson);
}

static char *generate(long long m, long long n, long long k)
{
    struct error e;
    char *text;

    error_init(&e);
    text = hostcode_generate(&lesson, &params, (struct gemm_size){ m, n, k }, &e);
    ck_assert_msg(text != NULL, "refused: %s", e.msg);
    return text;
}

/* Each fragment occurs in text, each after the one before. */
static void has_in_order(const char *text, const char *const *fragments)
{
    const char *at = text;

    for (size_t i = 0; fragments[i]; i++) {
        const char *found = strstr(at, fragments[i]);
        ck_assert_msg(found != NULL, "no \"%s\" after \"%.300s\"", fragments[i], at);
        at = found + strlen(fragments[i]);
    }
}

START_TEST(test_hostcode_arguments_in_order)
{
    char *text;

    parse(tiles_lesson);
    text = generate(100, 50, 20);       /* padded to 112x64x32 */
    has_in_order(text, (const char *const[]){
        "const cl_int M = 112;", "const cl_int N = 64;", "const cl_int K = 32;",
        "const cl_int arg6 = 2;   /* int(K / TS) */",
        "clSetKernelArg(kernel, 0, sizeof(cl_int), &M)",
        "clSetKernelArg(kernel, 1, sizeof(cl_int), &N)",
        "clSetKernelArg(kernel, 2, sizeof(cl_int), &K)",
        "clSetKernelArg(kernel, 3, sizeof(cl_mem), &a_buf)",
        "clSetKernelArg(kernel, 4, sizeof(cl_mem), &b_buf));   /* B^T */",
        "clSetKernelArg(kernel, 5, sizeof(cl_mem), &c_buf)",
        "clSetKernelArg(kernel, 6, sizeof(cl_int), &arg6)",
        "clSetKernelArg(kernel, 7, 1024, NULL));   /* local(TS * TS): 256 floats",
        NULL });
    ck_assert_ptr_null(strstr(text, "clSetKernelArg(kernel, 8"));
    free(text);
}
END_TEST

START_TEST(test_hostcode_buffers_and_layout)
{
    char *text;

    parse(tiles_lesson);
    text = generate(100, 50, 20);
    has_in_order(text, (const char *const[]){
        "A(i, p) at a[i + p * 112]", "B^T, N x K = 64 x 32", "B(p, j) at b[j + p * 64]",
        "C(i, j) at c[i + j * 112]",
        "CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n                                  14336, (void *)a",
        "CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,\n                                  8192, (void *)b",
        "clCreateBuffer(context, CL_MEM_WRITE_ONLY, 28672, NULL, &err)",
        "clEnqueueReadBuffer(queue, c_buf, CL_TRUE, 0, 28672, c,", NULL });
    free(text);
    parse(plain_lesson);
    text = generate(30, 30, 30);
    has_in_order(text, (const char *const[]){ "A(i, p) at a[i * 30 + p]", "B(p, j) at b[p * 30 + j]", NULL });
    free(text);
}
END_TEST

START_TEST(test_hostcode_padding)
{
    char *text;

    parse(tiles_lesson);
    text = generate(100, 50, 20);
    has_in_order(text, (const char *const[]){ "M a multiple of 16 (TS)", "K a multiple of 16 (TS)",
                                              "so 100x50x20 is padded to 112x64x32",
                                              "cuts C back to the 100 x 50 asked for",
                                              "The sizes the kernel computes (after padding)", NULL });
    free(text);
    text = generate(64, 32, 16);
    ck_assert_ptr_null(strstr(text, "Padding"));
    ck_assert_ptr_null(strstr(text, "after padding"));
    free(text);
}
END_TEST

START_TEST(test_hostcode_ndrange)
{
    char *text;

    parse(tiles_lesson);
    params.values[1] = 2;               /* WPT */
    text = generate(100, 50, 20);
    has_in_order(text, (const char *const[]){
        "3584 work-items in 28 work-groups of 128",
        "const size_t global[2] = { 56, 64 };   /* M / WPT, N */",
        "const size_t local[2] = { 8, 16 };   /* TS / WPT, TS */",
        "clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL)", NULL });
    free(text);
    parse(plain_lesson);
    text = generate(30, 30, 30);
    has_in_order(text, (const char *const[]){
        "the implementation chooses", "const size_t global[1] = { 30 };   /* N */",
        "clEnqueueNDRangeKernel(queue, kernel, 1, NULL, global, NULL, 0, NULL, NULL)", NULL });
    ck_assert_ptr_null(strstr(text, "local["));
    free(text);
}
END_TEST

/* The options are exactly the engine's (measure_options), escaped as a C string, with the
   reflection option that keeps the arguments' types for the check of args. */
START_TEST(test_hostcode_options)
{
    char options[MEASURE_OPTIONS_MAX], *text;
    struct error e;

    parse(tiles_lesson);
    params.values[0] = 32;
    error_init(&e);
    ck_assert_int_eq(measure_options(&lesson, &params, NULL, options, sizeof options, &e), 0);
    ck_assert_str_eq(options, "-cl-mad-enable -DNAME=\"a\\b\" -DTS=32 -DWPT=1 -cl-kernel-arg-info");
    text = generate(100, 50, 20);
    has_in_order(text, (const char *const[]){
        "clBuildProgram(program, 1, &device, \"-cl-mad-enable -DNAME=\\\"a\\\\b\\\" -DTS=32 -DWPT=1 "
        "-cl-kernel-arg-info\", NULL, NULL)",
        "clCreateKernel(program, \"gemm_tiles\", &err)", NULL });
    free(text);
}
END_TEST

/* Text from the lesson file never ends the comment it is quoted in. */
START_TEST(test_hostcode_comments_stay_closed)
{
    char *text;

    parse(tiles_lesson);
    text = generate(64, 32, 16);
    ck_assert_ptr_nonnull(strstr(text, "Lesson 7: Tiles * / and / * more."));
    ck_assert_ptr_null(strstr(text, "Tiles */"));
    free(text);
}
END_TEST

START_TEST(test_hostcode_refusals)
{
    struct error e;

    parse(tiles_lesson);
    error_init(&e);
    params.values[1] = 3;               /* WPT = 3 does not divide TS = 16 */
    ck_assert_ptr_null(hostcode_generate(&lesson, &params, (struct gemm_size){ 64, 64, 64 }, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "TS must be a multiple of WPT"));
    parse("lesson: 0\ntitle: Host\nsources: test\nengine: host\n---\n");
    ck_assert_ptr_null(hostcode_generate(&lesson, &params, (struct gemm_size){ 64, 64, 64 }, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "runs on the host"));
    parse(plain_lesson);
    ck_assert_ptr_null(hostcode_generate(&lesson, &params, (struct gemm_size){ 65536, 65536, 65536 }, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "int indices"));
}
END_TEST

/* Two launches with a scratch buffer: a kernel for each, the buffer, the second launch's
   arguments and NDRange after the first's; skipped where its then-when line is 0. */
static const char split_lesson[] = HEADER
    "args: M N K A B C W\n"
    "param: SPLIT = 4 in 1, 4\n"
    "global: N, M, SPLIT\n"
    "local: 1, 1, 1\n"
    "scratch: (SPLIT > 1) * SPLIT * M * N\n"
    "then: reduce\n"
    "then-args: M N C W int(SPLIT)\n"
    "then-global: roundup(M * N, 64)\n"
    "then-local: 64\n"
    "then-when: SPLIT > 1\n"
    "---\n";

START_TEST(test_hostcode_launches)
{
    char *text;

    parse(split_lesson);
    text = generate(10, 6, 20);
    has_in_order(text, (const char *const[]){
        "One run is 2 launches, one after the other, of the kernels gemm_tiles and reduce.",
        "const cl_int arg4_2 = 4;   /* int(SPLIT) */",
        "cl_kernel kernel = clCreateKernel(program, \"gemm_tiles\", &err);",
        "cl_kernel kernel2 = clCreateKernel(program, \"reduce\", &err);",
        "(SPLIT > 1) * SPLIT * M * N = 240 floats. */",
        "cl_mem w_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, 960, NULL, &err);",
        "clSetKernelArg(kernel, 6, sizeof(cl_mem), &w_buf)",
        "clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL)",
        "Launch 2 of 2 (then: reduce), run because its then-when line (SPLIT > 1) is not 0.",
        "clSetKernelArg(kernel2, 2, sizeof(cl_mem), &c_buf)",
        "clSetKernelArg(kernel2, 3, sizeof(cl_mem), &w_buf)",
        "clSetKernelArg(kernel2, 4, sizeof(cl_int), &arg4_2)",
        "const size_t global2[1] = { 64 };   /* roundup(M * N, 64) */",
        "const size_t local2[1] = { 64 };   /* 64 */",
        "clEnqueueNDRangeKernel(queue, kernel2, 1, NULL, global2, local2, 0, NULL, NULL)",
        "clEnqueueReadBuffer(queue, c_buf, CL_TRUE, 0, 240, c,",
        "clReleaseMemObject(w_buf);", "clReleaseKernel(kernel);", "clReleaseKernel(kernel2);", NULL });
    free(text);
    params.values[0] = 1;
    text = generate(10, 6, 20);
    has_in_order(text, (const char *const[]){
        "of the kernels gemm_tiles and reduce (skipped at this size).",
        "is 0 here:\n       one float, which the kernels do not use",
        "CL_MEM_READ_WRITE, 4, NULL, &err);",
        "Launch 2 of 2 (then: reduce): skipped at this size, its then-when line (SPLIT > 1) being 0.", NULL });
    ck_assert_ptr_null(strstr(text, "clSetKernelArg(kernel2"));
    ck_assert_ptr_null(strstr(text, "global2"));
    ck_assert_ptr_null(strstr(text, "arg4_2"));
    free(text);
}
END_TEST

Suite *hostcode_suite(void)
{
    Suite *s = suite_create("hostcode");
    TCase *tc = tcase_create("hostcode");

    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_hostcode_arguments_in_order);
    tcase_add_test(tc, test_hostcode_buffers_and_layout);
    tcase_add_test(tc, test_hostcode_padding);
    tcase_add_test(tc, test_hostcode_ndrange);
    tcase_add_test(tc, test_hostcode_options);
    tcase_add_test(tc, test_hostcode_comments_stay_closed);
    tcase_add_test(tc, test_hostcode_refusals);
    tcase_add_test(tc, test_hostcode_launches);
    suite_add_tcase(s, tc);
    return s;
}
