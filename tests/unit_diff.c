/* unit_diff.c: texts split into lines, and the line differences between two of them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "units.h"
#include "tui/diff.h"
#include "tui/highlight.h"
#include "engine/lesson.h"
#include "engine/str.h"

static struct lines old_lines, new_lines;
static struct diff d;

static void teardown(void)
{
    lines_free(&old_lines);
    lines_free(&new_lines);
    diff_free(&d);
}

static void assert_lines(const struct lines *l, size_t count, const char *const *expected)
{
    ck_assert_uint_eq(l->count, count);
    for (size_t i = 0; i < count; i++)
        ck_assert_msg(strcmp(l->items[i], expected[i]) == 0, "line %zu is \"%s\", expected \"%s\"", i,
                      l->items[i], expected[i]);
}

#define ASSERT_LINES(l, ...)                                                          \
    do {                                                                              \
        const char *const expected_[] = { __VA_ARGS__ };                              \
        assert_lines((l), sizeof expected_ / sizeof expected_[0], expected_);         \
    } while (0)

/* Checks what every diff must be: all old lines in order, each once, as same or removed; all
   new lines in order as same or added; the counts right; and in each change (a run between
   two same lines) no removal after an addition. */
static void assert_consistent(void)
{
    size_t i = 0, j = 0, added = 0, removed = 0;
    bool adding = false;

    for (size_t k = 0; k < d.count; k++) {
        const struct diff_line *l = &d.items[k];
        switch (l->op) {
        case DIFF_SAME:
            ck_assert_uint_eq(l->old_index, i++);
            ck_assert_uint_eq(l->new_index, j++);
            adding = false;
            break;
        case DIFF_REMOVED:
            ck_assert_msg(!adding, "item %zu: a removal after an addition", k);
            ck_assert_uint_eq(l->old_index, i++);
            ck_assert_uint_eq(l->new_index, SIZE_MAX);
            removed++;
            break;
        case DIFF_ADDED:
            ck_assert_uint_eq(l->old_index, SIZE_MAX);
            ck_assert_uint_eq(l->new_index, j++);
            adding = true;
            added++;
            break;
        }
    }
    ck_assert_uint_eq(i, old_lines.count);
    ck_assert_uint_eq(j, new_lines.count);
    ck_assert_uint_eq(d.added, added);
    ck_assert_uint_eq(d.removed, removed);
}

/* Splits both texts and compares them into d. */
static void diff_texts(const char *old_text, const char *new_text)
{
    lines_split(old_text, &old_lines);
    lines_split(new_text, &new_lines);
    diff_lines(&old_lines, &new_lines, &d);
    assert_consistent();
}

/* d as `diff -u` shows a hunk: ' ', '-' or '+' before each line (the old one when the same). */
static const char *shown(void)
{
    static char buf[4096];
    struct str s;

    str_init(&s, buf, sizeof buf);
    for (size_t k = 0; k < d.count; k++) {
        const struct diff_line *l = &d.items[k];
        if (l->op == DIFF_ADDED)
            str_appendf(&s, "", "+%s\n", new_lines.items[l->new_index]);
        else
            str_appendf(&s, "", "%c%s\n", l->op == DIFF_SAME ? ' ' : '-', old_lines.items[l->old_index]);
    }
    ck_assert(!s.truncated);
    return buf;
}

START_TEST(test_split_lines)
{
    lines_split("a\nb", &old_lines);
    ASSERT_LINES(&old_lines, "a", "b");
    lines_free(&old_lines);
    /* A final newline ends the last line; it does not start another. */
    lines_split("a\n\nb\n", &old_lines);
    ASSERT_LINES(&old_lines, "a", "", "b");
    lines_free(&old_lines);
    lines_split("\n", &old_lines);
    ASSERT_LINES(&old_lines, "");
}
END_TEST

START_TEST(test_split_empty)
{
    lines_split("", &old_lines);
    ck_assert_uint_eq(old_lines.count, 0);
}
END_TEST

START_TEST(test_split_crlf)
{
    lines_split("a\r\nb\r\n\r\nc\r\nx\ry", &old_lines);
    ASSERT_LINES(&old_lines, "a", "b", "", "c", "x\ry");
}
END_TEST

START_TEST(test_split_tabs)
{
    /* Stops every 4 columns; a tab at a stop moves a whole 4. "\xc3\x97" is one column. */
    lines_split("\tx\nab\tc\nabcd\te\n\t\td\n\xc3\x97\t|\n", &old_lines);
    ASSERT_LINES(&old_lines, "    x", "ab  c", "abcd    e", "        d", "\xc3\x97   |");
}
END_TEST

START_TEST(test_diff_identical)
{
    diff_texts("a\nb\nc\n", "a\nb\nc\n");
    ck_assert_str_eq(shown(), " a\n b\n c\n");
    ck_assert_uint_eq(d.added, 0);
    ck_assert_uint_eq(d.removed, 0);
}
END_TEST

START_TEST(test_diff_insert_start)
{
    diff_texts("a\nb\n", "x\na\nb\n");
    ck_assert_str_eq(shown(), "+x\n a\n b\n");
    ck_assert_uint_eq(d.added, 1);
    ck_assert_uint_eq(d.removed, 0);
}
END_TEST

START_TEST(test_diff_insert_middle)
{
    diff_texts("a\nb\nc\n", "a\nx\ny\nb\nc\n");
    ck_assert_str_eq(shown(), " a\n+x\n+y\n b\n c\n");
}
END_TEST

START_TEST(test_diff_insert_end)
{
    /* The old text lacks its final newline: that is not a difference. */
    diff_texts("a\nb", "a\nb\nx\n");
    ck_assert_str_eq(shown(), " a\n b\n+x\n");
}
END_TEST

START_TEST(test_diff_delete)
{
    diff_texts("a\nb\nc\nd\n", "a\nd\n");
    ck_assert_str_eq(shown(), " a\n-b\n-c\n d\n");
    ck_assert_uint_eq(d.added, 0);
    ck_assert_uint_eq(d.removed, 2);
}
END_TEST

START_TEST(test_diff_change)
{
    /* A change shows all its old lines, then all its new ones. */
    diff_texts("a\nb\nc\nd\n", "a\nx\ny\nz\nd\n");
    ck_assert_str_eq(shown(), " a\n-b\n-c\n+x\n+y\n+z\n d\n");
    ck_assert_uint_eq(d.added, 3);
    ck_assert_uint_eq(d.removed, 2);
}
END_TEST

START_TEST(test_diff_trailing_blanks)
{
    diff_texts("a  \nb\nc\n", "a\nb\t\nc \n");
    ck_assert_str_eq(shown(), " a  \n b\n c\n");
    /* Leading blanks do count. */
    teardown();
    diff_texts("a\n", " a\n");
    ck_assert_str_eq(shown(), "-a\n+ a\n");
}
END_TEST

START_TEST(test_diff_empty)
{
    diff_texts("", "a\nb\n");
    ck_assert_str_eq(shown(), "+a\n+b\n");
    teardown();
    diff_texts("a\nb\n", "");
    ck_assert_str_eq(shown(), "-a\n-b\n");
    teardown();
    diff_texts("", "");
    ck_assert_uint_eq(d.count, 0);
}
END_TEST

START_TEST(test_diff_minimal)
{
    /* The longest common subsequence of abcabba and cbabac has 4 lines (c, a, b, a for one),
       so a minimal diff removes 3 lines and adds 2. */
    diff_texts("a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n");
    ck_assert_uint_eq(d.removed, 3);
    ck_assert_uint_eq(d.added, 2);
    ck_assert_uint_eq(d.count, 9);
}
END_TEST

START_TEST(test_diff_marks)
{
    bool marks[6];

    memset(marks, true, sizeof marks);
    diff_texts("a\nb\nc\nd\ne\n", "a\nB\nc\nnew\nd\ne\n");
    ck_assert_str_eq(shown(), " a\n-b\n+B\n c\n+new\n d\n e\n");
    diff_mark_new(&d, marks, new_lines.count);
    ck_assert(!marks[0]);
    ck_assert(marks[1]);        /* changed */
    ck_assert(!marks[2]);
    ck_assert(marks[3]);        /* added */
    ck_assert(!marks[4]);
    ck_assert(!marks[5]);
}
END_TEST

START_TEST(test_diff_marks_removal_only)
{
    /* A removed line has no line in the new text to mark. */
    bool marks[2] = { true, true };

    diff_texts("a\nb\nc\n", "a\nc\n");
    diff_mark_new(&d, marks, new_lines.count);
    ck_assert(!marks[0]);
    ck_assert(!marks[1]);
}
END_TEST

/* The kernel of a lesson, malloc'd. */
static char *kernel(const char *name)
{
    char path[4096];
    struct error e;
    char *text;

    snprintf(path, sizeof path, "%s/kernels/%s", CLMM_SRCDIR, name);
    error_init(&e);
    text = read_file(path, &e);
    ck_assert_msg(text != NULL, "%s", e.msg);
    return text;
}

START_TEST(test_diff_kernels)
{
    char *before = kernel("05-local-tiles.cl"), *after = kernel("06-more-work.cl");
    bool *marks;
    size_t marked = 0;

    diff_texts(before, after);
    ck_assert_uint_gt(d.added, 0);
    ck_assert_uint_gt(d.removed, 0);
    marks = malloc(new_lines.count * sizeof *marks);
    ck_assert_ptr_nonnull(marks);
    diff_mark_new(&d, marks, new_lines.count);
    for (size_t i = 0; i < new_lines.count; i++)
        marked += marks[i];
    ck_assert_uint_eq(marked, d.added);
    /* The same kernel against itself: nothing changed. */
    teardown();
    diff_texts(after, after);
    ck_assert_uint_eq(d.added + d.removed, 0);
    free(marks);
    free(before);
    free(after);
}
END_TEST

/* Lines left out are not in the diff, and its indices are those of the whole texts. */
START_TEST(test_diff_kept)
{
    static const bool old_skip[] = { false, true, false, true, false };
    static const bool new_skip[] = { false, true, true, false, false };

    lines_split("int a;\n// one\nint b;\n\nint c;\n", &old_lines);
    lines_split("int a;\n// two\n// more\nint b2;\nint c;\n", &new_lines);
    diff_lines_kept(&old_lines, old_skip, &new_lines, new_skip, &d);
    ck_assert_str_eq(shown(), " int a;\n-int b;\n+int b2;\n int c;\n");
    ck_assert_uint_eq(d.added, 1);
    ck_assert_uint_eq(d.removed, 1);
    ck_assert_uint_eq(d.items[1].old_index, 2);
    ck_assert_uint_eq(d.items[2].new_index, 3);
    ck_assert_uint_eq(d.items[3].old_index, 4);
    ck_assert_uint_eq(d.items[3].new_index, 4);
    /* Leaving out nothing is the whole diff. */
    diff_free(&d);
    diff_lines_kept(&old_lines, NULL, &new_lines, NULL, &d);
    assert_consistent();
    ck_assert_uint_eq(d.added, 3);
    ck_assert_uint_eq(d.removed, 3);
}
END_TEST

/* The diff of code only: comments, comment blocks and blank lines changed in either text do
   not count. */
START_TEST(test_diff_code_only)
{
    bool *old_skip, *new_skip;

    lines_split("/*\n * lesson 1\n */\nint x;\n\nint y;  // old\nint z;\n", &old_lines);
    lines_split("/* lesson 2:\n   int x; is here */\nint x;\nint y;  // new\nint w;\nint z;\n", &new_lines);
    old_skip = calloc(old_lines.count, sizeof *old_skip);
    new_skip = calloc(new_lines.count, sizeof *new_skip);
    ck_assert(old_skip && new_skip);
    highlight_comment_lines(old_lines.items, old_lines.count, old_skip);
    highlight_comment_lines(new_lines.items, new_lines.count, new_skip);
    diff_lines_kept(&old_lines, old_skip, &new_lines, new_skip, &d);
    /* A line of code whose comment changed has changed. */
    ck_assert_str_eq(shown(), " int x;\n-int y;  // old\n+int y;  // new\n+int w;\n int z;\n");
    ck_assert_uint_eq(d.added, 2);
    ck_assert_uint_eq(d.removed, 1);
    free(old_skip);
    free(new_skip);
}
END_TEST

START_TEST(test_diff_kernels_code_only)
{
    char *before = kernel("12-any-size.cl"), *after = kernel("13-row-major-fast.cl");
    bool *old_skip, *new_skip;
    size_t full_added, full_removed, comment_added = 0, comment_removed = 0;

    diff_texts(before, after);
    full_added = d.added;
    full_removed = d.removed;
    diff_free(&d);
    old_skip = calloc(old_lines.count, sizeof *old_skip);
    new_skip = calloc(new_lines.count, sizeof *new_skip);
    ck_assert(old_skip && new_skip);
    highlight_comment_lines(old_lines.items, old_lines.count, old_skip);
    highlight_comment_lines(new_lines.items, new_lines.count, new_skip);
    diff_lines_kept(&old_lines, old_skip, &new_lines, new_skip, &d);
    for (size_t i = 0; i < old_lines.count; i++)
        comment_removed += old_skip[i];
    for (size_t j = 0; j < new_lines.count; j++)
        comment_added += new_skip[j];
    /* Every line of the code diff is code, and every line of code is in it once. */
    for (size_t k = 0; k < d.count; k++) {
        const struct diff_line *l = &d.items[k];
        ck_assert(l->old_index == SIZE_MAX || !old_skip[l->old_index]);
        ck_assert(l->new_index == SIZE_MAX || !new_skip[l->new_index]);
    }
    ck_assert_uint_eq(d.count - d.added, old_lines.count - comment_removed);
    ck_assert_uint_eq(d.count - d.removed, new_lines.count - comment_added);
    ck_assert_uint_gt(d.added, 0);
    ck_assert_uint_lt(d.added, full_added);
    ck_assert_uint_lt(d.removed, full_removed);
    free(old_skip);
    free(new_skip);
    free(before);
    free(after);
}
END_TEST

/* count lines "word k"; line changed (SIZE_MAX: none) says other instead of word. malloc'd. */
static char *numbered_text(const char *word, size_t count, size_t changed, const char *other)
{
    size_t size = count * (strlen(word) + strlen(other) + 24) + 1, used = 0;
    char *text = malloc(size);

    ck_assert_ptr_nonnull(text);
    text[0] = '\0';
    for (size_t k = 0; k < count; k++)
        used += (size_t)snprintf(text + used, size - used, "%s %zu\n", k == changed ? other : word, k);
    return text;
}

/* AddressSanitizer reserves terabytes of address space: a limit on it cannot apply there. */
#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_LIMIT_WORKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_LIMIT_WORKS 0
#endif
#endif
#ifndef ADDRESS_LIMIT_WORKS
#define ADDRESS_LIMIT_WORKS 1
#endif

/* Two kernels of 60,000 lines, every line changed: a table of every pair of lines would take
   28 GiB. In a child limited to 1 GiB of address space the diff completes, lists every line
   as removed and added, and says that it is too large to compare. */
START_TEST(test_diff_large_bounded)
{
    enum { COUNT = 60000 };
    pid_t pid;
    int status;

    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit limit = { (rlim_t)1 << 30, (rlim_t)1 << 30 };
        char *old_text, *new_text;
        if (ADDRESS_LIMIT_WORKS && setrlimit(RLIMIT_AS, &limit) != 0)
            _exit(10);
        old_text = numbered_text("float a =", COUNT, SIZE_MAX, "");
        new_text = numbered_text("float b =", COUNT, SIZE_MAX, "");
        lines_split(old_text, &old_lines);
        lines_split(new_text, &new_lines);
        diff_lines(&old_lines, &new_lines, &d);
        if (d.count != 2 * COUNT || d.removed != COUNT || d.added != COUNT)
            _exit(11);
        if (d.items[0].op != DIFF_REMOVED || d.items[COUNT].op != DIFF_ADDED || d.items[COUNT].new_index != 0)
            _exit(12);
        if (!diff_too_large(&old_lines, NULL, &new_lines, NULL))
            _exit(13);
        _exit(0);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(!WIFSIGNALED(status), "the diff died of signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed with %d",
                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
END_TEST

/* Texts too large for one table whose changes lie in a part that fits: still minimal. */
START_TEST(test_diff_large_trimmed)
{
    char *old_text = numbered_text("int x =", 3000, SIZE_MAX, ""), *new_text = numbered_text("int x =", 3000, 1000, "int y =");

    /* A second change, so that the part between the changes holds lines that are the same. */
    memcpy(strstr(new_text, "\nint x = 2000\n") + 1, "int z", 5);
    diff_texts(old_text, new_text);
    ck_assert(!diff_too_large(&old_lines, NULL, &new_lines, NULL));
    ck_assert_uint_eq(d.added, 2);
    ck_assert_uint_eq(d.removed, 2);
    ck_assert_uint_eq(d.count, 3002);
    ck_assert_int_eq(d.items[1000].op, DIFF_REMOVED);
    ck_assert_uint_eq(d.items[1000].old_index, 1000);
    ck_assert_int_eq(d.items[1001].op, DIFF_ADDED);
    ck_assert_uint_eq(d.items[1001].new_index, 1000);
    ck_assert_int_eq(d.items[1002].op, DIFF_SAME);
    ck_assert_uint_eq(d.items[1002].old_index, 1001);
    ck_assert_uint_eq(d.items[3001].old_index, 2999);
    free(old_text);
    free(new_text);
}
END_TEST

/* The largest texts that fit one table are compared whole; one line more on each side is
   too large when every line differs. Leaving a line of each out makes them fit again. */
START_TEST(test_diff_table_limit)
{
    size_t side = 2047;         /* (side + 1)^2 == DIFF_MAX_CELLS */
    char *old_text = numbered_text("a", side, SIZE_MAX, ""), *new_text = numbered_text("b", side, SIZE_MAX, "");
    bool *skip;

    ck_assert_uint_eq((side + 1) * (side + 1), DIFF_MAX_CELLS);
    diff_texts(old_text, new_text);
    ck_assert(!diff_too_large(&old_lines, NULL, &new_lines, NULL));
    ck_assert_uint_eq(d.added + d.removed, 2 * side);
    teardown();
    free(old_text);
    free(new_text);
    old_text = numbered_text("a", side + 1, SIZE_MAX, "");
    new_text = numbered_text("b", side + 1, SIZE_MAX, "");
    diff_texts(old_text, new_text);
    ck_assert(diff_too_large(&old_lines, NULL, &new_lines, NULL));
    ck_assert_uint_eq(d.removed, side + 1);
    ck_assert_uint_eq(d.added, side + 1);
    skip = calloc(side + 1, sizeof *skip);
    ck_assert_ptr_nonnull(skip);
    skip[7] = true;
    ck_assert(diff_too_large(&old_lines, skip, &new_lines, NULL));
    ck_assert(!diff_too_large(&old_lines, skip, &new_lines, skip));
    free(skip);
    free(old_text);
    free(new_text);
}
END_TEST

Suite *diff_suite(void)
{
    Suite *s = suite_create("diff");
    TCase *split = tcase_create("lines_split");
    TCase *diff = tcase_create("diff_lines");

    tcase_add_checked_fixture(split, NULL, teardown);
    tcase_add_test(split, test_split_lines);
    tcase_add_test(split, test_split_empty);
    tcase_add_test(split, test_split_crlf);
    tcase_add_test(split, test_split_tabs);
    suite_add_tcase(s, split);
    tcase_add_checked_fixture(diff, NULL, teardown);
    tcase_add_test(diff, test_diff_identical);
    tcase_add_test(diff, test_diff_insert_start);
    tcase_add_test(diff, test_diff_insert_middle);
    tcase_add_test(diff, test_diff_insert_end);
    tcase_add_test(diff, test_diff_delete);
    tcase_add_test(diff, test_diff_change);
    tcase_add_test(diff, test_diff_trailing_blanks);
    tcase_add_test(diff, test_diff_empty);
    tcase_add_test(diff, test_diff_minimal);
    tcase_add_test(diff, test_diff_marks);
    tcase_add_test(diff, test_diff_marks_removal_only);
    tcase_add_test(diff, test_diff_kernels);
    tcase_add_test(diff, test_diff_kept);
    tcase_add_test(diff, test_diff_code_only);
    tcase_add_test(diff, test_diff_kernels_code_only);
    tcase_add_test(diff, test_diff_large_bounded);
    tcase_add_test(diff, test_diff_large_trimmed);
    tcase_add_test(diff, test_diff_table_limit);
    suite_add_tcase(s, diff);
    return s;
}
