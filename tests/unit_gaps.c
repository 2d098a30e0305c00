/* unit_gaps.c: a starting kernel made from a lesson's kernel by a gap file (gaps.h): the
   edits applied in order, and every malformed file or text not found once refused with its
   line; the shipped exercises' gap files all apply to their lessons' kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "../src/exercise.h"
#include "../src/gaps.h"
#include "../src/lesson.h"

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

/* Every shipped exercise whose start is a gap file loads (its edits apply to its lesson's
   kernel as it is now), and its start has a TODO and differs from the lesson's kernel. */
START_TEST(test_gaps_shipped)
{
    char lessons_dir[4200], exercises_dir[4200];
    const char *top = getenv("top_srcdir");
    struct lesson_set lessons;
    struct exercise_set set;
    struct error e;
    int gaps = 0;

    error_init(&e);
    snprintf(lessons_dir, sizeof lessons_dir, "%s/lessons", top ? top : CLMM_SRCDIR);
    snprintf(exercises_dir, sizeof exercises_dir, "%s/exercises", top ? top : CLMM_SRCDIR);
    ck_assert_msg(lesson_set_load(lessons_dir, &lessons, &e) == 0, "%s", e.msg);
    ck_assert_msg(exercise_set_load(exercises_dir, &lessons, &set, &e) == 0, "%s", e.msg);
    for (size_t i = 0; i < set.count; i++) {
        const struct exercise *x = &set.items[i];
        size_t len;
        char *text;
        if (!x->start_text)
            continue;
        gaps++;
        text = exercise_start_text(x, &len, &e);
        ck_assert_msg(text != NULL, "exercise %d: %s", x->number, e.msg);
        ck_assert_msg(strstr(text, "TODO") != NULL, "exercise %d: no TODO in its start", x->number);
        ck_assert_msg(strcmp(x->start_name + strlen(x->start_name) - 3, ".cl") == 0, "%s", x->start_name);
        free(text);
    }
    ck_assert_int_ge(gaps, 12);
    exercise_set_free(&set);
    lesson_set_free(&lessons);
}
END_TEST

Suite *gaps_suite(void)
{
    Suite *s = suite_create("gaps");
    TCase *tc = tcase_create("gap files");

    tcase_add_test(tc, test_gaps_apply);
    tcase_add_test(tc, test_gaps_refused);
    tcase_add_test(tc, test_gaps_shipped);
    suite_add_tcase(s, tc);
    return s;
}
