/* lesson_keys.c: the keys of a lesson file's header as a table {key, repeatable,
   parse}: one function for each key, reading its value into the lesson (lessons/FORMAT). */
#include "lesson_reader.h"

#include <stdio.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"
#include "precision.h"

static int set_string(char **field, const char *value)
{
    *field = xstrdup(value);
    return 0;
}

/* The line of the header where key was given, or 0. */
int reader_key_line(const struct reader *r, const char *key)
{
    for (size_t i = 0; i < r->nseen; i++)
        if (strcmp(r->seen[i].key, key) == 0)
            return r->seen[i].line;
    return 0;
}

/* ---- the header's keys, one function each (the table lesson_keys below) ---- */

static int key_number(struct reader *r, const char *value)
{
    long long n;

    if (str_to_ll(value, &n) < 0 || n < 0 || n > 99)
        return reader_bad(r, "lesson number \"%s\" is not an integer from 0 to 99", value);
    r->l->number = (int)n;
    return 0;
}

static int key_title(struct reader *r, const char *value)
{
    return set_string(&r->l->title, value);
}

static int key_short(struct reader *r, const char *value)
{
    if (str_columns(value, strlen(value)) > LESSON_SHORT_TITLE_MAX)
        return reader_bad(r, "the short title is longer than %s columns", "28");
    return set_string(&r->l->short_title, value);
}

static int key_sources(struct reader *r, const char *value)
{
    return set_string(&r->l->sources, value);
}

static int key_branch(struct reader *r, const char *value)
{
    if (value[0] == '\0')
        return reader_bad(r, "the %s line names no branch", "branch");
    if (str_columns(value, strlen(value)) > LESSON_BRANCH_MAX)
        return reader_bad(r, "the branch's name is longer than %s columns", "28");
    return set_string(&r->l->branch, value);
}

static int key_engine(struct reader *r, const char *value)
{
    if (strcmp(value, "opencl") == 0)
        r->l->engine = ENGINE_OPENCL;
    else if (strcmp(value, "host") == 0)
        r->l->engine = ENGINE_HOST;
    else
        return reader_bad(r, "engine must be opencl or host, found \"%s\"", value);
    return 0;
}

static int key_precision(struct reader *r, const char *value)
{
    return precision_parse(value, &r->l->precision) ? 0
                                                    : reader_bad(r, "precision must be fp32 or tf32, found \"%.200s\"", value);
}

static int key_units(struct reader *r, const char *value)
{
    return units_parse(value, &r->l->units) ? 0 : reader_bad(r, "units must be fp32 or tensor, found \"%.200s\"", value);
}

static int key_kernel(struct reader *r, const char *value)
{
    r->l->kernel_file = reader_find_kernel(r, value, r->kernel_dirs);
    return r->l->kernel_file ? 0 : -1;
}

static int key_emulation(struct reader *r, const char *value)
{
    r->l->emulation = reader_find_kernel(r, value, r->kernel_dirs);
    return r->l->emulation ? 0 : -1;
}

static int key_entry(struct reader *r, const char *value)
{
    r->l->launch[0].line = r->line;
    return set_string(&r->l->launch[0].entry, value);
}

static int key_options(struct reader *r, const char *value)
{
    return set_string(&r->l->options, value);
}

static int key_args(struct reader *r, const char *value)
{
    return reader_args(r, value, &r->l->launch[0]);
}

static int key_scratch(struct reader *r, const char *value)
{
    return reader_one(r, value, &r->l->scratch);
}

static int key_scratch_zero(struct reader *r, const char *value)
{
    return reader_one(r, value, &r->l->scratch_zero);
}

static int key_order(struct reader *r, const char *value)
{
    if (strcmp(value, "row-major") == 0)
        r->l->column_major = false;
    else if (strcmp(value, "column-major") == 0)
        r->l->column_major = true;
    else
        return reader_bad(r, "order must be row-major or column-major, found \"%s\"", value);
    return 0;
}

static int key_b_transposed(struct reader *r, const char *value)
{
    return reader_bool(r, value, &r->l->b_transposed);
}

static int key_square(struct reader *r, const char *value)
{
    return reader_bool(r, value, &r->l->square);
}

static int key_pad(struct reader *r, const char *value)
{
    return reader_bool(r, value, &r->l->pad);
}

static int key_param(struct reader *r, const char *value)
{
    return reader_param(r, value, false);
}

static int key_switch(struct reader *r, const char *value)
{
    return reader_param(r, value, true);
}

static int key_global(struct reader *r, const char *value)
{
    return reader_dims(r, value, r->l->launch[0].global, &r->l->launch[0].dims);
}

static int key_local(struct reader *r, const char *value)
{
    return reader_dims(r, value, r->l->launch[0].local, &r->l->launch[0].local_dims);
}

/* The keys that describe how the kernel divides the work (struct lesson_layout). */

static int key_tile(struct reader *r, const char *value)
{
    return reader_pair(r, value, r->l->layout.tile);
}

static int key_item(struct reader *r, const char *value)
{
    return reader_pair(r, value, r->l->layout.item);
}

static int key_item_run(struct reader *r, const char *value)
{
    return reader_pair(r, value, r->l->layout.item_run);
}

static int key_item_stride(struct reader *r, const char *value)
{
    r->l->layout.item_stride_line = r->line;
    return reader_pair(r, value, r->l->layout.item_stride);
}

static int key_local_a(struct reader *r, const char *value)
{
    return reader_pair(r, value, r->l->layout.local_a);
}

static int key_local_b(struct reader *r, const char *value)
{
    return reader_pair(r, value, r->l->layout.local_b);
}

static int key_local_copies(struct reader *r, const char *value)
{
    return reader_one(r, value, &r->l->layout.local_copies);
}

static int key_k_split(struct reader *r, const char *value)
{
    r->l->layout.k_split_line = r->line;
    return reader_one(r, value, &r->l->layout.k_split);
}

static int key_k_split_tiles(struct reader *r, const char *value)
{
    r->l->layout.k_split_tiles_line = r->line;
    return reader_one(r, value, &r->l->layout.k_split_tiles);
}

static int key_k_split_groups(struct reader *r, const char *value)
{
    r->l->layout.k_split_groups_line = r->line;
    return reader_one(r, value, &r->l->layout.k_split_groups);
}

static int key_loads(struct reader *r, const char *value)
{
    return reader_one(r, value, &r->l->layout.loads);
}

/* The lines of a further launch: "then: ENTRY" starts it, and the then-args, then-global,
   then-local and then-when lines after it, each at most once, describe it. */
static int key_then(struct reader *r, const char *value)
{
    struct lesson *l = r->l;
    struct lesson_launch *k;

    if (l->nlaunches == LESSON_MAX_LAUNCHES)
        return reader_bad(r, "at most %s further launches (then lines)", "3");
    if (!reader_is_identifier(value))
        return reader_bad(r, "then names the __kernel function of a further launch: \"%s\" is not a C identifier", value);
    k = &l->launch[l->nlaunches++];
    k->entry = xstrdup(value);
    k->line = r->line;
    return 0;
}

/* The launch a then-* line describes: the last then line's; NULL, said, when no then line
   came before it. */
static struct lesson_launch *further_launch(struct reader *r, const char *key)
{
    if (r->l->nlaunches == 1) {
        reader_bad(r, "%s comes before any then line: it describes the launch that the then line above it starts", key);
        return NULL;
    }
    return &r->l->launch[r->l->nlaunches - 1];
}

/* A then-* line given a second time for launch k. */
static int given_twice(struct reader *r, const char *key, const struct lesson_launch *k)
{
    char what[160];

    snprintf(what, sizeof what, "\"%s\" is given twice for the launch of line %d (then: %.60s)", key, k->line,
             k->entry);
    return reader_bad(r, "%s", what);
}

static int key_then_args(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-args");

    if (!k)
        return -1;
    return k->nargs ? given_twice(r, "then-args", k) : reader_args(r, value, k);
}

static int key_then_global(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-global");

    if (!k)
        return -1;
    return k->dims ? given_twice(r, "then-global", k) : reader_dims(r, value, k->global, &k->dims);
}

static int key_then_local(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-local");

    if (!k)
        return -1;
    return k->local_dims ? given_twice(r, "then-local", k) : reader_dims(r, value, k->local, &k->local_dims);
}

static int key_then_when(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-when");

    if (!k)
        return -1;
    return k->when ? given_twice(r, "then-when", k) : reader_one(r, value, &k->when);
}

/* The keys of a lesson file's header (lessons/FORMAT): its name, whether it may be given
   more than once (param, switch, rule, multiple and require, and the then lines once per
   launch), and the function that reads its value into the lesson. A new key is a function
   and a line here. */
static const struct lesson_key {
    const char *name;
    bool repeatable;
    int (*parse)(struct reader *r, const char *value);
} lesson_keys[] = {
    {"lesson", false, key_number},
    {"title", false, key_title},
    {"short", false, key_short},
    {"sources", false, key_sources},
    {"branch", false, key_branch},
    {"engine", false, key_engine},
    {"precision", false, key_precision},
    {"units", false, key_units},
    {"needs", false, reader_needs},
    {"kernel", false, key_kernel},
    {"emulation", false, key_emulation},
    {"entry", false, key_entry},
    {"options", false, key_options},
    {"args", false, key_args},
    {"scratch", false, key_scratch},
    {"scratch-zero", false, key_scratch_zero},
    {"order", false, key_order},
    {"b-transposed", false, key_b_transposed},
    {"square", false, key_square},
    {"pad", false, key_pad},
    {"param", true, key_param},
    {"switch", true, key_switch},
    {"global", false, key_global},
    {"local", false, key_local},
    {"multiple", true, reader_multiple},
    {"require", true, reader_require},
    {"rule", true, reader_rule},
    {"tile", false, key_tile},
    {"item", false, key_item},
    {"item-run", false, key_item_run},
    {"item-stride", false, key_item_stride},
    {"local-a", false, key_local_a},
    {"local-b", false, key_local_b},
    {"local-copies", false, key_local_copies},
    {"k-split", false, key_k_split},
    {"k-split-tiles", false, key_k_split_tiles},
    {"k-split-groups", false, key_k_split_groups},
    {"loads", false, key_loads},
    {"then", true, key_then},
    {"then-args", true, key_then_args},
    {"then-global", true, key_then_global},
    {"then-local", true, key_then_local},
    {"then-when", true, key_then_when},
};

/* A line of the header: its key looked up in lesson_keys, given twice only where it may be. */
int reader_line(struct reader *r, const char *key, const char *value)
{
    const struct lesson_key *k = NULL;

    for (size_t i = 0; i < sizeof lesson_keys / sizeof lesson_keys[0] && !k; i++)
        if (strcmp(key, lesson_keys[i].name) == 0)
            k = &lesson_keys[i];
    if (!k)
        return reader_bad(r, "unknown key \"%s\" (see lessons/FORMAT or clmm-tutor(1))", key);
    if (!k->repeatable) {
        if (reader_key_line(r, key) > 0)
            return reader_bad(r, "\"%s\" is given twice", key);
        if (r->nseen < sizeof r->seen / sizeof r->seen[0]) {
            snprintf(r->seen[r->nseen].key, sizeof r->seen[0].key, "%s", key);
            r->seen[r->nseen++].line = r->line;
        }
    }
    return k->parse(r, value);
}
