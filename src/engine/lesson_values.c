/* lesson_values.c: the values of a lesson header's lines read into the lesson:
   yes and no, lists of expressions, kernel arguments, parameters and their ranges, rules,
   requirements, needs; and the kernel file found where a lesson may name one. */
#include "lesson_reader.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "str.h"
#include "xalloc.h"

int reader_bad(struct reader *r, const char *fmt, const char *arg)
{
    char what[512];

    snprintf(what, sizeof what, fmt, arg);
    error_set(r->e, "%s:%d: %s", r->file, r->line, what);
    return -1;
}

char *reader_trimmed(const char *s, size_t n)
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

int reader_bool(struct reader *r, const char *value, bool *out)
{
    if (strcmp(value, "yes") == 0)
        *out = true;
    else if (strcmp(value, "no") == 0)
        *out = false;
    else
        return reader_bad(r, "expected yes or no, found \"%s\"", value);
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
            char *part = reader_trimmed(start, (size_t)(p - start));
            if (part[0] == '\0') {
                free(part);
                return reader_bad(r, "%s", "empty item in the list");
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
        return reader_bad(r, "%s", "at most 3 dimensions");
    }
    t->out[(*t->count)++] = part;
    return remember(r, part);
}

/* "E1, E2, E3" into at most LESSON_MAX_DIMS expressions. */
int reader_dims(struct reader *r, const char *value, char **out, size_t *count)
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
        return reader_bad(r, "%s", "ints() holds no value: write ints(EXPR, ...), for example ints(K)");
    if (split_list(r, inner, &t, add_int_value) == 0)
        return 0;
    /* Either a value too many or an empty one (split_list's only other failure). */
    if (t.too_many)
        snprintf(what, sizeof what, "ints(%.200s): the ints(...) arguments of a launch hold at most %d values in "
                 "all", inner, LESSON_MAX_INTS);
    else
        snprintf(what, sizeof what, "ints(%.200s) has an empty value: write ints(EXPR, ...), the values separated "
                 "by commas", inner);
    return reader_bad(r, "%s", what);
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
    *inner = reader_trimmed(word + len + 1, n - len - 2);
    return true;
}

/* The argument words of an args or a then-args line, into launch k. */
int reader_args(struct reader *r, const char *value, struct lesson_launch *k)
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
            return reader_bad(r, "%s", "too many arguments");
        struct lesson_arg *a = &k->args[k->nargs];
        if (n == 1 && strchr("MNKABCW", *start)) {
            static const enum arg_kind kinds[] = { ARG_M, ARG_N, ARG_K, ARG_A, ARG_B, ARG_C, ARG_W };
            a->kind = kinds[strchr("MNKABCW", *start) - "MNKABCW"];
        } else if (depth > 0) {
            return reader_bad(r, "argument \"%s\" lacks a closing parenthesis", start);
        } else if (unopened) {
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)n, start);
            return reader_bad(r, "argument \"%s\" closes a parenthesis it did not open", word);
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
                return reader_bad(r, a->kind == ARG_INT ? "int(%s) holds one expression; several ints in a __global "
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
            return reader_bad(r, "unknown argument \"%s\" (expected M, N, K, A, B, C, W, int(EXPR), local(EXPR) or "
                          "ints(EXPR, ...))", word);
        }
        k->nargs++;
    }
    if (k->nargs == 0)
        return reader_bad(r, "%s", "args is empty");
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
        return reader_bad(r, "%s", what);
    }
    for (size_t i = 0; i < want; i++)
        if (remember(r, out[i]) < 0)
            return -1;
    return 0;
}

int reader_pair(struct reader *r, const char *value, char **out)
{
    return parse_fixed(r, value, out, 2, "two expressions (ROWS, COLS)");
}

int reader_one(struct reader *r, const char *value, char **out)
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
        reader_bad(r, "allowed value \"%s\" is not " PARAM_BOUNDS, part);
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
    char *low = reader_trimmed(list, (size_t)(to - list)), *high = reader_trimmed(to + 4, strlen(to + 4));
    long long lo = 0, hi = -1;
    int rc = param_number(low, &lo) < 0 || param_number(high, &hi) < 0 ? -1 : 0;

    free(low);
    free(high);
    if (rc < 0)
        return reader_bad(r, "expected \"LOW to HIGH\", each " PARAM_BOUNDS ", found \"%s\"", list);
    if (lo > hi)
        return reader_bad(r, "the range \"%s\" is empty: LOW must not be above HIGH", list);
    p->values = xrealloc(p->values, 2 * sizeof *p->values);
    p->values[0] = lo;
    p->values[1] = hi;
    p->nvalues = 2;
    p->is_range = true;
    return 0;
}

bool reader_is_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* "NAME = DEFAULT in V1, V2, ...", of a param or a switch line. */
int reader_param(struct reader *r, const char *value, bool is_switch)
{
    struct lesson *l = r->l;
    struct lesson_param *p;
    const char *eq = strchr(value, '='), *in;
    char *num;
    int rc;

    if (l->nparams == LESSON_MAX_PARAMS)
        return reader_bad(r, "%s", "too many parameters");
    in = eq ? strstr(eq, " in ") : NULL;
    if (!eq || !in)
        return reader_bad(r, "%s", "expected \"NAME = DEFAULT in V1, V2, ...\"");
    p = &l->params[l->nparams];
    p->name = reader_trimmed(value, (size_t)(eq - value));
    p->is_switch = is_switch;
    l->nparams++;   /* counted now, so that lesson_free releases it after an error */
    if (!reader_is_identifier(p->name))
        return reader_bad(r, "parameter name \"%s\" is not an identifier", p->name);
    if (lesson_param_index(l, p->name) != (int)l->nparams - 1 || strcmp(p->name, "M") == 0 ||
        strcmp(p->name, "N") == 0 || strcmp(p->name, "K") == 0 || strcmp(p->name, LESSON_RULE_CU) == 0)
        return reader_bad(r, "parameter %s is declared twice or shadows a size or CU", p->name);
    num = reader_trimmed(eq + 1, (size_t)(in - eq - 1));
    rc = param_number(num, &p->def);
    if (rc < 0)
        reader_bad(r, "default value \"%s\" is not " PARAM_BOUNDS, num);
    free(num);
    if (rc < 0)
        return -1;
    if (strstr(in + 4, " to ")) {
        if (parse_range(r, in + 4, p) < 0)
            return -1;
    } else if (split_list(r, in + 4, p, add_value) < 0)
        return -1;
    if (!lesson_param_allows(p, p->def))
        return reader_bad(r, "the default of %s is not among its allowed values", p->name);
    return 0;
}

static int add_multiple(struct reader *r, char *part, void *ctx)
{
    struct lesson *l = r->l;

    (void)ctx;
    if (!strchr("MNK", part[0]) || part[0] == '\0' || !isspace((unsigned char)part[1])) {
        reader_bad(r, "expected \"M EXPR\", \"N EXPR\" or \"K EXPR\", found \"%s\"", part);
        free(part);
        return -1;
    }
    l->multiples = xrealloc(l->multiples, (l->nmultiples + 1) * sizeof *l->multiples);
    l->multiples[l->nmultiples].dim = part[0];
    l->multiples[l->nmultiples].expr = reader_trimmed(part + 1, strlen(part + 1));
    free(part);
    return remember(r, l->multiples[l->nmultiples++].expr);
}

/* "M EXPR, N EXPR" */
int reader_multiple(struct reader *r, const char *value)
{
    return split_list(r, value, NULL, add_multiple);
}

/* "NAME = EXPR": the rule of a parameter declared by an earlier param line. */
int reader_rule(struct reader *r, const char *value)
{
    struct lesson *l = r->l;
    const char *eq = strchr(value, '=');
    char *name;
    int at;

    if (!eq)
        return reader_bad(r, "%s", "expected \"NAME = EXPR\"");
    name = reader_trimmed(value, (size_t)(eq - value));
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
    l->params[at].rule = reader_trimmed(eq + 1, strlen(eq + 1));
    l->params[at].rule_line = r->line;
    if (l->params[at].rule[0] == '\0')
        return reader_bad(r, "rule for %s: no expression after \"=\"", l->params[at].name);
    return 0;
}

/* "EXPR : MESSAGE" */
int reader_require(struct reader *r, const char *value)
{
    struct lesson *l = r->l;
    const char *colon = strstr(value, " : ");
    struct lesson_require *q;

    if (!colon)
        return reader_bad(r, "%s", "expected \"EXPR : MESSAGE\" (a colon with a blank on each side)");
    l->requires = xrealloc(l->requires, (l->nrequires + 1) * sizeof *l->requires);
    q = &l->requires[l->nrequires++];
    q->expr = reader_trimmed(value, (size_t)(colon - value));
    q->message = reader_trimmed(colon + 3, strlen(colon + 3));
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
int reader_needs(struct reader *r, const char *value)
{
    struct lesson_needs *n = &r->l->needs;
    const char *p = value;

    if (strncmp(p, "nvidia", 6) != 0 || !isspace((unsigned char)p[6]))
        return reader_bad(r, "expected \"nvidia MAJOR.MINOR : WHY\" (an NVIDIA GPU is the only device a lesson can "
                      "name), found \"%.200s\"", value);
    for (p += 6; isspace((unsigned char)*p); p++)
        ;
    if (!(p = version_part(p, &n->major)) || *p != '.' || !(p = version_part(p + 1, &n->minor)) ||
        (*p && !isspace((unsigned char)*p) && *p != ':'))
        return reader_bad(r, "needs: the compute capability in \"%.200s\" is not MAJOR.MINOR, two whole numbers of at "
                      "most 3 digits such as 8.0", value);
    while (isspace((unsigned char)*p))
        p++;
    if (*p != ':')
        return reader_bad(r, "%s", "needs: no \": WHY\" after the compute capability: say what the lesson needs it for");
    n->why = reader_trimmed(p + 1, strlen(p + 1));
    n->nvidia = true;
    if (n->why[0] == '\0')
        return reader_bad(r, "%s", "needs: the reason after \":\" is empty: say what the lesson needs the device for");
    if (strlen(n->why) > LESSON_NEEDS_WHY_MAX)
        return reader_bad(r, "needs: the reason is longer than %s bytes: keep it to a phrase", "200");
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
char *reader_find_kernel(struct reader *r, const char *name, const char *const *dirs)
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
