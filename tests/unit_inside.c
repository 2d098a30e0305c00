/* unit_inside.c: ptxas's verbose log and the hot loop of PTX, read from the compiler's own
   output (tests/ptx: an H200's, for lessons at their default parameters; lessonNN.ptxas is
   the build log of -cl-nv-verbose), and the report's lines. The figures below were counted
   with grep in those files. */
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/inside.h"
#include "engine/lesson.h"
#include "engine/str.h"

static char *sample(const char *name)
{
    char path[4096];
    struct error e;
    char *text;

    error_init(&e);
    snprintf(path, sizeof path, "%s/tests/ptx/%s", CLMM_SRCDIR, name);
    text = read_file(path, &e);
    ck_assert_msg(text != NULL, "%s", e.msg);
    return text;
}

static void count_sample(const char *name, const char *entry, struct ptx_loop *c)
{
    char *ptx = sample(name);

    ck_assert_int_eq(inside_count_ptx(ptx, entry, c), 0);
    ck_assert(c->found);
    free(ptx);
}

/* The memory instructions other than those named are none. */
static long long memory_total(const struct ptx_loop *c)
{
    long long n = 0;

    for (int s = 0; s < PTX_SPACES; s++)
        for (int w = 0; w < PTX_WIDTHS; w++)
            n += c->ld[s][w] + c->st[s][w];
    return n;
}

START_TEST(test_log_lesson13)
{
    char *log = sample("lesson13.ptxas");
    struct nv_report r;

    /* "Used 127 registers, used 1 barriers, 16656 bytes smem"; "0 bytes stack frame, 0 bytes
       spill stores, 0 bytes spill loads"; compiled for 'sm_90a'. */
    ck_assert_int_eq(inside_parse_nv_log(log, "gemm_row_major_fast", &r), 0);
    ck_assert(r.found);
    ck_assert_str_eq(r.target, "sm_90a");
    ck_assert_int_eq(r.registers, 127);
    ck_assert_int_eq(r.barriers, 1);
    ck_assert_int_eq(r.smem, 16656);
    ck_assert_int_eq(r.stack_frame, 0);
    ck_assert_int_eq(r.spill_stores, 0);
    ck_assert_int_eq(r.spill_loads, 0);
    free(log);
}
END_TEST

START_TEST(test_log_lesson1_no_smem)
{
    char *log = sample("lesson01.ptxas");
    struct nv_report r;

    /* "Used 32 registers, used 0 barriers": no smem item at all. */
    ck_assert_int_eq(inside_parse_nv_log(log, NULL, &r), 0);
    ck_assert_int_eq(r.registers, 32);
    ck_assert_int_eq(r.barriers, 0);
    ck_assert_int_eq(r.smem, -1);
    ck_assert_int_eq(r.stack_frame, 0);
    free(log);
}
END_TEST

/* An older layout: the stack line without "ptxas", cmem items, a helper function compiled
   beside the kernel with its own properties, and a spilling kernel. */
START_TEST(test_log_variations)
{
    static const char log[] =
        "ptxas info    : 0 bytes gmem, 24 bytes cmem[3]\n"
        "ptxas info    : Function properties for helper\n"
        "    48 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
        "ptxas info    : Compiling entry function 'big' for 'sm_52'\n"
        "ptxas info    : Function properties for big\n"
        "    1040 bytes stack frame, 1024 bytes spill stores, 996 bytes spill loads\n"
        "ptxas info    : Used 255 registers, 16384 bytes smem, 380 bytes cmem[0], 4 bytes cmem[2]\n"
        "ptxas info    : Compiling entry function 'small' for 'sm_52'\n"
        "ptxas info    : Function properties for small\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 12 registers, 352 bytes cmem[0]\n";
    struct nv_report r;

    ck_assert_int_eq(inside_parse_nv_log(log, "big", &r), 0);
    ck_assert_str_eq(r.target, "sm_52");
    ck_assert_int_eq(r.registers, 255);
    ck_assert_int_eq(r.smem, 16384);
    ck_assert_int_eq(r.barriers, -1);
    ck_assert_int_eq(r.stack_frame, 1040);
    ck_assert_int_eq(r.spill_stores, 1024);
    ck_assert_int_eq(r.spill_loads, 996);
    ck_assert_int_eq(inside_parse_nv_log(log, "small", &r), 0);
    ck_assert_int_eq(r.registers, 12);
    ck_assert_int_eq(r.smem, -1);
    ck_assert_int_eq(r.stack_frame, 0);
    /* NULL: the first kernel compiled, not the helper before it. */
    ck_assert_int_eq(inside_parse_nv_log(log, NULL, &r), 0);
    ck_assert_int_eq(r.registers, 255);
    ck_assert_int_eq(r.spill_loads, 996);
    /* A log that names no kernel is taken to be about the one asked for. */
    ck_assert_int_eq(inside_parse_nv_log("ptxas info    : Used 40 registers\n", "k", &r), 0);
    ck_assert_int_eq(r.registers, 40);
}
END_TEST

START_TEST(test_log_without_figures)
{
    struct nv_report r;

    ck_assert_int_eq(inside_parse_nv_log("", "k", &r), -1);
    ck_assert(!r.found);
    ck_assert_int_eq(r.registers, -1);
    ck_assert_int_eq(inside_parse_nv_log("warning: something\nUsed 3 registers in a sentence\n", NULL, &r), -1);
    /* A kernel the log does not name. */
    ck_assert_int_eq(inside_parse_nv_log("ptxas info    : Compiling entry function 'a' for 'sm_90'\n"
                                         "ptxas info    : Used 8 registers\n", "b", &r), -1);
}
END_TEST

/* The hot loop of each sample, counted with grep between its label and its branch back. */
struct sample_loop {
    const char *file, *entry;
    int loops, innermost;
    const char *label;
    int first_line, last_line;
    long long fma, ld_shared, ld_shared_v4, st_shared, st_shared_v4, ld_global, ld_global_v4, bar, total;
};

static const struct sample_loop samples[] = {
    /* Lesson 1: two innermost loops, the k loop unrolled by 4 (4 fma.rn.f32, 8
       ld.global.f32) and its remainder ($L__BB0_6: 1 FMA). */
    { "lesson01.ptx", "gemm_naive", 2, 2, "$L__BB0_3", 68, 89, 4, 0, 0, 0, 0, 8, 0, 0, 21 },
    /* Lesson 5: one loop over the tiles, its k loop unrolled: 16 fma.rn.f32, 32
       ld.shared.f32, 2 st.shared.f32, 2 ld.global.f32, 2 bar.sync. */
    { "lesson05.ptx", NULL, 1, 1, "$L__BB0_2", 76, 135, 16, 32, 0, 2, 0, 2, 0, 2, 59 },
    /* Lesson 9 (trimmed): the k loop inside the loop over the tiles ($L__BB0_2): 64
       fma.rn.f32 and 16 ld.shared.f32. */
    { "lesson09.ptx", "gemm_register_blocks", 2, 1, "$L__BB0_3", 55, 148, 64, 16, 0, 0, 0, 0, 0, 0, 93 },
    /* Lesson 13 (trimmed): one loop, the k loop unrolled 8 times inside it with the forward
       branches of the edge tests: 512 fma.rn.f32, 32 ld.shared.v4.f32, 4 st.shared.f32, 1
       st.shared.v4.f32, 8 ld.global.f32, 2 ld.global.v4.f32, 1 bar.sync. */
    { "lesson13.ptx", "gemm_row_major_fast", 1, 1, "$L__BB0_27", 38, 747, 512, 0, 32, 4, 1, 8, 2, 1, 673 },
};

START_TEST(test_ptx_samples)
{
    const struct sample_loop *x = &samples[_i];
    struct ptx_loop c;

    count_sample(x->file, x->entry, &c);
    ck_assert_int_eq(c.loops, x->loops);
    ck_assert_int_eq(c.innermost, x->innermost);
    ck_assert_str_eq(c.label, x->label);
    ck_assert_int_eq(c.first_line, x->first_line);
    ck_assert_int_eq(c.last_line, x->last_line);
    ck_assert_int_eq(c.fma, x->fma);
    ck_assert_int_eq(c.ld[PTX_SHARED][PTX_SCALAR], x->ld_shared);
    ck_assert_int_eq(c.ld[PTX_SHARED][PTX_V4], x->ld_shared_v4);
    ck_assert_int_eq(c.st[PTX_SHARED][PTX_SCALAR], x->st_shared);
    ck_assert_int_eq(c.st[PTX_SHARED][PTX_V4], x->st_shared_v4);
    ck_assert_int_eq(c.ld[PTX_GLOBAL][PTX_SCALAR], x->ld_global);
    ck_assert_int_eq(c.ld[PTX_GLOBAL][PTX_V4], x->ld_global_v4);
    /* and no other memory instruction */
    ck_assert_int_eq(memory_total(&c), x->ld_shared + x->ld_shared_v4 + x->st_shared + x->st_shared_v4 +
                                       x->ld_global + x->ld_global_v4);
    ck_assert_int_eq(c.bar, x->bar);
    ck_assert_int_eq(c.total, x->total);
}
END_TEST

/* Hand-written PTX: two innermost loops, the second hotter; predicates, bra.uni, a block
   in braces, comments, and the kinds of instruction counted. */
START_TEST(test_ptx_kinds)
{
    static const char ptx[] =
        "//\n.version 8.0\n.target sm_90\n.address_size 64\n\n"
        ".visible .func helper()\n{\n$L__F:\n\tfma.rn.f32 %f1, %f1, %f1, %f1;\n\tbra $L__F;\n}\n"
        ".visible .entry k(\n\t.param .u32 k_param_0\n)\n{\n"
        "\t.reg .f32 %f<9>;\n"
        "$L__BB0_1:\n"                                  /* line 17: an innermost loop, 1 FMA */
        "\tfma.rn.f32 %f1, %f2, %f3, %f1;\n"
        "\t@%p1 bra $L__BB0_1;\n"
        "$L__BB0_2:\n"                                  /* line 20: the outer loop */
        "\tld.global.nc.f32 %f1, [%rd1];\n"
        "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n"
        "$L__BB0_3:\n"                                  /* line 23: the hot loop */
        "\tld.shared.v2.f32 {%f5, %f6}, [%rd2]; // a comment; with semicolons\n"
        "\t@!%p2 bra $L__BB0_4;\n"                      /* forward: not a loop */
        "\tst.shared.v4.f32 [%rd2], {%f1, %f2, %f3, %f4};\n"
        "$L__BB0_4:\n"
        "\t{ .reg .b16 %t; mov.b32 {%t, %rs1}, %r1; }\n"
        "\tfma.rn.ftz.f32 %f1, %f5, %f6, %f1; mad.f32 %f2, %f5, %f6, %f2;\n"
        "\tmad.lo.s32 %r1, %r1, %r2, %r3;\n"           /* an integer mad: not an FMA */
        "\tld.shared::cta.f32 %f7, [%rd3];\n"
        "\tst.global.f32 [%rd4], %f1;\n"
        "\tld.local.f32 %f8, [%rd5];\n"
        "\tbar.sync 0;\n"
        "\tsetp.ne.s32 %p3, %r1, 0;\n"
        "\t@%p3 bra.uni \n\t\t$L__BB0_3;\n"             /* line 36: a branch over two lines */
        "\tbra.uni $L__BB0_2;\n"
        "\tret;\n}\n";
    struct ptx_loop c;

    ck_assert(inside_binary_is_ptx((const unsigned char *)ptx, sizeof ptx - 1));
    ck_assert_int_eq(inside_count_ptx(ptx, "k", &c), 0);
    ck_assert(c.found);
    ck_assert_int_eq(c.loops, 3);
    ck_assert_int_eq(c.innermost, 2);
    ck_assert_str_eq(c.label, "$L__BB0_3");
    ck_assert_int_eq(c.first_line, 23);
    ck_assert_int_eq(c.last_line, 36);
    ck_assert_int_eq(c.fma, 2);
    ck_assert_int_eq(c.ld[PTX_SHARED][PTX_V2], 1);
    ck_assert_int_eq(c.ld[PTX_SHARED][PTX_SCALAR], 1);
    ck_assert_int_eq(c.st[PTX_SHARED][PTX_V4], 1);
    ck_assert_int_eq(c.st[PTX_GLOBAL][PTX_SCALAR], 1);
    ck_assert_int_eq(c.ld[PTX_LOCAL][PTX_SCALAR], 1);
    ck_assert_int_eq(memory_total(&c), 5);
    ck_assert_int_eq(c.bar, 1);
    /* ld, bra, st, mov, fma, mad, mad.lo, ld, st, ld, bar, setp, bra.uni */
    ck_assert_int_eq(c.total, 13);
    /* The outer loop is no innermost one: the hot loop is the FMA-richest innermost. The
       first entry, when none is named, is k: the .func before it is not one. */
    ck_assert_int_eq(inside_count_ptx(ptx, NULL, &c), 0);
    ck_assert_str_eq(c.label, "$L__BB0_3");
    /* No such kernel; a kernel without a loop. */
    ck_assert_int_eq(inside_count_ptx(ptx, "kk", &c), -1);
    ck_assert_int_eq(inside_count_ptx(ptx, "helper", &c), -1);
    ck_assert_int_eq(inside_count_ptx(".entry e()\n{\n\tret;\n}\n", "e", &c), 0);
    ck_assert(!c.found);
    ck_assert_int_eq(c.loops, 0);
}
END_TEST

START_TEST(test_binary_is_ptx)
{
    static const unsigned char padded[] = "//\n.version 9.0\n.target sm_90\n\0\0";
    static const unsigned char inner_nul[] = "//\n.version 9.0\n.target sm_90\n\0more text\n";
    static const unsigned char elf[] = "\x7f" "ELF\2\1\1 .version .target";
    static const char *const texts[] = { "// no directives\n", "hello .version .target\n", "" };

    ck_assert(inside_binary_is_ptx(padded, sizeof padded - 1));
    ck_assert(!inside_binary_is_ptx(inner_nul, sizeof inner_nul - 1));
    ck_assert(!inside_binary_is_ptx(elf, sizeof elf - 1));
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        ck_assert_msg(!inside_binary_is_ptx((const unsigned char *)texts[i], strlen(texts[i])), "%s", texts[i]);
}
END_TEST

/* What examine would have found for lesson 13 on the H200 the samples come from. */
static void lesson13_inside(struct inside *in, long long outputs)
{
    char *log = sample("lesson13.ptxas");

    memset(in, 0, sizeof *in);
    in->lesson = 13;
    strcpy(in->title, "Row-major float4, any size");
    strcpy(in->entry, "gemm_row_major_fast");
    strcpy(in->params, "TSM=128 TSN=128 TSK=8 WPTM=8 WPTN=8");
    strcpy(in->device, "NVIDIA H200 (NVIDIA CUDA, GPU)");
    in->has_local_mem = in->has_work_group_size = true;
    in->local_mem = 16656;
    in->work_group_size = 256;
    ck_assert_int_eq(inside_parse_nv_log(log, in->entry, &in->nv), 0);
    count_sample("lesson13.ptx", in->entry, &in->loop);
    in->outputs_per_item = outputs;
    in->k_per_iteration = outputs > 0 && in->loop.fma % outputs == 0 ? in->loop.fma / outputs : 0;
    free(log);
}

/* Whether the lines, joined by blanks with every run of blanks made one, hold text: a
   sentence wrapped over lines, a row of a table. */
static bool has_text(char (*lines)[INSIDE_LINE_BYTES], size_t n, const char *text)
{
    char all[8192];
    size_t len = 0;

    for (size_t i = 0; i < n; i++)
        for (const char *p = lines[i];; p++) {
            char c = *p ? *p : ' ';     /* the end of a line is a blank too */
            if (len + 1 < sizeof all && (c != ' ' || (len > 0 && all[len - 1] != ' ')))
                all[len++] = c;
            if (!*p)
                break;
        }
    all[len] = '\0';
    return strstr(all, text) != NULL;
}

START_TEST(test_describe)
{
    static char lines[200][INSIDE_LINE_BYTES];
    struct inside in;
    size_t n;

    lesson13_inside(&in, 64);
    /* From the narrowest (a 36-column pane at 80x24: figures under their names) up. */
    for (int width = INSIDE_MIN_WIDTH; width <= 120; width += width < 40 ? 4 : 40) {
        n = inside_describe(&in, width, lines, 200);
        ck_assert_uint_gt(n, 10);
        ck_assert_uint_lt(n, 200);
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(str_columns(lines[i], strlen(lines[i])) <= (size_t)width, "%d: %s", width, lines[i]);
        ck_assert(has_text(lines, n, "registers 127 per work-item"));
        ck_assert(has_text(lines, n, "512 FMAs for the 64 outputs of a work-item: 8 steps of k per iteration. "
                                     "Per k: 64 FMAs and 4 ld.shared.v4."));
        ck_assert(has_text(lines, n, "ld.shared.v4 32 4"));
        ck_assert(has_text(lines, n, "all instructions 673 84.1"));
    }
    /* What the waves take from it: ptxas's registers, the platform's local memory. */
    {
        struct waves_kernel k;
        inside_waves_kernel(&in, &k);
        ck_assert_int_eq(k.registers, 127);
        ck_assert_uint_eq(k.local_bytes, 16656);
        ck_assert_uint_eq(k.private_bytes, 0);
        inside_waves_kernel(NULL, &k);
        ck_assert_int_eq(k.registers, -1);
        ck_assert_uint_eq(k.local_bytes, 0);
    }
    /* Fewer lines than the report: the first ones. */
    ck_assert_uint_eq(inside_describe(&in, 80, lines, 3), 3);
    ck_assert_str_eq(lines[0], "Lesson 13 (Row-major float4, any size), kernel gemm_row_major_fast");
    /* Outputs that do not divide the FMAs: no figures per k, and the report says why. */
    lesson13_inside(&in, 0);
    strcpy(in.missing[in.nmissing++], "per k: the lesson does not say");
    n = inside_describe(&in, 80, lines, 80);
    ck_assert(!has_text(lines, n, "Per k"));
    ck_assert(has_text(lines, n, "Not known - per k: the lesson does not say"));
}
END_TEST

Suite *inside_suite(void)
{
    Suite *s = suite_create("inside");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_log_lesson13);
    tcase_add_test(tc, test_log_lesson1_no_smem);
    tcase_add_test(tc, test_log_variations);
    tcase_add_test(tc, test_log_without_figures);
    tcase_add_loop_test(tc, test_ptx_samples, 0, sizeof samples / sizeof samples[0]);
    tcase_add_test(tc, test_ptx_kinds);
    tcase_add_test(tc, test_binary_is_ptx);
    tcase_add_test(tc, test_describe);
    suite_add_tcase(s, tc);
    return s;
}
