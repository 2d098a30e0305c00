/* kernelargs.h: a launch's arguments as its lesson declares them (the args or then-args line)
   against the kernel's own signature, as the OpenCL implementation reads it from the source
   (clGetKernelArgInfo; the program is built with -cl-kernel-arg-info). Checked once the kernel
   is built, wherever it is built, so that a mismatch is refused before any launch with what
   the kernel takes and which word of the lesson format fits, rather than left to fail as
   clSetKernelArg's CL_INVALID_ARG_SIZE. No curses here. */
#ifndef CLMM_KERNELARGS_H
#define CLMM_KERNELARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "clerror.h"
#include "error.h"
#include "lesson.h"

/* One argument of a kernel's signature. */
struct kernel_arg_sig {
    cl_kernel_arg_address_qualifier address;    /* CL_KERNEL_ARG_ADDRESS_GLOBAL, ... */
    bool const_pointee;         /* a pointer to const (CL_KERNEL_ARG_TYPE_CONST) */
    char type[128];             /* CL_KERNEL_ARG_TYPE_NAME: "int", "float*", "float4*" */
    char name[128];             /* CL_KERNEL_ARG_NAME; "" where not given */
};

/* Whether the declared argument a can be passed as an argument of this signature: M, N, K and
   int(EXPR) as an int or uint by value; A, B, C and W as a __global or __constant pointer to
   float or a float vector; local(EXPR) as a __local pointer of any type (its bytes are EXPR
   floats'); ints(...) as a __global or __constant pointer to int or uint. A type the tool does not know (a typedef, a struct) is
   taken on its address space and pointer alone. */
bool kernelargs_fits(const struct lesson_arg *a, const struct kernel_arg_sig *sig);

/* The argument as its kernel declares it: "__global int *q", "const int M". Returns buf. */
const char *kernelargs_describe(const struct kernel_arg_sig *sig, char *buf, size_t len);

/* The message for argument index (from 0) of kernel entry, which does not fit a: "argument 4 of
   floatMatrixMult is `__global int *q`; the lesson declares K, an int: use ints(K)". */
void kernelargs_mismatch(const char *entry, size_t index, const struct lesson_arg *a,
                         const struct kernel_arg_sig *sig, struct error *e);

/* Launch i of lesson l against its built kernel: the number of arguments (CL_KERNEL_NUM_ARGS),
   then each one's address space and type where the implementation gives them (where it does
   not, CL_KERNEL_ARG_INFO_NOT_AVAILABLE or any other failure of clGetKernelArgInfo, no more is
   checked). Returns 0, or -1 with "FILE:LINE: ..." (the args line) in e. */
int kernelargs_check(const struct lesson *l, size_t i, cl_kernel kernel, struct error *e);

#endif
