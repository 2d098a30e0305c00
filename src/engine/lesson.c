/* lesson.c: reading lesson files and the lesson directory. */
#include "lesson.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "expr.h"
#include "files.h"
#include "str.h"
#include "xalloc.h"

/* U+FEFF in UTF-8. */
#define BYTE_ORDER_MARK "\xEF\xBB\xBF"

/* An expression met in the header, kept with its line for checking once all params are known. */
struct pending_expr {
    const char *expr;
    int line;
};

struct reader {
    const char *file;
    int line;
    struct lesson *l;
    struct error *e;
    const struct lesson_extra *extra;   /* NULL for a lesson file */
    const char *const *kernel_dirs;     /* where kernel and emulation files are looked for */
    struct pending_expr *exprs;
    size_t nexprs;
    struct {
        char key[16];
        int line;
    } seen[48];                 /* the keys met so far, and where, for errors found at the end */
    size_t nseen;
};

static int bad(struct reader *r, const char *fmt, const char *arg)
{
    char what[512];

    snprintf(what, sizeof what, fmt, arg);
    error_set(r->e, "%s:%d: %s", r->file, r->line, what);
    return -1;
}

static char *dup_trimmed(const char *s, size_t n)
{
    char *out;

    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    out = xmalloc(n + 1);
    memcpy(out, s, n);
    out[n] = '\0';
    return out;
}

static int remember(struct reader *r, const char *expr)
{
    r->exprs = xrealloc(r->exprs, (r->nexprs + 1) * sizeof *r->exprs);
    r->exprs[r->nexprs].expr = expr;
    r->exprs[r->nexprs].line = r->line;
    r->nexprs++;
    return 0;
}

static int parse_bool(struct reader *r, const char *value, bool *out)
{
    if (strcmp(value, "yes") == 0)
        *out = true;
    else if (strcmp(value, "no") == 0)
        *out = false;
    else
        return bad(r, "expected yes or no, found \"%s\"", value);
    return 0;
}

/* Calls item() on each comma-separated part of value; commas inside parentheses belong to
   function calls. */
static int split_list(struct reader *r, const char *value, void *ctx,
                      int (*item)(struct reader *r, char *part, void *ctx))
{
    const char *start = value;
    int depth = 0;

    for (const char *p = value;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if ((*p == ',' && depth == 0) || *p == '\0') {
            char *part = dup_trimmed(start, (size_t)(p - start));
            if (part[0] == '\0') {
                free(part);
                return bad(r, "%s", "empty item in the list");
            }
            if (item(r, part, ctx) < 0)
                return -1;
            if (*p == '\0')
                return 0;
            start = p + 1;
        }
    }
}

struct dims_target {
    char **out;
    size_t *count;
};

static int add_dim(struct reader *r, char *part, void *ctx)
{
    struct dims_target *t = ctx;

    if (*t->count == LESSON_MAX_DIMS) {
        free(part);
        return bad(r, "%s", "at most 3 dimensions");
    }
    t->out[(*t->count)++] = part;
    return remember(r, part);
}

/* "E1, E2, E3" into at most LESSON_MAX_DIMS expressions. */
static int parse_dims(struct reader *r, const char *value, char **out, size_t *count)
{
    struct dims_target t = { out, count };

    *count = 0;
    return split_list(r, value, &t, add_dim);
}

/* The values of an ints(...) argument, one expression each, into a. */
struct ints_target {
    struct lesson_arg *a;
    size_t room;                /* values the launch has room for */
    bool too_many;
};

static int add_int_value(struct reader *r, char *part, void *ctx)
{
    struct ints_target *t = ctx;

    if (t->a->nvalues == t->room) {
        free(part);
        t->too_many = true;
        return -1;
    }
    t->a->values = xrealloc(t->a->values, (t->a->nvalues + 1) * sizeof *t->a->values);
    t->a->values[t->a->nvalues++] = part;
    return remember(r, part);
}

/* ints(EXPR, ...): inner is the text between the parentheses. The ints arguments of launch k
   hold at most LESSON_MAX_INTS values in all. */
static int parse_ints(struct reader *r, const char *inner, const struct lesson_launch *k, struct lesson_arg *a)
{
    struct ints_target t = { a, LESSON_MAX_INTS, false };
    char what[320];

    a->kind = ARG_INTS;
    for (size_t i = 0; i < k->nargs; i++)
        t.room -= k->args[i].nvalues;
    if (inner[0] == '\0')
        return bad(r, "%s", "ints() holds no value: write ints(EXPR, ...), for example ints(K)");
    if (split_list(r, inner, &t, add_int_value) == 0)
        return 0;
    /* Either a value too many or an empty one (split_list's only other failure). */
    if (t.too_many)
        snprintf(what, sizeof what, "ints(%.200s): the ints(...) arguments of a launch hold at most %d values in "
                 "all", inner, LESSON_MAX_INTS);
    else
        snprintf(what, sizeof what, "ints(%.200s) has an empty value: write ints(EXPR, ...), the values separated "
                 "by commas", inner);
    return bad(r, "%s", what);
}

/* Whether s has a comma outside parentheses. */
static bool has_top_comma(const char *s)
{
    int depth = 0;

    for (; *s; s++) {
        depth += (*s == '(') - (*s == ')');
        if (*s == ',' && depth == 0)
            return true;
    }
    return false;
}

/* Whether the argument word (n bytes) is NAME(...), parentheses balanced; *inner then the
   text between them, malloc'd. */
static bool arg_call(const char *word, size_t n, const char *name, char **inner)
{
    size_t len = strlen(name);

    if (n < len + 2 || strncmp(word, name, len) != 0 || word[len] != '(' || word[n - 1] != ')')
        return false;
    *inner = dup_trimmed(word + len + 1, n - len - 2);
    return true;
}

/* The argument words of an args or a then-args line, into launch k. */
static int parse_args(struct reader *r, const char *value, struct lesson_launch *k)
{
    const char *p = value;

    while (*p) {
        const char *start;
        char *inner = NULL;
        size_t n;
        int depth = 0;
        bool unopened = false;  /* a ')' before its '(' */

        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        start = p;
        while (*p && (depth > 0 || !isspace((unsigned char)*p))) {
            depth += (*p == '(') - (*p == ')');
            unopened |= depth < 0;
            p++;
        }
        n = (size_t)(p - start);
        if (k->nargs == LESSON_MAX_ARGS)
            return bad(r, "%s", "too many arguments");
        struct lesson_arg *a = &k->args[k->nargs];
        if (n == 1 && strchr("MNKABCW", *start)) {
            static const enum arg_kind kinds[] = { ARG_M, ARG_N, ARG_K, ARG_A, ARG_B, ARG_C, ARG_W };
            a->kind = kinds[strchr("MNKABCW", *start) - "MNKABCW"];
        } else if (depth > 0) {
            return bad(r, "argument \"%s\" lacks a closing parenthesis", start);
        } else if (unopened) {
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)n, start);
            return bad(r, "argument \"%s\" closes a parenthesis it did not open", word);
        } else if (arg_call(start, n, "ints", &inner)) {
            int rc = parse_ints(r, inner, k, a);
            free(inner);
            k->nargs++;     /* its values are freed with the launch, even after an error */
            if (rc < 0)
                return -1;
            continue;
        } else if ((arg_call(start, n, "int", &inner) || arg_call(start, n, "local", &inner)) && inner[0]) {
            a->kind = start[0] == 'i' ? ARG_INT : ARG_LOCAL;
            a->expr = inner;
            k->nargs++;     /* freed with the launch, even after an error */
            if (has_top_comma(inner))
                return bad(r, a->kind == ARG_INT ? "int(%s) holds one expression; several ints in a __global "
                                                   "buffer are ints(EXPR, ...)"
                                                 : "local(%s) holds one expression, the floats of the buffer",
                           inner);
            if (remember(r, a->expr) < 0)
                return -1;
            continue;
        } else {
            char word[128];
            free(inner);
            snprintf(word, sizeof word, "%.*s", (int)n, start);
            return bad(r, "unknown argument \"%s\" (expected M, N, K, A, B, C, W, int(EXPR), local(EXPR) or "
                          "ints(EXPR, ...))", word);
        }
        k->nargs++;
    }
    if (k->nargs == 0)
        return bad(r, "%s", "args is empty");
    k->args_line = r->line;
    return 0;
}

char *lesson_arg_text(const struct lesson_arg *a)
{
    static const char *const plain[] = { [ARG_M] = "M", [ARG_N] = "N", [ARG_K] = "K", [ARG_A] = "A",
                                         [ARG_B] = "B", [ARG_C] = "C", [ARG_W] = "W" };
    size_t len = 16;
    char *out;

    if (a->kind == ARG_INT || a->kind == ARG_LOCAL) {
        out = xmalloc(strlen(a->expr) + len);
        sprintf(out, "%s(%s)", a->kind == ARG_INT ? "int" : "local", a->expr);
        return out;
    }
    if (a->kind != ARG_INTS)
        return xstrdup(plain[a->kind]);
    for (size_t i = 0; i < a->nvalues; i++)
        len += strlen(a->values[i]) + 2;
    out = xmalloc(len);
    strcpy(out, "ints(");
    for (size_t i = 0; i < a->nvalues; i++) {
        if (i)
            strcat(out, ", ");
        strcat(out, a->values[i]);
    }
    strcat(out, ")");
    return out;
}

struct fixed_list {
    char **out;
    size_t want, count;
};

static int add_fixed(struct reader *r, char *part, void *ctx)
{
    struct fixed_list *f = ctx;

    (void)r;
    if (f->count < f->want)
        f->out[f->count] = part;
    else
        free(part);
    f->count++;
    return 0;
}

/* "E1, E2" into exactly want expressions; form says what is expected, for the message. */
static int parse_fixed(struct reader *r, const char *value, char **out, size_t want, const char *form)
{
    struct fixed_list f = { out, want, 0 };
    char what[128];

    if (split_list(r, value, &f, add_fixed) < 0)
        return -1;
    if (f.count != want) {
        snprintf(what, sizeof what, "expected %s, found %zu", form, f.count);
        return bad(r, "%s", what);
    }
    for (size_t i = 0; i < want; i++)
        if (remember(r, out[i]) < 0)
            return -1;
    return 0;
}

static int parse_pair(struct reader *r, const char *value, char **out)
{
    return parse_fixed(r, value, out, 2, "two expressions (ROWS, COLS)");
}

static int parse_one(struct reader *r, const char *value, char **out)
{
    return parse_fixed(r, value, out, 1, "one expression");
}

/* A parameter's value: an integer that fits an int, as the kernels take it (-DNAME=VALUE),
   as M, N, K and int(EXPR) do; a range's values are then counted and stepped through
   without overflow. */
#define PARAM_BOUNDS "an integer from -2147483648 to 2147483647"

static int param_number(const char *text, long long *v)
{
    return str_to_ll(text, v) < 0 || *v < INT_MIN || *v > INT_MAX ? -1 : 0;
}

/* "NAME = DEFAULT in V1, V2, ..." */
static int add_value(struct reader *r, char *part, void *ctx)
{
    struct lesson_param *p = ctx;
    long long v;

    if (param_number(part, &v) < 0) {
        bad(r, "allowed value \"%s\" is not " PARAM_BOUNDS, part);
        free(part);
        return -1;
    }
    free(part);
    p->values = xrealloc(p->values, (p->nvalues + 1) * sizeof *p->values);
    p->values[p->nvalues++] = v;
    return 0;
}

/* "LOW to HIGH": every integer between, both included. */
static int parse_range(struct reader *r, const char *list, struct lesson_param *p)
{
    const char *to = strstr(list, " to ");
    char *low = dup_trimmed(list, (size_t)(to - list)), *high = dup_trimmed(to + 4, strlen(to + 4));
    long long lo = 0, hi = -1;
    int rc = param_number(low, &lo) < 0 || param_number(high, &hi) < 0 ? -1 : 0;

    free(low);
    free(high);
    if (rc < 0)
        return bad(r, "expected \"LOW to HIGH\", each " PARAM_BOUNDS ", found \"%s\"", list);
    if (lo > hi)
        return bad(r, "the range \"%s\" is empty: LOW must not be above HIGH", list);
    p->values = xrealloc(p->values, 2 * sizeof *p->values);
    p->values[0] = lo;
    p->values[1] = hi;
    p->nvalues = 2;
    p->is_range = true;
    return 0;
}

static bool is_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* "NAME = DEFAULT in V1, V2, ...", of a param or a switch line. */
static int parse_param(struct reader *r, const char *value, bool is_switch)
{
    struct lesson *l = r->l;
    struct lesson_param *p;
    const char *eq = strchr(value, '='), *in;
    char *num;
    int rc;

    if (l->nparams == LESSON_MAX_PARAMS)
        return bad(r, "%s", "too many parameters");
    in = eq ? strstr(eq, " in ") : NULL;
    if (!eq || !in)
        return bad(r, "%s", "expected \"NAME = DEFAULT in V1, V2, ...\"");
    p = &l->params[l->nparams];
    p->name = dup_trimmed(value, (size_t)(eq - value));
    p->is_switch = is_switch;
    l->nparams++;   /* counted now, so that lesson_free releases it after an error */
    if (!is_identifier(p->name))
        return bad(r, "parameter name \"%s\" is not an identifier", p->name);
    if (lesson_param_index(l, p->name) != (int)l->nparams - 1 || strcmp(p->name, "M") == 0 ||
        strcmp(p->name, "N") == 0 || strcmp(p->name, "K") == 0 || strcmp(p->name, LESSON_RULE_CU) == 0)
        return bad(r, "parameter %s is declared twice or shadows a size or CU", p->name);
    num = dup_trimmed(eq + 1, (size_t)(in - eq - 1));
    rc = param_number(num, &p->def);
    if (rc < 0)
        bad(r, "default value \"%s\" is not " PARAM_BOUNDS, num);
    free(num);
    if (rc < 0)
        return -1;
    if (strstr(in + 4, " to ")) {
        if (parse_range(r, in + 4, p) < 0)
            return -1;
    } else if (split_list(r, in + 4, p, add_value) < 0)
        return -1;
    if (!lesson_param_allows(p, p->def))
        return bad(r, "the default of %s is not among its allowed values", p->name);
    return 0;
}

static int add_multiple(struct reader *r, char *part, void *ctx)
{
    struct lesson *l = r->l;

    (void)ctx;
    if (!strchr("MNK", part[0]) || part[0] == '\0' || !isspace((unsigned char)part[1])) {
        bad(r, "expected \"M EXPR\", \"N EXPR\" or \"K EXPR\", found \"%s\"", part);
        free(part);
        return -1;
    }
    l->multiples = xrealloc(l->multiples, (l->nmultiples + 1) * sizeof *l->multiples);
    l->multiples[l->nmultiples].dim = part[0];
    l->multiples[l->nmultiples].expr = dup_trimmed(part + 1, strlen(part + 1));
    free(part);
    return remember(r, l->multiples[l->nmultiples++].expr);
}

/* "M EXPR, N EXPR" */
static int parse_multiple(struct reader *r, const char *value)
{
    return split_list(r, value, NULL, add_multiple);
}

/* "NAME = EXPR": the rule of a parameter declared by an earlier param line. */
static int parse_rule(struct reader *r, const char *value)
{
    struct lesson *l = r->l;
    const char *eq = strchr(value, '=');
    char *name;
    int at;

    if (!eq)
        return bad(r, "%s", "expected \"NAME = EXPR\"");
    name = dup_trimmed(value, (size_t)(eq - value));
    at = lesson_param_index(l, name);
    if (at < 0)
        error_set(r->e, "%s:%d: rule for %s: no param line before it declares %s (put the rule after its param line)",
                  r->file, r->line, name, name);
    else if (l->params[at].is_switch)
        error_set(r->e, "%s:%d: rule for %s: %s is a switch, kept at its default; a rule chooses a param", r->file,
                  r->line, name, name);
    else if (l->params[at].rule)
        error_set(r->e, "%s:%d: rule for %s: %s has a rule already (line %d)", r->file, r->line, name, name,
                  l->params[at].rule_line);
    free(name);
    if (at < 0 || l->params[at].is_switch || l->params[at].rule)
        return -1;
    l->params[at].rule = dup_trimmed(eq + 1, strlen(eq + 1));
    l->params[at].rule_line = r->line;
    if (l->params[at].rule[0] == '\0')
        return bad(r, "rule for %s: no expression after \"=\"", l->params[at].name);
    return 0;
}

/* "EXPR : MESSAGE" */
static int parse_require(struct reader *r, const char *value)
{
    struct lesson *l = r->l;
    const char *colon = strstr(value, " : ");
    struct lesson_require *q;

    if (!colon)
        return bad(r, "%s", "expected \"EXPR : MESSAGE\" (a colon with a blank on each side)");
    l->requires = xrealloc(l->requires, (l->nrequires + 1) * sizeof *l->requires);
    q = &l->requires[l->nrequires++];
    q->expr = dup_trimmed(value, (size_t)(colon - value));
    q->message = dup_trimmed(colon + 3, strlen(colon + 3));
    return remember(r, q->expr);
}

/* The digits of one part of a compute capability, at most 3 of them, into *out; the first
   byte after them returned, NULL when there are none or too many. */
static const char *version_part(const char *p, unsigned *out)
{
    unsigned v = 0;
    int n = 0;

    for (; isdigit((unsigned char)*p) && n < 4; p++, n++)
        v = v * 10 + (unsigned)(*p - '0');
    if (n == 0 || n > 3)
        return NULL;
    *out = v;
    return p;
}

/* "nvidia MAJOR.MINOR : WHY": the lesson runs only on an NVIDIA GPU of that compute capability
   or later, for the reason WHY (lesson_device_check). */
static int parse_needs(struct reader *r, const char *value)
{
    struct lesson_needs *n = &r->l->needs;
    const char *p = value;

    if (strncmp(p, "nvidia", 6) != 0 || !isspace((unsigned char)p[6]))
        return bad(r, "expected \"nvidia MAJOR.MINOR : WHY\" (an NVIDIA GPU is the only device a lesson can "
                      "name), found \"%.200s\"", value);
    for (p += 6; isspace((unsigned char)*p); p++)
        ;
    if (!(p = version_part(p, &n->major)) || *p != '.' || !(p = version_part(p + 1, &n->minor)) ||
        (*p && !isspace((unsigned char)*p) && *p != ':'))
        return bad(r, "needs: the compute capability in \"%.200s\" is not MAJOR.MINOR, two whole numbers of at "
                      "most 3 digits such as 8.0", value);
    while (isspace((unsigned char)*p))
        p++;
    if (*p != ':')
        return bad(r, "%s", "needs: no \": WHY\" after the compute capability: say what the lesson needs it for");
    n->why = dup_trimmed(p + 1, strlen(p + 1));
    n->nvidia = true;
    if (n->why[0] == '\0')
        return bad(r, "%s", "needs: the reason after \":\" is empty: say what the lesson needs the device for");
    if (strlen(n->why) > LESSON_NEEDS_WHY_MAX)
        return bad(r, "needs: the reason is longer than %s bytes: keep it to a phrase", "200");
    return 0;
}

/* Whether the canonical path lies inside the canonical directory dir. */
/* Whether the file at path (stat gave st) can be a kernel; the reason into why when not. */
static bool kernel_usable(const char *path, const struct stat *st, struct str *why)
{
    if (S_ISDIR(st->st_mode))
        str_appendf(why, "", "%s is a directory: name the kernel's file", path);
    else if (!S_ISREG(st->st_mode))
        str_appendf(why, "", "%s is %s, not a regular file", path, files_kind(st->st_mode));
    else if (st->st_size > LESSON_KERNEL_MAX)
        str_appendf(why, "", "%s is larger than the %d MiB a kernel may have", path, LESSON_KERNEL_MAX >> 20);
    return why->len == 0;
}

/* The kernel called name, made canonical (no "lessons/../kernels") for messages and pages:
   a relative name is looked up in each of dirs in turn, an absolute one taken as it is,
   and the file found (symbolic links followed) must be a regular file inside one of dirs:
   a lesson names its own kernel, never another file of the user's. NULL with the reason
   in r->e. */
static char *find_kernel(struct reader *r, const char *name, const char *const *dirs)
{
    char path[4096], why_buf[1024], looked[1024], allowed[1024];
    struct str why, tried, where;
    struct stat st;
    char *real;

    str_init(&why, why_buf, sizeof why_buf);
    str_init(&tried, looked, sizeof looked);
    for (const char *const *d = dirs;; d++) {
        struct str p;
        str_init(&p, path, sizeof path);
        if (name[0] == '/' && d == dirs)
            str_appendf(&p, "", "%s", name);
        else if (name[0] == '/' || !d || !*d)
            break;
        else
            str_appendf(&p, "", "%s/%s", *d, name);
        if (name[0] != '/')
            str_appendf(&tried, ", ", "%s", *d);
        if (stat(path, &st) == 0) {
            if (!kernel_usable(path, &st, &why))
                break;
            if (!(real = realpath(path, NULL))) {
                str_appendf(&why, "", "cannot resolve %s: %s", path, strerror(errno));
                break;
            }
            str_init(&where, allowed, sizeof allowed);
            if (files_in_dirs(real, dirs, &where))
                return real;
            error_set(r->e, "%s:%d: kernel file \"%s\" is %s, outside the lesson directory and the kernels "
                      "directory beside it: put the kernel in %s", r->file, r->line, name, real,
                      where.len ? allowed : "the lesson directory");
            free(real);
            return NULL;
        }
        if (errno == ELOOP) {
            str_appendf(&why, "", "%s is a loop of symbolic links", path);
            break;
        }
        if (errno != ENOENT && errno != ENOTDIR) {
            str_appendf(&why, "", "cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
            str_appendf(&why, "", "%s is a symbolic link to a file that does not exist", path);
            break;
        }
    }
    if (why.len)
        error_set(r->e, "%s:%d: kernel file \"%s\": %s", r->file, r->line, name, why_buf);
    else if (name[0] == '/')
        error_set(r->e, "%s:%d: kernel file \"%s\" not found", r->file, r->line, name);
    else
        error_set(r->e, "%s:%d: kernel file \"%s\" not found (looked in %s)", r->file, r->line, name, looked);
    return NULL;
}

static int set_string(char **field, const char *value)
{
    *field = xstrdup(value);
    return 0;
}

/* The line of the header where key was given, or 0. */
static int key_line(const struct reader *r, const char *key)
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
        return bad(r, "lesson number \"%s\" is not an integer from 0 to 99", value);
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
        return bad(r, "the short title is longer than %s columns", "28");
    return set_string(&r->l->short_title, value);
}

static int key_sources(struct reader *r, const char *value)
{
    return set_string(&r->l->sources, value);
}

static int key_branch(struct reader *r, const char *value)
{
    if (value[0] == '\0')
        return bad(r, "the %s line names no branch", "branch");
    if (str_columns(value, strlen(value)) > LESSON_BRANCH_MAX)
        return bad(r, "the branch's name is longer than %s columns", "28");
    return set_string(&r->l->branch, value);
}

static int key_engine(struct reader *r, const char *value)
{
    if (strcmp(value, "opencl") == 0)
        r->l->engine = ENGINE_OPENCL;
    else if (strcmp(value, "host") == 0)
        r->l->engine = ENGINE_HOST;
    else
        return bad(r, "engine must be opencl or host, found \"%s\"", value);
    return 0;
}

static int key_precision(struct reader *r, const char *value)
{
    return precision_parse(value, &r->l->precision) ? 0
                                                    : bad(r, "precision must be fp32 or tf32, found \"%.200s\"", value);
}

static int key_units(struct reader *r, const char *value)
{
    return units_parse(value, &r->l->units) ? 0 : bad(r, "units must be fp32 or tensor, found \"%.200s\"", value);
}

static int key_kernel(struct reader *r, const char *value)
{
    r->l->kernel_file = find_kernel(r, value, r->kernel_dirs);
    return r->l->kernel_file ? 0 : -1;
}

static int key_emulation(struct reader *r, const char *value)
{
    r->l->emulation = find_kernel(r, value, r->kernel_dirs);
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
    return parse_args(r, value, &r->l->launch[0]);
}

static int key_scratch(struct reader *r, const char *value)
{
    return parse_one(r, value, &r->l->scratch);
}

static int key_scratch_zero(struct reader *r, const char *value)
{
    return parse_one(r, value, &r->l->scratch_zero);
}

static int key_order(struct reader *r, const char *value)
{
    if (strcmp(value, "row-major") == 0)
        r->l->column_major = false;
    else if (strcmp(value, "column-major") == 0)
        r->l->column_major = true;
    else
        return bad(r, "order must be row-major or column-major, found \"%s\"", value);
    return 0;
}

static int key_b_transposed(struct reader *r, const char *value)
{
    return parse_bool(r, value, &r->l->b_transposed);
}

static int key_square(struct reader *r, const char *value)
{
    return parse_bool(r, value, &r->l->square);
}

static int key_pad(struct reader *r, const char *value)
{
    return parse_bool(r, value, &r->l->pad);
}

static int key_param(struct reader *r, const char *value)
{
    return parse_param(r, value, false);
}

static int key_switch(struct reader *r, const char *value)
{
    return parse_param(r, value, true);
}

static int key_global(struct reader *r, const char *value)
{
    return parse_dims(r, value, r->l->launch[0].global, &r->l->launch[0].dims);
}

static int key_local(struct reader *r, const char *value)
{
    return parse_dims(r, value, r->l->launch[0].local, &r->l->launch[0].local_dims);
}

/* The keys that describe how the kernel divides the work (struct lesson_layout). */

static int key_tile(struct reader *r, const char *value)
{
    return parse_pair(r, value, r->l->layout.tile);
}

static int key_item(struct reader *r, const char *value)
{
    return parse_pair(r, value, r->l->layout.item);
}

static int key_item_run(struct reader *r, const char *value)
{
    return parse_pair(r, value, r->l->layout.item_run);
}

static int key_item_stride(struct reader *r, const char *value)
{
    r->l->layout.item_stride_line = r->line;
    return parse_pair(r, value, r->l->layout.item_stride);
}

static int key_local_a(struct reader *r, const char *value)
{
    return parse_pair(r, value, r->l->layout.local_a);
}

static int key_local_b(struct reader *r, const char *value)
{
    return parse_pair(r, value, r->l->layout.local_b);
}

static int key_local_copies(struct reader *r, const char *value)
{
    return parse_one(r, value, &r->l->layout.local_copies);
}

static int key_k_split(struct reader *r, const char *value)
{
    r->l->layout.k_split_line = r->line;
    return parse_one(r, value, &r->l->layout.k_split);
}

static int key_k_split_tiles(struct reader *r, const char *value)
{
    r->l->layout.k_split_tiles_line = r->line;
    return parse_one(r, value, &r->l->layout.k_split_tiles);
}

static int key_k_split_groups(struct reader *r, const char *value)
{
    r->l->layout.k_split_groups_line = r->line;
    return parse_one(r, value, &r->l->layout.k_split_groups);
}

static int key_loads(struct reader *r, const char *value)
{
    return parse_one(r, value, &r->l->layout.loads);
}

/* The lines of a further launch: "then: ENTRY" starts it, and the then-args, then-global,
   then-local and then-when lines after it, each at most once, describe it. */
static int key_then(struct reader *r, const char *value)
{
    struct lesson *l = r->l;
    struct lesson_launch *k;

    if (l->nlaunches == LESSON_MAX_LAUNCHES)
        return bad(r, "at most %s further launches (then lines)", "3");
    if (!is_identifier(value))
        return bad(r, "then names the __kernel function of a further launch: \"%s\" is not a C identifier", value);
    k = &l->launch[l->nlaunches++];
    k->entry = xstrdup(value);
    k->line = r->line;
    return 0;
}

/* The launch a then-* line describes (the last then line's), or NULL, said, when there is none
   or the line was given for it already (given). */
static struct lesson_launch *further_launch(struct reader *r, const char *key, bool given)
{
    struct lesson_launch *k = &r->l->launch[r->l->nlaunches - 1];
    char what[160];

    if (r->l->nlaunches == 1) {
        bad(r, "%s comes before any then line: it describes the launch that the then line above it starts", key);
        return NULL;
    }
    if (!given)
        return k;
    snprintf(what, sizeof what, "\"%s\" is given twice for the launch of line %d (then: %.60s)", key, k->line,
             k->entry);
    bad(r, "%s", what);
    return NULL;
}

static int key_then_args(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-args", r->l->launch[r->l->nlaunches - 1].nargs > 0);
    return k ? parse_args(r, value, k) : -1;
}

static int key_then_global(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-global", r->l->launch[r->l->nlaunches - 1].dims > 0);
    return k ? parse_dims(r, value, k->global, &k->dims) : -1;
}

static int key_then_local(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-local", r->l->launch[r->l->nlaunches - 1].local_dims > 0);
    return k ? parse_dims(r, value, k->local, &k->local_dims) : -1;
}

static int key_then_when(struct reader *r, const char *value)
{
    struct lesson_launch *k = further_launch(r, "then-when", r->l->launch[r->l->nlaunches - 1].when != NULL);
    return k ? parse_one(r, value, &k->when) : -1;
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
    {"needs", false, parse_needs},
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
    {"multiple", true, parse_multiple},
    {"require", true, parse_require},
    {"rule", true, parse_rule},
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
static int parse_line(struct reader *r, const char *key, const char *value)
{
    const struct lesson_key *k = NULL;

    for (size_t i = 0; i < sizeof lesson_keys / sizeof lesson_keys[0] && !k; i++)
        if (strcmp(key, lesson_keys[i].name) == 0)
            k = &lesson_keys[i];
    if (!k)
        return bad(r, "unknown key \"%s\" (see lessons/FORMAT or clmm-tutor(1))", key);
    if (!k->repeatable) {
        if (key_line(r, key) > 0)
            return bad(r, "\"%s\" is given twice", key);
        if (r->nseen < sizeof r->seen / sizeof r->seen[0]) {
            snprintf(r->seen[r->nseen].key, sizeof r->seen[0].key, "%s", key);
            r->seen[r->nseen++].line = r->line;
        }
    }
    return k->parse(r, value);
}

/* The values the header's expressions are checked with: the parameters at their defaults,
   M = N = K = 1024. vars has room for LESSON_MAX_PARAMS + 4. */
static void check_env(const struct lesson *l, struct expr_var *vars, struct expr_env *env)
{
    vars[0] = (struct expr_var){ "M", 1024 };
    vars[1] = (struct expr_var){ "N", 1024 };
    vars[2] = (struct expr_var){ "K", 1024 };
    for (size_t i = 0; i < l->nparams; i++) {
        vars[3 + i].name = l->params[i].name;
        vars[3 + i].value = l->params[i].def;
    }
    *env = (struct expr_env){ vars, 3 + l->nparams };
}

/* Rules are checked as the other expressions, with CU = 132 as well. */
static int check_rules(struct reader *r)
{
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
    long long v;

    check_env(r->l, vars, &env);
    vars[env.count++] = (struct expr_var){ LESSON_RULE_CU, 132 };
    for (size_t i = 0; i < r->l->nparams; i++) {
        const struct lesson_param *p = &r->l->params[i];
        if (p->rule && expr_eval(p->rule, &env, &v, r->e) < 0) {
            error_prefix(r->e, "%s:%d: rule for %s", r->file, p->rule_line, p->name);
            return -1;
        }
    }
    return 0;
}

/* Every expression must evaluate with the parameters at their defaults and some sizes:
   this catches unknown names and syntax errors when the file is read, not at launch. */
static int check_expressions(struct reader *r)
{
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
    long long v;

    check_env(r->l, vars, &env);
    for (size_t i = 0; i < r->nexprs; i++) {
        if (expr_eval(r->exprs[i].expr, &env, &v, r->e) < 0) {
            error_prefix(r->e, "%s:%d", r->file, r->exprs[i].line);
            return -1;
        }
    }
    return 0;
}

int lesson_check_stride(const struct lesson *l, const char *dim, long long tile, long long item, long long run,
                        long long stride, struct error *e)
{
    long long runs = item / run, span;

    if (stride <= 0) {
        error_set(e, "%s:%d: item-stride: %lld %s between the starts of a work-item's runs: not positive", l->file,
                  l->layout.item_stride_line, stride, dim);
        return -1;
    }
    if (stride % run != 0) {
        error_set(e, "%s:%d: item-stride: %lld %s between the starts of a work-item's runs is not a multiple of "
                  "its runs of %lld", l->file, l->layout.item_stride_line, stride, dim, run);
        return -1;
    }
    if (__builtin_mul_overflow(runs - 1, stride, &span) || __builtin_add_overflow(span, run, &span) ||
        span > tile) {
        error_set(e, "%s:%d: item-stride: %lld runs of %lld %s, %lld apart, do not fit in the work-group's tile "
                  "of %lld %s", l->file, l->layout.item_stride_line, runs, run, dim, stride, tile, dim);
        return -1;
    }
    return 0;
}

/* The item-stride line with the parameters at their defaults at 1024 x 1024 x 1024, so that a
   stride that cannot be is reported when the file is read. Lines whose values the work-group
   diagram refuses anyway (not positive, runs that do not make up the block) are left to it. */
static int check_stride(struct reader *r)
{
    const struct lesson_layout *y = &r->l->layout;
    static const char *const dims[2] = { "rows", "columns" };
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;

    if (!y->item_stride[0])
        return 0;
    check_env(r->l, vars, &env);
    for (int i = 0; i < 2; i++) {
        long long tile, item, run, stride;
        if (expr_eval(y->tile[i], &env, &tile, r->e) < 0 || expr_eval(y->item[i], &env, &item, r->e) < 0 ||
            expr_eval(y->item_run[i], &env, &run, r->e) < 0 || expr_eval(y->item_stride[i], &env, &stride, r->e) < 0)
            return -1;      /* not reached: check_expressions evaluated them */
        if (tile <= 0 || item <= 0 || run <= 0 || item % run != 0)
            continue;
        if (lesson_check_stride(r->l, dims[i], tile, item, run, stride, r->e) < 0)
            return -1;
    }
    return 0;
}

int lesson_split_groups(const struct lesson *l, long long tiles, long long k_split, long long split_tiles,
                        long long split_groups, long long *groups, struct error *e)
{
    const struct lesson_layout *y = &l->layout;
    const char *key = "k-split";
    int line = y->k_split_line;
    long long more;

    /* tiles - split_tiles cannot overflow: neither is below 0. */
    if (split_groups >= 0 && !__builtin_add_overflow(tiles - split_tiles, split_groups, groups))
        return 0;
    if (split_groups < 0 && !__builtin_mul_overflow(split_tiles, k_split - 1, &more) &&
        !__builtin_add_overflow(tiles, more, groups))
        return 0;
    /* The line at fault: the groups given, else more tiles split than there are, else the split. */
    if (split_groups >= 0) {
        key = "k-split-groups";
        line = y->k_split_groups_line;
    } else if (split_tiles > tiles) {
        key = "k-split-tiles";
        line = y->k_split_tiles_line;
    }
    error_set(e, "%s:%d: %s: %lld tiles, the last %lld of them in %lld work-groups%s: the work-groups do not fit "
              "in 64 bits; make %s smaller", l->file, line, key, tiles, split_tiles,
              split_groups >= 0 ? split_groups : k_split, split_groups >= 0 ? "" : " each", key);
    return -1;
}

/* The k-split lines with the parameters at their defaults at 1024 x 1024 x 1024, so that
   work-groups too many to count are reported when the file is read. Values the work-group
   diagram refuses anyway (not positive, below 0) are left to it. */
static int check_split(struct reader *r)
{
    const struct lesson_layout *y = &r->l->layout;
    struct expr_var vars[LESSON_MAX_PARAMS + 4];
    struct expr_env env;
    long long rows, cols, tiles, k_split = 1, split_tiles = -1, split_groups = -1, groups;

    if (!y->tile[0] || (!y->k_split && !y->k_split_tiles && !y->k_split_groups))
        return 0;
    check_env(r->l, vars, &env);
    if (expr_eval(y->tile[0], &env, &rows, r->e) < 0 || expr_eval(y->tile[1], &env, &cols, r->e) < 0 ||
        (y->k_split && expr_eval(y->k_split, &env, &k_split, r->e) < 0) ||
        (y->k_split_tiles && expr_eval(y->k_split_tiles, &env, &split_tiles, r->e) < 0) ||
        (y->k_split_groups && expr_eval(y->k_split_groups, &env, &split_groups, r->e) < 0))
        return -1;      /* not reached: check_expressions evaluated them */
    if (rows <= 0 || cols <= 0 || k_split <= 0 || (y->k_split_tiles && split_tiles < 0) ||
        (y->k_split_groups && split_groups < 0))
        return 0;
    /* At most 1024 x 1024 tiles: no overflow. */
    tiles = (1024 / rows + (1024 % rows != 0)) * (1024 / cols + (1024 % cols != 0));
    return lesson_split_groups(r->l, tiles, k_split, y->k_split_tiles ? split_tiles : tiles, split_groups, &groups,
                               r->e);
}

/* A title that fits a table: as it is, or cut after a whole word and marked with "...". */
static char *shorten(const char *title)
{
    size_t cut, keep;
    char *out;

    if (str_columns(title, strlen(title)) <= LESSON_SHORT_TITLE_MAX)
        return xstrdup(title);
    cut = str_prefix(title, LESSON_SHORT_TITLE_MAX - 3);
    /* At the last blank inside the prefix; one long word is cut at a character. */
    for (keep = cut - 1; keep > 0 && title[keep] != ' '; keep--)
        ;
    if (keep == 0)
        keep = cut;
    while (keep > 0 && (title[keep - 1] == ' ' || title[keep - 1] == ',' || title[keep - 1] == ':'))
        keep--;
    out = xmalloc(keep + 4);
    memcpy(out, title, keep);
    memcpy(out + keep, "...", 4);
    return out;
}

static bool has_layout(const struct lesson_layout *y)
{
    return y->tile[0] || y->item[0] || y->item_run[0] || y->item_stride[0] || y->local_a[0] || y->local_b[0] ||
           y->local_copies || y->k_split || y->k_split_tiles || y->k_split_groups || y->loads;
}

/* The further launches are complete, and W is passed where there is a scratch buffer. */
static int check_launches(struct reader *r)
{
    struct lesson *l = r->l;
    bool takes_w = false;

    for (size_t i = 1; i < l->nlaunches; i++) {
        const struct lesson_launch *k = &l->launch[i];
        r->line = k->line;
        if (k->nargs == 0)
            return bad(r, "the launch of this then line (%s) has no then-args line", k->entry);
        if (k->dims == 0)
            return bad(r, "the launch of this then line (%s) has no then-global line", k->entry);
        if (k->local_dims && k->local_dims != k->dims)
            return bad(r, "the launch of this then line (%s): then-local has a different number of dimensions "
                          "than then-global", k->entry);
    }
    for (size_t i = 0; i < l->nlaunches; i++)
        for (size_t a = 0; a < l->launch[i].nargs; a++)
            if (l->launch[i].args[a].kind == ARG_W) {
                takes_w = true;
                r->line = l->launch[i].args_line;
                if (!l->scratch)
                    return bad(r, "%s", "argument W is the scratch buffer, and the header has no scratch line "
                                        "giving its size");
            }
    if (l->scratch && !takes_w) {
        r->line = key_line(r, "scratch");
        return bad(r, "%s", "a scratch buffer that no launch takes: pass it with the argument W");
    }
    if (l->scratch_zero && !l->scratch) {
        r->line = key_line(r, "scratch-zero");
        return bad(r, "%s", "scratch-zero names the first floats of the scratch buffer, and the header has no "
                            "scratch line giving its size");
    }
    return 0;
}

static int check_complete(struct reader *r)
{
    struct lesson *l = r->l;
    const char *missing = NULL;

    if (!l->sources && r->extra && r->extra->sources_optional)
        l->sources = xstrdup("");
    if (l->number < 0)
        missing = r->extra ? r->extra->number_key : "lesson";
    else if (!l->title)
        missing = "title";
    else if (!l->sources)
        missing = "sources";
    else if (l->engine == ENGINE_OPENCL && !l->kernel_file)
        missing = "kernel";
    else if (l->engine == ENGINE_OPENCL && !l->launch[0].entry)
        missing = "entry";
    else if (l->engine == ENGINE_OPENCL && l->launch[0].nargs == 0)
        missing = "args";
    else if (l->engine == ENGINE_OPENCL && l->launch[0].dims == 0)
        missing = "global";
    if (missing)
        return bad(r, "the header has no \"%s:\" line", missing);
    if (!l->short_title)
        l->short_title = shorten(l->title);
    /* A host lesson's kernel line names the C source it shows, which the tool runs built in:
       nothing about launching it applies. */
    if (l->engine == ENGINE_HOST && (l->launch[0].entry || l->options || l->launch[0].nargs ||
                                     l->launch[0].dims || l->launch[0].local_dims || l->nlaunches > 1 ||
                                     l->scratch || l->b_transposed || l->column_major ||
                                     has_layout(&l->layout)))
        return bad(r, "%s", "a host lesson (engine: host) takes no entry, options, args, "
                            "global, local, then, scratch, order or b-transposed lines, nor the keys of its "
                            "work-groups (tile, item, item-run, item-stride, local-a, local-b, local-copies, "
                            "k-split, loads); "
                            "its kernel line, if any, names the C source shown");
    if (l->engine == ENGINE_HOST && l->needs.nvidia) {
        r->line = key_line(r, "needs");
        return bad(r, "%s", "a host lesson (engine: host) runs on the CPU, built into the tool: it needs no device; "
                            "delete the needs line");
    }
    if (l->emulation && !l->needs.nvidia) {
        r->line = key_line(r, "emulation");
        return bad(r, "%s", "an emulation line stands in for what the needs line asks of the device, and this "
                            "lesson has no needs line: add one, or delete the emulation line");
    }
    if (l->engine == ENGINE_HOST)
        l->nlaunches = 0;
    if (l->launch[0].local_dims && l->launch[0].local_dims != l->launch[0].dims) {
        r->line = key_line(r, "local");
        return bad(r, "%s", "local has a different number of dimensions than global");
    }
    if (check_launches(r) < 0)
        return -1;
    if (l->layout.item_run[0] && !l->layout.item[0]) {
        r->line = key_line(r, "item-run");
        return bad(r, "%s", "item-run needs an item line: runs of the work-item's block");
    }
    if (l->layout.item_stride[0] && (!l->layout.item_run[0] || !l->layout.tile[0])) {
        r->line = l->layout.item_stride_line;
        return bad(r, "%s", l->layout.item_run[0]
                                ? "item-stride needs a tile line: the runs lie in the work-group's tile"
                                : "item-stride needs an item-run line: the distance between the starts of a "
                                  "work-item's runs");
    }
    if (l->layout.local_copies && !l->layout.local_a[0] && !l->layout.local_b[0]) {
        r->line = key_line(r, "local-copies");
        return bad(r, "%s", "local-copies needs a local-a or local-b line: copies of those tiles");
    }
    return check_expressions(r) < 0 || check_rules(r) < 0 || check_stride(r) < 0 ? -1 : check_split(r);
}

int lesson_parse(const char *file, const char *text, const char *const *kernel_dirs,
                 struct lesson *l, struct error *e)
{
    return lesson_parse_extra(file, text, kernel_dirs, NULL, l, e);
}

/* A header line: the extra keys first, then the lesson's. */
static int header_line(struct reader *r, const char *key, const char *value)
{
    if (r->extra) {
        int taken = r->extra->key(r->extra->ctx, r->l, key, value, r->e);
        if (taken < 0) {
            error_prefix(r->e, "%s:%d", r->file, r->line);
            return -1;
        }
        if (taken > 0)
            return 0;
    }
    return parse_line(r, key, value);
}

int lesson_parse_extra(const char *file, const char *text, const char *const *kernel_dirs,
                       const struct lesson_extra *extra, struct lesson *l, struct error *e)
{
    struct reader r = { .file = file, .line = 0, .l = l, .e = e, .extra = extra, .kernel_dirs = kernel_dirs };
    const char *p = text;
    int rc = -2;    /* -2: no "---" yet */

    memset(l, 0, sizeof *l);
    l->number = -1;
    l->pad = true;
    l->nlaunches = 1;   /* the first launch, from the entry, args, global and local lines */
    l->file = xstrdup(file);
    /* The byte-order mark some editors put at the start of a UTF-8 file: skipped. */
    if (strncmp(p, BYTE_ORDER_MARK, 3) == 0)
        p += 3;
    while (*p && rc == -2) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *line = dup_trimmed(p, n);

        r.line++;
        p += n + (end != NULL);
        if (strncmp(line, BYTE_ORDER_MARK, 3) == 0) {
            rc = bad(&r, "%s", "a byte-order mark (the bytes EF BB BF, invisible in most editors) starts "
                     "this line: only the file's first line may have one; delete it");
        } else if (strcmp(line, "---") == 0) {
            l->text = xstrdup(p);
            rc = check_complete(&r);
        } else if (line[0] != '\0' && line[0] != '#') {
            char *colon = strchr(line, ':');
            if (!colon) {
                rc = bad(&r, "expected \"key: value\" or \"---\", found \"%s\"", line);
            } else {
                char *key = dup_trimmed(line, (size_t)(colon - line));
                char *value = dup_trimmed(colon + 1, strlen(colon + 1));
                if (header_line(&r, key, value) < 0)
                    rc = -1;
                free(key);
                free(value);
            }
        }
        free(line);
    }
    if (rc == -2) {
        r.line++;
        rc = bad(&r, "%s", "no \"---\" line between the header and the explanation");
    }
    free(r.exprs);
    if (rc < 0)
        lesson_free(l);
    return rc;
}

static void layout_free(struct lesson_layout *y)
{
    for (size_t i = 0; i < 2; i++) {
        free(y->tile[i]);
        free(y->item[i]);
        free(y->item_run[i]);
        free(y->item_stride[i]);
        free(y->local_a[i]);
        free(y->local_b[i]);
    }
    free(y->local_copies);
    free(y->k_split);
    free(y->k_split_tiles);
    free(y->k_split_groups);
    free(y->loads);
}

static void launch_free(struct lesson_launch *k)
{
    free(k->entry);
    for (size_t i = 0; i < k->nargs; i++) {
        free(k->args[i].expr);
        for (size_t v = 0; v < k->args[i].nvalues; v++)
            free(k->args[i].values[v]);
        free(k->args[i].values);
    }
    for (size_t i = 0; i < k->dims; i++)
        free(k->global[i]);
    for (size_t i = 0; i < k->local_dims; i++)
        free(k->local[i]);
    free(k->when);
}

void lesson_free(struct lesson *l)
{
    free(l->title);
    free(l->short_title);
    free(l->sources);
    free(l->branch);
    free(l->needs.why);
    free(l->file);
    free(l->kernel_file);
    free(l->emulation);
    free(l->options);
    for (size_t i = 0; i < LESSON_MAX_LAUNCHES; i++)
        launch_free(&l->launch[i]);
    free(l->scratch);
    free(l->scratch_zero);
    for (size_t i = 0; i < l->nparams; i++) {
        free(l->params[i].name);
        free(l->params[i].values);
        free(l->params[i].rule);
    }
    for (size_t i = 0; i < l->nmultiples; i++)
        free(l->multiples[i].expr);
    free(l->multiples);
    for (size_t i = 0; i < l->nrequires; i++) {
        free(l->requires[i].expr);
        free(l->requires[i].message);
    }
    free(l->requires);
    layout_free(&l->layout);
    free(l->text);
    memset(l, 0, sizeof *l);
}

/* A lesson file or a kernel, whole: a regular file of at most limit bytes, with no NUL
   byte (the parser and the OpenCL compiler would stop there). */
static char *read_text(const char *path, size_t limit, const char *what, struct error *e)
{
    size_t len;
    char *text = files_read(path, limit, what, &len, e);
    const char *nul = text ? memchr(text, '\0', len) : NULL;

    if (nul) {
        error_set(e, "%s holds a NUL byte (at byte %zu): %s is text, without NUL bytes", path,
                  (size_t)(nul - text), what);
        free(text);
        return NULL;
    }
    return text;
}

char *read_file(const char *path, struct error *e)
{
    return read_text(path, LESSON_KERNEL_MAX, "a lesson file or a kernel", e);
}

char *lesson_kernel_source(const struct lesson *l, struct error *e)
{
    if (!l->kernel_file) {
        error_set(e, "lesson %d runs on the host and has no kernel", l->number);
        return NULL;
    }
    return read_text(l->kernel_file, LESSON_KERNEL_MAX, "a kernel", e);
}

char *lesson_emulation_source(const struct lesson *l, struct error *e)
{
    if (!l->emulation) {
        error_set(e, "lesson %d has no emulation line", l->number);
        return NULL;
    }
    return read_text(l->emulation, LESSON_KERNEL_MAX, "an emulation header", e);
}

const char *lesson_launch_which(const struct lesson *l, size_t i, char *buf, size_t len)
{
    if (i == 0)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, " of launch %zu (then: %.60s)", i + 1, l->launch[i].entry);
    return buf;
}

int lesson_param_index(const struct lesson *l, const char *name)
{
    for (size_t i = 0; i < l->nparams; i++)
        if (strcmp(l->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

bool lesson_param_allows(const struct lesson_param *p, long long value)
{
    if (p->is_range)
        return value >= p->values[0] && value <= p->values[1];
    for (size_t i = 0; i < p->nvalues; i++)
        if (p->values[i] == value)
            return true;
    return false;
}

size_t lesson_param_count(const struct lesson_param *p)
{
    if (p->is_range) {
        long long n = p->values[1] - p->values[0] + 1;     /* at most 2^32: the ends fit an int */
        return (unsigned long long)n > SIZE_MAX ? SIZE_MAX : (size_t)n;
    }
    return p->nvalues;
}

long long lesson_param_value(const struct lesson_param *p, size_t i)
{
    return p->is_range ? p->values[0] + (long long)i : p->values[i];
}

bool lesson_param_searched(const struct lesson_param *p)
{
    return !p->is_switch && !p->is_range;
}

void lesson_param_describe(const struct lesson_param *p, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    if (p->is_range) {
        str_appendf(&s, "", "%lld to %lld", p->values[0], p->values[1]);
        return;
    }
    for (size_t v = 0; v < p->nvalues; v++)
        str_appendf(&s, ", ", "%lld", p->values[v]);
}

static int by_number(const void *a, const void *b)
{
    return ((const struct lesson *)a)->number - ((const struct lesson *)b)->number;
}

const char *lesson_kernels_dir(const char *dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s/../kernels", dir);
    return buf;
}

/* One lesson file of dir, path: its kernel is looked for in dir, then in dir/../kernels. */
static int load_in(const char *dir, const char *path, struct lesson *l, struct error *e)
{
    char kernels[4096];
    const char *kernel_dirs[] = { dir, lesson_kernels_dir(dir, kernels, sizeof kernels), NULL };
    char *text;
    int rc;

    text = read_text(path, LESSON_FILE_MAX, "a lesson file", e);
    rc = text ? lesson_parse(path, text, kernel_dirs, l, e) : -1;
    free(text);
    return rc;
}

int lesson_load_file(const char *path, struct lesson *l, struct error *e)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');

    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(dir, sizeof dir, ".");
    return load_in(slash == path ? "/" : dir, path, l, e);
}

int lesson_set_load(const char *dir, struct lesson_set *set, struct error *e)
{
    char path[4096];
    struct dirent *d;
    DIR *dh = opendir(dir);

    set->items = NULL;
    set->count = 0;
    set->dir = NULL;
    set->sources.items = NULL;
    set->sources.count = 0;
    if (!dh) {
        error_set(e, "cannot open the lesson directory %s: %s", dir, strerror(errno));
        return -1;
    }
    while ((d = readdir(dh)) != NULL) {
        struct lesson l;

        if (!str_has_suffix(d->d_name, ".lesson"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
        if (load_in(dir, path, &l, e) < 0) {
            closedir(dh);
            lesson_set_free(set);
            return -1;
        }
        if (lesson_set_find(set, l.number)) {
            error_set(e, "%s: lesson %d is also defined in %s", path, l.number,
                      lesson_set_find(set, l.number)->file);
            lesson_free(&l);
            closedir(dh);
            lesson_set_free(set);
            return -1;
        }
        set->items = xrealloc(set->items, (set->count + 1) * sizeof *set->items);
        set->items[set->count++] = l;
    }
    closedir(dh);
    if (set->count == 0) {
        error_set(e, "no *.lesson files in %s", dir);
        return -1;
    }
    qsort(set->items, set->count, sizeof *set->items, by_number);
    set->dir = xstrdup(dir);
    snprintf(path, sizeof path, "%s/SOURCES", dir);
    if (sources_load(path, &set->sources, e) < 0) {
        lesson_set_free(set);
        return -1;
    }
    return 0;
}

void lesson_set_free(struct lesson_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        lesson_free(&set->items[i]);
    free(set->items);
    free(set->dir);
    set->items = NULL;
    set->count = 0;
    set->dir = NULL;
    sources_free(&set->sources);
}

const struct lesson *lesson_set_find(const struct lesson_set *set, int number)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->items[i].number == number)
            return &set->items[i];
    return NULL;
}
