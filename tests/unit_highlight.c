/* unit_highlight.c: the roles given to the pieces of lines of OpenCL C. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "tui/diff.h"
#include "tui/highlight.h"
#include "engine/lesson.h"
#include "engine/str.h"

#define MAX_SPANS 256

static struct hl_span spans[MAX_SPANS];

/* Highlights line in st into spans, checking that they cover the line in order, with no empty
   span and no two of one role side by side. Returns their count. */
static size_t highlight_checked(const char *line, struct hl_state *st)
{
    size_t len = strlen(line), count = highlight_line(line, len, st, spans, MAX_SPANS), end = 0;

    ck_assert_uint_lt(count, MAX_SPANS);
    for (size_t i = 0; i < count; i++) {
        ck_assert_msg(spans[i].start == end && spans[i].len > 0, "\"%s\": span %zu is %zu+%zu after %zu", line,
                      i, spans[i].start, spans[i].len, end);
        ck_assert_msg(i == 0 || spans[i].role != spans[i - 1].role, "\"%s\": spans %zu and %zu are both %s",
                      line, i - 1, i, hl_role_name(spans[i].role));
        end += spans[i].len;
    }
    ck_assert_msg(end == len, "\"%s\": the spans end at %zu of %zu", line, end, len);
    return count;
}

/* The spans of line, highlighted in st, as "<role>text" one after the other. */
static const char *shown_in(const char *line, struct hl_state *st)
{
    static char buf[4096];
    size_t count = highlight_checked(line, st);
    struct str s;

    str_init(&s, buf, sizeof buf);
    for (size_t i = 0; i < count; i++)
        str_appendf(&s, "", "<%s>%.*s", hl_role_name(spans[i].role), (int)spans[i].len, line + spans[i].start);
    ck_assert(!s.truncated);
    return buf;
}

/* The same for a line on its own, as line 1 of a text. */
static const char *shown(const char *line)
{
    struct hl_state st = { 0 };

    return shown_in(line, &st);
}

START_TEST(test_hl_declaration)
{
    ck_assert_str_eq(shown("__local float Asub[TS][TS];"),
                     "<qualifier>__local<plain> <type>float<plain> Asub[TS][TS];");
    ck_assert_str_eq(shown("__kernel void gemm(const int M, const __global float4 *A)"),
                     "<qualifier>__kernel<plain> <type>void<plain> gemm(<keyword>const<plain> <type>int<plain> M, "
                     "<keyword>const<plain> <qualifier>__global<plain> <type>float4<plain> *A)");
}
END_TEST

START_TEST(test_hl_keywords)
{
    ck_assert_str_eq(shown("for (int k = 0; k < TS; k++) if (x) return; else break;"),
                     "<keyword>for<plain> (<type>int<plain> k = <number>0<plain>; k < TS; k++) "
                     "<keyword>if<plain> (x) <keyword>return<plain>; <keyword>else<plain> <keyword>break<plain>;");
    ck_assert_str_eq(shown("typedef unsigned long size;"),
                     "<keyword>typedef<plain> <type>unsigned<plain> <type>long<plain> size;");
}
END_TEST

START_TEST(test_hl_numbers)
{
    ck_assert_str_eq(shown("x = 123 + 0x1F + 1.0f + 1e-3 + 2.5e+3f + 10u + 10UL + .5f - 2;"),
                     "<plain>x = <number>123<plain> + <number>0x1F<plain> + <number>1.0f<plain> + "
                     "<number>1e-3<plain> + <number>2.5e+3f<plain> + <number>10u<plain> + <number>10UL<plain> + "
                     "<number>.5f<plain> - <number>2<plain>;");
}
END_TEST

START_TEST(test_hl_digits_in_words)
{
    /* Digits inside identifiers are part of them; the '.' of a member is not a number's. */
    ck_assert_str_eq(shown("float4 v = (float4)(0.0f);"),
                     "<type>float4<plain> v = (<type>float4<plain>)(<number>0.0f<plain>);");
    ck_assert_str_eq(shown("int TS2 = a_row(id) + v.s0 + x1;"),
                     "<type>int<plain> TS2 = a_row(id) + v.s0 + x1;");
    /* Vector types have widths 2, 3, 4, 8 and 16, and only the scalar types that have vectors. */
    ck_assert_str_eq(shown("uchar16 double2 int3 half8 float5 float32 floatW bool4"),
                     "<type>uchar16<plain> <type>double2<plain> <type>int3<plain> <type>half8<plain> "
                     "float5 float32 floatW bool4");
}
END_TEST

START_TEST(test_hl_builtins)
{
    ck_assert_str_eq(shown("const int row = get_group_id(0) * TS + get_local_id(0);"),
                     "<keyword>const<plain> <type>int<plain> row = <builtin>get_group_id<plain>(<number>0<plain>) "
                     "* TS + <builtin>get_local_id<plain>(<number>0<plain>);");
    ck_assert_str_eq(shown("vstore4(v, i, p); vload_half8(i, q); vloader(x);"),
                     "<builtin>vstore4<plain>(v, i, p); <builtin>vload_half8<plain>(i, q); vloader(x);");
    ck_assert_str_eq(shown("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"),
                     "<qualifier>barrier<plain>(<qualifier>CLK_LOCAL_MEM_FENCE<plain> | "
                     "<qualifier>CLK_GLOBAL_MEM_FENCE<plain>);");
}
END_TEST

/* Every word the source pane gives a role, with that role. */
START_TEST(test_hl_words)
{
    static const struct {
        const char *words;
        enum hl_role role;
    } roles[] = {
        { "if for while return do else break continue switch case default sizeof typedef struct const "
          "restrict volatile static inline", HL_KEYWORD },
        { "void bool char uchar short ushort int uint long ulong float double half size_t ptrdiff_t "
          "float2 float4 float8 float16 int4", HL_TYPE },
        { "__kernel kernel __global global __local local __constant constant __private private "
          "__read_only __write_only __attribute__ reqd_work_group_size barrier mem_fence "
          "CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE", HL_QUALIFIER },
        { "get_global_id get_local_id get_group_id get_global_size get_local_size get_num_groups "
          "vload2 vload16 vstore8 vload_half vstore_half4_rte vloada_half4 mad fma min max clamp "
          "async_work_group_copy wait_group_events", HL_BUILTIN },
        { "gemm TS M acc kernels floats integer defined _ x", HL_PLAIN },
    };

    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++) {
        const char *w = roles[i].words;
        while (*w) {
            size_t n = strcspn(w, " ");
            struct hl_span span;
            struct hl_state st = { 0 };
            ck_assert_uint_eq(highlight_line(w, n, &st, &span, 1), 1);
            ck_assert_msg(span.role == roles[i].role && span.len == n, "%.*s is %s", (int)n, w,
                          hl_role_name(span.role));
            w += n + (w[n] == ' ');
        }
    }
}
END_TEST

START_TEST(test_hl_comments)
{
    struct hl_state st = { 0 };

    ck_assert_str_eq(shown("acc += a * b;   // why: int 4"), "<plain>acc += a * b;   <comment>// why: int 4");
    ck_assert_str_eq(shown_in("x = 1 /* one */ + 2; /* a *//* b */", &st),
                     "<plain>x = <number>1<plain> <comment>/* one */<plain> + <number>2<plain>; "
                     "<comment>/* a *//* b */");
    ck_assert_int_eq(st.in_comment, 0);
    /* The '/' of the opening does not close it. */
    ck_assert_str_eq(shown_in("/*/ still open", &st), "<comment>/*/ still open");
    ck_assert_int_eq(st.in_comment, 1);
}
END_TEST

START_TEST(test_hl_comment_lines)
{
    struct hl_state st = { 0 };

    ck_assert_str_eq(shown_in("float a; /* the sum", &st), "<type>float<plain> a; <comment>/* the sum");
    ck_assert_int_eq(st.in_comment, 1);
    ck_assert_str_eq(shown_in(" * of int float4 // 12 \"x", &st), "<comment> * of int float4 // 12 \"x");
    ck_assert_int_eq(st.in_comment, 1);
    ck_assert_str_eq(shown_in(" */ return 0;", &st), "<comment> */<plain> <keyword>return<plain> <number>0<plain>;");
    ck_assert_int_eq(st.in_comment, 0);
    ck_assert_str_eq(shown_in("return 1;", &st), "<keyword>return<plain> <number>1<plain>;");
}
END_TEST

/* Lines of only comments and blanks, block comments spanning lines included. */
START_TEST(test_hl_comment_only_lines)
{
    char *text[] = {
        "/*",                           /* 0: a comment opens */
        " * int x = 1;",                /* 1: code words inside it */
        " */",                          /* 2: it closes */
        "",                             /* 3 */
        "int a; // the sum",            /* 4: code before a comment */
        "   // only this",              /* 5 */
        "x = 1; /* opens",              /* 6: code, then a comment that goes on */
        "   still in it */",            /* 7 */
        "/* a */ y = 2; /* b */",       /* 8: code between two comments */
        "#define X 1 /* x */",          /* 9: a directive is code */
        "  \t ",                       /* 10: blanks */
        "/* a *//* b */ // c",          /* 11: comments side by side */
        "/* */ }",                      /* 12: a closing brace is code */
    };
    static const bool expected[] = {
        true, true, true, true, false, true, false, true, false, false, true, true, false,
    };
    size_t n = sizeof text / sizeof text[0];
    bool marks[sizeof text / sizeof text[0]];

    highlight_comment_lines(text, n, marks);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(marks[i] == expected[i], "line %zu \"%s\" is %s", i, text[i],
                      marks[i] ? "comment only" : "code");
    /* Without line 0, nothing opens the comment: line 1 is code. */
    highlight_comment_lines(text + 1, 2, marks);
    ck_assert(!marks[0]);
}
END_TEST

START_TEST(test_hl_strings)
{
    struct hl_state st = { 0 };

    /* Comment marks inside a string are part of it. */
    ck_assert_str_eq(shown_in("#error \"TS is set (-DTS=...) /* // not comments\"", &st),
                     "<preproc>#error<plain> <string>\"TS is set (-DTS=...) /* // not comments\"");
    ck_assert_int_eq(st.in_comment, 0);
    ck_assert_str_eq(shown("c = '\\''; s = \"a\\\"b\" + 1;"),
                     "<plain>c = <string>'\\''<plain>; s = <string>\"a\\\"b\"<plain> + <number>1<plain>;");
    ck_assert_str_eq(shown("s = \"open"), "<plain>s = <string>\"open");
}
END_TEST

START_TEST(test_hl_preprocessor)
{
    ck_assert_str_eq(shown("#define TS 16"), "<preproc>#define<plain> TS <number>16");
    ck_assert_str_eq(shown("    #pragma unroll"), "<plain>    <preproc>#pragma<plain> unroll");
    ck_assert_str_eq(shown("# endif"), "<preproc># endif");
    ck_assert_str_eq(shown("#"), "<preproc>#");
    ck_assert_str_eq(shown("#if !defined(TSM) || WPTM % 4 != 0 // why"),
                     "<preproc>#if<plain> !<preproc>defined<plain>(TSM) || WPTM % <number>4<plain> != "
                     "<number>0<plain> <comment>// why");
    ck_assert_str_eq(shown("#define STORE_W(v, i, p) vstore2((v), (i), (p))"),
                     "<preproc>#define<plain> STORE_W(v, i, p) <builtin>vstore2<plain>((v), (i), (p))");
    /* A comment before the '#' is a blank; anything else makes '#' an operator. */
    ck_assert_str_eq(shown("/* c */ #define X"), "<comment>/* c */<plain> <preproc>#define<plain> X");
    ck_assert_str_eq(shown("a # b"), "<plain>a # b");
    /* defined is only special in a directive. */
    ck_assert_str_eq(shown("int defined;"), "<type>int<plain> defined;");
}
END_TEST

START_TEST(test_hl_continuation)
{
    struct hl_state st = { 0 };

    ck_assert_str_eq(shown_in("#if defined(A) && \\", &st),
                     "<preproc>#if<plain> <preproc>defined<plain>(A) && \\");
    ck_assert_int_eq(st.in_preproc, 1);
    ck_assert_str_eq(shown_in("    defined(B)", &st), "<plain>    <preproc>defined<plain>(B)");
    ck_assert_int_eq(st.in_preproc, 0);
    /* In a continued directive, '#' is the stringizing operator. */
    ck_assert_str_eq(shown_in("#define STR(x) \\  ", &st), "<preproc>#define<plain> STR(x) \\  ");
    ck_assert_int_eq(st.in_preproc, 1);
    ck_assert_str_eq(shown_in("    #x", &st), "<plain>    #x");
    ck_assert_int_eq(st.in_preproc, 0);
    ck_assert_str_eq(shown_in("#endif", &st), "<preproc>#endif");
    /* Outside a directive, a trailing backslash continues nothing that matters here. */
    ck_assert_str_eq(shown_in("x = 1; \\", &st), "<plain>x = <number>1<plain>; \\");
    ck_assert_int_eq(st.in_preproc, 0);
    /* A comment open at the end of a directive keeps it going to the comment's end. */
    ck_assert_str_eq(shown_in("#define X 1 /* the", &st), "<preproc>#define<plain> X <number>1<plain> <comment>/* the");
    ck_assert_int_eq(st.in_comment, 1);
    ck_assert_int_eq(st.in_preproc, 1);
    ck_assert_str_eq(shown_in("   value */ + defined", &st), "<comment>   value */<plain> + <preproc>defined");
    ck_assert_int_eq(st.in_comment, 0);
    ck_assert_int_eq(st.in_preproc, 0);
}
END_TEST

START_TEST(test_hl_empty)
{
    struct hl_state st = { 0 };
    struct hl_span span;

    ck_assert_uint_eq(highlight_line("", 0, &st, &span, 1), 0);
    ck_assert_int_eq(st.in_comment, 0);
    ck_assert_int_eq(st.in_preproc, 0);
    ck_assert_str_eq(shown("   \t"), "<plain>   \t");
    /* An empty line inside a comment leaves it open; one after a continued directive ends it. */
    st.in_comment = 1;
    ck_assert_uint_eq(highlight_line("", 0, &st, &span, 1), 0);
    ck_assert_int_eq(st.in_comment, 1);
    st = (struct hl_state){ 0, 1 };
    ck_assert_uint_eq(highlight_line("", 0, &st, &span, 1), 0);
    ck_assert_int_eq(st.in_preproc, 0);
}
END_TEST

START_TEST(test_hl_max_spans)
{
    static const char line[] = "__local float x; /* open";
    struct hl_state st = { 0 };
    struct hl_span two[2];

    /* The last span that fits takes the rest of the line, and the state is still followed. */
    ck_assert_uint_eq(highlight_line(line, strlen(line), &st, two, 2), 2);
    ck_assert_uint_eq(two[0].start, 0);
    ck_assert_uint_eq(two[0].len, 7);
    ck_assert_int_eq(two[0].role, HL_QUALIFIER);
    ck_assert_uint_eq(two[1].start, 7);
    ck_assert_uint_eq(two[1].len, strlen(line) - 7);
    ck_assert_int_eq(two[1].role, HL_PLAIN);
    ck_assert_int_eq(st.in_comment, 1);
    st.in_comment = 0;
    ck_assert_uint_eq(highlight_line(line, strlen(line), &st, two, 1), 1);
    ck_assert_uint_eq(two[0].len, strlen(line));
    ck_assert_int_eq(two[0].role, HL_QUALIFIER);
    st.in_comment = 0;
    ck_assert_uint_eq(highlight_line(line, strlen(line), &st, NULL, 0), 0);
    ck_assert_int_eq(st.in_comment, 1);
}
END_TEST

START_TEST(test_hl_role_names)
{
    static const char *const names[] = {
        "plain", "keyword", "type", "qualifier", "builtin", "comment", "number", "string", "preproc",
    };

    for (int r = HL_PLAIN; r <= HL_PREPROC; r++)
        ck_assert_str_eq(hl_role_name((enum hl_role)r), names[r]);
}
END_TEST

/* Highlights every line of one kernel file, adding up the spans of each role in counts. */
static void highlight_kernel(const char *path, size_t *counts)
{
    struct hl_state st = { 0 };
    struct lines lines;
    struct error e;
    char *text;

    error_init(&e);
    text = read_file(path, &e);
    ck_assert_msg(text != NULL, "%s", e.msg);
    lines_split(text, &lines);
    for (size_t i = 0; i < lines.count; i++) {
        const char *line = lines.items[i];
        size_t n = highlight_checked(line, &st);
        for (size_t k = 0; k < n; k++) {
            size_t start = spans[k].start;
            counts[spans[k].role]++;
            ck_assert_msg(spans[k].role != HL_NUMBER || start == 0 ||
                          !(isalnum((unsigned char)line[start - 1]) || line[start - 1] == '_'),
                          "%s:%zu: a number inside a word: %s", path, i + 1, line);
        }
    }
    ck_assert_msg(st.in_comment == 0 && st.in_preproc == 0, "%s ends inside a comment or a directive", path);
    lines_free(&lines);
    free(text);
}

START_TEST(test_hl_kernels)
{
    const char *dir = CLMM_SRCDIR "/kernels";
    size_t counts[HL_PREPROC + 1] = { 0 }, files = 0;
    struct dirent *d;
    DIR *dh = opendir(dir);

    ck_assert_ptr_nonnull(dh);
    while ((d = readdir(dh)) != NULL) {
        char path[4096];
        size_t n = strlen(d->d_name);
        if (n < 4 || strcmp(d->d_name + n - 3, ".cl") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
        highlight_kernel(path, counts);
        files++;
    }
    closedir(dh);
    ck_assert_uint_ge(files, 13);
    /* The kernels use every role, strings in their #error lines. */
    for (int r = HL_PLAIN; r <= HL_PREPROC; r++)
        ck_assert_msg(counts[r] > 0, "no %s span in the kernels", hl_role_name((enum hl_role)r));
}
END_TEST

Suite *highlight_suite(void)
{
    Suite *s = suite_create("highlight");
    TCase *roles = tcase_create("roles");
    TCase *lines = tcase_create("lines");

    tcase_add_test(roles, test_hl_declaration);
    tcase_add_test(roles, test_hl_keywords);
    tcase_add_test(roles, test_hl_numbers);
    tcase_add_test(roles, test_hl_digits_in_words);
    tcase_add_test(roles, test_hl_builtins);
    tcase_add_test(roles, test_hl_words);
    tcase_add_test(roles, test_hl_strings);
    tcase_add_test(roles, test_hl_preprocessor);
    tcase_add_test(roles, test_hl_role_names);
    suite_add_tcase(s, roles);
    tcase_add_test(lines, test_hl_comments);
    tcase_add_test(lines, test_hl_comment_lines);
    tcase_add_test(lines, test_hl_comment_only_lines);
    tcase_add_test(lines, test_hl_continuation);
    tcase_add_test(lines, test_hl_empty);
    tcase_add_test(lines, test_hl_max_spans);
    tcase_add_test(lines, test_hl_kernels);
    suite_add_tcase(s, lines);
    return s;
}
