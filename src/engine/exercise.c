/* exercise.c: reading exercise files and the exercise directory. An exercise file is a
   lesson file with keys of its own, read by lesson.c with the hook below. */
#include "exercise.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmap.h"
#include "files.h"
#include "gaps.h"
#include "sizes.h"
#include "str.h"
#include "xalloc.h"

struct reading {
    struct exercise *x;
    const char *const *kernel_dirs;
    char seen[12][16];          /* the exercise keys given once, met so far */
    size_t nseen;
    bool has_lesson, has_sizes, has_solution, has_repeat;
};

static int once(struct reading *rd, const char *key, struct error *e)
{
    for (size_t i = 0; i < rd->nseen; i++)
        if (strcmp(rd->seen[i], key) == 0) {
            error_set(e, "\"%s\" is given twice", key);
            return -1;
        }
    if (rd->nseen < sizeof rd->seen / sizeof rd->seen[0])
        snprintf(rd->seen[rd->nseen++], sizeof rd->seen[0], "%s", key);
    return 0;
}

/* The sizes of a key's value, blanks allowed around the commas; errors name the key. */
static int parse_sizes(const char *key, const char *value, struct gemm_size *out, size_t max, size_t *count,
                       struct error *e)
{
    struct gemm_size sizes[SIZES_MAX_COUNT];
    char compact[512];
    size_t n = 0, c = 0;

    for (const char *p = value; *p && n + 1 < sizeof compact; p++)
        if (*p != ' ' && *p != '\t')
            compact[n++] = *p;
    compact[n] = '\0';
    if (sizes_parse(compact, sizes, &c, e) < 0) {
        error_prefix(e, "%s", key);
        return -1;
    }
    if (c > max) {
        error_set(e, "%s: at most %zu sizes, found %zu", key, max, c);
        return -1;
    }
    memcpy(out, sizes, c * sizeof *sizes);
    *count = c;
    return 0;
}

static int parse_lesson_number(const char *text, int *out)
{
    long long n;

    if (str_to_ll(text, &n) < 0 || n < 0 || n > 99)
        return -1;
    *out = (int)n;
    return 0;
}

/* "lesson L at SIZE": the lesson compared with and the size. */
static int parse_versus(const char *key, const char *value, struct exercise *x, struct error *e)
{
    char lesson[32], at[8];
    int used = 0;
    size_t count;

    if (sscanf(value, "lesson %31s %7s %n", lesson, at, &used) != 2 || strcmp(at, "at") != 0 ||
        parse_lesson_number(lesson, &x->versus) < 0) {
        error_set(e, "%s: expected \"%slesson L at SIZE\" (L a lesson number, SIZE as N or MxNxK), "
                     "found \"%s\"", key, strcmp(key, "target") == 0 ? "R x " : "", value);
        return -1;
    }
    return parse_sizes(key, value + used, &x->speed_size, 1, &count, e);
}

static int parse_target(const char *value, struct exercise *x, struct error *e)
{
    char *end;
    double r = strtod(value, &end);

    while (*end == ' ')
        end++;
    if (end == value || !isfinite(r) || r < 0.1 || r > 100 || *end != 'x' || end[1] != ' ') {
        error_set(e, "target: expected \"R x lesson L at SIZE\" with R a number from 0.1 to 100 (for "
                     "example 1.2 x lesson 5 at 2048), found \"%s\"", value);
        return -1;
    }
    x->ratio = r;
    x->speed = SPEED_TARGET;
    for (end++; *end == ' '; end++)
        ;
    return parse_versus("target", end, x, e);
}

static char *find_file(struct reading *rd, const char *key, const char *name, struct error *e)
{
    char path[4096];

    if (strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0 || name[0] == '\0') {
        error_set(e, "%s: \"%s\" must be a file name in the exercise directory, without a /", key, name);
        return NULL;
    }
    for (size_t i = 0; rd->kernel_dirs[i]; i++) {
        struct error ignored;
        size_t len;
        char *text;

        error_init(&ignored);
        snprintf(path, sizeof path, "%s/%s", rd->kernel_dirs[i], name);
        text = files_read(path, LESSON_KERNEL_MAX, "a kernel", &len, &ignored);
        if (text) {
            /* A symbolic link may not lead out of the exercise directory: the solution is
               printed on request, and an exercise set comes from someone else. */
            char *real = realpath(path, NULL), where_buf[1024];
            struct str where;
            bool in;

            free(text);
            str_init(&where, where_buf, sizeof where_buf);
            in = real && files_in_dirs(real, rd->kernel_dirs, &where);
            if (!in)
                error_set(e, "%s: \"%s\" is %s, outside the exercise directory: put the file in %s", key, name,
                          real ? real : path, where.len ? where_buf : rd->kernel_dirs[0]);
            free(real);
            return in ? xstrdup(path) : NULL;
        }
        if (errno != ENOENT) {
            error_set(e, "%s: %s", key, ignored.msg);
            return NULL;
        }
    }
    error_set(e, "%s: no file \"%s\" in %s", key, name, rd->kernel_dirs[0]);
    return NULL;
}

/* "local-memory, barriers": the words of enum errmap_uses (local-memory, barriers, local-id,
   fragments), or "none". */
static int parse_uses(const char *value, struct exercise *x, struct error *e)
{
    static const struct { const char *word; unsigned bit; } words[] = {
        { "local-memory", USES_LOCAL_MEMORY }, { "barriers", USES_BARRIERS }, { "local-id", USES_LOCAL_ID },
        { "fragments", USES_FRAGMENTS },
    };
    char copy[256];
    char *save = NULL;

    x->uses = 0;
    x->uses_given = true;
    snprintf(copy, sizeof copy, "%s", value);
    if (strcmp(value, "none") == 0)
        return 0;
    for (char *w = strtok_r(copy, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
        size_t i;
        for (i = 0; i < sizeof words / sizeof words[0] && strcmp(w, words[i].word) != 0; i++)
            ;
        if (i == sizeof words / sizeof words[0]) {
            error_set(e, "uses: \"%s\" is not local-memory, barriers, local-id, fragments or none", w);
            return -1;
        }
        x->uses |= words[i].bit;
    }
    if (x->uses == 0) {
        error_set(e, "%s", "uses: empty (write none for a kernel that uses none of them)");
        return -1;
    }
    return 0;
}

/* ---- the exercise file's own keys, one function each (the table exercise_keys below);
   each returns 1 when it took the line, 0 to leave it to the lesson's keys, -1 on an error ---- */

static int xkey_exercise(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    int n;

    if (parse_lesson_number(value, &n) < 0 || n < 1) {
        error_set(e, "exercise number \"%s\" is not an integer from 1 to 99", value);
        return -1;
    }
    rd->x->number = l->number = n;
    return 1;
}

static int xkey_lesson(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    if (parse_lesson_number(value, &rd->x->lesson) < 0) {
        error_set(e, "lesson: \"%s\" is not a lesson number from 0 to 99 (the lesson the exercise "
                     "belongs to)", value);
        return -1;
    }
    rd->has_lesson = true;
    return 1;
}

static int xkey_sizes(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    if (parse_sizes("sizes", value, rd->x->sizes, EXERCISE_MAX_SIZES, &rd->x->nsizes, e) < 0)
        return -1;
    rd->has_sizes = true;
    return 1;
}

static int xkey_repeat(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    long long r;

    (void)l;
    if (str_to_ll(value, &r) < 0 || r < 1 || r > EXERCISE_MAX_REPEAT) {
        error_set(e, "repeat: \"%s\" is not a number of launches from 1 to 20", value);
        return -1;
    }
    rd->x->repeat = (int)r;
    return 1;
}

static int xkey_solution(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    rd->has_solution = true;
    if (strcmp(value, "lesson") == 0)
        return 1;
    return (rd->x->solution_file = find_file(rd, "solution", value, e)) ? 1 : -1;
}

static int xkey_hint(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    struct exercise *x = rd->x;

    (void)l;
    if (x->nhints == EXERCISE_MAX_HINTS) {
        error_set(e, "at most %d hints", EXERCISE_MAX_HINTS);
        return -1;
    }
    if (value[0] == '\0') {
        error_set(e, "%s", "hint: empty");
        return -1;
    }
    x->hints[x->nhints++] = xstrdup(value);
    return 1;
}

static int xkey_uses(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    return parse_uses(value, rd->x, e) < 0 ? -1 : 1;
}

static int xkey_race_check(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    size_t count;

    (void)l;
    rd->x->race_check = strcmp(value, "no") != 0;
    if (strcmp(value, "yes") == 0 || strcmp(value, "no") == 0)
        return 1;
    if (parse_sizes("race-check", value, &rd->x->race_size, 1, &count, e) < 0) {
        error_set(e, "race-check: \"%s\" is not yes, no or a size (MxNxK)", value);
        return -1;
    }
    return 1;
}

static int xkey_between_groups(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0) {
        error_set(e, "between-groups: \"%s\" is not yes or no", value);
        return -1;
    }
    rd->x->between_groups = strcmp(value, "yes") == 0;
    return 1;
}

/* engine: the lesson's key, but an exercise is a kernel: "host" is refused. */
static int xkey_engine(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)rd, (void)l;
    if (strcmp(value, "host") != 0)
        return 0;
    error_set(e, "%s", "an exercise is an OpenCL kernel: \"engine: host\" is not allowed");
    return -1;
}

/* At most one speed goal: a target, or a predict step. */
static int one_goal(const struct exercise *x, struct error *e)
{
    if (x->speed == SPEED_NONE)
        return 0;
    error_set(e, "%s", "an exercise has at most one target or predict line");
    return -1;
}

static int xkey_target(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    return one_goal(rd->x, e) < 0 || parse_target(value, rd->x, e) < 0 ? -1 : 1;
}

static int xkey_predict(struct reading *rd, struct lesson *l, const char *value, struct error *e)
{
    (void)l;
    if (one_goal(rd->x, e) < 0)
        return -1;
    rd->x->speed = SPEED_PREDICT;
    return parse_versus("predict", value, rd->x, e) < 0 ? -1 : 1;
}

/* The keys an exercise file adds to a lesson's (exercises/FORMAT): its name, whether it is
   given at most once (checked here; the lesson's keys check their own), and its function.
   A new key is a function and a line here. */
static const struct exercise_key {
    const char *name;
    bool once;
    int (*parse)(struct reading *rd, struct lesson *l, const char *value, struct error *e);
} exercise_keys[] = {
    {"exercise", true, xkey_exercise},
    {"lesson", true, xkey_lesson},
    {"sizes", true, xkey_sizes},
    {"repeat", true, xkey_repeat},
    {"solution", true, xkey_solution},
    {"hint", false, xkey_hint},
    {"uses", true, xkey_uses},
    {"race-check", true, xkey_race_check},
    {"between-groups", true, xkey_between_groups},
    {"engine", false, xkey_engine},
    {"target", false, xkey_target},
    {"predict", false, xkey_predict},
};

/* A header line of an exercise file (struct lesson_extra): 1 when it is the exercise's,
   0 for the lesson's keys, -1 on an error. */
static int exercise_key(void *ctx, struct lesson *l, const char *key, const char *value, struct error *e)
{
    struct reading *rd = ctx;

    for (size_t i = 0; i < sizeof exercise_keys / sizeof exercise_keys[0]; i++)
        if (strcmp(key, exercise_keys[i].name) == 0) {
            if (exercise_keys[i].once && once(rd, key, e) < 0)
                return -1;
            return exercise_keys[i].parse(rd, l, value, e);
        }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The line of the header where key is first given, or of the "---" that ends the header when
   key is NULL or not there: where a problem found once the whole file is read is reported, as
   lesson.c reports its own. */
static int header_line(const char *text, const char *key)
{
    size_t klen = key ? strlen(key) : 0;
    int line = 1;

    for (const char *p = text; *p; line++) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        size_t skip = 0;

        while (skip < n && isspace((unsigned char)p[skip]))
            skip++;
        while (n > skip && isspace((unsigned char)p[n - 1]))
            n--;
        if (n - skip == 3 && memcmp(p + skip, "---", 3) == 0)
            return line;
        if (key && n - skip > klen && memcmp(p + skip, key, klen) == 0) {
            size_t colon = skip + klen;
            while (colon < n && (p[colon] == ' ' || p[colon] == '\t'))
                colon++;
            if (colon < n && p[colon] == ':')
                return line;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return line;
}

int exercise_parse(const char *file, const char *text, const char *const *kernel_dirs,
                   struct exercise *x, struct error *e)
{
    struct reading rd = { .x = x, .kernel_dirs = kernel_dirs };
    struct lesson_extra extra = { exercise_key, &rd, "exercise", true };
    const char *missing = NULL;

    memset(x, 0, sizeof *x);
    x->number = -1;
    x->repeat = EXERCISE_DEFAULT_REPEAT;
    if (lesson_parse_extra(file, text, kernel_dirs, &extra, &x->l, e) < 0) {
        exercise_free(x);
        return -1;
    }
    if (!rd.has_lesson)
        missing = "lesson";
    else if (!rd.has_sizes)
        missing = "sizes";
    else if (!rd.has_solution)
        missing = "solution";
    if (missing) {
        error_set(e, "%s:%d: the header has no \"%s:\" line", file, header_line(text, NULL), missing);
        exercise_free(x);
        return -1;
    }
    x->start_file = xstrdup(x->l.kernel_file);
    x->start_name = xstrdup(base_name(x->l.kernel_file));
    if (str_has_suffix(x->start_name, ".gap"))
        strcpy(x->start_name + strlen(x->start_name) - 4, ".cl");
    return 0;
}

void exercise_free(struct exercise *x)
{
    free(x->start_file);
    free(x->start_name);
    free(x->start_text);
    free(x->solution_file);
    for (size_t i = 0; i < x->nhints; i++)
        free(x->hints[i]);
    if (x->l.file)
        lesson_free(&x->l);
    memset(x, 0, sizeof *x);
}

static int by_number(const void *a, const void *b)
{
    return ((const struct exercise *)a)->number - ((const struct exercise *)b)->number;
}

/* The lessons an exercise names exist in the set. */
static int check_lessons(const struct exercise *x, const char *path, const char *text,
                         const struct lesson_set *lessons, struct error *e)
{
    if (!lesson_set_find(lessons, x->lesson)) {
        error_set(e, "%s:%d: exercise %d belongs to lesson %d, which the lesson set does not have", path,
                  header_line(text, "lesson"), x->number, x->lesson);
        return -1;
    }
    if (x->speed != SPEED_NONE && !lesson_set_find(lessons, x->versus)) {
        error_set(e, "%s:%d: exercise %d compares with lesson %d, which the lesson set does not have", path,
                  header_line(text, x->speed == SPEED_TARGET ? "target" : "predict"), x->number, x->versus);
        return -1;
    }
    if (!x->solution_file && lesson_set_find(lessons, x->lesson)->engine != ENGINE_OPENCL) {
        error_set(e, "%s:%d: \"solution: lesson\" names lesson %d, which has no kernel", path,
                  header_line(text, "solution"), x->lesson);
        return -1;
    }
    return 0;
}

/* The exercise is new to the set: its number, and its workspace file. */
static int check_unique(const struct exercise *x, const char *path, const char *text,
                        const struct exercise_set *set, struct error *e)
{
    const struct exercise *other = exercise_set_find(set, x->number);

    if (other) {
        error_set(e, "%s:%d: exercise %d is also defined in %s", path, header_line(text, "exercise"), x->number,
                  other->l.file);
        return -1;
    }
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->items[i].start_name, x->start_name) == 0) {
            error_set(e, "%s:%d: exercise %d starts from %s, as exercise %d does: each needs its own "
                         "file in the workspace", path, header_line(text, "kernel"), x->number, x->start_name,
                      set->items[i].number);
            return -1;
        }
    return 0;
}

char *exercise_start_text(const struct exercise *x, size_t *len, struct error *e)
{
    if (!x->start_text)
        return files_read(x->start_file, LESSON_KERNEL_MAX, "a starting kernel", len, e);
    *len = strlen(x->start_text);
    return xstrdup(x->start_text);
}

/* A start written as a gap file is made now from the lesson's kernel and kept: so that a
   lesson whose kernel changed under its exercise is refused here, not met by a student. */
static int make_start(struct exercise *x, const char *path, const char *text, const struct lesson_set *lessons,
                      struct error *e)
{
    const struct lesson *owner;
    char *gaps, *base = NULL;
    size_t n;
    int rc = -1;

    if (!str_has_suffix(x->start_file, ".gap"))
        return 0;
    owner = lesson_set_find(lessons, x->lesson);
    if (!owner || !owner->kernel_file) {
        error_set(e, "%s:%d: a gap file edits the kernel of lesson %d, which has none", path,
                  header_line(text, "kernel"), x->lesson);
        return -1;
    }
    gaps = files_read(x->start_file, GAPS_FILE_MAX, "a gap file", &n, e);
    if (gaps && (base = files_read(owner->kernel_file, LESSON_KERNEL_MAX, "the lesson's kernel", &n, e)))
        rc = gaps_apply(base, owner->kernel_file, gaps, x->start_file, &x->start_text, &n, e);
    free(gaps);
    free(base);
    return rc;
}

static int load_one(const char *path, const char *const *dirs, const struct lesson_set *lessons,
                    struct exercise_set *set, struct error *e)
{
    struct exercise x;
    size_t len;
    char *text = files_read(path, LESSON_FILE_MAX, "an exercise file", &len, e);

    if (!text)
        return -1;
    if (strlen(text) != len) {
        error_set(e, "%s: holds a NUL byte: an exercise file is text", path);
        free(text);
        return -1;
    }
    if (exercise_parse(path, text, dirs, &x, e) < 0) {
        free(text);
        return -1;
    }
    if (check_lessons(&x, path, text, lessons, e) < 0 || check_unique(&x, path, text, set, e) < 0 ||
        make_start(&x, path, text, lessons, e) < 0) {
        free(text);
        exercise_free(&x);
        return -1;
    }
    free(text);
    set->items = xrealloc(set->items, (set->count + 1) * sizeof *set->items);
    set->items[set->count++] = x;
    return 0;
}

int exercise_set_load(const char *dir, const struct lesson_set *lessons, struct exercise_set *set,
                      struct error *e)
{
    /* The exercises' files are in dir; an emulation header (lessons/FORMAT) may be the lesson
       set's, in its directory or beside it in kernels/. */
    char kernels[4096];
    const char *dirs[] = { dir, lessons->dir, lesson_kernels_dir(lessons->dir, kernels, sizeof kernels), NULL };
    char path[4096];
    struct dirent *d;
    DIR *dh = opendir(dir);

    memset(set, 0, sizeof *set);
    if (!dh) {
        error_set(e, "cannot open the exercise directory %s: %s", dir, strerror(errno));
        return -1;
    }
    set->dir = xstrdup(dir);
    while ((d = readdir(dh)) != NULL) {
        if (!str_has_suffix(d->d_name, ".exercise"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
        if (load_one(path, dirs, lessons, set, e) < 0) {
            closedir(dh);
            exercise_set_free(set);
            return -1;
        }
    }
    closedir(dh);
    if (set->count == 0) {
        error_set(e, "no *.exercise files in %s", dir);
        exercise_set_free(set);
        return -1;
    }
    qsort(set->items, set->count, sizeof *set->items, by_number);
    return 0;
}

void exercise_set_free(struct exercise_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        exercise_free(&set->items[i]);
    free(set->items);
    free(set->dir);
    memset(set, 0, sizeof *set);
}

const struct exercise *exercise_set_find(const struct exercise_set *set, int number)
{
    int i = exercise_set_index(set, number);
    return i < 0 ? NULL : &set->items[i];
}

int exercise_set_index(const struct exercise_set *set, int number)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->items[i].number == number)
            return (int)i;
    return -1;
}

void exercise_solution_lesson(const struct exercise *x, const struct lesson_set *lessons, struct lesson *out)
{
    const struct lesson *owner = lesson_set_find(lessons, x->lesson);

    *out = x->l;
    out->kernel_file = x->solution_file ? x->solution_file : owner ? owner->kernel_file : x->start_file;
}

void exercise_goal_describe(const struct exercise *x, char *buf, size_t len)
{
    char size[96];

    buf[0] = '\0';
    if (x->speed == SPEED_NONE)
        return;
    snprintf(size, sizeof size, "%lldx%lldx%lld", x->speed_size.m, x->speed_size.n, x->speed_size.k);
    if (x->speed == SPEED_TARGET)
        snprintf(buf, len, "at least %.2fx lesson %d at %s", x->ratio, x->versus, size);
    else
        snprintf(buf, len, "predict the speed-up over lesson %d at %s, then measure it", x->versus, size);
}
