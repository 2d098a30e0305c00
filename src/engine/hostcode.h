/* hostcode.h: the host code of a lesson's launch written out as plain OpenCL C, so that a
   student sees what a launch takes and can copy it into a program of their own. No curses
   here. */
#ifndef CLMM_HOSTCODE_H
#define CLMM_HOSTCODE_H

#include "error.h"
#include "geometry.h"
#include "lesson.h"

/* The C text (malloc'd) that launches lesson l once at the size asked for with the
   parameters ps as the engine does: the buffers at their sizes after padding, the build
   with the engine's compiler options, one clSetKernelArg per argument of the lesson's args
   line and the NDRange, each value evaluated, the expression beside it in a comment. It
   holds the includes, a CHECK macro and one function,
       void run_lesson_N(cl_context context, cl_device_id device, cl_command_queue queue,
                         const char *source, const float *a, const float *b, float *c)
   (N the lesson's number), which builds source, uploads a and b, runs the kernel and reads
   c back, in the lesson's order (and b as B^T where the lesson takes it).
   Returns NULL with the reason in e when the engine would refuse the launch: the host
   lesson, a size the lesson cannot take, a failed require line, too large a matrix. */
char *hostcode_generate(const struct lesson *l, const struct param_set *ps, struct gemm_size asked,
                        struct error *e);

#endif
