/* inside.h: a look inside a lesson's built kernel: what the platform reports about it, what
   NVIDIA's compiler says of it when asked (-cl-nv-verbose: registers, spills, shared
   memory), and, where the program binary is PTX text, the instructions of its hot loop
   counted by kind, per iteration and per step of k. No curses here. */
#ifndef CLMM_INSIDE_H
#define CLMM_INSIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "lesson.h"
#include "ocl.h"
#include "waves.h"

/* ptxas's figures for one kernel, read from a build log of -cl-nv-verbose. -1 where the log
   does not give a figure. */
struct nv_report {
    bool found;                 /* the log gives at least one figure of the kernel */
    char target[32];            /* the architecture compiled for ("sm_90a"); empty: not given */
    long long registers;        /* 32-bit registers per work-item */
    long long barriers;         /* named barriers the kernel uses */
    long long smem;             /* bytes of shared (OpenCL: local) memory per work-group */
    long long stack_frame;      /* bytes of stack per work-item (private arrays, spills) */
    long long spill_stores, spill_loads;        /* bytes per work-item */
};

/* Reads the ptxas lines of log for the kernel called entry (NULL: the first kernel the log
   names; a log that names none is taken to be about entry). The lines it reads:
     ptxas info    : Compiling entry function 'gemm' for 'sm_90a'
     ptxas info    : Function properties for gemm
     ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
     ptxas info    : Used 128 registers, used 1 barriers, 16384 bytes smem, 380 bytes cmem[0]
   The items after "Used" may come in any order, and items it does not know are skipped.
   Returns 0 when it found a figure (r->found), -1 when it found none. */
int inside_parse_nv_log(const char *log, const char *entry, struct nv_report *r);

/* The kinds of memory instructions counted, and their widths: a scalar, or a vector of 2
   or 4 (ld.shared.f32, ld.shared.v2.f32, ld.shared.v4.f32). */
enum ptx_space { PTX_SHARED, PTX_GLOBAL, PTX_LOCAL, PTX_SPACES };
enum ptx_width { PTX_SCALAR, PTX_V2, PTX_V4, PTX_WIDTHS };

/* The hot loop of a kernel in PTX. A loop is a label with a branch back to it from below
   (`$L__BB0_3:` ... `@%p5 bra $L__BB0_3;`), from the label to the last such branch; an
   innermost loop holds no other loop; the hot loop is the innermost loop with the most
   multiply-adds (the first of them on a tie). Its instructions are counted as they stand
   in the text, each once: both sides of a branch inside the loop are counted, whichever
   one runs. */
struct ptx_loop {
    bool found;                 /* the kernel has a loop */
    int loops;                  /* loops in the kernel */
    int innermost;              /* of them, loops that hold no other */
    char label[64];             /* the hot loop's label */
    int first_line, last_line;  /* its label and its last branch back, lines of the PTX from 1 */
    long long fma;              /* fma and mad on f32 (fma.rn.f32, mad.f32, ...) */
    long long ld[PTX_SPACES][PTX_WIDTHS];       /* ld.shared.v4.f32: ld[PTX_SHARED][PTX_V4];
                                                   ld.global.nc.* are global loads too */
    long long st[PTX_SPACES][PTX_WIDTHS];
    long long bar;              /* bar.sync and other barriers */
    long long total;            /* every instruction, the branches included */
};

/* Finds the hot loop of the kernel entry (NULL: the first .entry) in ptx, a NUL-terminated
   text, into *out. Returns 0 when the kernel is there (out->found says whether it has a
   loop), -1 when ptx has no such .entry. */
int inside_count_ptx(const char *ptx, const char *entry, struct ptx_loop *out);

/* Whether a program binary of size bytes is PTX text: ASCII that starts with // comments
   or a directive and has .version and .target lines. The NUL bytes a platform may put at
   its end are allowed; no other. */
bool inside_binary_is_ptx(const unsigned char *binary, size_t size);

#define INSIDE_LINE_BYTES 256
#define INSIDE_MAX_MISSING 8

/* What inside_examine found. A has_ flag is false where the platform would not say. */
struct inside {
    int lesson;
    char title[128];            /* the lesson's short title */
    char entry[128];            /* the kernel: the main launch's, the first */
    size_t launches;            /* the lesson's launches (lessons/FORMAT: then); only the first is
                                   looked inside */
    char params[256];           /* "TS=16", empty without parameters */
    char device[600];           /* device_describe's line */
    bool verbose;               /* built with -cl-nv-verbose (cl_nv_compiler_options) */
    bool emulated;              /* built with the lesson's emulation (needs.h): its PTX done in
                                   plain OpenCL C, so the figures are the emulation's */
    char emulated_note[300];    /* lesson_emulation_note's sentence; empty when not emulated */
    /* clGetKernelWorkGroupInfo */
    bool has_private_mem, has_local_mem, has_preferred_multiple, has_work_group_size;
    unsigned long long private_mem;     /* CL_KERNEL_PRIVATE_MEM_SIZE, bytes per work-item */
    unsigned long long local_mem;       /* CL_KERNEL_LOCAL_MEM_SIZE, bytes per work-group */
    size_t preferred_multiple;          /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    size_t work_group_size;             /* CL_KERNEL_WORK_GROUP_SIZE: the most work-items */
    struct nv_report nv;        /* nv.found false: no compiler figures */
    unsigned char *binary;      /* the program binary as the platform gave it; NULL: none */
    size_t binary_size;
    bool binary_is_ptx;
    struct ptx_loop loop;       /* loop.found false: no counts (or no loop) */
    long long outputs_per_item; /* as given; 0: not known */
    /* Steps of k in one iteration of the hot loop: its FMAs over the work-item's outputs,
       when they are a whole multiple of them (each step of k of a work-item does one FMA
       for each of its outputs); 0 when not derived. */
    long long k_per_iteration;
    /* What could not be found, and why, one sentence each ("registers: not reported by
       this platform (...)"). */
    char missing[INSIDE_MAX_MISSING][INSIDE_LINE_BYTES];
    int nmissing;
};

/* Builds lesson l with parameters ps as measure_build does (adding -cl-nv-verbose where
   the device offers it) and looks inside the kernel. outputs_per_item is the number of
   elements of C one work-item computes (diagram_compute's outputs_per_item; 0: not known),
   for the figures per k. Returns -1 with the reason in e when the kernel does not build
   (e's detail: the build log) or for a host lesson; what the platform does not tell is not
   an error but a line of in->missing. Free with inside_free. */
int inside_examine(struct ocl *cl, const struct lesson *l, const struct param_set *ps,
                   long long outputs_per_item, struct inside *in, struct error *e);
void inside_free(struct inside *in);

/* What the waves need of the built kernel (waves.h), from what the look inside found:
   registers from ptxas (-1 when not reported), the local and private memory the platform
   reported (0 when not). in NULL: nothing known. */
void inside_waves_kernel(const struct inside *in, struct waves_kernel *k);

/* The report as lines of at most width columns (INSIDE_MIN_WIDTH at least; below 40 the
   figures go under their names), at most max_lines of them; returns their count. */
#define INSIDE_MIN_WIDTH 32
size_t inside_describe(const struct inside *in, int width, char (*lines)[INSIDE_LINE_BYTES], size_t max_lines);

/* The name of a counted memory instruction: "ld.shared.v4" for (true, PTX_SHARED, PTX_V4). */
const char *inside_memory_name(bool load, enum ptx_space space, enum ptx_width width);

#endif
