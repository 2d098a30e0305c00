/* compare.c: reading a saved --bench run back. The file is the JSON of --bench --format json:
   {"device": {"name": ..., "index": ...}, "results": [{"lesson": 1, "m": 1024, "n": 1024,
   "k": 1024, "status": "ok", "gflops_median": 123.4, "params": "TS=16", ...}, ...]}; a run
   on several devices (--device all) names the first in "device" and each row's device in
   "device_index": the rows of the others are left out. Members not needed here are not
   looked at; those needed are checked for their type and range. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "json.h"
#include "str.h"
#include "xalloc.h"

/* Where a value is, for messages: "FILE:LINE:COLUMN". */
static void where(const char *name, const struct json_value *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d:%d", name, v->line, v->column);
}

/* The optional string member key of obj: *out its text ("" when absent). */
static int member_text(const struct json_value *obj, const char *key, const char *name, const char *what,
                       const char **out, struct error *e)
{
    const struct json_value *v = json_get(obj, key);
    char at[600];

    *out = "";
    if (!v)
        return 0;
    if (!(*out = json_string(v))) {
        where(name, v, at, sizeof at);
        error_set(e, "%s: %s\"%s\" is %s, not a string", at, what, key, json_type_name(v->type));
        return -1;
    }
    return 0;
}

/* The integer member key of obj, from lo to hi: -1 with a message when it is missing (and
   required), not an integer or out of range; 1 when absent and not required. */
static int member_int(const struct json_value *obj, const char *key, long long lo, long long hi, bool required,
                      const char *name, const char *what, long long *out, struct error *e)
{
    const struct json_value *v = json_get(obj, key);
    char at[600];

    if (!v && !required)
        return 1;
    if (!v) {
        where(name, obj, at, sizeof at);
        error_set(e, "%s: %sno \"%s\"", at, what, key);
        return -1;
    }
    where(name, v, at, sizeof at);
    if (!json_integer(v, out)) {
        double d;
        if (json_number(v, &d))
            error_set(e, "%s: %s\"%s\" is %.6g, not an integer", at, what, key, d);
        else
            error_set(e, "%s: %s\"%s\" is %s, not an integer", at, what, key, json_type_name(v->type));
        return -1;
    }
    if (*out < lo || *out > hi) {
        error_set(e, "%s: %s\"%s\" is %lld, not from %lld to %lld", at, what, key, *out, lo, hi);
        return -1;
    }
    return 0;
}

/* results[i] into row; -1 with a message. */
static int parse_row(const struct json_value *v, size_t i, const char *name, struct compare_row *row,
                     struct error *e)
{
    static const char *const sides[] = { "m", "n", "k" };
    long long n[3], lesson;
    const char *title, *params, *status;
    const struct json_value *g;
    char what[64], at[600];

    snprintf(what, sizeof what, "results[%zu]: ", i);
    if (v->type != JSON_OBJECT) {
        where(name, v, at, sizeof at);
        error_set(e, "%s: %sis %s, not an object (one measured lesson)", at, what, json_type_name(v->type));
        return -1;
    }
    if (member_int(v, "lesson", -COMPARE_MAX_LESSON, COMPARE_MAX_LESSON, true, name, what, &lesson, e) < 0)
        return -1;
    for (int d = 0; d < 3; d++)
        if (member_int(v, sides[d], 1, COMPARE_MAX_SIDE, true, name, what, &n[d], e) < 0)
            return -1;
    if (member_text(v, "title", name, what, &title, e) < 0 || member_text(v, "params", name, what, &params, e) < 0 ||
        member_text(v, "status", name, what, &status, e) < 0)
        return -1;
    if (!status[0]) {
        where(name, v, at, sizeof at);
        error_set(e, "%s: %sno \"status\" (a string: \"ok\", \"refused\", ...)", at, what);
        return -1;
    }
    row->lesson = (int)lesson;
    row->size = (struct gemm_size){ n[0], n[1], n[2] };
    row->gflops = 0.0;
    row->ok = false;
    g = json_get(v, "gflops_median");
    if (strcmp(status, "ok") == 0 && g && g->type != JSON_NULL) {
        where(name, g, at, sizeof at);
        if (!json_number(g, &row->gflops)) {
            error_set(e, "%s: %s\"gflops_median\" is %s, not a number", at, what, json_type_name(g->type));
            return -1;
        }
        if (!(row->gflops >= 0.0 && row->gflops <= COMPARE_MAX_GFLOPS)) {
            error_set(e, "%s: %s\"gflops_median\" is %.6g, not a figure from 0 to %.0f", at, what, row->gflops,
                      COMPARE_MAX_GFLOPS);
            return -1;
        }
        row->ok = true;
    } else if (strcmp(status, "ok") == 0) {
        where(name, v, at, sizeof at);
        error_set(e, "%s: %sstatus \"ok\" without a \"gflops_median\"", at, what);
        return -1;
    }
    row->title = xstrdup(title);
    row->params = json_get(v, "params") ? xstrdup(params) : NULL;
    row->status = xstrdup(status);
    row->used = false;
    return 0;
}

int compare_parse(struct compare *c, const char *text, size_t len, const char *name, struct error *e)
{
    struct json_value doc;
    const struct json_value *device, *results;
    const char *device_name, *platform;
    long long index = -1, row_device;
    int rc = -1;

    memset(c, 0, sizeof *c);
    if (json_parse(text, len, name, &doc, e) < 0)
        return -1;
    if (doc.type != JSON_OBJECT) {
        error_set(e, "%s: the file holds %s, not the object that --bench --format json writes", name,
                  json_type_name(doc.type));
        goto out;
    }
    device = json_get(&doc, "device");
    results = json_get(&doc, "results");
    if (!device || device->type != JSON_OBJECT || !results || results->type != JSON_ARRAY) {
        error_set(e, "%s: no %s: not a file that --bench --format json writes", name,
                  !device ? "\"device\" object" : device->type != JSON_OBJECT ? "\"device\" object (it is not one)"
                  : !results ? "\"results\" array" : "\"results\" array (it is not one)");
        goto out;
    }
    if (member_text(device, "name", name, "device: ", &device_name, e) < 0 ||
        member_text(device, "platform", name, "device: ", &platform, e) < 0 ||
        member_int(device, "index", 0, 1 << 20, false, name, "device: ", &index, e) < 0)
        goto out;
    if (!device_name[0]) {
        error_set(e, "%s: the device has no \"name\"", name);
        goto out;
    }
    c->rows = xcalloc(results->u.array.count ? results->u.array.count : 1, sizeof *c->rows);
    for (size_t i = 0; i < results->u.array.count; i++) {
        const struct json_value *v = &results->u.array.items[i];
        char what[64];
        int has;
        snprintf(what, sizeof what, "results[%zu]: ", i);
        if (v->type == JSON_OBJECT &&
            (has = member_int(v, "device_index", 0, 1 << 20, false, name, what, &row_device, e)) < 0)
            goto out;
        if (v->type == JSON_OBJECT && has == 0 && index >= 0 && row_device != index) {
            c->other_devices++;
            continue;
        }
        if (parse_row(v, i, name, &c->rows[c->count], e) < 0)
            goto out;
        c->count++;
    }
    c->file = xstrdup(name);
    c->device = xstrdup(device_name);
    c->platform = xstrdup(platform);
    rc = 0;
out:
    if (rc < 0)
        compare_free(c);
    json_free(&doc);
    return rc;
}

int compare_load(struct compare *c, const char *path, struct error *e)
{
    size_t len;
    char *text = files_read(path, JSON_MAX_INPUT, "a saved --bench run", &len, e);
    int rc;

    memset(c, 0, sizeof *c);
    if (!text)
        return -1;
    rc = compare_parse(c, text, len, path, e);
    free(text);
    return rc;
}

void compare_free(struct compare *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->rows[i].title);
        free(c->rows[i].params);
        free(c->rows[i].status);
    }
    free(c->rows);
    free(c->file);
    free(c->device);
    free(c->platform);
    memset(c, 0, sizeof *c);
}

static bool same_size(struct gemm_size a, struct gemm_size b)
{
    return a.m == b.m && a.n == b.n && a.k == b.k;
}

struct compare_row *compare_find(struct compare *c, int lesson, struct gemm_size size, const char *params,
                                 bool *same_params)
{
    struct compare_row *first = NULL;

    for (size_t i = 0; c && i < c->count; i++) {
        struct compare_row *r = &c->rows[i];
        if (r->lesson != lesson || !same_size(r->size, size))
            continue;
        if (!r->params || strcmp(r->params, params) == 0) {
            first = r;
            break;
        }
        if (!first)
            first = r;
    }
    if (same_params)
        *same_params = first && (!first->params || strcmp(first->params, params) == 0);
    if (first)
        first->used = true;
    return first;
}

/* An unused row's lesson (b = c = 0) or size, and its place in the file. */
struct row_key {
    long long a, b, c;
    size_t row;
};

static bool same_key(const struct row_key *p, const struct row_key *q)
{
    return p->a == q->a && p->b == q->b && p->c == q->c;
}

/* By lesson or size, then by place in the file. */
static int by_key(const void *x, const void *y)
{
    const struct row_key *p = x, *q = y;

    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    if (p->c != q->c)
        return p->c < q->c ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* first[i]: whether row i is unused and no unused row before it has its lesson (by_lesson)
   or its size. Sorted by key, then place, the first of each run of equal keys is that row:
   n log n for a file of many rows, where looking back from each row was n^2. */
static void mark_first(const struct compare *c, bool by_lesson, bool *first)
{
    struct row_key *keys = xmalloc(c->count * sizeof *keys);
    size_t n = 0;

    for (size_t i = 0; i < c->count; i++) {
        const struct compare_row *r = &c->rows[i];
        first[i] = false;
        if (r->used)
            continue;
        keys[n++] = by_lesson ? (struct row_key){ r->lesson, 0, 0, i }
                              : (struct row_key){ r->size.m, r->size.n, r->size.k, i };
    }
    qsort(keys, n, sizeof *keys, by_key);
    for (size_t j = 0; j < n; j++)
        first[keys[j].row] = j == 0 || !same_key(&keys[j - 1], &keys[j]);
    free(keys);
}

size_t compare_unused(const struct compare *c, char *buf, size_t len)
{
    struct str s;
    size_t n = 0;
    bool *first;

    str_init(&s, buf, len);
    for (size_t i = 0; i < c->count; i++)
        n += !c->rows[i].used;
    if (n == 0)
        return 0;
    first = xmalloc(c->count * sizeof *first);
    str_appendf(&s, "", "lessons");
    mark_first(c, true, first);
    for (size_t i = 0; i < c->count; i++)
        if (first[i]) {
            if (c->rows[i].lesson < 0)
                str_appendf(&s, " ", "ref");
            else
                str_appendf(&s, " ", "%d", c->rows[i].lesson);
        }
    str_appendf(&s, "", ", sizes");
    mark_first(c, false, first);
    for (size_t i = 0; i < c->count; i++)
        if (first[i])
            str_appendf(&s, " ", "%lldx%lldx%lld", c->rows[i].size.m, c->rows[i].size.n, c->rows[i].size.k);
    free(first);
    return n;
}
