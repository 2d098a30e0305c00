/* inside.c: a look inside a lesson's built kernel: the platform's figures, ptxas's verbose
   log and the hot loop of the PTX. */
#include "inside.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "measure.h"
#include "needs.h"
#include "str.h"
#include "text.h"
#include "xalloc.h"

/* ---- ptxas's verbose log ---- */

/* Copies the text between the n-th pair of single quotes of line (from 0) into buf. */
static bool quoted(const char *line, int n, char *buf, size_t len)
{
    const char *open = line, *close = NULL;

    for (int i = 0; i <= n; i++) {
        open = strchr(close ? close + 1 : line, '\'');
        close = open ? strchr(open + 1, '\'') : NULL;
        if (!close)
            return false;
    }
    snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
    return true;
}

/* The items of a figures line, separated by commas: a number and words ("16384 bytes smem";
   what comes before the number, such as "used" or "ptxas .", is skipped). Each item whose
   words start with a key's name sets it. */
struct log_key {
    const char *name;
    long long *value;
};

static void read_items(const char *text, const struct log_key *keys, size_t nkeys)
{
    while (*text) {
        size_t len = strcspn(text, ",");
        char item[256], *p, *end;
        long long v;
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), text);
        text += len + (text[len] == ',');
        p = item + strcspn(item, "0123456789");
        v = strtoll(p, &end, 10);
        if (end == p || v < 0)
            continue;
        end += strspn(end, " \t");
        for (size_t i = 0; i < nkeys; i++)
            if (strncmp(end, keys[i].name, strlen(keys[i].name)) == 0)
                *keys[i].value = v;
    }
}

/* The function name after prefix in line ("Function properties for gemm"), quotes taken off. */
static void name_after(const char *line, const char *prefix, char *buf, size_t len)
{
    const char *p = strstr(line, prefix) + strlen(prefix);
    size_t n;

    p += strspn(p, " \t'");
    n = strcspn(p, " \t'\r");
    snprintf(buf, len, "%.*s", (int)n, p);
}

/* No figures: each one unknown. */
static void nv_report_init(struct nv_report *r)
{
    memset(r, 0, sizeof *r);
    r->registers = r->barriers = r->smem = r->stack_frame = r->spill_stores = r->spill_loads = -1;
}

int inside_parse_nv_log(const char *log, const char *entry, struct nv_report *r)
{
    char want[128] = "", current[128] = "", props[128] = "";
    const struct log_key stack_keys[] = {
        { "bytes stack frame", &r->stack_frame },
        { "bytes spill stores", &r->spill_stores },
        { "bytes spill loads", &r->spill_loads },
    };
    const struct log_key used_keys[] = {
        { "registers", &r->registers },
        { "barriers", &r->barriers },
        { "bytes smem", &r->smem },
    };

    nv_report_init(r);
    if (entry)
        str_copy(want, sizeof want, entry);
    while (log && *log) {
        size_t len = strcspn(log, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), log);
        log += len + (log[len] == '\n');
        if (strstr(line, "ptxas") && strstr(line, "Compiling entry function")) {
            if (!quoted(line, 0, current, sizeof current))
                name_after(line, "Compiling entry function", current, sizeof current);
            if (!want[0])
                str_copy(want, sizeof want, current);
            if (strcmp(current, want) == 0 && !quoted(line, 1, r->target, sizeof r->target))
                r->target[0] = '\0';
        } else if (strstr(line, "ptxas") && strstr(line, "Function properties for")) {
            name_after(line, "Function properties for", props, sizeof props);
        } else if (strstr(line, "bytes stack frame")) {
            /* The function of the "Function properties" line above; without one, the
               kernel being compiled. */
            const char *of = props[0] ? props : current;
            if (!of[0] || !want[0] || strcmp(of, want) == 0)
                read_items(line, stack_keys, sizeof stack_keys / sizeof stack_keys[0]);
            props[0] = '\0';
        } else if (strstr(line, "ptxas") && strstr(line, "Used ") && strstr(line, "registers")) {
            if (!current[0] || strcmp(current, want) == 0)
                read_items(strstr(line, "Used ") + 5, used_keys, sizeof used_keys / sizeof used_keys[0]);
        }
    }
    r->found = r->registers >= 0 || r->barriers >= 0 || r->smem >= 0 || r->stack_frame >= 0 ||
               r->spill_stores >= 0 || r->spill_loads >= 0;
    return r->found ? 0 : -1;
}

/* ---- the PTX ---- */

/* A label or an instruction of a kernel's body, where it stands in the text. */
struct ptx_item {
    bool label;
    int line;                   /* from 1 */
    char name[64];              /* a label's name, an instruction's opcode ("ld.shared.v4.f32") */
    char target[64];            /* a branch's label */
};

struct ptx_items {
    struct ptx_item *items;
    size_t count, cap;
};

static struct ptx_item *add_item(struct ptx_items *list, bool label, int line)
{
    struct ptx_item *it;

    if (list->count == list->cap) {
        list->cap = list->cap ? 2 * list->cap : 256;
        list->items = xreallocarray(list->items, list->cap, sizeof *list->items);
    }
    it = &list->items[list->count++];
    memset(it, 0, sizeof *it);
    it->label = label;
    it->line = line;
    return it;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%';
}

/* Where the body of .entry NAME (NULL: the first) opens: just after its '{'; NULL when
   there is no such entry. */
static const char *find_entry(const char *ptx, const char *entry)
{
    for (const char *p = ptx; (p = strstr(p, ".entry")) != NULL; p += 6) {
        const char *name = p + 6, *end;
        if (!isspace((unsigned char)*name))
            continue;
        name += strspn(name, " \t\r\n");
        for (end = name; ident_char(*end); end++)
            ;
        if (entry && ((size_t)(end - name) != strlen(entry) || strncmp(name, entry, end - name) != 0))
            continue;
        p = strchr(end, '{');
        return p ? p + 1 : NULL;
    }
    return NULL;
}

static int line_of(const char *text, const char *at)
{
    int line = 1;

    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* The statements of the body that opens at body, to its closing brace: labels and
   instructions (directives and braces of blocks are skipped). */
static void read_body(const char *ptx, const char *body, struct ptx_items *list)
{
    int line = line_of(ptx, body), depth = 1;
    const char *p = body;

    while (*p && depth > 0) {
        const char *start, *end;
        if (*p == '\n' || isspace((unsigned char)*p)) {
            line += *p++ == '\n';
            continue;
        }
        if (*p == '{' || *p == '}') {
            depth += *p++ == '{' ? 1 : -1;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            p += strcspn(p, "\n");
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *close = strstr(p + 2, "*/");
            end = close ? close + 2 : p + strlen(p);
            for (; p < end; p++)
                line += *p == '\n';
            continue;
        }
        start = p;
        for (end = p; ident_char(*end); end++)
            ;
        if (end > p && end[0] == ':' && end[1] != ':') {
            struct ptx_item *it = add_item(list, true, line);
            snprintf(it->name, sizeof it->name, "%.*s", (int)(end - p), p);
            p = end + 1;
            continue;
        }
        /* A statement, to its semicolon: a directive or an instruction. */
        end = p + strcspn(p, ";");
        if (*start != '.') {
            struct ptx_item *it = add_item(list, false, line);
            const char *op = start, *last;
            size_t n;
            if (*op == '@')
                op += strcspn(op, " \t\r\n");
            op += strspn(op, " \t\r\n");
            n = strcspn(op, " \t\r\n;");
            snprintf(it->name, sizeof it->name, "%.*s", (int)(n < (size_t)(end - op) ? n : (size_t)(end - op)), op);
            for (last = end; last > op && isspace((unsigned char)last[-1]); last--)
                ;
            n = 0;
            while (last - n > op && ident_char(last[-(long)n - 1]))
                n++;
            snprintf(it->target, sizeof it->target, "%.*s", (int)n, last - n);
        }
        for (; p < end; p++)
            line += *p == '\n';
        if (*p == ';')
            p++;
    }
}

static bool is_branch(const struct ptx_item *it)
{
    return !it->label && (strcmp(it->name, "bra") == 0 || strncmp(it->name, "bra.", 4) == 0);
}

/* Adds one instruction to the counts. */
static void count_instruction(const char *op, struct ptx_loop *c)
{
    char buf[64], *parts[12];
    size_t n = 0;
    int space = -1, width = PTX_SCALAR;

    c->total++;
    str_copy(buf, sizeof buf, op);
    for (char *p = buf; n < sizeof parts / sizeof parts[0];) {
        parts[n++] = p;
        p = strchr(p, '.');
        if (!p)
            break;
        *p++ = '\0';
    }
    if ((strcmp(parts[0], "fma") == 0 || strcmp(parts[0], "mad") == 0) && strcmp(parts[n - 1], "f32") == 0)
        c->fma++;
    if (strcmp(parts[0], "bar") == 0 || strcmp(parts[0], "barrier") == 0)
        c->bar++;
    if (strcmp(parts[0], "ld") != 0 && strcmp(parts[0], "st") != 0)
        return;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(parts[i], "shared") == 0 || strncmp(parts[i], "shared::", 8) == 0)
            space = PTX_SHARED;
        else if (strcmp(parts[i], "global") == 0)
            space = PTX_GLOBAL;
        else if (strcmp(parts[i], "local") == 0)
            space = PTX_LOCAL;
        else if (strcmp(parts[i], "v2") == 0)
            width = PTX_V2;
        else if (strcmp(parts[i], "v4") == 0)
            width = PTX_V4;
        else if (parts[i][0] == 'v' && isdigit((unsigned char)parts[i][1]))
            return;             /* wider vectors: in the total only */
    }
    if (space < 0)
        return;
    if (parts[0][0] == 'l')
        c->ld[space][width]++;
    else
        c->st[space][width]++;
}

int inside_count_ptx(const char *ptx, const char *entry, struct ptx_loop *out)
{
    const char *body = find_entry(ptx, entry);
    struct ptx_items list = { 0 };
    size_t *ends;               /* for each label: the last branch back to it, or 0 */
    size_t hot_label = 0, hot_end = 0;
    bool have_hot = false;

    memset(out, 0, sizeof *out);
    if (!body)
        return -1;
    read_body(ptx, body, &list);
    ends = xcalloc(list.count + 1, sizeof *ends);
    for (size_t b = 0; b < list.count; b++) {
        if (!is_branch(&list.items[b]))
            continue;
        for (size_t a = 0; a <= b; a++)
            if (list.items[a].label && strcmp(list.items[a].name, list.items[b].target) == 0)
                ends[a] = b;
    }
    for (size_t a = 0; a < list.count; a++) {
        struct ptx_loop c;
        bool inner = true;
        if (!ends[a])
            continue;
        out->loops++;
        for (size_t x = a + 1; x <= ends[a] && inner; x++)
            inner = !ends[x] || ends[x] > ends[a];
        if (!inner)
            continue;
        out->innermost++;
        memset(&c, 0, sizeof c);
        for (size_t x = a; x <= ends[a]; x++)
            if (!list.items[x].label)
                count_instruction(list.items[x].name, &c);
        if (!have_hot || c.fma > out->fma) {
            int loops = out->loops, innermost = out->innermost;
            *out = c;
            out->loops = loops;
            out->innermost = innermost;
            hot_label = a;
            hot_end = ends[a];
            have_hot = true;
        }
    }
    if (have_hot) {
        out->found = true;
        str_copy(out->label, sizeof out->label, list.items[hot_label].name);
        out->first_line = list.items[hot_label].line;
        out->last_line = list.items[hot_end].line;
    }
    free(ends);
    free(list.items);
    return 0;
}

bool inside_binary_is_ptx(const unsigned char *binary, size_t size)
{
    size_t len = 0;
    const char *text = (const char *)binary;
    char *copy;
    bool ptx;

    while (len < size && binary[len] != '\0') {
        unsigned char c = binary[len++];
        if (c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
            return false;
    }
    for (size_t i = len; i < size; i++)
        if (binary[i] != '\0')
            return false;
    while (len > 0 && isspace((unsigned char)*text)) {
        text++;
        len--;
    }
    if (len < 2 || !(text[0] == '.' || (text[0] == '/' && text[1] == '/')))
        return false;
    copy = xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    ptx = strstr(copy, ".version") && strstr(copy, ".target");
    free(copy);
    return ptx;
}

const char *inside_memory_name(bool load, enum ptx_space space, enum ptx_width width)
{
    static const char *const names[2][PTX_SPACES][PTX_WIDTHS] = {
        { { "st.shared", "st.shared.v2", "st.shared.v4" },
          { "st.global", "st.global.v2", "st.global.v4" },
          { "st.local", "st.local.v2", "st.local.v4" } },
        { { "ld.shared", "ld.shared.v2", "ld.shared.v4" },
          { "ld.global", "ld.global.v2", "ld.global.v4" },
          { "ld.local", "ld.local.v2", "ld.local.v4" } },
    };

    return names[load][space][width];
}

/* ---- the kernel on a device ---- */

static void add_missing(struct inside *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_missing(struct inside *in, const char *fmt, ...)
{
    va_list ap;

    if (in->nmissing == INSIDE_MAX_MISSING)
        return;
    va_start(ap, fmt);
    vsnprintf(in->missing[in->nmissing++], INSIDE_LINE_BYTES, fmt, ap);
    va_end(ap);
}

/* One figure of clGetKernelWorkGroupInfo into value (size bytes); false, with a line of
   in->missing, when the platform refuses it. */
static bool kernel_figure(struct inside *in, cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info what,
                          const char *name, void *value, size_t size)
{
    cl_int rc = clGetKernelWorkGroupInfo(kernel, device, what, size, value, NULL);

    if (rc != CL_SUCCESS)
        add_missing(in, "%s: the platform did not give it (%s)", name, clerror_name(rc));
    return rc == CL_SUCCESS;
}

static void kernel_figures(struct inside *in, cl_kernel kernel, cl_device_id device)
{
    cl_ulong private_mem = 0, local_mem = 0;

    in->has_private_mem = kernel_figure(in, kernel, device, CL_KERNEL_PRIVATE_MEM_SIZE, "CL_KERNEL_PRIVATE_MEM_SIZE",
                                        &private_mem, sizeof private_mem);
    in->has_local_mem = kernel_figure(in, kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, "CL_KERNEL_LOCAL_MEM_SIZE",
                                      &local_mem, sizeof local_mem);
    in->has_preferred_multiple = kernel_figure(in, kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                               "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
                                               &in->preferred_multiple, sizeof in->preferred_multiple);
    in->has_work_group_size = kernel_figure(in, kernel, device, CL_KERNEL_WORK_GROUP_SIZE, "CL_KERNEL_WORK_GROUP_SIZE",
                                            &in->work_group_size, sizeof in->work_group_size);
    in->private_mem = private_mem;
    in->local_mem = local_mem;
}

/* The build log's ptxas figures. */
static void compiler_figures(struct inside *in, struct ocl *cl, cl_program program)
{
    char *log;

    if (!in->verbose) {
        add_missing(in, "registers, spills and stack: not reported by this platform (NVIDIA's OpenCL "
                        "reports them, with -cl-nv-verbose)");
        return;
    }
    log = ocl_build_log(cl, program);
    if (!log || inside_parse_nv_log(log, in->entry, &in->nv) < 0)
        add_missing(in, "registers, spills and stack: the build log of -cl-nv-verbose has no ptxas figures");
    free(log);
}

/* What a binary that is not text holds, in words. */
static const char *binary_kind(const unsigned char *binary, size_t size)
{
    if (size >= 4 && memcmp(binary, "\x7f" "ELF", 4) == 0)
        return "an ELF object";
    if (size >= 8 && memcmp(binary, "poclbin", 8) == 0)
        return "a compiled bundle (poclbin)";
    return "binary data";
}

/* The program binary, and the hot loop when it is PTX. */
static void binary_figures(struct inside *in, const struct device_info *d, cl_program program)
{
    size_t size = 0;
    unsigned char *binaries[1];
    char *text;

    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0) {
        add_missing(in, "instruction counts: the platform gives no program binary");
        return;
    }
    in->binary = binaries[0] = xmalloc(size);
    in->binary_size = size;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binaries, binaries, NULL) != CL_SUCCESS) {
        free(in->binary);
        in->binary = NULL;
        in->binary_size = 0;
        add_missing(in, "instruction counts: the platform gives no program binary");
        return;
    }
    in->binary_is_ptx = inside_binary_is_ptx(in->binary, size);
    if (!in->binary_is_ptx) {
        add_missing(in, "instruction counts: the program binary is not readable text (%s gives %s of %zu "
                        "bytes)", d->platform_name, binary_kind(in->binary, size), size);
        return;
    }
    text = xmalloc(size + 1);
    memcpy(text, in->binary, size);
    text[size] = '\0';
    if (inside_count_ptx(text, in->entry, &in->loop) < 0)
        add_missing(in, "instruction counts: the PTX has no kernel %s", in->entry);
    else if (!in->loop.found)
        add_missing(in, "instruction counts: the kernel has no loop");
    free(text);
}

/* Steps of k per iteration of the hot loop, from its FMAs and the outputs of a work-item. */
static void steps_of_k(struct inside *in)
{
    const struct ptx_loop *c = &in->loop;

    if (!c->found)
        return;
    if (in->outputs_per_item <= 0)
        add_missing(in, "per k: the lesson does not say how many outputs a work-item computes (its item line)");
    else if (c->fma == 0)
        add_missing(in, "per k: the hot loop has no FMA on f32");
    else if (c->fma % in->outputs_per_item != 0)
        add_missing(in, "per k: the hot loop's %lld FMAs are not a multiple of the %lld outputs of a work-item",
                    c->fma, in->outputs_per_item);
    else
        in->k_per_iteration = c->fma / in->outputs_per_item;
}

int inside_examine(struct ocl *cl, const struct lesson *l, const struct param_set *ps,
                   long long outputs_per_item, struct inside *in, struct error *e)
{
    struct lesson_kernels k;

    memset(in, 0, sizeof *in);
    in->lesson = l->number;
    str_copy(in->title, sizeof in->title, l->short_title);
    param_set_format(l, ps, in->params, sizeof in->params);
    device_describe(cl->device, in->device, sizeof in->device);
    in->outputs_per_item = outputs_per_item;
    nv_report_init(&in->nv);
    if (l->engine == ENGINE_HOST) {
        error_set(e, "lesson %d runs on the host: it has no kernel to look inside", l->number);
        return -1;
    }
    str_copy(in->entry, sizeof in->entry, l->launch[0].entry);
    in->launches = l->nlaunches;
    in->verbose = cl->device->nv_compiler_options;
    in->emulated = lesson_emulated(l, cl->device);
    if (in->emulated)
        lesson_emulation_note(cl->device, in->emulated_note, sizeof in->emulated_note);
    if (in->verbose) {
        /* NVIDIA's driver keeps compiled kernels in a cache keyed by their PTX, and one
           served from it comes with no ptxas lines: an empty kernel whose name differs each
           time changes the PTX, so that ptxas runs (its lines name each kernel). */
        char *text = lesson_kernel_source(l, e), *source;
        struct timespec now;
        int rc;
        if (!text)
            return -1;
        clock_gettime(CLOCK_REALTIME, &now);
        source = xmalloc(strlen(text) + 120);
        /* It takes an argument: with -cl-kernel-arg-info, the PTX NVIDIA's compiler made
           for a kernel of none did not parse in ptxas (H200, driver 580.159.04). */
        sprintf(source, "%s\n__kernel void clmm_tutor_inside_%lld_%09ld(__global int *unused) { }\n", text,
                (long long)now.tv_sec, now.tv_nsec);
        rc = measure_build_extra(cl, l, ps, source, "-cl-nv-verbose", &k, e);
        free(source);
        free(text);
        if (rc < 0)
            return -1;
    } else if (measure_build_extra(cl, l, ps, NULL, NULL, &k, e) < 0) {
        return -1;
    }
    kernel_figures(in, k.kernel[0], cl->device->id);
    compiler_figures(in, cl, k.program);
    binary_figures(in, cl->device, k.program);
    steps_of_k(in);
    measure_kernels_release(&k);
    return 0;
}

void inside_waves_kernel(const struct inside *in, struct waves_kernel *k)
{
    k->registers = in && in->nv.found && in->nv.registers >= 0 ? (int)in->nv.registers : -1;
    k->local_bytes = in && in->has_local_mem ? in->local_mem : 0;
    k->private_bytes = in && in->has_private_mem ? in->private_mem : 0;
}

void inside_free(struct inside *in)
{
    free(in->binary);
    in->binary = NULL;
    in->binary_size = 0;
}

/* ---- the report as lines ---- */

#define INSIDE_WIDE 40          /* narrower: figures under their names, a narrower table */

struct lines {
    char (*lines)[INSIDE_LINE_BYTES];
    size_t count, max;
    int width;
};

/* One line, cut to the width. */
static void add_line(struct lines *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_line(struct lines *out, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    if (out->count == out->max)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    buf[str_prefix(buf, (size_t)out->width)] = '\0';
    str_copy(out->lines[out->count++], INSIDE_LINE_BYTES, buf);
}

/* Text wrapped to the width after label, its other lines under the text's start. */
static void add_wrapped(struct lines *out, const char *label, const char *text)
{
    struct text_lines wrapped;
    int indent = (int)strlen(label);

    text_layout(text, out->width - indent, &wrapped);
    for (size_t i = 0; i < wrapped.count; i++)
        add_line(out, "%-*s%s", indent, i == 0 ? label : "", wrapped.items[i].text);
    text_lines_free(&wrapped);
}

/* "  name              text", the text wrapped under its start. */
static void add_figure(struct lines *out, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_figure(struct lines *out, const char *name, const char *fmt, ...)
{
    char label[64], text[INSIDE_LINE_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (out->width < INSIDE_WIDE) {     /* a narrow pane: the name, then the text under it */
        add_line(out, "  %s", name);
        add_wrapped(out, "    ", text);
        return;
    }
    snprintf(label, sizeof label, "  %-19s", name);
    add_wrapped(out, label, text);
}

/* A blank line and a heading. */
static void add_heading(struct lines *out, const char *heading)
{
    add_line(out, "%s", "");
    add_wrapped(out, "", heading);
}

/* count / k as a short number: "4", "0.5", "1.88". */
static void per_k(char *buf, size_t len, long long count, long long k)
{
    if (count % k == 0)
        snprintf(buf, len, "%lld", count / k);
    else
        snprintf(buf, len, "%.3g", (double)count / (double)k);
}

/* A row of the loop's table: the kind, per iteration, per k. */
static void count_row(struct lines *out, const struct inside *in, const char *name, long long count)
{
    char k[32] = "";

    if (in->k_per_iteration > 0)
        per_k(k, sizeof k, count, in->k_per_iteration);
    if (out->width < INSIDE_WIDE)
        add_line(out, "  %-16s %6lld %5s", name, count, k);
    else
        add_line(out, "  %-16s %13lld %7s", name, count, k);
}

/* The loop's loads per k from the memory most read: local memory, else global memory. */
static void loads_per_k(const struct inside *in, char *buf, size_t len)
{
    const struct ptx_loop *c = &in->loop;
    enum ptx_space space = PTX_SHARED;
    struct str s;

    str_init(&s, buf, len);
    if (c->ld[PTX_SHARED][PTX_SCALAR] + c->ld[PTX_SHARED][PTX_V2] + c->ld[PTX_SHARED][PTX_V4] == 0)
        space = PTX_GLOBAL;
    for (int w = 0; w < PTX_WIDTHS; w++) {
        char n[32];
        if (c->ld[space][w] == 0)
            continue;
        per_k(n, sizeof n, c->ld[space][w], in->k_per_iteration);
        str_appendf(&s, ", ", "%s %s", n, inside_memory_name(true, space, (enum ptx_width)w));
    }
}

static void describe_loop(struct lines *out, const struct inside *in)
{
    const struct ptx_loop *c = &in->loop;
    char fma[32], loads[256], text[512];

    snprintf(text, sizeof text, "The hot loop in the PTX (%s, lines %d-%d)", c->label, c->first_line, c->last_line);
    add_heading(out, text);
    if (c->loops == 1)
        snprintf(text, sizeof text, "The kernel's only loop.");
    else
        snprintf(text, sizeof text, "%d loops in the kernel, %d of them innermost (holding no other loop); "
                 "this one has the most multiply-adds.", c->loops, c->innermost);
    str_copy(text + strlen(text), sizeof text - strlen(text), " Each instruction is counted once, as written: "
             "both sides of a branch inside the loop count.");
    add_wrapped(out, "  ", text);
    if (out->width < INSIDE_WIDE)
        add_line(out, "  %-16s %6s %5s", "", "per it", in->k_per_iteration > 0 ? "per k" : "");
    else
        add_line(out, "  %-16s %13s %7s", "", "per iteration", in->k_per_iteration > 0 ? "per k" : "");
    count_row(out, in, "fma/mad.f32", c->fma);
    for (int load = 1; load >= 0; load--)
        for (int sp = 0; sp < PTX_SPACES; sp++)
            for (int w = 0; w < PTX_WIDTHS; w++) {
                long long n = load ? c->ld[sp][w] : c->st[sp][w];
                if (n > 0)
                    count_row(out, in, inside_memory_name(load, (enum ptx_space)sp, (enum ptx_width)w), n);
            }
    if (c->bar > 0)
        count_row(out, in, "bar.sync", c->bar);
    count_row(out, in, "all instructions", c->total);
    if (in->k_per_iteration <= 0)
        return;
    per_k(fma, sizeof fma, c->fma, in->k_per_iteration);
    loads_per_k(in, loads, sizeof loads);
    snprintf(text, sizeof text, "%lld FMA%s for the %lld output%s of a work-item: %lld step%s of k per "
             "iteration. Per k: %s FMA%s%s%s.", c->fma, c->fma == 1 ? "" : "s", in->outputs_per_item,
             in->outputs_per_item == 1 ? "" : "s", in->k_per_iteration, in->k_per_iteration == 1 ? "" : "s", fma,
             strcmp(fma, "1") == 0 ? "" : "s", loads[0] ? " and " : "", loads);
    add_wrapped(out, "  ", text);
}

size_t inside_describe(const struct inside *in, int width, char (*lines)[INSIDE_LINE_BYTES], size_t max_lines)
{
    struct lines out = { lines, 0, max_lines, width < INSIDE_MIN_WIDTH ? INSIDE_MIN_WIDTH : width };
    const struct nv_report *nv = &in->nv;
    char text[INSIDE_LINE_BYTES * 2];

    if (out.width > INSIDE_LINE_BYTES - 1)
        out.width = INSIDE_LINE_BYTES - 1;
    snprintf(text, sizeof text, "Lesson %d (%s), kernel %s", in->lesson, in->title, in->entry);
    if (in->launches > 1)
        snprintf(text + strlen(text), sizeof text - strlen(text), ", the first of its %zu launches (the main "
                 "one: the others are not examined here)", in->launches);
    add_wrapped(&out, "", text);
    if (in->params[0])
        add_wrapped(&out, "Parameters: ", in->params);
    add_wrapped(&out, "Device: ", in->device);
    if (in->emulated) {
        snprintf(text, sizeof text, "%s. The figures below are those of the emulation's plain OpenCL C, not of a "
                 "kernel on tensor cores.", in->emulated_note);
        add_wrapped(&out, "", text);
    }
    if (in->has_private_mem || in->has_local_mem || in->has_preferred_multiple || in->has_work_group_size)
        add_heading(&out, "What the platform reports (clGetKernelWorkGroupInfo)");
    if (in->has_private_mem)
        add_figure(&out, "private memory", "%llu bytes per work-item", in->private_mem);
    if (in->has_local_mem)
        add_figure(&out, "local memory", "%llu bytes per work-group", in->local_mem);
    if (in->has_work_group_size)
        add_figure(&out, "work-group size", "at most %zu work-items", in->work_group_size);
    if (in->has_preferred_multiple)
        add_figure(&out, "preferred multiple", "%zu work-items", in->preferred_multiple);
    if (nv->found) {
        snprintf(text, sizeof text, "What the compiler reports (ptxas%s%s, -cl-nv-verbose)",
                 nv->target[0] ? " for " : "", nv->target);
        add_heading(&out, text);
    }
    if (nv->registers >= 0)
        add_figure(&out, "registers", "%lld per work-item", nv->registers);
    if (nv->stack_frame >= 0)
        add_figure(&out, "stack frame", "%lld bytes per work-item", nv->stack_frame);
    if (nv->spill_stores >= 0 || nv->spill_loads >= 0)
        add_figure(&out, "spills", "%lld bytes stored, %lld bytes loaded", nv->spill_stores, nv->spill_loads);
    if (nv->smem >= 0)
        add_figure(&out, "shared memory", "%lld bytes per work-group", nv->smem);
    if (nv->barriers >= 0)
        add_figure(&out, "barriers", "%lld", nv->barriers);
    if (in->loop.found)
        describe_loop(&out, in);
    if (in->nmissing > 0)
        add_heading(&out, "Not known");
    for (int i = 0; i < in->nmissing; i++)
        add_wrapped(&out, "  - ", in->missing[i]);
    return out.count;
}
