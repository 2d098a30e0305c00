/* unit_clblastparams.c: reading CLBlast's tuners' files (tests/clblast, written by CLBlast
   1.5.3's tuners on POCL, their results[] cut short): each kernel family and its name for
   CLBlastOverrideParameters, PRECISION left out, the fastest of several phases kept, and
   the files refused: malformed, of another precision, of an unknown family, of another
   device or size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scratch.h"
#include "units.h"
#include "engine/clblastparams.h"
#include "engine/files.h"

#define FIXTURES CLMM_SRCDIR "/tests/clblast/"

static char dir[64];

static void setup(void)
{
    strcpy(dir, "/tmp/clmm-unit-clblast-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
}

static void teardown(void)
{
    scratch_remove(dir);
}

/* Loads the files, which must be accepted. */
static void load_ok(struct clblast_params *cp, const char *const *paths, size_t n)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(clblast_params_load(cp, paths, n, &e) == 0, "%s", e.msg);
}

/* Loads the files, which must be refused with a message holding want. */
static void load_bad(const char *const *paths, size_t n, const char *want)
{
    struct clblast_params cp;
    struct error e;

    error_init(&e);
    ck_assert_msg(clblast_params_load(&cp, paths, n, &e) == -1, "accepted, wanted \"%s\"", want);
    ck_assert_msg(strstr(e.msg, want) != NULL, "\"%s\" lacks \"%s\"", e.msg, want);
}

/* A copy of fixture NAME in the scratch directory with the first occurrence of from
   replaced by to; its path. */
static const char *edited(const char *name, const char *from, const char *to)
{
    static char path[2][128];
    static int which;
    char fixture[512], *text, *at, *out;
    struct error e;
    size_t len;

    error_init(&e);
    snprintf(fixture, sizeof fixture, FIXTURES "%s", name);
    text = files_read(fixture, 1 << 20, "a fixture", &len, &e);
    ck_assert_msg(text != NULL, "%s", e.msg);
    at = strstr(text, from);
    ck_assert_msg(at != NULL, "%s lacks %s", name, from);
    out = malloc(len + strlen(to) + 1);
    sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    which = !which;
    snprintf(path[which], sizeof path[which], "%s/%s", dir, name);
    scratch_write(dir, name, out);
    free(text);
    free(out);
    return path[which];
}

static const struct clblast_kernel *kernel(const struct clblast_params *cp, const char *name)
{
    for (size_t i = 0; i < cp->nkernels; i++)
        if (strcmp(cp->kernels[i].name, name) == 0)
            return &cp->kernels[i];
    return NULL;
}

static long long value(const struct clblast_kernel *k, const char *name)
{
    for (size_t i = 0; i < k->count; i++)
        if (strcmp(k->names[i], name) == 0)
            return (long long)k->values[i];
    return -1;
}

START_TEST(test_every_family)
{
    static const char *const paths[] = {
        FIXTURES "clblast_xgemm_1_32.json", FIXTURES "clblast_xgemm_direct_1_32.json",
        FIXTURES "clblast_copy_32.json", FIXTURES "clblast_pad_32.json",
        FIXTURES "clblast_padtranspose_32.json", FIXTURES "clblast_gemm_routine_32.json",
    };
    static const char *const names[] = { "Xgemm", "XgemmDirect", "Copy", "Pad", "Padtranspose", "GemmRoutine" };
    struct clblast_params *cp = malloc(sizeof *cp);
    const struct clblast_kernel *k;
    char text[512];

    load_ok(cp, paths, 6);
    ck_assert_uint_eq(cp->nkernels, 6);
    ck_assert_uint_eq(cp->nfiles, 6);
    for (size_t i = 0; i < 6; i++)
        ck_assert_msg(kernel(cp, names[i]) != NULL, "no %s", names[i]);
    ck_assert_str_eq(cp->device, "pthread-skylake-avx512-Intel(R) Xeon(R) Processor");
    ck_assert_str_eq(cp->notes, "");

    /* The direct kernel: its ten parameters in the file's order, PRECISION=32 left out. */
    k = kernel(cp, "XgemmDirect");
    ck_assert_str_eq(k->family, "xgemm_direct_1");
    ck_assert_uint_eq(k->count, 10);
    ck_assert_str_eq(k->names[0], "KWID");
    ck_assert_int_eq(value(k, "MDIMAD"), 16);
    ck_assert_int_eq(value(k, "NDIMBD"), 8);
    ck_assert_int_eq(value(k, "WGD"), 32);
    ck_assert_int_eq(value(k, "PRECISION"), -1);
    ck_assert(k->best_ms == 1.22);
    ck_assert_int_eq(k->m, 256);
    k = kernel(cp, "Xgemm");
    ck_assert_uint_eq(k->count, 16);
    ck_assert_int_eq(value(k, "VWM"), 4);
    ck_assert_int_eq(value(kernel(cp, "GemmRoutine"), "XGEMM_MIN_INDIRECT_SIZE"), 64);
    ck_assert_int_eq(kernel(cp, "GemmRoutine")->m, -1);     /* the routine tuner runs many sizes */

    clblast_params_describe(cp, text, sizeof text);
    ck_assert_str_eq(text, "Xgemm (clblast_xgemm_1_32.json), XgemmDirect (clblast_xgemm_direct_1_32.json), "
                           "Copy (clblast_copy_32.json), Pad (clblast_pad_32.json), "
                           "Padtranspose (clblast_padtranspose_32.json), GemmRoutine (clblast_gemm_routine_32.json)");
    ck_assert_int_eq(strncmp(cp->key, "tuned:", 6), 0);
    ck_assert_uint_eq(strlen(cp->key), 22);
    free(cp);
}
END_TEST

/* Of the phases of clblast_tuner_xgemm, the one with the lowest best time, in any order. */
START_TEST(test_phases)
{
    static const char *const forward[] = { FIXTURES "clblast_xgemm_1_32.json", FIXTURES "clblast_xgemm_2_32.json" };
    static const char *const backward[] = { FIXTURES "clblast_xgemm_2_32.json", FIXTURES "clblast_xgemm_1_32.json" };
    static const char *const one[] = { FIXTURES "clblast_xgemm_1_32.json" };
    struct clblast_params *a = malloc(sizeof *a), *b = malloc(sizeof *b), *c = malloc(sizeof *c);
    const char *slower[] = { FIXTURES "clblast_xgemm_2_32.json", NULL };

    load_ok(a, forward, 2);
    load_ok(b, backward, 2);
    ck_assert_uint_eq(a->nkernels, 1);
    ck_assert_str_eq(a->kernels[0].family, "xgemm_2");         /* 0.58 ms, against phase 1's 1.11 */
    ck_assert_int_eq(value(&a->kernels[0], "NWG"), 128);
    ck_assert_str_eq(b->kernels[0].family, "xgemm_2");
    ck_assert_str_eq(a->notes, "Xgemm: clblast_xgemm_2_32.json (0.58 ms) kept over clblast_xgemm_1_32.json (1.11 ms)\n");
    ck_assert_str_eq(a->key, b->key);
    /* Phase 4 (GEMMK=1) is faster still: all three, and two lines saying which was kept. */
    {
        static const char *const three[] = { FIXTURES "clblast_xgemm_1_32.json", FIXTURES "clblast_xgemm_12_32.json",
                                             FIXTURES "clblast_xgemm_2_32.json" };
        load_ok(c, three, 3);
        ck_assert_str_eq(c->kernels[0].family, "xgemm_12");
        ck_assert_int_eq(value(&c->kernels[0], "GEMMK"), 1);
        ck_assert_str_eq(c->notes, "Xgemm: clblast_xgemm_12_32.json (0.45 ms) kept over clblast_xgemm_1_32.json (1.11 ms)\n"
                                   "Xgemm: clblast_xgemm_12_32.json (0.45 ms) kept over clblast_xgemm_2_32.json (0.58 ms)\n");
    }
    /* The key follows the values: phase 1 alone is another set of parameters. */
    load_ok(c, one, 1);
    ck_assert_str_ne(a->key, c->key);
    /* Phase 2, made the slower: phase 1 is kept. */
    slower[1] = edited("clblast_xgemm_1_32.json", "\"best_time\": \"1.11\"", "\"best_time\": \"0.5\"");
    load_ok(c, slower, 2);
    ck_assert_str_eq(c->kernels[0].family, "xgemm_1");
    ck_assert_msg(strstr(c->notes, "clblast_xgemm_1_32.json (0.5 ms) kept over clblast_xgemm_2_32.json (0.58 ms)"),
                  "%s", c->notes);
    /* Phases tuned at other sizes cannot be compared. */
    slower[1] = edited("clblast_xgemm_1_32.json", "\"arg_m\": \"256\"", "\"arg_m\": \"1024\"");
    load_bad(slower, 2, "was tuned at 256x256x256 and");
    free(a);
    free(b);
    free(c);
}
END_TEST

START_TEST(test_refused)
{
    /* A fixture with from changed to to, and what the message says. */
    static const struct { const char *fixture, *from, *to, *want; } edits[] = {
        /* Malformed JSON: where, and what was expected. */
        { "clblast_copy_32.json", "\"precision\": ", "\"precision\" ",
          "clblast_copy_32.json:3:15: expected ':' after an object key, found '\"'" },
        { "clblast_copy_32.json", "  ]\n}", "  ]\n", "expected ',' or '}' after an object member, found the end of the file" },
        /* Another precision. */
        { "clblast_xgemm_direct_1_32.json", "\"precision\": \"32\"", "\"precision\": \"64\"",
          "clblast_xgemm_direct_1_32.json:3:16: precision 64: the tool measures SGEMM, single precision" },
        { "clblast_xgemm_direct_1_32.json", "PRECISION=32", "PRECISION=16",
          "PRECISION=16: the tool measures single precision (32) only" },
        /* A family not known. */
        { "clblast_copy_32.json", "\"copy\"", "\"xgemv_1\"",
          "clblast_copy_32.json:2:20: kernel family \"xgemv_1\" is not one this tool applies (known: xgemm, "
          "xgemm_direct, copy, pad, transpose, padtranspose, gemm_routine" },
        /* Not a tuner's file, or a broken best_parameters. */
        { "clblast_copy_32.json", "\"best_parameters\"", "\"parameters\"",
          "no \"best_parameters\": not a file written by one of CLBlast's tuners" },
        { "clblast_copy_32.json", "COPY_VW=4", "COPY_VW", "best_parameters: \"COPY_VW\" is not NAME=VALUE" },
        { "clblast_copy_32.json", "COPY_VW=4", "COPY_VW=-4", "COPY_VW=-4: the value is not a whole number" },
        { "clblast_copy_32.json", "COPY_VW=4", "COPY_DIMX=4", "COPY_DIMX is given twice" },
        { "clblast_copy_32.json", "\"best_time\": \"0.03\"", "\"best_time\": \"fast\"",
          "\"best_time\" is \"fast\", not a number" },
        { "clblast_copy_32.json", "\"device\": \"pthread", "\"device\": 7, \"x\": \"",
          "\"device\" is a number, not a string" },
    };
    const char *path[2] = { FIXTURES "clblast_copy_32.json", NULL };

    /* Files of two devices. */
    path[1] = edited("clblast_pad_32.json", "\"device\": \"pthread", "\"device\": \"other");
    load_bad(path, 2, "clblast_copy_32.json was tuned on \"pthread-skylake");
    load_bad(path, 2, "clblast_pad_32.json on \"other-skylake");
    path[0] = FIXTURES "none.json";
    load_bad(path, 1, "none.json");
    path[0] = FIXTURES "clblast_gemm_routine_single_size_32.json";
    load_bad(path, 1, "holds no parameters: run clblast_tuner_routine_xgemm without -m");
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        path[0] = edited(edits[i].fixture, edits[i].from, edits[i].to);
        load_bad(path, 1, edits[i].want);
    }
}
END_TEST

START_TEST(test_device)
{
    static const char *const path[] = { FIXTURES "clblast_copy_32.json" };
    struct clblast_params cp;
    struct error e;

    load_ok(&cp, path, 1);
    error_init(&e);
    ck_assert_int_eq(clblast_params_check_device(&cp, "pthread-skylake-avx512-Intel(R) Xeon(R) Processor", &e), 0);
    ck_assert_int_eq(clblast_params_check_device(&cp, "pthread-skylake-avx512-Intel(R) Xeon(R) Processor  ", &e), 0);
    ck_assert_int_eq(clblast_params_check_device(&cp, "NVIDIA H200", &e), -1);
    ck_assert_msg(strstr(e.msg, "clblast_copy_32.json was tuned on \"pthread-skylake-avx512-Intel(R) Xeon(R) "
                                "Processor\", not on this device, \"NVIDIA H200\""), "%s", e.msg);
}
END_TEST

Suite *clblastparams_suite(void)
{
    Suite *s = suite_create("clblastparams");
    TCase *tc = tcase_create("clblastparams");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_every_family);
    tcase_add_test(tc, test_phases);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_device);
    suite_add_tcase(s, tc);
    return s;
}
