/* unit_text.c: laying out and printing lesson explanations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/text.h"

static struct text_lines lines;

static void teardown(void)
{
    text_lines_free(&lines);
}

/* Characters, not bytes: UTF-8 continuation bytes do not count. */
static int columns(const char *s)
{
    int n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static const struct text_line *line_at(size_t i)
{
    ck_assert_msg(i < lines.count, "line %zu of %zu", i, lines.count);
    return &lines.items[i];
}

static void assert_line(size_t i, enum text_kind kind, int indent, const char *text)
{
    const struct text_line *l = line_at(i);

    ck_assert_msg(l->kind == kind, "line %zu (\"%s\") has kind %d, expected %d", i, l->text, (int)l->kind,
                  (int)kind);
    ck_assert_int_eq(l->indent, indent);
    ck_assert_str_eq(l->text, text);
}

/* The whole of text_print's output, malloc'd. */
static char *printed(const char *markup, int width)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);

    ck_assert_ptr_nonnull(f);
    text_print(f, markup, width);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* Checks that every line fits width, and that the wrapping is greedy: the first word of
   each next line of the same paragraph would not have fitted on the line before. */
static void assert_wrapped(int width)
{
    for (size_t i = 0; i < lines.count; i++) {
        const struct text_line *l = &lines.items[i];
        ck_assert_msg(l->indent + columns(l->text) <= width, "line %zu \"%s\" is %d columns wide, over %d",
                      i, l->text, l->indent + columns(l->text), width);
        if (i + 1 < lines.count && lines.items[i + 1].kind == TEXT_PARAGRAPH &&
            l->kind != TEXT_BLANK && l->kind != TEXT_HEADING && l->kind != TEXT_VERBATIM) {
            const char *next = lines.items[i + 1].text;
            char word[256];
            snprintf(word, sizeof word, "%.*s", (int)strcspn(next, " "), next);
            ck_assert_msg(l->indent + columns(l->text) + 1 + columns(word) > width,
                          "\"%s\" would have fitted after line %zu \"%s\"", word, i, l->text);
        }
    }
}

START_TEST(test_text_wraps)
{
    static const char markup[] =
        "The naive kernel reads a whole row of A and a whole column of B for every element "
        "of C, so it moves far more data than it computes with.";

    text_layout(markup, 30, &lines);
    ck_assert_uint_ge(lines.count, 4);
    for (size_t i = 0; i < lines.count; i++)
        ck_assert_msg(lines.items[i].kind == TEXT_PARAGRAPH && lines.items[i].indent == 0, "line %zu", i);
    assert_wrapped(30);
    assert_line(0, TEXT_PARAGRAPH, 0, "The naive kernel reads a whole");
    assert_line(lines.count - 1, TEXT_PARAGRAPH, 0, "computes with.");
}
END_TEST

START_TEST(test_text_joins_lines)
{
    /* The lines of a paragraph are re-flowed together. */
    text_layout("one two\nthree\nfour five six", 60, &lines);
    ck_assert_uint_eq(lines.count, 1);
    assert_line(0, TEXT_PARAGRAPH, 0, "one two three four five six");
}
END_TEST

START_TEST(test_text_wraps_utf8)
{
    /* Words of 11 characters in 13 bytes: two fit in 23 columns, but not in 23 bytes. */
    static const char markup[] = "1024×1024·M 1024×1024·N 1024×1024·K 1024×1024·L 1024×1024·P";

    text_layout(markup, 23, &lines);
    assert_wrapped(23);
    ck_assert_uint_eq(lines.count, 3);
    assert_line(0, TEXT_PARAGRAPH, 0, "1024×1024·M 1024×1024·N");
    assert_line(2, TEXT_PARAGRAPH, 0, "1024×1024·P");
}
END_TEST

START_TEST(test_text_long_word)
{
    /* A word wider than the width is broken where the line ends: no character is lost,
       no line is wider than the width. */
    static const char word[] = "abcdefghijklmnopqrstuvwxyzabcdefghij";
    char markup[128];

    snprintf(markup, sizeof markup, "a %s b", word);
    text_layout(markup, 20, &lines);
    ck_assert_uint_eq(lines.count, 2);
    assert_line(0, TEXT_PARAGRAPH, 0, "a abcdefghijklmnopqr");
    assert_line(1, TEXT_PARAGRAPH, 0, "stuvwxyzabcdefghij b");
}
END_TEST

START_TEST(test_text_long_address)
{
    /* An address is broken after a '/' in the line's second half, an item's continuation
       keeps its indent, and joined again the pieces are the address. */
    static const char url[] = "https://example.org/tutorial/pages/page8.html";
    char markup[128], joined[128] = "";

    snprintf(markup, sizeof markup, "- see %s", url);
    text_layout(markup, 30, &lines);
    ck_assert_uint_eq(lines.count, 2);
    assert_line(0, TEXT_ITEM, 2, "see https://example.org/");
    assert_line(1, TEXT_PARAGRAPH, 2, "tutorial/pages/page8.html");
    for (size_t i = 0; i < lines.count; i++) {
        ck_assert_int_le(lines.items[i].indent + text_width(lines.items[i].text), 30);
        strcat(joined, i == 0 ? lines.items[i].text + 4 : lines.items[i].text);
    }
    ck_assert_str_eq(joined, url);
}
END_TEST

START_TEST(test_text_heading)
{
    text_layout("## Why tiles help\nBody text here.\n", 40, &lines);
    ck_assert_uint_eq(lines.count, 2);
    assert_line(0, TEXT_HEADING, 0, "Why tiles help");
    assert_line(1, TEXT_PARAGRAPH, 0, "Body text here.");
}
END_TEST

START_TEST(test_text_items)
{
    static const char markup[] =
        "Steps:\n"
        "\n"
        "- load a tile of A and a tile of B into local memory, then wait\n"
        "- multiply\n"
        "  the tiles\n"
        "\n"
        "After.\n";

    text_layout(markup, 30, &lines);
    assert_wrapped(30);
    assert_line(0, TEXT_PARAGRAPH, 0, "Steps:");
    assert_line(1, TEXT_BLANK, 0, "");
    /* 28 columns after the indent; continuation lines are indented under the item's text. */
    assert_line(2, TEXT_ITEM, 2, "load a tile of A and a tile");
    assert_line(3, TEXT_PARAGRAPH, 2, "of B into local memory, then");
    assert_line(4, TEXT_PARAGRAPH, 2, "wait");
    /* An indented line without "- " continues the item. */
    assert_line(5, TEXT_ITEM, 2, "multiply the tiles");
    assert_line(6, TEXT_BLANK, 0, "");
    assert_line(7, TEXT_PARAGRAPH, 0, "After.");
    ck_assert_uint_eq(lines.count, 8);
}
END_TEST

START_TEST(test_text_verbatim)
{
    static const char markup[] =
        "The cost:\n"
        "    flops  =  2 * M * N * K      (kept as it is, however wide it is)\n"
        "    bytes  =  4 * (M*K + K*N)\n"
        "and after it.";

    text_layout(markup, 30, &lines);
    ck_assert_uint_eq(lines.count, 4);
    assert_line(0, TEXT_PARAGRAPH, 0, "The cost:");
    assert_line(1, TEXT_VERBATIM, 4, "flops  =  2 * M * N * K      (kept as it is, however wide it is)");
    assert_line(2, TEXT_VERBATIM, 4, "bytes  =  4 * (M*K + K*N)");
    assert_line(3, TEXT_PARAGRAPH, 0, "and after it.");
}
END_TEST

START_TEST(test_text_blank_lines)
{
    /* Runs of blank lines become one; none at the start or the end. */
    text_layout("\n\n  \nFirst.\n\n\n\t\nSecond.\n\n\n", 40, &lines);
    ck_assert_uint_eq(lines.count, 3);
    assert_line(0, TEXT_PARAGRAPH, 0, "First.");
    assert_line(1, TEXT_BLANK, 0, "");
    assert_line(2, TEXT_PARAGRAPH, 0, "Second.");
}
END_TEST

START_TEST(test_text_empty)
{
    text_layout("", 40, &lines);
    ck_assert_uint_eq(lines.count, 0);
    text_lines_free(&lines);
    text_layout("\n\n\n", 40, &lines);
    ck_assert_uint_eq(lines.count, 0);
}
END_TEST

START_TEST(test_text_markup_kept)
{
    text_layout("A *tile* of `float4` values.", 60, &lines);
    assert_line(0, TEXT_PARAGRAPH, 0, "A *tile* of `float4` values.");
}
END_TEST

START_TEST(test_text_print)
{
    char *out = printed("## Local memory\n"
                        "A *tile* is shared, see `barrier(CLK_LOCAL_MEM_FENCE)` and `a*b`.\n"
                        "\n"
                        "- *one* item\n"
                        "    x  =  a * b\n", 80);

    ck_assert_str_eq(out,
                     "Local memory\n"
                     "------------\n"
                     "A tile is shared, see `barrier(CLK_LOCAL_MEM_FENCE)` and `a*b`.\n"
                     "\n"
                     "- one item\n"
                     "    x  =  a * b\n");
    free(out);
}
END_TEST

START_TEST(test_text_print_arithmetic)
{
    /* A '*' with blanks around it, or between letters, is a multiplication, not emphasis. */
    char *out = printed("It does 2 * M * N * K flops at c*R + r, *not* fewer.", 80);

    ck_assert_str_eq(out, "It does 2 * M * N * K flops at c*R + r, not fewer.\n");
    free(out);
}
END_TEST

START_TEST(test_text_print_wrapped_item)
{
    char *out = printed("- alpha beta gamma delta epsilon zeta eta", 20);

    ck_assert_str_eq(out,
                     "- alpha beta gamma\n"
                     "  delta epsilon zeta\n"
                     "  eta\n");
    free(out);
}
END_TEST

START_TEST(test_text_print_heading_utf8)
{
    /* The underline is as long as the heading in characters, not in bytes. */
    char *out = printed("## M × N · K", 40);

    ck_assert_str_eq(out, "M × N · K\n---------\n");
    free(out);
}
END_TEST

START_TEST(test_text_print_heading_emphasis)
{
    /* The underline is as long as the heading as printed, without its emphasis marks. */
    char *out = printed("## Why *tiles* help", 40);

    ck_assert_str_eq(out, "Why tiles help\n--------------\n");
    free(out);
}
END_TEST

/* The spans the screen colours: emphasis without its marks, code with its backquotes, and
   asterisks that are arithmetic left in plain text. */
START_TEST(test_text_spans)
{
    const char *line = "use *local* memory: `barrier(CLK_LOCAL_MEM_FENCE)`, 2 * M or a*b*c";
    struct text_span sp[8];
    size_t n = text_spans(line, sp, 8);

    ck_assert_uint_eq(n, 5);
    ck_assert_int_eq(sp[0].kind, SPAN_PLAIN);
    ck_assert_int_eq(sp[1].kind, SPAN_EMPHASIS);
    ck_assert_int_eq((int)sp[1].len, 5);
    ck_assert(strncmp(sp[1].text, "local", 5) == 0);
    ck_assert_int_eq(sp[2].kind, SPAN_PLAIN);
    ck_assert_int_eq(sp[3].kind, SPAN_CODE);
    ck_assert(strncmp(sp[3].text, "`barrier(CLK_LOCAL_MEM_FENCE)`", sp[3].len) == 0);
    ck_assert_int_eq(sp[4].kind, SPAN_PLAIN);
    ck_assert(strncmp(sp[4].text, ", 2 * M or a*b*c", sp[4].len) == 0);
    /* An unclosed backquote and a lone asterisk are text; only max spans are written. */
    ck_assert_uint_eq(text_spans("a `b and *", sp, 8), 1);
    ck_assert_uint_eq(text_spans("*a* *b* *c*", sp, 2), 5);
    ck_assert_uint_eq(text_spans("", sp, 8), 0);
}
END_TEST

/* What text_cut shows: the bytes drawn, where they start, and the marks, as one string:
   "<" and ">" for the marks, the text between. */
static const char *cut_shown(const char *line, int first, int width)
{
    static char buf[256];
    struct text_cut cut;

    text_cut(line, first, width, &cut);
    ck_assert_int_eq(cut.at, cut.left ? 1 : 0);
    snprintf(buf, sizeof buf, "%s%.*s%s", cut.left ? "<" : "", (int)cut.len, line + cut.start,
             cut.right ? ">" : "");
    return buf;
}

START_TEST(test_text_cut)
{
    /* A line that fits is shown whole, blanks after it or not. */
    ck_assert_str_eq(cut_shown("int a;", 0, 10), "int a;");
    ck_assert_str_eq(cut_shown("abcde", 0, 5), "abcde");
    ck_assert_str_eq(cut_shown("abcde      ", 0, 5), "abcde");
    /* One column wider: the last column of the window is the mark. */
    ck_assert_str_eq(cut_shown("abcdef", 0, 5), "abcd>");
    /* Scrolled: the first column is the mark, the column under it is not shown. */
    ck_assert_str_eq(cut_shown("abcdefghij", 3, 5), "<efg>");
    ck_assert_str_eq(cut_shown("abcdefghij", 5, 5), "<ghij");
    /* Only blanks scrolled away: no mark, and no column lost. */
    ck_assert_str_eq(cut_shown("    x = 1;", 4, 10), "x = 1;");
    ck_assert_str_eq(cut_shown("    x = 1;", 2, 4), "  x>");
    /* A line that ends before the window has its mark and nothing else; an empty one has
       nothing. */
    ck_assert_str_eq(cut_shown("abc", 10, 5), "<");
    ck_assert_str_eq(cut_shown("", 10, 5), "");
    /* A window too narrow for marks cuts without them. */
    ck_assert_str_eq(cut_shown("abcdef", 2, 1), "c");
    ck_assert_str_eq(cut_shown("abcdef", 0, 0), "");
}
END_TEST

START_TEST(test_text_cut_utf8)
{
    /* Columns are characters: × and · are 2 bytes and 1 column each. */
    static const char line[] = "a×b·c×d";
    struct text_cut cut;

    text_cut(line, 2, 3, &cut);
    ck_assert(cut.left && cut.right);
    ck_assert_uint_eq(cut.start, 4);    /* a, ×, b: column 3 is byte 4 */
    ck_assert_uint_eq(cut.len, 2);      /* · */
    ck_assert_str_eq(cut_shown(line, 1, 4), "<b·>");
    ck_assert_str_eq(cut_shown(line, 0, 6), "a×b·c>");
    ck_assert_str_eq(cut_shown(line, 2, 5), "<·c×d");
    ck_assert_str_eq(cut_shown(line, 0, 7), line);
}
END_TEST

START_TEST(test_text_width)
{
    ck_assert_int_eq(text_width("ab  "), 2);
    ck_assert_int_eq(text_width("  a×b\t"), 5);
    ck_assert_int_eq(text_width("   "), 0);
    ck_assert_int_eq(text_width(""), 0);
}
END_TEST

START_TEST(test_text_clamp_offset)
{
    ck_assert_int_eq(text_clamp_offset(5, 100, 60), 5);
    ck_assert_int_eq(text_clamp_offset(40, 100, 60), 40);
    /* No further than the widest line's end at the window's right edge. */
    ck_assert_int_eq(text_clamp_offset(48, 100, 60), 40);
    ck_assert_int_eq(text_clamp_offset(-8, 100, 60), 0);
    /* Lines narrower than the window do not scroll. */
    ck_assert_int_eq(text_clamp_offset(8, 50, 60), 0);
    ck_assert_int_eq(text_clamp_offset(8, 0, 60), 0);
}
END_TEST

/* text_printable's result, checked against want and freed. */
static void assert_printable(const char *s, bool keep_lines, const char *want)
{
    char *got = text_printable(s, keep_lines);

    ck_assert_str_eq(got, want);
    free(got);
}

/* Control characters are shown as the screen shows them: ^ and a character. */
START_TEST(test_text_printable_controls)
{
    assert_printable("a\033[2Jb\007c\177d\001", false, "a^[[2Jb^Gc^?d^A");
    assert_printable("\033]0;title\007", false, "^[]0;title^G");
    /* C1 controls as ~ and a character: U+009B is CSI on some terminals. */
    assert_printable("x\302\233" "2J\302\200", false, "x~[2J~@");
}
END_TEST

/* A byte that is not part of a UTF-8 character becomes U+FFFD; UTF-8 text stays as it is. */
START_TEST(test_text_printable_invalid_utf8)
{
    assert_printable("\377a", false, "\uFFFDa");
    assert_printable("\300\257", false, "\uFFFD\uFFFD");                  /* overlong '/' */
    assert_printable("\355\240\200", false, "\uFFFD\uFFFD\uFFFD");       /* a surrogate */
    assert_printable("\364\220\200\200", false, "\uFFFD\uFFFD\uFFFD\uFFFD"); /* past U+10FFFF */
    assert_printable("ab\342\202", false, "ab\uFFFD\uFFFD");              /* cut short */
    assert_printable("\233", false, "\uFFFD");                              /* a raw C1 byte */
    assert_printable("caf\303\251 \303\227 \342\234\223 \360\237\230\200", false,
                     "caf\303\251 \303\227 \342\234\223 \360\237\230\200");
}
END_TEST

/* Newlines and tabs stay with keep_lines, else become spaces; CR LF is a newline. */
START_TEST(test_text_printable_lines)
{
    assert_printable("a\tb\nc\r\nd\re", true, "a\tb\nc\nd^Me");
    assert_printable("a\tb\nc\r\nd\re", false, "a b c d^Me");
    assert_printable("", false, "");
}
END_TEST

/* The explanation printed on the command line holds no escape sequence. */
START_TEST(test_text_print_controls)
{
    char *out = printed("## Head \033[1m\n\nText \033[2J and \377.\n\n    code \007\n", 80);

    ck_assert_str_eq(out, "Head ^[[1m\n----------\n\nText ^[[2J and \uFFFD.\n\n    code ^G\n");
    free(out);
}
END_TEST

Suite *text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *layout = tcase_create("text_layout");
    TCase *print = tcase_create("text_print");
    TCase *cut = tcase_create("text_cut");

    tcase_add_checked_fixture(layout, NULL, teardown);
    tcase_add_test(layout, test_text_wraps);
    tcase_add_test(layout, test_text_joins_lines);
    tcase_add_test(layout, test_text_wraps_utf8);
    tcase_add_test(layout, test_text_long_word);
    tcase_add_test(layout, test_text_long_address);
    tcase_add_test(layout, test_text_heading);
    tcase_add_test(layout, test_text_items);
    tcase_add_test(layout, test_text_verbatim);
    tcase_add_test(layout, test_text_blank_lines);
    tcase_add_test(layout, test_text_empty);
    tcase_add_test(layout, test_text_markup_kept);
    tcase_add_test(layout, test_text_spans);
    suite_add_tcase(s, layout);
    tcase_add_test(print, test_text_print);
    tcase_add_test(print, test_text_print_arithmetic);
    tcase_add_test(print, test_text_print_wrapped_item);
    tcase_add_test(print, test_text_print_heading_utf8);
    tcase_add_test(print, test_text_print_heading_emphasis);
    tcase_add_test(print, test_text_printable_controls);
    tcase_add_test(print, test_text_printable_invalid_utf8);
    tcase_add_test(print, test_text_printable_lines);
    tcase_add_test(print, test_text_print_controls);
    suite_add_tcase(s, print);
    tcase_add_test(cut, test_text_cut);
    tcase_add_test(cut, test_text_cut_utf8);
    tcase_add_test(cut, test_text_width);
    tcase_add_test(cut, test_text_clamp_offset);
    suite_add_tcase(s, cut);
    return s;
}
