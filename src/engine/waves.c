/* waves.c: how many work-groups a compute unit holds at once and the waves a launch runs in,
   from the lesson's figures (figures.c), the device's facts (device.c) and what the compiled
   kernel reports; pure arithmetic, and its drawing as lines of text. */
#include "waves.h"

#include <stdarg.h>
#include <string.h>

#include "str.h"

/* NVIDIA's figures per compute unit (an SM), by compute capability, from NVIDIA's CUDA C++
   Programming Guide, table "Technical Specifications per Compute Capability" (its CUDA 12
   editions; 6.x and 7.0 from the earlier editions that still list them): maximum number of
   resident threads per SM, of resident blocks per SM, and maximum amount of shared memory per
   SM (KB of 1024 bytes); 64 K 32-bit registers per SM and warps of 32 for all of them. A block
   is a work-group, a thread a work-item, shared memory local memory. A capability missing
   here is not guessed at: the device is counted as another GPU, with OpenCL's figures. */
struct nv_capability {
    unsigned major, minor;
    unsigned long long items;   /* resident work-items */
    unsigned long long groups;  /* resident work-groups */
    unsigned long long local_kib;   /* local memory, at the largest share of the SM's data cache */
};

static const struct nv_capability nv_capabilities[] = {
    { 6, 0, 2048, 32, 64 },  { 6, 1, 2048, 32, 96 },  { 6, 2, 2048, 32, 64 },
    { 7, 0, 2048, 32, 96 },  { 7, 5, 1024, 16, 64 },  { 8, 0, 2048, 32, 164 },
    { 8, 6, 1536, 16, 100 }, { 8, 7, 1536, 16, 164 }, { 8, 9, 1536, 24, 100 },
    { 9, 0, 2048, 32, 228 },
};

/* How NVIDIA allocates, as its occupancy calculator (cuda_occupancy.h in the CUDA toolkit,
   cudaOccMaxActiveBlocksPerMultiprocessor) counts it:
   - registers go to warps, regs x 32 rounded up to 256 per warp; the register file is split
     among 4 sub-partitions (2 on compute capability 6.0), each holding whole warps:
     warps = floor(65536 / 4 / per warp) x 4, work-groups = floor(warps / warps per group).
     A group whose warps, rounded up to a multiple of the sub-partitions, need more than the
     registers a work-group may use does not launch at all;
   - local memory is allocated in units of 256 bytes before compute capability 8.0, 128 from
     8.0 on, and from 8.0 on 1 KiB more per work-group is reserved for the system (the Guide:
     "the 1 KB of shared memory not made available to a thread block is reserved for system
     use"); the SM's local memory is nv_local_per_unit where the driver tells it, else the
     table's;
   - work-items count in whole warps. */
#define NV_REGISTERS_PER_UNIT 65536ULL
#define NV_REGISTER_UNIT 256ULL
#define NV_MAX_REGISTERS 255    /* per work-item, the Guide's figure */
#define NV_WARP 32ULL

/* How a resource of a compute unit is counted: per_unit in units of granule (work-items in
   warps); local memory rounded up to granule after reserved bytes are added. */
struct rule {
    unsigned long long per_unit, granule, reserved;
};

static unsigned long long cdiv(unsigned long long a, unsigned long long b)
{
    return a / b + (a % b != 0);
}

/* Work-groups of items work-items that fit in a compute unit's work-items. */
static unsigned long long items_groups(const struct rule *r, unsigned long long items)
{
    return r->per_unit / r->granule / cdiv(items, r->granule);
}

/* Bytes allocated to a work-group that uses bytes of local memory. */
static unsigned long long local_allocated(const struct rule *r, unsigned long long bytes)
{
    return cdiv(bytes + r->reserved, r->granule) * r->granule;
}

struct nv_rules {
    unsigned long long partitions;  /* register sub-partitions */
    unsigned long long group_registers; /* the most a work-group may use */
};

/* Registers allocated to a work-group of warps warps. */
static unsigned long long nv_group_registers(int registers, unsigned long long warps)
{
    return cdiv((unsigned long long)registers * NV_WARP, NV_REGISTER_UNIT) * NV_REGISTER_UNIT * warps;
}

static unsigned long long nv_register_groups(const struct nv_rules *nv, int registers, unsigned long long warps)
{
    unsigned long long per_warp = nv_group_registers(registers, 1);
    unsigned long long partition = NV_REGISTERS_PER_UNIT / nv->partitions;

    if (registers > NV_MAX_REGISTERS || per_warp * warps > nv->group_registers ||
        per_warp * cdiv(warps, nv->partitions) * nv->partitions > nv->group_registers)
        return 0;
    return partition / per_warp * nv->partitions / warps;
}

static const struct nv_capability *nv_capability(const struct device_info *dev)
{
    for (size_t i = 0; i < sizeof nv_capabilities / sizeof nv_capabilities[0]; i++)
        if (nv_capabilities[i].major == dev->nv_cc_major && nv_capabilities[i].minor == dev->nv_cc_minor)
            return &nv_capabilities[i];
    return NULL;
}

static void bound_set(struct waves_bound *b, enum waves_basis basis, unsigned long long per_unit,
                unsigned long long per_group, unsigned long long groups)
{
    *b = (struct waves_bound){ basis, per_unit, per_group, groups };
}

static void bound_items(struct waves *w, const struct rule *r, enum waves_basis basis, size_t max_group)
{
    unsigned long long per_group = cdiv(w->group_items, r->granule) * r->granule;
    bool fits = max_group == 0 || w->group_items <= max_group;

    bound_set(&w->limits[WAVES_ITEMS], basis, r->per_unit, per_group, fits ? items_groups(r, w->group_items) : 0);
}

/* Local memory over what one work-group may use does not launch; none used, with nothing
   reserved, does not bound the groups. */
static void bound_local(struct waves *w, const struct rule *r, enum waves_basis basis,
                        unsigned long long group_max)
{
    unsigned long long allocated = local_allocated(r, w->local_bytes);

    if (allocated == 0)
        bound_set(&w->limits[WAVES_LOCAL], WAVES_NONE, r->per_unit, 0, 0);
    else
        bound_set(&w->limits[WAVES_LOCAL], basis, r->per_unit, allocated,
                  group_max && w->local_bytes > group_max ? 0 : r->per_unit / allocated);
}

static void bound_nvidia(struct waves *w, const struct device_info *dev, const struct nv_capability *cap,
                         struct rule *items, struct rule *local, struct nv_rules *nv)
{
    bool ampere_on = cap->major >= 8;
    unsigned long long warps = cdiv(w->group_items, NV_WARP);

    *nv = (struct nv_rules){ cap->major == 6 && cap->minor == 0 ? 2 : 4,
                             dev->nv_registers ? dev->nv_registers : NV_REGISTERS_PER_UNIT };
    *items = (struct rule){ cap->items, NV_WARP, 0 };
    *local = (struct rule){ dev->nv_local_per_unit ? dev->nv_local_per_unit : cap->local_kib * 1024,
                            ampere_on ? 128 : 256, ampere_on ? 1024 : 0 };
    bound_items(w, items, WAVES_TABLE, dev->max_group);
    bound_set(&w->limits[WAVES_SLOTS], WAVES_TABLE, cap->groups, 1, cap->groups);
    bound_local(w, local, WAVES_TABLE, dev->local_mem);
    if (w->registers < 0)
        bound_set(&w->limits[WAVES_REGISTERS], WAVES_UNKNOWN, NV_REGISTERS_PER_UNIT, 0, 0);
    else if (w->registers == 0)
        bound_set(&w->limits[WAVES_REGISTERS], WAVES_NONE, NV_REGISTERS_PER_UNIT, 0, 0);
    else
        bound_set(&w->limits[WAVES_REGISTERS], WAVES_TABLE, NV_REGISTERS_PER_UNIT,
                  nv_group_registers(w->registers, warps), nv_register_groups(nv, w->registers, warps));
}

/* A GPU without NVIDIA's figures: OpenCL tells only what one work-group may use, which is
   taken as what a compute unit holds; an upper bound on both counts. */
static void bound_other(struct waves *w, const struct device_info *dev, struct rule *items, struct rule *local)
{
    *items = (struct rule){ dev->max_group, 1, 0 };
    *local = (struct rule){ dev->local_mem, 1, 0 };
    if (dev->max_group)
        bound_items(w, items, WAVES_ASSUMED, 0);
    else
        bound_set(&w->limits[WAVES_ITEMS], WAVES_UNKNOWN, 0, w->group_items, 0);
    bound_set(&w->limits[WAVES_SLOTS], WAVES_UNKNOWN, 0, 1, 0);
    if (dev->local_mem || w->local_bytes == 0)
        bound_local(w, local, WAVES_ASSUMED, 0);
    else
        bound_set(&w->limits[WAVES_LOCAL], WAVES_UNKNOWN, 0, w->local_bytes, 0);
    bound_set(&w->limits[WAVES_REGISTERS], WAVES_UNKNOWN, 0, 0, 0);
}

/* POCL runs each work-group on one thread, a compute unit being a core. */
static void bound_cpu(struct waves *w)
{
    bound_set(&w->limits[WAVES_ITEMS], WAVES_NONE, 0, w->group_items, 0);
    bound_set(&w->limits[WAVES_SLOTS], WAVES_ONE_PER_CORE, 1, 1, 1);
    bound_set(&w->limits[WAVES_LOCAL], WAVES_NONE, 0, w->local_bytes, 0);
    bound_set(&w->limits[WAVES_REGISTERS], WAVES_NONE, 0, 0, 0);
}

static bool has_figure(const struct waves_bound *b)
{
    return b->basis == WAVES_TABLE || b->basis == WAVES_ASSUMED || b->basis == WAVES_ONE_PER_CORE;
}

/* The smallest figure, the limits that give it, and whether an unseen limit could give less. */
static int settle_resident(struct waves *w, struct error *e)
{
    bool any = false;

    for (int i = 0; i < WAVES_LIMITS; i++) {
        const struct waves_bound *b = &w->limits[i];
        if (b->basis == WAVES_UNKNOWN || b->basis == WAVES_ASSUMED)
            w->upper_bound = true;
        if (has_figure(b) && (!any || b->groups < w->resident)) {
            w->resident = b->groups;
            any = true;
        }
    }
    if (!any) {
        error_set(e, "the device gives no figure to count the work-groups of a compute unit from");
        return -1;
    }
    for (int i = 0; i < WAVES_LIMITS; i++)
        if (has_figure(&w->limits[i]) && w->limits[i].groups == w->resident)
            w->binding |= 1u << i;
    return 0;
}

static void count_waves(struct waves *w)
{
    if (w->resident == 0)
        return;
    w->capacity = w->resident * w->compute_units;
    w->waves = (double)w->groups / (double)w->capacity;
    w->full_waves = w->groups / w->capacity;
    w->wave_count = cdiv(w->groups, w->capacity);
    w->last_groups = w->groups - (w->wave_count - 1) * w->capacity;
    w->last_percent = (unsigned)((100 * w->last_groups + w->capacity / 2) / w->capacity);
    w->last_busy_units = w->last_groups < w->compute_units ? w->last_groups : w->compute_units;
}

/* What each limit short of resident + 1 would need, the others as they are. */
static void find_next(struct waves *w, const struct rule *items, const struct rule *local,
                      const struct nv_rules *nv)
{
    unsigned long long target = w->resident + 1;

    w->next_possible = w->resident > 0;
    for (int i = 0; w->next_possible && i < WAVES_LIMITS; i++) {
        const struct waves_bound *b = &w->limits[i];
        unsigned long long most;
        if (!has_figure(b) || b->groups >= target)
            continue;
        switch ((enum waves_limit)i) {
        case WAVES_ITEMS:
            w->next_items = (size_t)(items->per_unit / items->granule / target * items->granule);
            w->next_possible = w->next_items > 0;
            break;
        case WAVES_LOCAL:
            most = local->per_unit / target / local->granule * local->granule;
            w->next_local = most > local->reserved ? most - local->reserved : 0;
            w->next_possible = w->next_local > 0;
            break;
        case WAVES_REGISTERS:
            for (int r = 1; r <= NV_MAX_REGISTERS; r++)
                if (nv_register_groups(nv, r, cdiv(w->group_items, NV_WARP)) >= target)
                    w->next_registers = r;
            w->next_possible = w->next_registers > 0;
            break;
        default:                /* the group slots: the most the hardware holds */
            w->next_possible = false;
            break;
        }
    }
    if (!w->next_possible) {
        w->next_items = 0;
        w->next_local = 0;
        w->next_registers = 0;
    }
}

int waves_compute(const struct figures *d, const struct device_info *dev, const struct waves_kernel *k,
                  struct waves *w, struct error *e)
{
    const struct nv_capability *cap = dev->nv_cc_major > 0 ? nv_capability(dev) : NULL;
    struct rule items = { 0, 1, 0 }, local = { 0, 1, 0 };
    struct nv_rules nv = { 0 };

    memset(w, 0, sizeof *w);
    if (!d->g.launch[0].has_local || d->g.launch[0].group_items == 0) {
        error_set(e, "the lesson gives no work-group size: the OpenCL implementation chooses one, so the "
                     "work-groups a compute unit holds cannot be counted");
        return -1;
    }
    if (d->g.launch[0].groups == 0) {
        error_set(e, "the launch has no work-groups");
        return -1;
    }
    if (dev->compute_units == 0) {
        error_set(e, "the device reports no compute units");
        return -1;
    }
    w->groups = d->g.launch[0].groups;
    w->group_items = d->g.launch[0].group_items;
    w->compute_units = dev->compute_units;
    w->cc_major = dev->nv_cc_major;
    w->cc_minor = dev->nv_cc_minor;
    w->capability_unknown = dev->nv_cc_major > 0 && cap == NULL;
    w->registers = k && k->registers >= 0 ? k->registers : -1;
    w->local_from_kernel = k && k->local_bytes > 0;
    w->local_bytes = w->local_from_kernel ? k->local_bytes : d->local_bytes;
    w->private_bytes = k ? k->private_bytes : 0;
    if (dev->type & CL_DEVICE_TYPE_CPU) {
        w->device = WAVES_CPU;
        bound_cpu(w);
    } else if (cap) {
        w->device = WAVES_NVIDIA;
        bound_nvidia(w, dev, cap, &items, &local, &nv);
    } else {
        w->device = WAVES_OTHER_GPU;
        bound_other(w, dev, &items, &local);
    }
    if (settle_resident(w, e) < 0)
        return -1;
    count_waves(w);
    find_next(w, &items, &local, &nv);
    return 0;
}

const char *waves_limit_name(enum waves_limit limit)
{
    static const char *const names[WAVES_LIMITS] = { "work-items", "group slots", "local memory", "registers" };

    return names[limit];
}

const char *waves_limit_key(enum waves_limit limit)
{
    static const char *const keys[WAVES_LIMITS] = { "work_items", "group_slots", "local_memory", "registers" };

    return keys[limit];
}

/* ---- drawing ---- */

#define MAX_COLUMNS 250         /* a character takes at most 4 bytes: a line fits WAVES_LINE_BYTES */
#define PHRASE_BYTES 256
#define MAX_BARS 4              /* more waves: the first, a mark, the last */
#define MIN_BAR 4

struct page {
    char (*lines)[WAVES_LINE_BYTES];
    size_t n, max;
    int width;
};

/* Adds the first of the phrasings (NULL-terminated) that fits the width, else the last cut to
   it, without blanks at its end. */
static void add(struct page *p, const char *const *phrasings)
{
    const char *s = phrasings[0];
    size_t len;

    if (p->n == p->max)
        return;
    for (size_t i = 0; phrasings[i]; i++) {
        s = phrasings[i];
        if (str_columns(s, strlen(s)) <= (size_t)p->width)
            break;
    }
    for (len = str_prefix(s, (size_t)p->width); len > 0 && s[len - 1] == ' '; len--)
        ;
    snprintf(p->lines[p->n++], WAVES_LINE_BYTES, "%.*s", (int)len, s);
}

static void addf(struct page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void addf(struct page *p, const char *fmt, ...)
{
    char line[PHRASE_BYTES];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    add(p, (const char *[]){ line, NULL });
}

static void draw_summary(struct page *p, const struct waves *w)
{
    char full[PHRASE_BYTES], brief[PHRASE_BYTES];
    const char *ss = w->groups == 1 ? "" : "s";

    if (w->resident == 0) {
        snprintf(full, sizeof full, "%llu work-group%s: none fits a compute unit", w->groups, ss);
        snprintf(brief, sizeof brief, "%llu group%s: none fits a unit", w->groups, ss);
    } else {
        snprintf(full, sizeof full, "%llu work-group%s, %s%llu per compute unit", w->groups, ss,
                 w->upper_bound ? "at most " : "", w->resident);
        snprintf(brief, sizeof brief, "%llu group%s, %s%llu per unit", w->groups, ss, w->upper_bound ? "<= " : "",
                 w->resident);
    }
    add(p, (const char *[]){ full, brief, NULL });
}

/* What binds: "registers bind: 127 per work-item", "work-items and registers bind". */
static void draw_binding(struct page *p, const struct waves *w)
{
    char names[PHRASE_BYTES / 2], full[PHRASE_BYTES];
    struct str s;
    int count = 0, only = 0;

    if (w->device == WAVES_CPU) {
        addf(p, "one work-group at a time per core");
        return;
    }
    str_init(&s, names, sizeof names);
    for (int i = 0; i < WAVES_LIMITS; i++)
        if (w->binding & (1u << i)) {
            str_appendf(&s, " and ", "%s", waves_limit_name((enum waves_limit)i));
            count++;
            only = i;
        }
    if (w->resident == 0) {
        addf(p, "%s: one work-group does not fit", names);
        return;
    }
    snprintf(full, sizeof full, "%s bind%s%s", names, count == 1 && only == WAVES_LOCAL ? "s" : "",
             w->limits[only].basis == WAVES_ASSUMED ? " (assumed)" : "");
    if (count == 1 && only == WAVES_REGISTERS)
        addf(p, "%s: %d per work-item", full, w->registers);
    else if (count == 1 && only == WAVES_LOCAL)
        addf(p, "%s: %llu bytes per group", full, w->local_bytes);
    else if (count == 1 && only == WAVES_ITEMS)
        addf(p, "%s: %zu per group", full, w->group_items);
    else
        add(p, (const char *[]){ full, NULL });
}

static void bar(char *out, size_t size, int cells, int filled, bool utf8)
{
    struct str s;

    str_init(&s, out, size);
    for (int i = 0; i < cells; i++)
        str_appendf(&s, "", "%s", i < filled ? (utf8 ? "\xe2\x96\x88" : "#") : (utf8 ? "\xe2\x96\x91" : "."));
}

/* One bar per wave shown: the label, a bar as full as the wave, its groups of the capacity. */
static void draw_bars(struct page *p, const struct waves *w, bool utf8)
{
    unsigned long long shown[MAX_BARS];
    int count = 0, label = 0, figures = 0, cells;
    char text[MAX_BARS][PHRASE_BYTES], cells_text[WAVES_LINE_BYTES];
    bool brief;

    if (w->wave_count <= MAX_BARS)
        for (unsigned long long i = 1; i <= w->wave_count; i++)
            shown[count++] = i;
    else {
        shown[count++] = 1;
        shown[count++] = 0;     /* the mark */
        shown[count++] = w->wave_count;
    }
    label = snprintf(NULL, 0, "wave %llu", w->wave_count);
    for (brief = false;; brief = true) {
        figures = 0;
        for (int i = 0; i < count; i++) {
            unsigned long long in = shown[i] == w->wave_count ? w->last_groups : w->capacity;
            unsigned percent = shown[i] == w->wave_count ? w->last_percent : 100;
            int n = brief ? snprintf(text[i], PHRASE_BYTES, "%u%%", percent)
                          : snprintf(text[i], PHRASE_BYTES, "%llu of %llu (%u%%)", in, w->capacity, percent);
            if (shown[i] && n > figures)
                figures = n;
        }
        cells = p->width - label - figures - 2;
        if (cells >= MIN_BAR || brief)
            break;
    }
    if (cells > MAX_COLUMNS)
        cells = MAX_COLUMNS;
    for (int i = 0; i < count; i++) {
        unsigned long long in = shown[i] == w->wave_count ? w->last_groups : w->capacity;
        int filled = (int)((in * (unsigned long long)(cells > 0 ? cells : 0) + w->capacity / 2) / w->capacity);
        if (shown[i] == 0) {
            addf(p, "     %s", utf8 ? "\xe2\x8b\xae" : ":");     /* under the wave's number */
            continue;
        }
        if (filled == 0 && in > 0)
            filled = 1;
        bar(cells_text, sizeof cells_text, cells, filled, utf8);
        if (cells >= MIN_BAR)
            addf(p, "wave %-*llu %s %*s", label - 5, shown[i], cells_text, figures, text[i]);
        else
            addf(p, "wave %-*llu %s", label - 5, shown[i], text[i]);
    }
}

static void draw_share(struct page *p, const struct waves *w)
{
    char full[PHRASE_BYTES], brief[PHRASE_BYTES];

    if (w->wave_count == 1 && w->last_groups < w->capacity) {
        snprintf(full, sizeof full, "%.2f of one wave: %llu of %llu compute units busy", w->waves,
                 w->last_busy_units, w->compute_units);
        snprintf(brief, sizeof brief, "%.2f of a wave: %llu of %llu units busy", w->waves, w->last_busy_units,
                 w->compute_units);
    } else if (w->full_waves == w->wave_count) {
        snprintf(full, sizeof full, "%.2f waves, all full", w->waves);
        brief[0] = '\0';
    } else {
        snprintf(full, sizeof full, "%.2f waves: %llu full, the last %llu of %llu (%u%%)", w->waves,
                 w->full_waves, w->last_groups, w->capacity, w->last_percent);
        snprintf(brief, sizeof brief, "%.2f waves: %llu full, last %u%%", w->waves, w->full_waves,
                 w->last_percent);
    }
    add(p, (const char *[]){ full, brief[0] ? brief : NULL, NULL });
}

/* "3 per compute unit would need <= 80 registers per work-item", on two lines where one is too
   narrow or more than one figure must change. */
static void draw_next(struct page *p, const struct waves *w)
{
    char need[3][PHRASE_BYTES], head[PHRASE_BYTES], one[2 * PHRASE_BYTES];
    int n = 0;

    if (w->resident == 0 || w->device == WAVES_CPU)
        return;
    if (!w->next_possible) {
        if (w->binding & (1u << WAVES_SLOTS))
            addf(p, "%llu per compute unit is the most it holds", w->resident);
        return;
    }
    if (w->next_registers)
        snprintf(need[n++], PHRASE_BYTES, "<= %d registers per work-item", w->next_registers);
    if (w->next_local)
        snprintf(need[n++], PHRASE_BYTES, "<= %llu bytes of local memory", w->next_local);
    if (w->next_items)
        snprintf(need[n++], PHRASE_BYTES, "<= %zu work-items per group", w->next_items);
    if (n == 0)
        return;
    snprintf(head, sizeof head, "%llu per compute unit would need", w->resident + 1);
    snprintf(one, sizeof one, "%s %s", head, need[0]);
    if (n == 1 && str_columns(one, strlen(one)) <= (size_t)p->width) {
        add(p, (const char *[]){ one, NULL });
        return;
    }
    add(p, (const char *[]){ head, NULL });
    for (int i = 0; i < n; i++)
        addf(p, "  %s", need[i]);
}

/* A limit's row: "> registers     2  65536 / 32768", the mark on those that bind. */
static void draw_limit(struct page *p, const struct waves *w, enum waves_limit limit)
{
    const struct waves_bound *b = &w->limits[limit];
    char groups[32], detail[PHRASE_BYTES];
    const char *unit = limit == WAVES_LOCAL ? " B" : "";

    detail[0] = '\0';
    switch (b->basis) {
    case WAVES_UNKNOWN:
        snprintf(groups, sizeof groups, "?");
        snprintf(detail, sizeof detail, "unknown");
        break;
    case WAVES_NONE:
        snprintf(groups, sizeof groups, "-");
        snprintf(detail, sizeof detail, "%s", w->device == WAVES_CPU ? "not a limit" : "none used");
        break;
    case WAVES_ONE_PER_CORE:
        snprintf(groups, sizeof groups, "%llu", b->groups);
        snprintf(detail, sizeof detail, "one per core");
        break;
    default:
        snprintf(groups, sizeof groups, "%llu", b->groups);
        if (limit != WAVES_SLOTS)
            snprintf(detail, sizeof detail, "%llu / %llu%s%s", b->per_unit, b->per_group, unit,
                     b->basis == WAVES_ASSUMED ? " assumed" : "");
        break;
    }
    addf(p, "%s %-12s %4s  %s", w->binding & (1u << limit) ? ">" : " ", waves_limit_name(limit), groups,
         detail);
}

size_t waves_draw(const struct waves *w, int width, size_t max_lines, bool utf8,
                  char (*lines)[WAVES_LINE_BYTES])
{
    struct page p = { lines, 0, max_lines, width < MAX_COLUMNS ? width : MAX_COLUMNS };

    if (p.width < 1)
        return 0;
    draw_summary(&p, w);
    draw_binding(&p, w);
    if (w->capability_unknown)
        addf(&p, "compute capability %u.%u: not in the table, OpenCL's figures only", w->cc_major, w->cc_minor);
    if (w->resident > 0) {
        draw_bars(&p, w, utf8);
        draw_share(&p, w);
    }
    draw_next(&p, w);
    add(&p, (const char *[]){ "work-groups per compute unit (> binds):", "per compute unit (> binds):", NULL });
    for (int i = 0; i < WAVES_LIMITS; i++)
        draw_limit(&p, w, (enum waves_limit)i);
    return p.n;
}

/* ---- JSON ---- */

/* sep, then "key":value, or null when the value is not known. */
static void json_count(FILE *out, const char *sep, const char *key, bool known, unsigned long long value)
{
    if (known)
        fprintf(out, "%s\"%s\":%llu", sep, key, value);
    else
        fprintf(out, "%s\"%s\":null", sep, key);
}

void waves_json(FILE *out, const struct waves *w)
{
    static const char *const bases[] = { "unknown", "none", "table", "assumed", "one_per_core" };
    static const char *const devices[] = { "nvidia", "cpu", "other_gpu" };
    bool fits = w->resident > 0;

    fprintf(out, "{\"device\":\"%s\",\"work_groups\":%llu,\"work_items_per_group\":%zu,\"compute_units\":%llu",
            devices[w->device], w->groups, w->group_items, w->compute_units);
    json_count(out, ",", "registers_per_item", w->registers >= 0, (unsigned long long)w->registers);
    fprintf(out, ",\"local_bytes\":%llu,\"local_from\":\"%s\"", w->local_bytes,
            w->local_from_kernel ? "kernel" : "lesson");
    json_count(out, ",", "private_bytes", w->private_bytes > 0, w->private_bytes);
    fprintf(out, ",\"limits\":{");
    for (int i = 0; i < WAVES_LIMITS; i++) {
        const struct waves_bound *b = &w->limits[i];
        fprintf(out, "%s\"%s\":{\"basis\":\"%s\"", i ? "," : "", waves_limit_key((enum waves_limit)i),
                bases[b->basis]);
        json_count(out, ",", "groups", has_figure(b), b->groups);
        json_count(out, ",", "per_unit", has_figure(b), b->per_unit);
        json_count(out, ",", "per_group", has_figure(b), b->per_group);
        fprintf(out, ",\"binds\":%s}", w->binding & (1u << i) ? "true" : "false");
    }
    fprintf(out, "},\"resident_per_unit\":%llu,\"upper_bound\":%s", w->resident,
            w->upper_bound ? "true" : "false");
    json_count(out, ",", "capacity", fits, w->capacity);
    if (fits)
        fprintf(out, ",\"waves\":%.4f", w->waves);
    else
        fprintf(out, ",\"waves\":null");
    json_count(out, ",", "full_waves", fits, w->full_waves);
    json_count(out, ",", "last_wave_groups", fits, w->last_groups);
    json_count(out, ",", "last_wave_percent", fits, w->last_percent);
    json_count(out, ",", "last_wave_busy_units", fits, w->last_busy_units);
    json_count(out, ",\"next\":{", "per_unit", w->next_possible, w->resident + 1);
    json_count(out, ",", "max_registers_per_item", w->next_registers > 0, (unsigned long long)w->next_registers);
    json_count(out, ",", "max_local_bytes", w->next_local > 0, w->next_local);
    json_count(out, ",", "max_items_per_group", w->next_items > 0, w->next_items);
    fprintf(out, "}}");
}
