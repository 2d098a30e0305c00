/* lesson.h: a lesson as data, read from a lesson file (format: lessons/FORMAT). */
#ifndef CLMM_LESSON_H
#define CLMM_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "precision.h"
#include "sources.h"

#define LESSON_MAX_PARAMS 12
#define LESSON_MAX_ARGS 16
#define LESSON_MAX_DIMS 3
#define LESSON_MAX_LAUNCHES 4       /* the first launch and at most 3 further (then lines) */
#define LESSON_SHORT_TITLE_MAX 28   /* columns */
#define LESSON_BRANCH_MAX 28        /* columns of a side branch's name */
#define LESSON_FILE_MAX (1 << 20)   /* bytes of a lesson file */
#define LESSON_KERNEL_MAX (4 << 20) /* bytes of a kernel */

enum lesson_engine { ENGINE_OPENCL, ENGINE_HOST };

/* ARG_W: the scratch buffer (the scratch line), a __global float buffer. ARG_INTS: a small
   __global int buffer holding values computed from the sizes and parameters (ints(EXPR, ...)). */
enum arg_kind { ARG_M, ARG_N, ARG_K, ARG_A, ARG_B, ARG_C, ARG_W, ARG_INT, ARG_LOCAL, ARG_INTS };

/* The values of the ints(...) arguments of one launch, all of them together. */
#define LESSON_MAX_INTS 16

struct lesson_arg {
    enum arg_kind kind;
    char *expr;                 /* for ARG_INT and ARG_LOCAL (a count of floats) */
    char **values;              /* for ARG_INTS: the expression of each value, in order */
    size_t nvalues;
};

/* The argument as the args line writes it: "K", "int(K / TS)", "ints(K, M)". Malloc'd. */
char *lesson_arg_text(const struct lesson_arg *a);

/* One kernel launch: the first from the entry, args, global and local lines, each further one
   from a then line and the then-args, then-global, then-local and then-when lines after it. */
struct lesson_launch {
    char *entry;                /* the __kernel function */
    struct lesson_arg args[LESSON_MAX_ARGS];
    size_t nargs;
    char *global[LESSON_MAX_DIMS];
    size_t dims;
    char *local[LESSON_MAX_DIMS];
    size_t local_dims;          /* 0: the implementation chooses */
    char *when;                 /* the launch is skipped where it is 0; NULL: always run */
    int line;                   /* its entry or then line, for messages; 0: none */
    int args_line;              /* its args or then-args line */
};

struct lesson_param {
    char *name;
    long long def;
    long long *values;          /* the allowed values, in file order, each within an int */
    size_t nvalues;
    bool is_switch;             /* a switch: the tuner keeps it at its default */
    bool is_range;              /* "in LOW to HIGH": every integer from values[0] to values[1]
                                   (nvalues is 2); the tuner keeps it at its default */
    char *rule;                 /* rule: its value chosen from the shape (and CU, the device's
                                   compute units) where the tuner's is not applied; NULL: none */
    int rule_line;
};

/* The name rule expressions give the device's compute units. */
#define LESSON_RULE_CU "CU"

struct lesson_multiple {
    char dim;                   /* 'M', 'N' or 'K' */
    char *expr;
};

struct lesson_require {
    char *expr;
    char *message;
};

/* How the kernel divides the work, for the work-group diagram: expressions, NULL where the
   lesson file does not say (every key is optional; lessons/FORMAT). Pairs are rows, columns. */
struct lesson_layout {
    char *tile[2];              /* the block of C one work-group computes */
    char *item[2];              /* the block of C one work-item computes */
    char *item_run[2];          /* its outputs in runs of this many neighbours; NULL: one block */
    char *item_stride[2];       /* from the start of one of its runs to the next; NULL: the runs of
                                   the group's work-items take turns over the whole tile */
    int item_stride_line;       /* the item-stride line, for messages; 0: none */
    char *local_a[2];           /* A's tile in local memory, in rows and columns of A */
    char *local_b[2];           /* B's tile, in rows and columns of B */
    char *local_copies;         /* copies of those tiles; NULL: 1 */
    char *k_split;              /* work-groups sharing each tile, each over a part of K; NULL: 1 */
    char *k_split_tiles;        /* the tiles, the last ones, that k-split shares out; NULL: all */
    char *k_split_groups;       /* the work-groups those tiles take in all; NULL: k-split each */
    int k_split_line, k_split_tiles_line, k_split_groups_line;  /* their lines, for messages; 0: none */
    char *loads;                /* floats one work-group reads from global memory */
};

/* The device a lesson needs (its needs line): an NVIDIA GPU of at least this compute
   capability, for the reason given. Checked before its kernel is built: lesson_device_check. */
#define LESSON_NEEDS_WHY_MAX 200    /* bytes of the reason */
struct lesson_needs {
    bool nvidia;                /* false: any OpenCL device will do */
    unsigned major, minor;      /* the least compute capability */
    char *why;                  /* what the lesson needs it for */
};

struct lesson {
    int number;
    char *title;
    char *short_title;          /* for tables and charts; the title when not given */
    char *sources;
    char *branch;               /* the side branch's name; NULL: the main line */
    enum lesson_engine engine;
    enum precision precision;   /* what the result is checked against (verify_tolerance_for) */
    enum units units;           /* the units that do its multiply-adds */
    struct lesson_needs needs;
    char *emulation;            /* resolved path of the header that does the kernel's PTX in plain
                                   OpenCL C (lessons/FORMAT: emulation), put in front of the kernel
                                   on a device without what the needs line asks; NULL: none */
    char *file;                 /* the lesson file, as given */
    char *kernel_file;          /* resolved path of the kernel; for the host engine the C source
                                   shown (run built in), or NULL */
    char *options;              /* extra compiler options, may be NULL */
    /* The launches of one run, in order, all of kernels of kernel_file (one program). The first
       is the main launch: the work-group diagram, the waves, the ceilings and the figures
       describe it alone (lessons/FORMAT). */
    struct lesson_launch launch[LESSON_MAX_LAUNCHES];
    size_t nlaunches;           /* 0 for a host lesson */
    char *scratch;              /* floats of the scratch buffer (argument W); NULL: none */
    char *scratch_zero;         /* its first floats that start at 0, not NaN (counters a
                                   kernel keeps and sets back to 0); NULL: none */
    bool column_major;
    bool b_transposed;
    bool square;
    bool pad;
    struct lesson_param params[LESSON_MAX_PARAMS];
    size_t nparams;
    struct lesson_multiple *multiples;
    size_t nmultiples;
    struct lesson_require *requires;
    size_t nrequires;
    struct lesson_layout layout;
    char *text;                 /* the explanation */
};

struct lesson_set {
    struct lesson *items;       /* sorted by number */
    size_t count;
    char *dir;                  /* the directory it was loaded from */
    struct source_set sources;  /* the documents of the directory's SOURCES file, if any */
};

/* Parses one lesson file's text (a byte-order mark at its start is skipped). file names it
   in messages ("file:line: ..."); kernel_dirs is a NULL-terminated list of directories
   searched for the kernel file, which must lie inside one of them (symbolic links
   followed) and be a regular file of at most LESSON_KERNEL_MAX bytes. */
int lesson_parse(const char *file, const char *text, const char *const *kernel_dirs,
                 struct lesson *l, struct error *e);
void lesson_free(struct lesson *l);

/* A file format built on the lesson format (exercise.c) adds keys of its own. */
struct lesson_extra {
    /* Called first for every header line: returns 1 when it took the line, 0 to leave it to
       the lesson's keys, -1 with a message in e (the caller adds file and line). It sets
       l->number itself, from the key named number_key. */
    int (*key)(void *ctx, struct lesson *l, const char *key, const char *value, struct error *e);
    void *ctx;
    const char *number_key;     /* for "the header has no \"exercise:\" line" */
    bool sources_optional;      /* no sources line: empty sources */
};

int lesson_parse_extra(const char *file, const char *text, const char *const *kernel_dirs,
                       const struct lesson_extra *extra, struct lesson *l, struct error *e);

/* Loads every *.lesson file of dir, each a regular file of at most LESSON_FILE_MAX bytes;
   kernels are looked up in dir, then dir/../kernels, and must lie in one of them. The
   documents come from dir/SOURCES (sources_load: none when there is no such file). */
int lesson_set_load(const char *dir, struct lesson_set *set, struct error *e);
/* One lesson file, read as lesson_set_load reads those of its directory. */
int lesson_load_file(const char *path, struct lesson *l, struct error *e);
void lesson_set_free(struct lesson_set *set);
const struct lesson *lesson_set_find(const struct lesson_set *set, int number);

/* Where the kernels of the lesson set in dir are looked for after dir itself: dir/../kernels,
   in buf. Returns buf. */
const char *lesson_kernels_dir(const char *dir, char *buf, size_t len);

/* The kernel source, malloc'd, read as read_file does; NULL with a message in e. */
char *lesson_kernel_source(const struct lesson *l, struct error *e);

/* The emulation header's text (lessons/FORMAT: emulation), malloc'd; NULL with e set. */
char *lesson_emulation_source(const struct lesson *l, struct error *e);

/* The item-stride line (lessons/FORMAT) in one dimension, dim "rows" or "columns", with the
   values of the tile, item, item-run and item-stride lines there (run positive, a divisor of
   item): stride must be a positive multiple of run, and the item / run runs of a work-item,
   stride apart, must fit in the tile: (item / run - 1) * stride + run <= tile. Returns -1
   with "FILE:LINE: item-stride: ..." in e where not. */
int lesson_check_stride(const struct lesson *l, const char *dim, long long tile, long long item, long long run,
                        long long stride, struct error *e);

/* The work-groups that the layout lines make of tiles tiles: one each, and the last
   split_tiles of them k_split each (k-split, k-split-tiles), or split_groups in all where
   the lesson has a k-split-groups line (split_groups >= 0). Into *groups; -1 with
   "FILE:LINE: k-split...: ..." in e where they do not fit in 64 bits. */
int lesson_split_groups(const struct lesson *l, long long tiles, long long k_split, long long split_tiles,
                        long long split_groups, long long *groups, struct error *e);

/* " of launch 2 (then: NAME)" for a launch after the first, for messages; "" for the first,
   as in a lesson of one launch. Returns buf. */
const char *lesson_launch_which(const struct lesson *l, size_t i, char *buf, size_t len);

/* Index of the parameter called name, or -1. */
int lesson_param_index(const struct lesson *l, const char *name);
bool lesson_param_allows(const struct lesson_param *p, long long value);
/* The allowed values one by one: count, and the i-th in order (a range's from its low end). */
size_t lesson_param_count(const struct lesson_param *p);
long long lesson_param_value(const struct lesson_param *p, size_t i);
/* Whether the tuner searches the parameter: not a switch, not a range. */
bool lesson_param_searched(const struct lesson_param *p);
/* The allowed values as text: "8, 16, 32" or "1 to 4096". */
void lesson_param_describe(const struct lesson_param *p, char *buf, size_t len);

/* Reads a whole text file, malloc'd and NUL-terminated: a regular file of at most
   LESSON_KERNEL_MAX bytes holding no NUL byte (a FIFO or a device is refused, never
   waited on). NULL with a message in e. */
char *read_file(const char *path, struct error *e);

/* A lesson file or a kernel, whole: a regular file of at most limit bytes, with no NUL
   byte (the parser and the OpenCL compiler would stop there). */
char *lesson_read_text(const char *path, size_t limit, const char *what, struct error *e);

#endif
