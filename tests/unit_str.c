/* unit_str.c: strings built in fixed buffers, and integers read from text. */
#include <string.h>

#include "units.h"
#include "engine/str.h"

START_TEST(test_str_separators)
{
    char buf[64];
    struct str s;

    str_init(&s, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    str_appendf(&s, ", ", "%d", 8);        /* no separator before the first item */
    str_appendf(&s, ", ", "%d", 16);
    str_appendf(&s, "", "%s", "!");
    ck_assert_str_eq(buf, "8, 16!");
    ck_assert_uint_eq(s.len, strlen(buf));
    ck_assert(!s.truncated);
}
END_TEST

/* What does not fit is cut, the string stays terminated, and the cut is known. */
START_TEST(test_str_truncation)
{
    char buf[8];
    struct str s;

    str_init(&s, buf, sizeof buf);
    str_appendf(&s, " ", "-D%s=%d", "TS", 16);
    ck_assert_str_eq(buf, "-DTS=16");
    ck_assert(!s.truncated);
    str_appendf(&s, " ", "-D%s=%d", "WPT", 8);
    ck_assert(s.truncated);
    ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
    ck_assert_uint_eq(s.len, sizeof buf - 1);
    str_appendf(&s, " ", "%s", "more");
    ck_assert(s.truncated);
    ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
}
END_TEST

START_TEST(test_str_to_ll)
{
    long long v = 0;

    ck_assert_int_eq(str_to_ll("42", &v), 0);
    ck_assert_int_eq(v, 42);
    ck_assert_int_eq(str_to_ll(" -7 ", &v), 0);
    ck_assert_int_eq(v, -7);
    ck_assert_int_eq(str_to_ll("", &v), -1);
    ck_assert_int_eq(str_to_ll("12a", &v), -1);
    ck_assert_int_eq(str_to_ll("1 2", &v), -1);
    ck_assert_int_eq(str_to_ll("99999999999999999999", &v), -1);
}
END_TEST

/* Columns are characters, not bytes: "\xc3\x97" is one. */
START_TEST(test_str_columns)
{
    const char *s = "a\xc3\x97" "b\xc3\x97";

    ck_assert_uint_eq(str_columns(s, strlen(s)), 4);
    ck_assert_uint_eq(str_columns(s, 3), 2);
    ck_assert_uint_eq(str_prefix(s, 2), 3);     /* never inside a character */
    ck_assert_uint_eq(str_prefix(s, 0), 0);
    ck_assert_uint_eq(str_prefix(s, 9), strlen(s));
}
END_TEST

/* A copy is cut to fit and always ends. */
START_TEST(test_str_copy)
{
    char buf[6];

    str_copy(buf, sizeof buf, "TS=16");
    ck_assert_str_eq(buf, "TS=16");
    str_copy(buf, sizeof buf, "TS=16 WPT=8");
    ck_assert_str_eq(buf, "TS=16");
    str_copy(buf, 1, "x");
    ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_str_has_suffix)
{
    ck_assert(str_has_suffix("05-tiles.lesson", ".lesson"));
    ck_assert(!str_has_suffix(".lesson", ".lesson"));       /* nothing before it */
    ck_assert(!str_has_suffix("05-tiles.lesson~", ".lesson"));
    ck_assert(!str_has_suffix("n", ".exercise"));
}
END_TEST

Suite *str_suite(void)
{
    Suite *s = suite_create("str");
    TCase *tc = tcase_create("str");

    tcase_add_test(tc, test_str_separators);
    tcase_add_test(tc, test_str_truncation);
    tcase_add_test(tc, test_str_to_ll);
    tcase_add_test(tc, test_str_columns);
    tcase_add_test(tc, test_str_copy);
    tcase_add_test(tc, test_str_has_suffix);
    suite_add_tcase(s, tc);
    return s;
}
