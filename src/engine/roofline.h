/* roofline.h: where a lesson stands against the device's two ceilings, its FP32 peak and
   its global-memory bandwidth, under the no-cache model: every float a work-group reads
   (the lesson's loads line) comes from global memory, and C is written once. Figures and a
   text drawing (no curses here). */
#ifndef CLMM_ROOFLINE_H
#define CLMM_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "figures.h"
#include "precision.h"

/* Arithmetic intensity under the no-cache model, in flops per byte: the useful flops of
   the size asked for (2 M N K) over the bytes moved: 4 x loads x work-groups read, 4 x M x N
   of the size the kernel runs at written. 0 when the lesson has no loads line. */
double roofline_intensity(const struct figures *f);

/* What the model allows at intensity (flops per byte): the bandwidth slope
   (gbps x intensity) or the FP32 roof (peak), whichever is lower, in GFLOPS. */
double roofline_bound(double intensity, double peak_gflops, double gbps);

/* Where the slope meets the roof: peak / bandwidth, flops per byte. */
double roofline_ridge(double peak_gflops, double gbps);

/* A measured lesson against the model. */
struct roofline_verdict {
    double intensity;           /* flops per byte; 0: not known (no loads line) */
    double bound;               /* GFLOPS the model allows; 0: not known */
    bool memory_bound;          /* the intensity is below the ridge: the slope binds */
    double of_bound;            /* measured / bound (1.0: on the line); 0: not known */
    double of_peak;             /* measured / peak; 0: no peak */
    bool above;                 /* measured more than 5% above the bound: caches served part
                                   of the traffic the model counts */
    bool no_ceiling;            /* the lesson runs on units whose peak the tool does not measure
                                   (the tensor cores): nothing above is known but the intensity */
};

/* units: those that do the lesson's multiply-adds. The FP32 peak is no ceiling for the tensor
   cores (a TF32 kernel may run at three times it), so a lesson on them is not judged against
   it, nor against a roof made of it. */
void roofline_judge(double gflops, double intensity, enum units units, double peak_gflops, double gbps,
                    struct roofline_verdict *v);

/* "memory-bound: caches" style words for a verdict: "above the slope: caches served part
   of the traffic", "on the slope: memory-bound", "under the roof: compute-bound", ... */
const char *roofline_verdict_words(const struct roofline_verdict *v);

/* A point of the drawing. */
struct roofline_point {
    char label[8];              /* the lesson's number, "ref" */
    double intensity, gflops;   /* intensity 0: the point is not drawn (not known) */
    bool current;               /* the lesson on screen */
};

#define ROOFLINE_LINE_BYTES 1024
#define ROOFLINE_MAX_POINTS 64

/* Where a label landed in the drawing: to colour it. */
struct roofline_mark {
    int row, col, len;          /* columns */
    bool current;
};

/* Draws the roofline of a device of peak_gflops and gbps, log-log (flops per byte across,
   GFLOPS up: the slope, the roof and the ridge), each point's label at its place, the axes
   with their decades, into at most max_lines lines of at most width columns (UTF-8 braille
   for the lines when utf8, ASCII otherwise). The marks of the labels drawn go to marks
   (up to ROOFLINE_MAX_POINTS; *nmarks their count). Returns the lines written: none below
   24 x 6. */
size_t roofline_draw(double peak_gflops, double gbps, const struct roofline_point *points, size_t npoints,
                     int width, size_t max_lines, bool utf8, char (*lines)[ROOFLINE_LINE_BYTES],
                     struct roofline_mark *marks, size_t *nmarks);

#endif
