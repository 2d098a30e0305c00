/* ceilings.h: the device's ceilings, the two rates no kernel can beat: its FP32
   multiply-add rate and its global-memory bandwidth, measured with the tool's own small
   kernels and kept per device under the XDG cache directory; and the theoretical FP32
   peak, where the device reports enough to compute it. Engine code. */
#ifndef CLMM_CEILINGS_H
#define CLMM_CEILINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "error.h"
#include "ocl.h"

/* The largest cache file read (bytes); a line is at most about 700 bytes, and a rewrite
   keeps the newest CEILINGS_MAX_LINES lines. */
#define CEILINGS_FILE_MAX (64 << 10)
#define CEILINGS_MAX_LINES 64

struct ceilings {
    bool have;                  /* measured: now, or earlier and read from the cache */
    double gflops;              /* FP32 multiply-adds, 2 flops each, per second, in 10^9 */
    double gbps;                /* a copy's bytes read plus bytes written per second, in 10^9 */
    char measured_on[32];       /* when, in UTC: "2026-11-20T14:03:07Z" */
    bool from_cache;
    double took_s;              /* how long the measurement took (0 when read from the cache) */
    double theory_gflops;       /* the theoretical FP32 peak; 0 when it is not known */
    char theory[200];           /* how that is computed ("132 compute units x 128 lanes x 2
                                   flops x 1980 MHz"), or why it is not known */
    char note[512];             /* "" or why the figures just measured were not kept */
};

/* Measures the device of cl now: the best of a few widths of multiply-add chains, and a
   copy between two buffers too large for its caches. Each figure is the best of three
   launches (or batches of launches) of 20 ms or more, after a warm-up. Fills have,
   gflops, gbps, measured_on and took_s; leaves the other fields as they are. -1 with a
   message when a build, an allocation or a launch fails. */
int ceilings_measure(struct ocl *cl, struct ceilings *c, struct error *e);

/* The theoretical FP32 peak of d into c->theory_gflops and c->theory (the others left as
   they are): for NVIDIA devices that give their compute capability, compute units x FP32
   lanes per compute unit (CUDA's table) x 2 flops x the highest clock the device reports;
   for others 0, and the reason. */
void ceilings_theory(const struct device_info *d, struct ceilings *c);

/* Why there is no theoretical bandwidth. */
#define CEILINGS_NO_BANDWIDTH_THEORY "OpenCL does not report the memory's clock or width"

/* One sentence for people: "FP32 peak 60.2 TFLOPS measured (66.9 TFLOPS theoretical: 132
   compute units x 128 lanes x 2 flops x 1980 MHz); bandwidth 4012 GB/s measured (copy; no
   theoretical figure: OpenCL does not report the memory's clock or width)"; "not measured"
   in place of the figures when c->have is false. */
void ceilings_describe(const struct ceilings *c, char *buf, size_t len);

/* $XDG_CACHE_HOME/clmm-tutor/ceilings, or ~/.cache/clmm-tutor/ceilings; -1 when neither
   XDG_CACHE_HOME nor HOME is set. */
int ceilings_path(char *buf, size_t len);

/* The cache holds one line per device, keyed by its platform name, device name and driver
   version (a new driver is measured again), fields separated by tabs:
     platform  device  driver  GFLOPS  GB/s  measured_on
   ceilings_line writes d's line, without a newline (control characters in the names are
   written as "?"); ceilings_parse reads one: true when line is d's and well formed, its
   figures then in c (have, gflops, gbps, measured_on, from_cache set). */
void ceilings_line(const struct device_info *d, const struct ceilings *c, char *buf, size_t len);
bool ceilings_parse(const char *line, const struct device_info *d, struct ceilings *c);

/* Reads d's figures from the cache file at path: false when the file, or a well-formed
   line of d in it, is not there. Lines that do not parse are ignored; a file that is not a
   regular one, or is larger than CEILINGS_FILE_MAX, is not read. */
bool ceilings_load(const char *path, const struct device_info *d, struct ceilings *c);

/* Writes d's line into the cache file at path (file_replace), replacing d's older line and
   keeping the well-formed lines of other devices (the newest CEILINGS_MAX_LINES - 1); lines
   that do not parse are dropped. Two programs saving at once may lose one line: it is
   measured again later. A file larger than CEILINGS_FILE_MAX is replaced; one that is not
   a regular file is left as it is, with a message. */
int ceilings_save(const char *path, const struct device_info *d, const struct ceilings *c, struct error *e);

/* What is known of d without measuring: c cleared, its theory (ceilings_theory) and its
   figures from the cache when it has them. Returns c->have. */
bool ceilings_cached(const struct device_info *d, struct ceilings *c);

/* The figures of cl's device, theory included: from the cache, else measured and saved;
   with remeasure, measured and saved anyway. A cache that cannot be kept is not an error:
   c->note says why. -1 with a message when the measurement fails. */
int ceilings_get(struct ocl *cl, bool remeasure, struct ceilings *c, struct error *e);

#endif
