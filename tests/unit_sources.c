/* unit_sources.c: the SOURCES file: a good file read field by field, each kind of malformed
   line refused with its line number, the limits, a missing file taken for no documents, and
   the documents a sources line cites. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"
#include "units.h"
#include "engine/sources.h"

static const char good[] =
    "# The documents.\n"
    "source: 000\n"
    "title: A notebook\n"
    "author: not given in the document\n"
    "address: https://example.org/notebook\n"
    "about: Times a few kernels.\n"
    "\n"
    "source: 003\n"
    "  title:   Tuning SGEMM  \n"
    "author: A. Author\n"
    "about: The opening of a tutorial.\n"
    "address: not given in the document\n";

static int parse(const char *text, struct source_set *set, struct error *e)
{
    error_init(e);
    return sources_parse("SOURCES", text, strlen(text), set, e);
}

/* text is refused with exactly this message. */
static void parse_fails(const char *text, const char *message)
{
    struct source_set set;
    struct error e;

    ck_assert_int_eq(parse(text, &set, &e), -1);
    ck_assert_str_eq(e.msg, message);
    ck_assert_uint_eq(set.count, 0);
    ck_assert_ptr_null(set.items);
}

START_TEST(test_good_file)
{
    struct source_set set;
    struct error e;

    ck_assert_int_eq(parse(good, &set, &e), 0);
    ck_assert_uint_eq(set.count, 2);
    ck_assert_str_eq(set.items[0].id, "000");
    ck_assert_str_eq(set.items[0].title, "A notebook");
    ck_assert_str_eq(set.items[0].author, "not given in the document");
    ck_assert_str_eq(set.items[0].address, "https://example.org/notebook");
    ck_assert_str_eq(set.items[0].about, "Times a few kernels.");
    /* Blanks around keys and values are not part of them; the keys come in any order. */
    ck_assert_str_eq(set.items[1].id, "003");
    ck_assert_str_eq(set.items[1].title, "Tuning SGEMM");
    ck_assert_str_eq(set.items[1].address, "not given in the document");
    ck_assert_ptr_eq(sources_find(&set, "003"), &set.items[1]);
    ck_assert_ptr_null(sources_find(&set, "001"));
    sources_free(&set);
    ck_assert_uint_eq(set.count, 0);
}
END_TEST

START_TEST(test_malformed_lines)
{
    char text[1024];

    parse_fails("source: 000\ntitle: T\nno colon here\n", "SOURCES:3: expected \"key: value\", found \"no colon here\"");
    parse_fails("title: T\n", "SOURCES:1: \"title:\" before any \"source: NNN\" line: a document starts with its id");
    parse_fails("source: 12\n", "SOURCES:1: expected a three-digit id such as 003 after \"source:\", found \"12\"");
    parse_fails("source: 0001\n", "SOURCES:1: expected a three-digit id such as 003 after \"source:\", found \"0001\"");
    parse_fails("source: abc\n", "SOURCES:1: expected a three-digit id such as 003 after \"source:\", found \"abc\"");
    snprintf(text, sizeof text, "%s\nsource: 000\n", good);
    parse_fails(text, "SOURCES:14: document 000 is given twice");
    parse_fails("source: 000\ntitle: T\nauthor: A\naddress: U\nabout: X\ntitle: again\n",
                "SOURCES:6: \"title:\" is given twice for this document");
    parse_fails("source: 000\ntitle: T\nauthor: A\naddress: U\nabout: X\nyear: 2013\n",
                "SOURCES:6: unknown key \"year\" (expected source, title, author, address or about)");
    parse_fails("source: 000\ntitle: T\nauthor:\n",
                "SOURCES:3: the author is empty (write \"not given in the document\" where it is not)");
    /* A document without one of its keys: named at its source line, when the next one starts
       or the file ends. */
    parse_fails("# c\nsource: 000\ntitle: T\nauthor: A\nabout: X\nsource: 001\n",
                "SOURCES:2: document 000 has no \"address:\" line (every document has title, author, address "
                "and about)");
    parse_fails("source: 000\ntitle: T\nauthor: A\naddress: U\n",
                "SOURCES:1: document 000 has no \"about:\" line (every document has title, author, address "
                "and about)");
}
END_TEST

START_TEST(test_limits)
{
    struct source_set set;
    struct error e;
    size_t size = 200 * 120;
    char *text = malloc(size), *p = text;
    char value[SOURCES_VALUE_MAX + 2];

    /* A value of SOURCES_VALUE_MAX bytes is taken, one more byte is refused. */
    memset(value, 'x', SOURCES_VALUE_MAX);
    value[SOURCES_VALUE_MAX] = '\0';
    snprintf(text, size, "source: 000\ntitle: %s\nauthor: A\naddress: U\nabout: X\n", value);
    ck_assert_int_eq(parse(text, &set, &e), 0);
    ck_assert_uint_eq(strlen(set.items[0].title), SOURCES_VALUE_MAX);
    sources_free(&set);
    strcat(value, "x");
    snprintf(text, size, "source: 000\ntitle: %s\n", value);
    parse_fails(text, "SOURCES:2: the value is longer than 500 bytes");
    /* SOURCES_MAX documents are taken, one more is refused at its line. */
    for (int i = 0; i <= SOURCES_MAX; i++)
        p += sprintf(p, "source: %03d\ntitle: T\nauthor: A\naddress: U\nabout: X\n", i);
    parse_fails(text, "SOURCES:501: more than 100 documents");
    *strstr(text, "source: 100") = '\0';
    ck_assert_int_eq(parse(text, &set, &e), 0);
    ck_assert_uint_eq(set.count, SOURCES_MAX);
    sources_free(&set);
    /* A NUL byte: the file is not text. */
    error_init(&e);
    ck_assert_int_eq(sources_parse("SOURCES", "source: 000\0x", 13, &set, &e), -1);
    ck_assert_str_eq(e.msg, "SOURCES holds a NUL byte (at byte 11): a SOURCES file is text");
    free(text);
}
END_TEST

START_TEST(test_load)
{
    char dir[] = "/tmp/clmm-unit-sources-XXXXXX", path[128];
    struct source_set set;
    struct error e;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/SOURCES", dir);
    /* No file: no documents, and no error. */
    error_init(&e);
    ck_assert_int_eq(sources_load(path, &set, &e), 0);
    ck_assert_uint_eq(set.count, 0);
    scratch_write(dir, "SOURCES", good);
    ck_assert_int_eq(sources_load(path, &set, &e), 0);
    ck_assert_uint_eq(set.count, 2);
    sources_free(&set);
    /* A malformed file is an error that names it and the line. */
    scratch_write(dir, "SOURCES", "source: 000\nbad line\n");
    ck_assert_int_eq(sources_load(path, &set, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.msg, "/SOURCES:2: expected \"key: value\""));
    scratch_remove(dir);
}
END_TEST

START_TEST(test_cited)
{
    struct source_set set;
    struct error e;
    const struct source *cited[4];

    ck_assert_int_eq(parse(good, &set, &e), 0);
    /* In the order first cited, each once; numbers of other lengths and ids not in the file
       cite nothing. */
    ck_assert_uint_eq(sources_cited(&set, "003 (kernel 2, 373 GFLOPS at 4096); 000 (16x16); 003's kernels; 004",
                                    cited, 4), 2);
    ck_assert_ptr_eq(cited[0], &set.items[1]);
    ck_assert_ptr_eq(cited[1], &set.items[0]);
    ck_assert_uint_eq(sources_cited(&set, "10003, 0003, 1000, 4096", cited, 4), 0);
    /* Past max: counted, not written. */
    ck_assert_uint_eq(sources_cited(&set, "000; 003", cited, 1), 2);
    ck_assert_ptr_eq(cited[0], &set.items[0]);
    sources_free(&set);
}
END_TEST

START_TEST(test_markup)
{
    struct source_set set;
    struct error e;
    char *text;

    ck_assert_int_eq(parse(good, &set, &e), 0);
    text = sources_markup(&set, "003 (kernel 2); 000");
    ck_assert_str_eq(text, "Sources: 003 (kernel 2); 000\n"
                           "- 003: Tuning SGEMM; author: A. Author; address: not given in the document\n"
                           "- 000: A notebook; author: not given in the document; address: https://example.org/notebook\n");
    free(text);
    sources_free(&set);
    /* Without a SOURCES file: the line alone. */
    text = sources_markup(&set, "003");
    ck_assert_str_eq(text, "Sources: 003\n");
    free(text);
}
END_TEST

Suite *sources_suite(void)
{
    Suite *s = suite_create("sources");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_good_file);
    tcase_add_test(tc, test_malformed_lines);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_load);
    tcase_add_test(tc, test_cited);
    tcase_add_test(tc, test_markup);
    suite_add_tcase(s, tc);
    return s;
}
