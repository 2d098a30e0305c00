/* unit_gaps.c: a starting kernel made from a lesson's kernel by a gap file (gaps.h): the
   edits applied in order, and every malformed file or text not found once refused with its
   line. (A gap file in an exercise set: unit_exercise.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/gaps.h"

static const char *const base = "line one\nline two\nline three\nline two\nline four\n";

/* Applies gaps to base: 0 and the text in *out, or -1 with the message in msg. */
static int apply(const char *gaps, char **out, char *msg, size_t len)
{
    struct error e;
    size_t n;
    int rc;

    error_init(&e);
    *out = NULL;
    rc = gaps_apply(base, "base.cl", gaps, "x.gap", out, &n, &e);
    snprintf(msg, len, "%s", rc < 0 ? e.msg : "");
    if (rc == 0)
        ck_assert_uint_eq(n, strlen(*out));
    return rc;
}

START_TEST(test_gaps_apply)
{
    char *out, msg[1024];

    ck_assert_int_eq(apply("# a comment\n\n@@ replace\nline one\n@@ with\nfirst\nTODO\n@@ end\n"
                           "@@ replace\nline three\nline two\n@@ with\n@@ end\n", &out, msg, sizeof msg), 0);
    ck_assert_str_eq(out, "first\nTODO\nline two\nline four\n");
    free(out);
}
END_TEST

START_TEST(test_gaps_refused)
{
    static const struct {
        const char *gaps, *says;
    } cases[] = {
        { "@@ replace\nline five\n@@ with\nx\n@@ end\n", "x.gap:1: the text to replace is not in base.cl" },
        { "@@ replace\nline two\n@@ with\nx\n@@ end\n", "x.gap:1: the text to replace is found more than once" },
        { "\n@@ replace\nline one\n@@ with\nx\n", "x.gap:2: the block that starts here has no \"@@ end\"" },
        { "@@ replace\nline one\n@@ end\n", "x.gap:3: \"@@ end\" where \"@@ with\" was expected" },
        { "line one\n", "x.gap:1: text outside a block" },
        { "@@ replace\n@@ with\nx\n@@ end\n", "x.gap:1: the block has no text to replace" },
        { "# only a comment\n", "x.gap: no block" },
        { "@@ replace\nline one\n@@ with\nx\n@@ end\n@@ replace\nline one\n@@ with\ny\n@@ end\n",
          "x.gap:6: the text to replace is not in base.cl" },
    };
    char *out, msg[1024];

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(apply(cases[i].gaps, &out, msg, sizeof msg), -1);
        ck_assert_ptr_null(out);
        ck_assert_msg(strncmp(msg, cases[i].says, strlen(cases[i].says)) == 0, "case %zu: %s", i, msg);
    }
}
END_TEST

Suite *gaps_suite(void)
{
    Suite *s = suite_create("gaps");
    TCase *tc = tcase_create("gap files");

    tcase_add_test(tc, test_gaps_apply);
    tcase_add_test(tc, test_gaps_refused);
    suite_add_tcase(s, tc);
    return s;
}
