/* diff.c: line differences between two texts, such as the kernels of two lessons. */
#include "diff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/str.h"
#include "engine/xalloc.h"

#define TAB_STOP 4

/* Copies the n bytes of s to dst with its tabs expanded, or only counts them when dst is NULL:
   one function for both, so that the size computed is the size written. Returns the bytes of
   the result. Columns are characters, as on screen. */
static size_t expand_tabs(const char *s, size_t n, char *dst)
{
    size_t len = 0, column = 0;

    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\t') {
            size_t spaces = TAB_STOP - column % TAB_STOP;
            if (dst)
                memset(dst + len, ' ', spaces);
            len += spaces;
            column += spaces;
            continue;
        }
        if (dst)
            dst[len] = s[i];
        len++;
        column += str_columns(s + i, 1);
    }
    return len;
}

/* The length of the line that starts at s, without its newline and a '\r' before it. */
static size_t line_length(const char *s)
{
    size_t n = strcspn(s, "\n");

    return n > 0 && s[n - 1] == '\r' ? n - 1 : n;
}

/* The start of the line after the one at s; the end of the text after the last line. */
static const char *next_line(const char *s)
{
    s += strcspn(s, "\n");
    return *s ? s + 1 : s;
}

void lines_split(const char *text, struct lines *out)
{
    size_t size = 0, count = 0;
    char *dst;

    for (const char *s = text; *s; s = next_line(s)) {
        size += expand_tabs(s, line_length(s), NULL) + 1;
        count++;
    }
    /* One more of each: an empty text must not ask for xmalloc(0), which may return NULL. */
    out->buf = xmalloc(size + 1);
    out->items = xmalloc((count + 1) * sizeof *out->items);
    out->count = count;
    dst = out->buf;
    count = 0;
    for (const char *s = text; *s; s = next_line(s)) {
        out->items[count++] = dst;
        dst += expand_tabs(s, line_length(s), dst);
        *dst++ = '\0';
    }
}

void lines_free(struct lines *l)
{
    free(l->buf);
    free(l->items);
    l->buf = NULL;
    l->items = NULL;
    l->count = 0;
}

/* The length of s without its trailing blanks. */
static size_t trimmed_length(const char *s)
{
    size_t n = strlen(s);

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

/* Trailing blanks are invisible on screen, so a line that differs only there has not changed. */
static bool same_line(const char *a, const char *b)
{
    size_t n = trimmed_length(a);

    return n == trimmed_length(b) && memcmp(a, b, n) == 0;
}

/* For every i <= old->count and j <= new_->count, the length of the longest common
   subsequence of the old lines from i on and the new lines from j on. Lengths fit 32 bits:
   the table holds at most DIFF_MAX_CELLS cells. */
struct lcs {
    uint32_t *len;
    size_t width;               /* new_->count + 1 */
};

static size_t lcs_at(const struct lcs *t, size_t i, size_t j)
{
    return t->len[i * t->width + j];
}

/* Whether the table of old_count by new_count lines fits DIFF_MAX_CELLS. */
static bool table_fits(size_t old_count, size_t new_count)
{
    return old_count < DIFF_MAX_CELLS && new_count + 1 <= DIFF_MAX_CELLS / (old_count + 1);
}

static void lcs_compute(const struct lines *old, const struct lines *new_, struct lcs *t)
{
    size_t rows = old->count + 1;

    t->width = new_->count + 1;
    t->len = xmalloc(rows * t->width * sizeof *t->len);
    for (size_t i = rows; i-- > 0;)
        for (size_t j = t->width; j-- > 0;) {
            uint32_t *cell = &t->len[i * t->width + j];
            if (i == old->count || j == new_->count)
                *cell = 0;
            else if (same_line(old->items[i], new_->items[j]))
                *cell = 1 + t->len[(i + 1) * t->width + j + 1];
            else {
                uint32_t down = t->len[(i + 1) * t->width + j], right = t->len[i * t->width + j + 1];
                *cell = down > right ? down : right;
            }
        }
}

static void push(struct diff *d, enum diff_op op, size_t old_index, size_t new_index)
{
    d->items[d->count++] = (struct diff_line){ op, old_index, new_index };
    d->added += op == DIFF_ADDED;
    d->removed += op == DIFF_REMOVED;
}

/* Appends the minimal diff of old and new_ (whose table fits) to out; their first lines are
   lines old_base and new_base of the whole texts. */
static void diff_table(const struct lines *old, const struct lines *new_, size_t old_base, size_t new_base,
                       struct diff *out)
{
    size_t i = 0, j = 0;
    struct lcs t;

    lcs_compute(old, new_, &t);
    while (i < old->count || j < new_->count) {
        /* Taking a match is always part of some longest common subsequence. Otherwise a tie
           goes to the removal, which keeps all of a change's removals before its additions. */
        if (i < old->count && j < new_->count && same_line(old->items[i], new_->items[j]))
            push(out, DIFF_SAME, old_base + i++, new_base + j++);
        else if (i < old->count && (j == new_->count || lcs_at(&t, i + 1, j) >= lcs_at(&t, i, j + 1)))
            push(out, DIFF_REMOVED, old_base + i++, SIZE_MAX);
        else
            push(out, DIFF_ADDED, SIZE_MAX, new_base + j++);
    }
    free(t.len);
}

/* The lines of texts too large for one table: the same first lines (prefix), the same last
   lines after those (suffix), and the lines between, as views into the texts. Some longest
   common subsequence keeps both prefix and suffix, so the diff of the middles is minimal. */
struct trimmed {
    size_t prefix, suffix;
    struct lines old_middle, new_middle;
};

static void trim_common(const struct lines *old, const struct lines *new_, struct trimmed *tr)
{
    size_t most = old->count < new_->count ? old->count : new_->count;

    tr->prefix = tr->suffix = 0;
    while (tr->prefix < most && same_line(old->items[tr->prefix], new_->items[tr->prefix]))
        tr->prefix++;
    while (tr->prefix + tr->suffix < most &&
           same_line(old->items[old->count - 1 - tr->suffix], new_->items[new_->count - 1 - tr->suffix]))
        tr->suffix++;
    tr->old_middle = (struct lines){ NULL, old->items + tr->prefix, old->count - tr->prefix - tr->suffix };
    tr->new_middle = (struct lines){ NULL, new_->items + tr->prefix, new_->count - tr->prefix - tr->suffix };
}

static bool lines_too_large(const struct lines *old, const struct lines *new_)
{
    struct trimmed tr;

    if (table_fits(old->count, new_->count))
        return false;
    trim_common(old, new_, &tr);
    return !table_fits(tr.old_middle.count, tr.new_middle.count);
}

void diff_lines(const struct lines *old, const struct lines *new_, struct diff *out)
{
    struct trimmed tr;

    out->items = xmalloc((old->count + new_->count + 1) * sizeof *out->items);
    out->count = out->added = out->removed = 0;
    if (table_fits(old->count, new_->count)) {
        diff_table(old, new_, 0, 0, out);
        return;
    }
    trim_common(old, new_, &tr);
    for (size_t k = 0; k < tr.prefix; k++)
        push(out, DIFF_SAME, k, k);
    if (table_fits(tr.old_middle.count, tr.new_middle.count))
        diff_table(&tr.old_middle, &tr.new_middle, tr.prefix, tr.prefix, out);
    else {
        for (size_t i = 0; i < tr.old_middle.count; i++)
            push(out, DIFF_REMOVED, tr.prefix + i, SIZE_MAX);
        for (size_t j = 0; j < tr.new_middle.count; j++)
            push(out, DIFF_ADDED, SIZE_MAX, tr.prefix + j);
    }
    for (size_t k = 0; k < tr.suffix; k++)
        push(out, DIFF_SAME, old->count - tr.suffix + k, new_->count - tr.suffix + k);
}

/* The lines of all not left out, as a view into all's lines; index[k] is the index in all of
   line k of the view. Both arrays are malloc'd. */
static void keep_lines(const struct lines *all, const bool *skip, struct lines *kept, size_t **index)
{
    kept->buf = NULL;
    kept->items = xmalloc((all->count + 1) * sizeof *kept->items);
    *index = xmalloc((all->count + 1) * sizeof **index);
    kept->count = 0;
    for (size_t i = 0; i < all->count; i++)
        if (!skip || !skip[i]) {
            (*index)[kept->count] = i;
            kept->items[kept->count++] = all->items[i];
        }
}

void diff_lines_kept(const struct lines *old, const bool *old_skip, const struct lines *new_, const bool *new_skip,
                     struct diff *out)
{
    struct lines old_kept, new_kept;
    size_t *old_index, *new_index;

    keep_lines(old, old_skip, &old_kept, &old_index);
    keep_lines(new_, new_skip, &new_kept, &new_index);
    diff_lines(&old_kept, &new_kept, out);
    for (size_t k = 0; k < out->count; k++) {
        struct diff_line *l = &out->items[k];
        if (l->old_index != SIZE_MAX)
            l->old_index = old_index[l->old_index];
        if (l->new_index != SIZE_MAX)
            l->new_index = new_index[l->new_index];
    }
    free(old_kept.items);
    free(new_kept.items);
    free(old_index);
    free(new_index);
}

bool diff_too_large(const struct lines *old, const bool *old_skip, const struct lines *new_, const bool *new_skip)
{
    struct lines old_kept, new_kept;
    size_t *old_index, *new_index;
    bool too_large;

    keep_lines(old, old_skip, &old_kept, &old_index);
    keep_lines(new_, new_skip, &new_kept, &new_index);
    too_large = lines_too_large(&old_kept, &new_kept);
    free(old_kept.items);
    free(new_kept.items);
    free(old_index);
    free(new_index);
    return too_large;
}

void diff_free(struct diff *d)
{
    free(d->items);
    d->items = NULL;
    d->count = d->added = d->removed = 0;
}

void diff_mark_new(const struct diff *d, bool *marks, size_t count)
{
    for (size_t i = 0; i < count; i++)
        marks[i] = false;
    for (size_t k = 0; k < d->count; k++)
        if (d->items[k].op == DIFF_ADDED && d->items[k].new_index < count)
            marks[d->items[k].new_index] = true;
}
