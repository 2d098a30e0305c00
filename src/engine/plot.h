/* plot.h: the ladder's chart as a picture for a slide: one size gives a bar per lesson,
   several sizes GFLOPS against size with a line per lesson. The figures are those the
   table prints (the medians); a lesson refused, wrong or failed at a size is shown as
   such, never as a bar of no height. Written as standalone SVG (svg.h), in fonts and
   contrast that read when projected. Engine code: no curses. */
#ifndef CLMM_PLOT_H
#define CLMM_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"
#include "measure.h"

#define PLOT_MAX_SIZES 16
#define PLOT_REFERENCE (-1)     /* the number of the first reference library's series; the
                                   next ones count down (-2: the CPU's BLAS), as in the results */

/* One lesson (or library) at one size. */
struct plot_point {
    bool have;                  /* false: nothing at this size (nothing drawn) */
    enum run_status status;
    double gflops;              /* the median, when status is RUN_OK */
    char why[200];              /* otherwise what happened, as the table says it */
    bool stale;                 /* measured only with other parameters, why[] names them:
                                   no figure of the parameters in use */
};

struct plot_series {
    int number;                 /* the lesson's, or PLOT_REFERENCE */
    char title[128];            /* its short title (from a lesson file: any bytes) */
    char branch[LESSON_BRANCH_MAX * 4 + 1]; /* its side branch, "" on the main line */
    bool reference;             /* not a lesson's kernel: the host loop, a library */
    bool tf32;                  /* a TF32 lesson: its GFLOPS are TF32's, labelled so */
    bool emulated;              /* its PTX ran emulated (needs.h): labelled, speed not comparable */
    bool current;               /* the lesson on screen, drawn bold */
    struct plot_point at[PLOT_MAX_SIZES];
};

struct plot {
    char device[600];           /* device_describe's */
    char measured[64];          /* "2026-11-24 09:30 UTC" */
    char source[128];           /* what made it: "clmm-tutor --bench" */
    char method[256];           /* what a figure is */
    char emulated_note[160];    /* under a chart with an emulated series: lesson_emulation_note's
                                   sentence for the device (plot_init: a device without tensor
                                   cores) */
    bool log_scale;             /* bars on a log axis */
    struct gemm_size sizes[PLOT_MAX_SIZES];
    size_t nsizes;
    struct plot_series *series;
    size_t nseries, cap;
};

/* An empty chart of device (a description), made at when by source; method says what a
   figure is (NULL: the median of the timed launches). */
void plot_init(struct plot *p, const char *device, time_t when, const char *source, const char *method);
void plot_free(struct plot *p);

/* The index of size in the chart, added when new; -1 when PLOT_MAX_SIZES are there. */
int plot_size(struct plot *p, struct gemm_size size);

/* The series of lesson number (a reference library: PLOT_REFERENCE, then counting down), added
   with these facts when new. */
struct plot_series *plot_series(struct plot *p, int number, const char *title, const char *branch, bool reference,
                                bool tf32);

/* A row of the --bench table at the size of index size: its median when verified, else its
   status and message. */
void plot_add_result(struct plot *p, int size, const struct run_result *r);

/* The chart as SVG: bars with one size, lines with several. Returns 0, or -1 when out
   reports an error (errno set). */
int plot_write(FILE *out, const struct plot *p);

/* Writes the chart to path through a temporary file renamed over it (file_replace), so
   that path is never left half written; a symbolic link is written through, its target
   replaced (files_write_target). -1 with a message in e. */
int plot_save(const struct plot *p, const char *path, struct error *e);

#endif
