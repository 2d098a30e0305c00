/* unit_expr.c: the integer expressions of lesson files. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/expr.h"

static const struct expr_var test_vars[] = {
    { "M", 1000 }, { "N", 700 }, { "K", 300 }, { "TS", 16 }, { "WPT_M", 8 },
};
static const struct expr_env test_env = { test_vars, sizeof test_vars / sizeof test_vars[0] };

/* Evaluates text in test_env, failing the test if it does not evaluate. */
static long long eval_ok(const char *text)
{
    struct error e;
    long long v = -12345;

    error_init(&e);
    ck_assert_msg(expr_eval(text, &test_env, &v, &e) == 0, "\"%s\" failed: %s", text, e.msg);
    return v;
}

/* Checks that text is refused with a message holding fragment (and fragment2 unless NULL). */
static void eval_fails(const char *text, const char *fragment, const char *fragment2)
{
    struct error e;
    long long v = -12345;

    error_init(&e);
    ck_assert_msg(expr_eval(text, &test_env, &v, &e) < 0, "\"%s\" evaluated to %lld", text, v);
    ck_assert_msg(v == -12345, "\"%s\" changed the value on failure", text);
    ck_assert_msg(strstr(e.msg, fragment) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text,
                  e.msg, fragment);
    if (fragment2)
        ck_assert_msg(strstr(e.msg, fragment2) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text,
                      e.msg, fragment2);
}

START_TEST(test_expr_numbers)
{
    ck_assert_int_eq(eval_ok("0"), 0);
    ck_assert_int_eq(eval_ok("42"), 42);
    ck_assert_int_eq(eval_ok("  7  "), 7);
    ck_assert_int_eq(eval_ok("9223372036854775807"), LLONG_MAX);
}
END_TEST

START_TEST(test_expr_precedence)
{
    ck_assert_int_eq(eval_ok("2+3*4"), 14);
    ck_assert_int_eq(eval_ok("2*3+4"), 10);
    ck_assert_int_eq(eval_ok("(2+3)*4"), 20);
    ck_assert_int_eq(eval_ok("1 + 2 < 4"), 1);          /* + binds tighter than < */
    ck_assert_int_eq(eval_ok("0 || 1 && 0"), 0);        /* && binds tighter than || */
    ck_assert_int_eq(eval_ok("1 || 1 && 0"), 1);
    ck_assert_int_eq(eval_ok("2 + 3 == 5 && 4 > 3"), 1);
}
END_TEST

START_TEST(test_expr_associativity)
{
    ck_assert_int_eq(eval_ok("10-4-3"), 3);
    ck_assert_int_eq(eval_ok("100/10/5"), 2);
    ck_assert_int_eq(eval_ok("2*3%4"), 2);
    ck_assert_int_eq(eval_ok("17%5*3"), 6);
    ck_assert_int_eq(eval_ok("1-2+3"), 2);
}
END_TEST

START_TEST(test_expr_c_division)
{
    ck_assert_int_eq(eval_ok("17/5"), 3);
    ck_assert_int_eq(eval_ok("17%5"), 2);
    ck_assert_int_eq(eval_ok("-3/2"), -1);      /* truncation toward zero, as in C */
    ck_assert_int_eq(eval_ok("-3%2"), -1);
    ck_assert_int_eq(eval_ok("3/-2"), -1);
    ck_assert_int_eq(eval_ok("-7/2*2"), -6);
    ck_assert_int_eq(eval_ok("--5"), 5);
    ck_assert_int_eq(eval_ok("-(2+3)"), -5);
}
END_TEST

START_TEST(test_expr_comparisons)
{
    ck_assert_int_eq(eval_ok("3 == 3"), 1);
    ck_assert_int_eq(eval_ok("3 != 3"), 0);
    ck_assert_int_eq(eval_ok("2 < 3"), 1);
    ck_assert_int_eq(eval_ok("3 < 3"), 0);
    ck_assert_int_eq(eval_ok("3 <= 3"), 1);
    ck_assert_int_eq(eval_ok("4 <= 3"), 0);
    ck_assert_int_eq(eval_ok("3 > 2"), 1);
    ck_assert_int_eq(eval_ok("3 > 3"), 0);
    ck_assert_int_eq(eval_ok("3 >= 3"), 1);
    ck_assert_int_eq(eval_ok("2 >= 3"), 0);
}
END_TEST

START_TEST(test_expr_logic)
{
    ck_assert_int_eq(eval_ok("1 && 1"), 1);
    ck_assert_int_eq(eval_ok("1 && 0"), 0);
    ck_assert_int_eq(eval_ok("0 || 0"), 0);
    ck_assert_int_eq(eval_ok("0 || 7"), 1);     /* the result is 0 or 1, as in C */
    ck_assert_int_eq(eval_ok("5 && 9"), 1);
    ck_assert_int_eq(eval_ok("!0"), 1);
    ck_assert_int_eq(eval_ok("!5"), 0);
    ck_assert_int_eq(eval_ok("!!5"), 1);
    ck_assert_int_eq(eval_ok("!(1 == 2)"), 1);
}
END_TEST

START_TEST(test_expr_less_tokens)
{
    /* "<" must not take the first half of "<=", nor "!" of "!=". */
    ck_assert_int_eq(eval_ok("3<=3"), 1);
    ck_assert_int_eq(eval_ok("3<3"), 0);
    ck_assert_int_eq(eval_ok("3>=3"), 1);
    ck_assert_int_eq(eval_ok("3>3"), 0);
    ck_assert_int_eq(eval_ok("2!=3"), 1);
    ck_assert_int_eq(eval_ok("3 < -1"), 0);
    ck_assert_int_eq(eval_ok("1<!0"), 0);
    eval_fails("3 < = 3", "column", NULL);
    eval_fails("3 =< 3", "column", NULL);
}
END_TEST

START_TEST(test_expr_functions)
{
    ck_assert_int_eq(eval_ok("min(3, 9)"), 3);
    ck_assert_int_eq(eval_ok("min(9, 3)"), 3);
    ck_assert_int_eq(eval_ok("max(3, 9)"), 9);
    ck_assert_int_eq(eval_ok("max(-3, -9)"), -3);
    ck_assert_int_eq(eval_ok("cdiv(7, 2)"), 4);
    ck_assert_int_eq(eval_ok("cdiv(8, 2)"), 4);
    ck_assert_int_eq(eval_ok("cdiv(1, 64)"), 1);
    ck_assert_int_eq(eval_ok("cdiv(0, 64)"), 0);
    ck_assert_int_eq(eval_ok("roundup(130, 64)"), 192);
    ck_assert_int_eq(eval_ok("roundup(128, 64)"), 128);
    ck_assert_int_eq(eval_ok("roundup(1, 64)"), 64);
    ck_assert_int_eq(eval_ok("max(min(1, 2), cdiv(9, 4)) * 2"), 6);
    ck_assert_int_eq(eval_ok("roundup(M, TS*8) / 8"), 128);
    eval_fails("cdiv(7, 0)", "positive", NULL);
    eval_fails("roundup(7, -2)", "positive", NULL);
    eval_fails("sqrt(4, 2)", "unknown function", NULL);
    eval_fails("min(4)", "','", NULL);
    eval_fails("min(4, 5", "')'", NULL);
}
END_TEST

START_TEST(test_expr_variables)
{
    ck_assert_int_eq(eval_ok("M"), 1000);
    ck_assert_int_eq(eval_ok("M*N*K"), 210000000);
    ck_assert_int_eq(eval_ok("K/TS"), 18);
    ck_assert_int_eq(eval_ok("WPT_M * TS"), 128);
    ck_assert_int_eq(eval_ok("M%TS == 0"), 0);
}
END_TEST

START_TEST(test_expr_empty_env)
{
    const struct expr_env empty = { NULL, 0 };
    struct error e;
    long long v = 0;

    error_init(&e);
    ck_assert_int_eq(expr_eval("6*7", &empty, &v, &e), 0);
    ck_assert_int_eq(v, 42);
    ck_assert_int_lt(expr_eval("M", &empty, &v, &e), 0);
}
END_TEST

START_TEST(test_expr_unknown_name)
{
    /* The message names the column where the unknown name starts. */
    eval_fails("TS * TSX", "unknown name", "column 6");
    eval_fails("Q", "unknown name", "column 1");
    eval_fails("M + (N * bogus)", "unknown name", "column 10");
    eval_fails("TS * TSX", "TS * TSX", NULL);   /* and quotes the expression */
    eval_fails("m", "unknown name", NULL);      /* names are case-sensitive */
}
END_TEST

START_TEST(test_expr_syntax_errors)
{
    eval_fails("2 3", "unexpected text", "column 3");
    eval_fails("1 + 2)", "unexpected text", NULL);
    eval_fails("(1 + 2", "')'", NULL);
    eval_fails("((M)", "')'", NULL);
    eval_fails("", "unexpected end", NULL);
    eval_fails("1 +", "unexpected end", NULL);
    eval_fails("1 + * 2", "unexpected character", NULL);
    eval_fails("1 & 2", "column", NULL);
    eval_fails("1 | 2", "column", NULL);
    eval_fails("1 = 2", "column", NULL);
    eval_fails("1 < 2 < 3", "unexpected text", NULL);     /* comparisons do not chain */
    eval_fails("1 < 2 == 1", "unexpected text", NULL);
    eval_fails("4 # 2", "column", NULL);
}
END_TEST

START_TEST(test_expr_division_by_zero)
{
    eval_fails("1/0", "division by zero", NULL);
    eval_fails("1%0", "division by zero", NULL);
    eval_fails("M / (TS - 16)", "division by zero", NULL);
}
END_TEST

START_TEST(test_expr_overflow)
{
    eval_fails("9223372036854775808", "too large", NULL);
    eval_fails("9223372036854775807 + 1", "overflow", NULL);
    eval_fails("-9223372036854775807 - 2", "overflow", NULL);
    eval_fails("4294967296 * 4294967296", "overflow", NULL);
    eval_fails("-(-9223372036854775807 - 1)", "overflow", NULL);
    ck_assert_int_eq(eval_ok("-9223372036854775807 - 1"), LLONG_MIN);
}
END_TEST

/* LLONG_MIN / -1 and LLONG_MIN % -1 overflow in C (and trap on x86): they must be refused
   as an overflow, not crash the program. */
START_TEST(test_expr_overflow_division)
{
    eval_fails("(-9223372036854775807 - 1) / -1", "overflow", NULL);
    eval_fails("(-9223372036854775807 - 1) % -1", "overflow", NULL);
}
END_TEST

/* roundup and cdiv must not overflow silently either. */
START_TEST(test_expr_overflow_functions)
{
    eval_fails("roundup(9223372036854775807, 2)", "overflow", NULL);
    eval_fails("roundup(9223372036854775807 - 1, 4)", "overflow", NULL);
}
END_TEST

/* A rule names the function it belongs to, and an unknown function is named as such
   whatever its arguments. */
START_TEST(test_expr_function_messages)
{
    eval_fails("cdiv(1, 0)", "cdiv needs a positive second argument, not 0", "column 1");
    eval_fails("M + roundup(1, -3)", "roundup needs a positive second argument, not -3", "column 5");
    eval_fails("sqrt(1, 0)", "unknown function", "column 1");
    eval_fails("cdiv(1, 0)", "column", NULL);
    {
        struct error e;
        long long v;
        error_init(&e);
        ck_assert_int_lt(expr_eval("cdiv(1, 0)", &test_env, &v, &e), 0);
        ck_assert_msg(strstr(e.msg, "roundup") == NULL, "%s", e.msg);
        ck_assert_int_lt(expr_eval("sqrt(1, 0)", &test_env, &v, &e), 0);
        ck_assert_msg(strstr(e.msg, "positive") == NULL, "%s", e.msg);
    }
}
END_TEST

/* text: count copies of open, then middle, then count copies of close; malloc'd. */
static char *nested(const char *open, const char *middle, const char *close, size_t count)
{
    size_t lo = strlen(open), lm = strlen(middle), lc = strlen(close);
    char *text = malloc(count * (lo + lc) + lm + 1), *p = text;

    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < count; i++, p += lo)
        memcpy(p, open, lo);
    memcpy(p, middle, lm);
    p += lm;
    for (size_t i = 0; i < count; i++, p += lc)
        memcpy(p, close, lc);
    *p = '\0';
    return text;
}

/* Nesting is bounded (EXPR_MAX_DEPTH levels of parentheses, calls and unary operators), so
   a hostile lesson file cannot exhaust the stack: 40,000 parentheses or 150,000 minus signs
   once crashed the parser. */
START_TEST(test_expr_depth)
{
    static const struct {
        const char *open, *middle, *close;
        long long value;
    } kinds[] = {
        { "(", "M", ")", 1000 },
        { "-", "M", "", 1000 },         /* an even count of minus signs */
        { "!", "M", "", 1 },            /* an even count of ! */
        { "min(", "M", ", 5000)", 1000 },
        { "- (", "M", ")", 1000 },
    };

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t at_most = strcmp(kinds[i].open, "- (") == 0 ? EXPR_MAX_DEPTH / 2 : EXPR_MAX_DEPTH;
        size_t counts[] = { at_most + 1, 40000, 150000 };
        char *text = nested(kinds[i].open, kinds[i].middle, kinds[i].close, at_most);
        /* EXPR_MAX_LENGTH is met by the largest allowed depth of each kind. */
        ck_assert_uint_le(strlen(text), EXPR_MAX_LENGTH);
        ck_assert_int_eq(eval_ok(text), kinds[i].value);
        free(text);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            text = nested(kinds[i].open, kinds[i].middle, kinds[i].close, counts[c]);
            if (strlen(text) <= EXPR_MAX_LENGTH)
                eval_fails(text, "nested deeper than 64 levels", NULL);
            else
                eval_fails(text, "characters, over the 1000 allowed", NULL);
            free(text);
        }
    }
}
END_TEST

/* Expressions are at most EXPR_MAX_LENGTH characters; a message quotes a long one in part. */
START_TEST(test_expr_length)
{
    char text[EXPR_MAX_LENGTH + 2];
    struct error e;
    long long v;

    memset(text, ' ', sizeof text);
    text[0] = '7';
    text[EXPR_MAX_LENGTH] = '\0';
    ck_assert_int_eq(eval_ok(text), 7);
    text[EXPR_MAX_LENGTH] = ' ';
    text[EXPR_MAX_LENGTH + 1] = '\0';
    eval_fails(text, "an expression of 1001 characters, over the 1000 allowed", NULL);
    text[EXPR_MAX_LENGTH] = '\0';
    text[0] = ' ';
    text[EXPR_MAX_LENGTH - 1] = 'x';
    error_init(&e);
    ck_assert_int_lt(expr_eval(text, &test_env, &v, &e), 0);
    ck_assert_msg(strstr(e.msg, "unknown name at column 1000 of \"   ") != NULL, "%s", e.msg);
    ck_assert_msg(strstr(e.msg, " ...\"") != NULL && strlen(e.msg) < 200, "%s", e.msg);
}
END_TEST

/* As in C, the side of && or || that decides nothing is not evaluated, but names in it
   must still exist. */
START_TEST(test_expr_short_circuit)
{
    ck_assert_int_eq(eval_ok("0 && 1 / 0"), 0);
    ck_assert_int_eq(eval_ok("1 || M % 0"), 1);
    ck_assert_int_eq(eval_ok("K == 0 || M / K > 1"), 1);
    ck_assert_int_eq(eval_ok("0 && 9223372036854775807 * 2"), 0);
    ck_assert_int_eq(eval_ok("0 && cdiv(M, 0)"), 0);
    eval_fails("1 && 1 / 0", "division by zero", NULL);
    eval_fails("0 || M % 0", "division by zero", NULL);
    eval_fails("0 && NOPE", "unknown name", NULL);
}
END_TEST

Suite *expr_suite(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("expr");

    tcase_add_test(tc, test_expr_numbers);
    tcase_add_test(tc, test_expr_precedence);
    tcase_add_test(tc, test_expr_associativity);
    tcase_add_test(tc, test_expr_c_division);
    tcase_add_test(tc, test_expr_comparisons);
    tcase_add_test(tc, test_expr_logic);
    tcase_add_test(tc, test_expr_less_tokens);
    tcase_add_test(tc, test_expr_functions);
    tcase_add_test(tc, test_expr_variables);
    tcase_add_test(tc, test_expr_empty_env);
    tcase_add_test(tc, test_expr_unknown_name);
    tcase_add_test(tc, test_expr_syntax_errors);
    tcase_add_test(tc, test_expr_division_by_zero);
    tcase_add_test(tc, test_expr_overflow);
    tcase_add_test(tc, test_expr_overflow_division);
    tcase_add_test(tc, test_expr_overflow_functions);
    tcase_add_test(tc, test_expr_short_circuit);
    tcase_add_test(tc, test_expr_function_messages);
    tcase_add_test(tc, test_expr_depth);
    tcase_add_test(tc, test_expr_length);
    suite_add_tcase(s, tc);
    return s;
}
