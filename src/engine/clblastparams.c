/* clblastparams.c: reading CLBlast's tuning results. A tuner's file is one JSON object whose
   members are strings (CLBlast 1.5 writes even its numbers as strings there):
   kernel_family ("xgemm_2": the kernel's family and the tuner's phase), precision ("32"),
   best_time (milliseconds), best_parameters ("KWID=2 MDIMAD=16 ... PRECISION=32 ...": one
   string) and device (CL_DEVICE_NAME), with every configuration tried in results[], which
   is not needed here. */
#include "clblastparams.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "str.h"

/* The tuners' kernel families (less their phase, "_1"), and the names that
   CLBlastOverrideParameters knows them by. */
static const struct {
    const char *family, *kernel;
} families[] = {
    { "xgemm", "Xgemm" },
    { "xgemm_direct", "XgemmDirect" },
    { "copy", "Copy" },
    { "pad", "Pad" },
    { "transpose", "Transpose" },
    { "padtranspose", "Padtranspose" },
    { "gemm_routine", "GemmRoutine" },
};

#define NFAMILIES (sizeof families / sizeof families[0])

/* "FILE:LINE:COLUMN: " for a value of the file, in messages. */
static void where(const char *name, const struct json_value *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d:%d", name, v->line, v->column);
}

/* The string member key of doc; -1 with a message when it is missing or not a string. */
static int member_string(const struct json_value *doc, const char *key, const char *name, const char **out,
                         struct error *e)
{
    const struct json_value *v = json_get(doc, key);
    char at[600];

    if (!v) {
        error_set(e, "%s: no \"%s\": not a file written by one of CLBlast's tuners (clblast_tuner_xgemm and "
                     "the others write clblast_KERNEL_32.json)", name, key);
        return -1;
    }
    *out = json_string(v);
    if (!*out) {
        where(name, v, at, sizeof at);
        error_set(e, "%s: \"%s\" is %s, not a string", at, key, json_type_name(v->type));
        return -1;
    }
    return 0;
}

/* A member that CLBlast writes as a string holding a number (the tool accepts a number as
   well): *out, or -1 with a message. */
static int member_number(const struct json_value *doc, const char *key, const char *name, double *out,
                         struct error *e)
{
    const struct json_value *v = json_get(doc, key);
    const char *text;
    char at[600], *end;

    if (v && json_number(v, out))
        return 0;
    if (member_string(doc, key, name, &text, e) < 0)
        return -1;
    *out = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(*out) || *out < 0) {
        where(name, v, at, sizeof at);
        error_set(e, "%s: \"%s\" is \"%.40s\", not a number of at least 0", at, key, text);
        return -1;
    }
    return 0;
}

/* The family less its phase: "xgemm_direct_2" is xgemm_direct's. */
static int find_family(const char *family, const char *name, const struct json_value *v, struct error *e)
{
    size_t len = strlen(family), base = len;
    struct str known;
    char list[256], at[600];

    while (base > 0 && isdigit((unsigned char)family[base - 1]))
        base--;
    if (base < len && base > 1 && family[base - 1] == '_')
        len = base - 1;
    for (size_t i = 0; i < NFAMILIES; i++)
        if (strlen(families[i].family) == len && strncmp(families[i].family, family, len) == 0)
            return (int)i;
    str_init(&known, list, sizeof list);
    for (size_t i = 0; i < NFAMILIES; i++)
        str_appendf(&known, ", ", "%s", families[i].family);
    where(name, v, at, sizeof at);
    if (strcmp(family, "gemm_routine_single_size") == 0)
        error_set(e, "%s: kernel family \"%s\" compares GEMM's two kernels at one size and holds no parameters: "
                     "run clblast_tuner_routine_xgemm without -m, -n and -k for the size where it switches "
                     "(clblast_gemm_routine_32.json)", at, family);
    else
        error_set(e, "%s: kernel family \"%.64s\" is not one this tool applies (known: %s, each with its "
                     "tuner's phase such as xgemm_2)", at, family, list);
    return -1;
}

/* "KWID=2 MDIMAD=16 PRECISION=32 ...": into k, PRECISION left out. */
static int parse_parameters(struct clblast_kernel *k, const char *text, const char *at, struct error *e)
{
    for (const char *p = text;;) {
        size_t len, name_len;
        const char *eq;
        char value[32];
        long long v;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        len = strcspn(p, " ");
        eq = memchr(p, '=', len);
        name_len = eq ? (size_t)(eq - p) : 0;
        if (!eq || name_len == 0 || name_len >= sizeof k->names[0] || len - name_len - 1 >= sizeof value) {
            error_set(e, "%s: best_parameters: \"%.*s\" is not NAME=VALUE", at, len > 40 ? 40 : (int)len, p);
            return -1;
        }
        snprintf(value, sizeof value, "%.*s", (int)(len - name_len - 1), eq + 1);
        if (str_to_ll(value, &v) < 0 || v < 0) {
            error_set(e, "%s: best_parameters: %.*s=%s: the value is not a whole number of at least 0", at,
                      (int)name_len, p, value);
            return -1;
        }
        if (!(name_len == 9 && strncmp(p, "PRECISION", 9) == 0)) {
            for (size_t i = 0; i < k->count; i++)
                if (strlen(k->names[i]) == name_len && strncmp(k->names[i], p, name_len) == 0) {
                    error_set(e, "%s: best_parameters: %.*s is given twice", at, (int)name_len, p);
                    return -1;
                }
            if (k->count == CLBLAST_PARAMS_MAX_VALUES) {
                error_set(e, "%s: best_parameters: more than %d parameters", at, CLBLAST_PARAMS_MAX_VALUES);
                return -1;
            }
            snprintf(k->names[k->count], sizeof k->names[0], "%.*s", (int)name_len, p);
            k->values[k->count++] = (size_t)v;
        } else if (v != 32) {
            error_set(e, "%s: best_parameters: PRECISION=%lld: the tool measures single precision (32) only", at, v);
            return -1;
        }
        p += len;
    }
    if (k->count == 0) {
        error_set(e, "%s: best_parameters holds no parameters", at);
        return -1;
    }
    return 0;
}

/* arg_m and its kind: the size the tuner ran at, -1 when not said. */
static long long size_arg(const struct json_value *doc, const char *key)
{
    const char *text = json_string(json_get(doc, key));
    long long v;

    return text && str_to_ll(text, &v) == 0 ? v : -1;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

/* k replaces or joins the kernels of cp: of two files for one kernel, the faster is kept. */
static int merge(struct clblast_params *cp, const struct clblast_kernel *k, struct error *e)
{
    struct clblast_kernel *old = NULL;
    const struct clblast_kernel *kept, *dropped;
    char line[1200];

    for (size_t i = 0; i < cp->nkernels; i++)
        if (strcmp(cp->kernels[i].name, k->name) == 0)
            old = &cp->kernels[i];
    if (!old) {
        cp->kernels[cp->nkernels++] = *k;   /* one per known family: there is room */
        return 0;
    }
    if (old->m != k->m || old->n != k->n || old->k != k->k) {
        error_set(e, "%s was tuned at %lldx%lldx%lld and %s at %lldx%lldx%lld: their best times cannot be "
                     "compared to choose one for %s (give the files of one size)", old->file, old->m, old->n,
                  old->k, k->file, k->m, k->n, k->k, k->name);
        return -1;
    }
    kept = k->best_ms < old->best_ms ? k : old;
    dropped = kept == k ? old : k;
    snprintf(line, sizeof line, "%s: %s (%.3g ms) kept over %s (%.3g ms)\n", k->name, base_name(kept->file),
             kept->best_ms, base_name(dropped->file), dropped->best_ms);
    if (strlen(cp->notes) + strlen(line) < sizeof cp->notes)
        strcat(cp->notes, line);
    if (kept == k)
        *old = *k;
    return 0;
}

int clblast_params_add(struct clblast_params *cp, const struct json_value *doc, const char *name, struct error *e)
{
    struct clblast_kernel k;
    const char *family, *precision_text, *parameters, *device;
    double precision;
    char at[600];
    int which;

    if (doc->type != JSON_OBJECT) {
        error_set(e, "%s: the document is %s, not an object: not a file written by one of CLBlast's tuners", name,
                  json_type_name(doc->type));
        return -1;
    }
    memset(&k, 0, sizeof k);
    if (member_string(doc, "kernel_family", name, &family, e) < 0)
        return -1;
    if ((which = find_family(family, name, json_get(doc, "kernel_family"), e)) < 0)
        return -1;
    precision_text = json_string(json_get(doc, "precision"));
    if (member_number(doc, "precision", name, &precision, e) < 0)
        return -1;
    if (precision != 32) {
        where(name, json_get(doc, "precision"), at, sizeof at);
        error_set(e, "%s: precision %s: the tool measures SGEMM, single precision: give the file of -precision 32 "
                     "(clblast_%s_32.json)", at, precision_text ? precision_text : "not 32", family);
        return -1;
    }
    if (member_string(doc, "best_parameters", name, &parameters, e) < 0 ||
        member_number(doc, "best_time", name, &k.best_ms, e) < 0 || member_string(doc, "device", name, &device, e) < 0)
        return -1;
    where(name, json_get(doc, "best_parameters"), at, sizeof at);
    if (parse_parameters(&k, parameters, at, e) < 0)
        return -1;
    if (cp->device[0] && strcmp(cp->device, device) != 0) {
        error_set(e, "%s was tuned on \"%s\", %s on \"%.200s\": give the files of one device", cp->files[0],
                  cp->device, name, device);
        return -1;
    }
    str_copy(cp->device, sizeof cp->device, device);
    str_copy(k.name, sizeof k.name, families[which].kernel);
    str_copy(k.family, sizeof k.family, family);
    str_copy(k.file, sizeof k.file, name);
    k.m = size_arg(doc, "arg_m");
    k.n = size_arg(doc, "arg_n");
    k.k = size_arg(doc, "arg_k");
    return merge(cp, &k, e);
}

/* FNV-1a, 64 bits. */
static unsigned long long hash_bytes(unsigned long long h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

void clblast_params_finish(struct clblast_params *cp)
{
    unsigned long long h = 14695981039346656037ULL;

    for (size_t i = 0; i < cp->nkernels; i++) {
        const struct clblast_kernel *k = &cp->kernels[i];
        h = hash_bytes(h, k->name, strlen(k->name) + 1);
        for (size_t j = 0; j < k->count; j++) {
            char item[64];
            int n = snprintf(item, sizeof item, "%s=%zu ", k->names[j], k->values[j]);
            h = hash_bytes(h, item, (size_t)n);
        }
    }
    snprintf(cp->key, sizeof cp->key, "tuned:%016llx", h);
}

int clblast_params_load(struct clblast_params *cp, const char *const *paths, size_t npaths, struct error *e)
{
    memset(cp, 0, sizeof *cp);
    if (npaths > CLBLAST_PARAMS_MAX_FILES) {
        error_set(e, "%zu files of CLBlast's parameters: at most %d", npaths, CLBLAST_PARAMS_MAX_FILES);
        return -1;
    }
    for (size_t i = 0; i < npaths; i++) {
        struct json_value doc;
        int rc;
        if (json_parse_file(paths[i], &doc, e) < 0)
            return -1;
        str_copy(cp->files[cp->nfiles++], sizeof cp->files[0], paths[i]);
        rc = clblast_params_add(cp, &doc, paths[i], e);
        json_free(&doc);
        if (rc < 0)
            return -1;
    }
    clblast_params_finish(cp);
    return 0;
}

/* The length of s without trailing white space (some drivers pad their device names). */
static size_t trimmed(const char *s)
{
    size_t n = strlen(s);

    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    return n;
}

int clblast_params_check_device(const struct clblast_params *cp, const char *device_name, struct error *e)
{
    size_t n = trimmed(cp->device);

    if (n == trimmed(device_name) && strncmp(cp->device, device_name, n) == 0)
        return 0;
    error_set(e, "%s was tuned on \"%s\", not on this device, \"%s\": another device's parameters are not tuned "
                 "for this one (run CLBlast's tuners on this device, or choose the device with --device)",
              cp->files[0], cp->device, device_name);
    return -1;
}

void clblast_params_describe(const struct clblast_params *cp, char *buf, size_t len)
{
    struct str s;

    str_init(&s, buf, len);
    for (size_t i = 0; i < cp->nkernels; i++)
        str_appendf(&s, ", ", "%s (%s)", cp->kernels[i].name, base_name(cp->kernels[i].file));
}
