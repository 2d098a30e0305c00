/* unit_json.c: the JSON reader: valid documents and what the lookups find in them,
   invalid ones and the line and column their messages name, escapes, numbers, and the
   limits of size, depth and count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scratch.h"
#include "units.h"
#include "engine/json.h"

/* Parses text, which must be valid. */
static void parse_ok(const char *text, struct json_value *v)
{
    struct error e;

    error_init(&e);
    ck_assert_msg(json_parse(text, strlen(text), "t.json", v, &e) == 0, "%s: %s", text, e.msg);
}

/* Parses len bytes of text, which must be invalid with a message holding want. */
static void parse_bad_n(const char *text, size_t len, const char *want)
{
    struct json_value v;
    struct error e;

    error_init(&e);
    ck_assert_msg(json_parse(text, len, "t.json", &v, &e) == -1, "accepted: %.*s", (int)len, text);
    ck_assert_msg(strstr(e.msg, want) != NULL, "for %.60s: \"%s\" lacks \"%s\"", text, e.msg, want);
    ck_assert_int_eq(v.type, JSON_NULL);
}

static void parse_bad(const char *text, const char *want)
{
    parse_bad_n(text, strlen(text), want);
}

START_TEST(test_document)
{
    struct json_value v;
    const struct json_value *r;
    double d;
    long long n;

    parse_ok("{\n  \"name\": \"xgemm_1\",\n  \"time\": 1.25,\n  \"ok\": true, \"no\": false, \"none\": null,\n"
             "  \"results\": [ {\"x\": 1}, [], {} ]\n}\n", &v);
    ck_assert_int_eq(v.type, JSON_OBJECT);
    ck_assert_uint_eq(v.u.object.count, 6);
    ck_assert_str_eq(v.u.object.members[0].key, "name");        /* the document's order */
    ck_assert_str_eq(json_string(json_get(&v, "name")), "xgemm_1");
    ck_assert(json_number(json_get(&v, "time"), &d) && d == 1.25);
    ck_assert_int_eq(json_get(&v, "ok")->type, JSON_TRUE);
    ck_assert_int_eq(json_get(&v, "no")->type, JSON_FALSE);
    ck_assert_int_eq(json_get(&v, "none")->type, JSON_NULL);
    ck_assert_ptr_null(json_get(&v, "absent"));
    ck_assert_ptr_null(json_string(json_get(&v, "time")));      /* a number is not a string */
    r = json_get(&v, "results");
    ck_assert_int_eq(r->type, JSON_ARRAY);
    ck_assert_int_eq(r->line, 5);
    ck_assert_int_eq(r->column, 14);
    ck_assert(json_integer(json_get(json_at(r, 0), "x"), &n) && n == 1);
    ck_assert_uint_eq(json_at(r, 1)->u.array.count, 0);
    ck_assert_ptr_null(json_at(r, 3));
    ck_assert_ptr_null(json_at(&v, 0));                          /* an object is not an array */
    ck_assert_ptr_null(json_get(r, "x"));
    json_free(&v);
    ck_assert_int_eq(v.type, JSON_NULL);

    /* Any value at the top, white space around it. */
    parse_ok(" \t\r\n 42 \n", &v);
    ck_assert(json_integer(&v, &n) && n == 42);
    parse_ok("\"\"", &v);
    ck_assert_str_eq(json_string(&v), "");
    json_free(&v);
    parse_ok("\xEF\xBB\xBF[null]", &v);                           /* a byte order mark */
    ck_assert_int_eq(v.u.array.items[0].type, JSON_NULL);
    json_free(&v);
}
END_TEST

START_TEST(test_invalid)
{
    /* line:column of each mistake, and what was expected. */
    parse_bad("{\n  \"a\": 1,\n  \"b\" 2\n}", "t.json:3:7: expected ':' after an object key, found '2'");
    parse_bad("[1, 2", "t.json:1:6: expected ',' or ']' after an array item, found the end of the file");
    parse_bad("[1, 2,]", "1:7: a ']' after a ',': JSON allows no trailing comma");
    parse_bad("{\"a\":1,}", "a '}' after a ','");
    parse_bad("{a:1}", "1:2: expected a '\"' starting an object key, found 'a'");
    parse_bad("{\"a\":1 \"b\":2}", "expected ',' or '}' after an object member");
    parse_bad("", "t.json:1:1: expected a JSON value, found only an empty file");
    parse_bad("  \n ", "t.json:2:2: expected a JSON value, found only white space");
    parse_bad("[1] [2]", "1:5: expected the end of the file after the JSON value, found '['");
    parse_bad("tru", "expected a value (an object, array, string, number, true, false or null), found 't'");
    parse_bad("nul", "found 'n'");
    parse_bad("True", "found 'T'");
    parse_bad("'a'", "found '''");
    parse_bad("[\"abc", "1:2: a string that never ends");
    parse_bad("\"a\tb\"", "a control character (byte 0x09) in a string");
    parse_bad("\"a\nb\"", "a control character (byte 0x0a)");
    parse_bad("{\"a\": 1, \"a\": 2}", "the key \"a\" appears twice in one object");
    parse_bad("[1,\n  {\"k\": 1,\n   \"k\": 2}]", "t.json:3:9: the key \"k\" appears twice");
    parse_bad_n("[1, \0]", 6, "found byte 0x00");
    /* Columns count characters, not bytes. */
    parse_bad("[\"\xc3\xa9\xc3\xa9\" x]", "t.json:1:7: expected ',' or ']'");
}
END_TEST

START_TEST(test_escapes)
{
    struct json_value v;

    parse_ok("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\"", &v);
    ck_assert_str_eq(json_string(&v), "q\" b\\ s/ \b\f\n\r\t");
    json_free(&v);
    parse_ok("\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"", &v);   /* A, e acute, euro, an emoji */
    ck_assert_str_eq(json_string(&v), "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    json_free(&v);
    parse_ok("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", &v);   /* the same, as UTF-8 */
    ck_assert_uint_eq(v.u.string.len, 9);
    json_free(&v);
    /* A NUL inside, which would cut a C string short: refused where the file has it, in a
       value or a key, escaped or as a byte. */
    parse_bad("\"a\\u0000b\"", "t.json:1:3: \\u0000 in a string: a NUL character, which no text here may hold");
    parse_bad("{\"k\\u0000\": 1}", "t.json:1:4: \\u0000 in a string: a NUL character");
    parse_bad_n("[\"a\0b\"]", 7, "t.json:1:4: byte 0x00 in a string: a NUL character");

    parse_bad("\"\\x41\"", "1:2: an unknown escape: \\ followed by 'x'");
    parse_bad("\"\\", "an unknown escape: \\ followed by the end of the file");
    parse_bad("\"\\u12G4\"", "1:6: expected four hexadecimal digits after \\u, found 'G'");
    parse_bad("\"\\u12", "found the end of the file");
    parse_bad("\"\\ud83d\"", "\\ud83d is the first half of a surrogate pair");
    parse_bad("\"\\ud83dx\"", "the first half of a surrogate pair");
    parse_bad("\"\\ud83d\\u0041\"", "but \\u0041 is not a second half");
    parse_bad("\"\\ude00\"", "\\ude00 is the second half of a surrogate pair without a first");
    /* Invalid UTF-8: a lone continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short. */
    parse_bad("\"\x80\"", "byte 0x80 in a string is not valid UTF-8");
    parse_bad("\"\xc0\xaf\"", "byte 0xc0");
    parse_bad("\"\xe0\x80\xaf\"", "byte 0xe0");
    parse_bad("\"\xed\xa0\x80\"", "byte 0xed");
    parse_bad("\"\xf4\x90\x80\x80\"", "byte 0xf4");
    parse_bad("\"\xe2\x82\"", "byte 0xe2");
    parse_bad("[\xc3\xa9]", "found byte 0xc3");
}
END_TEST

START_TEST(test_numbers)
{
    static const struct { const char *text; double value; } good[] = {
        { "0", 0 }, { "-0", 0 }, { "7", 7 }, { "-12", -12 }, { "3.25", 3.25 }, { "1e3", 1000 },
        { "1E+3", 1000 }, { "25e-2", 0.25 }, { "-0.5e1", -5 }, { "1e-400", 0 },
        { "9007199254740993", 9007199254740992.0 },
    };
    static const struct { const char *text, *want; } bad[] = {
        { "01", "a leading zero" }, { "-01", "a leading zero" }, { "+1", "found '+'" },
        { ".5", "found '.'" }, { "1.", "1:3: expected a digit after the decimal point" },
        { "1.e3", "a digit after the decimal point" }, { "1e", "a digit in the exponent" },
        { "1e+", "a digit in the exponent" }, { "-", "a digit after '-'" }, { "- 1", "a digit after '-'" },
        { "1e999", "the number 1e999 is out of range" }, { "-1e999", "out of range" },
        { "0x10", "found 'x'" }, { "NaN", "found 'N'" }, { "Infinity", "found 'I'" }, { "1.5.2", "found '.'" },
    };
    struct json_value v;
    long long n;
    double d;

    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        parse_ok(good[i].text, &v);
        ck_assert_msg(json_number(&v, &d) && d == good[i].value, "%s read as %g", good[i].text, d);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        parse_bad(bad[i].text, bad[i].want);
    parse_ok("2.5", &v);
    ck_assert(!json_integer(&v, &n));
    parse_ok("-9007199254740992", &v);
    ck_assert(json_integer(&v, &n) && n == -9007199254740992LL);
    parse_ok("1e300", &v);
    ck_assert(!json_integer(&v, &n));
    parse_ok("\"5\"", &v);
    ck_assert(!json_number(&v, &d));
    json_free(&v);
}
END_TEST

/* depth arrays inside one another, the innermost holding 1. */
static char *nested(int depth)
{
    char *text = malloc((size_t)depth * 2 + 2);

    memset(text, '[', (size_t)depth);
    text[depth] = '1';
    memset(text + depth + 1, ']', (size_t)depth);
    text[depth * 2 + 1] = '\0';
    return text;
}

START_TEST(test_limits)
{
    struct json_value v;
    struct error e;
    char *text = nested(JSON_MAX_DEPTH);
    size_t len;

    parse_ok(text, &v);
    json_free(&v);
    free(text);
    text = nested(JSON_MAX_DEPTH + 1);
    parse_bad(text, "t.json:1:257: arrays and objects nested more than 256 deep");
    free(text);
    /* Far deeper than any stack could recurse: refused at the limit, not a crash. */
    len = 1000000;
    text = malloc(len + 1);
    memset(text, '[', len);
    text[len] = '\0';
    parse_bad(text, "nested more than 256 deep");
    free(text);

    /* The input's size and its count of values. */
    error_init(&e);
    ck_assert_int_eq(json_parse("[]", (size_t)JSON_MAX_INPUT + 1, "big.json", &v, &e), -1);
    ck_assert_str_eq(e.msg, "big.json: 16777217 bytes: larger than a JSON file can be here (16 MiB)");
    len = (size_t)JSON_MAX_VALUES * 2 + 2;
    text = malloc(len + 1);
    text[0] = '[';
    for (size_t i = 1; i < len - 1; i += 2) {
        text[i] = '0';
        text[i + 1] = ',';
    }
    text[len - 2] = '0';
    text[len - 1] = ']';
    text[len] = '\0';
    parse_bad(text, "more than 4194304 values in one document");
    free(text);
}
END_TEST

START_TEST(test_file)
{
    char dir[] = "/tmp/clmm-unit-json-XXXXXX", path[128];
    struct json_value v;
    struct error e;

    ck_assert(mkdtemp(dir) != NULL);
    scratch_write(dir, "a.json", "{\"k\": [1, 2,\n 3 x]}\n");
    snprintf(path, sizeof path, "%s/a.json", dir);
    error_init(&e);
    ck_assert_int_eq(json_parse_file(path, &v, &e), -1);
    ck_assert_msg(strstr(e.msg, "a.json:2:4: expected ',' or ']' after an array item, found 'x'"), "%s", e.msg);
    scratch_write(dir, "a.json", "{\"k\": [1, 2,\n 3]}\n");
    ck_assert_int_eq(json_parse_file(path, &v, &e), 0);
    ck_assert_uint_eq(json_get(&v, "k")->u.array.count, 3);
    json_free(&v);
    snprintf(path, sizeof path, "%s/none.json", dir);
    ck_assert_int_eq(json_parse_file(path, &v, &e), -1);
    ck_assert_msg(strstr(e.msg, "none.json") && strstr(e.msg, "No such file"), "%s", e.msg);
    ck_assert_int_eq(json_parse_file(dir, &v, &e), -1);
    ck_assert_msg(strstr(e.msg, "a directory"), "%s", e.msg);
    scratch_remove(dir);
}
END_TEST

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("json");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_document);
    tcase_add_test(tc, test_invalid);
    tcase_add_test(tc, test_escapes);
    tcase_add_test(tc, test_numbers);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_file);
    suite_add_tcase(s, tc);
    return s;
}
