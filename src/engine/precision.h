/* precision.h: the accuracy a lesson's result is checked against and the units that do its
   multiply-adds (lessons/FORMAT: precision, units), with the words every output labels them
   by, so that a TF32 result is never read as an FP32 one. */
#ifndef CLMM_PRECISION_H
#define CLMM_PRECISION_H

#include <stdbool.h>

/* FP32: inputs and sums in float. TF32: inputs rounded (or truncated) to 10 bits of
   mantissa, as NVIDIA's tensor cores take them, the sums in float. */
enum precision { PRECISION_FP32, PRECISION_TF32 };

/* FP32: the FP32 units, whose peak the tool measures (ceilings.h). TENSOR: the tensor cores,
   whose peak it does not: the FP32 peak is no ceiling for them. */
enum units { UNITS_FP32, UNITS_TENSOR };

/* As the lesson file, the CSV and the JSON spell them: "fp32", "tf32". */
const char *precision_name(enum precision p);
/* The mark a result of precision p carries wherever its speed is shown, so that a TF32 one
   is never read as FP32's: "TF32"; "" for FP32. */
const char *precision_mark(enum precision p);
/* As the lesson file, the CSV and the JSON spell them: "fp32", "tensor". */
const char *units_name(enum units u);

/* What a lesson's speed is labelled with where its precision or units are not the usual FP32:
   "TF32" (on whatever units), "FP32 on tensor cores" (3xTF32); "" for FP32 on FP32 units. */
const char *precision_tag(enum precision p, enum units u);

/* The name's value into *out; false for any other name. */
bool precision_parse(const char *name, enum precision *out);
bool units_parse(const char *name, enum units *out);

/* Where the lesson's share of the FP32 peak would be shown, for a lesson on the tensor cores. */
#define UNITS_TENSOR_NOTE "tensor cores: no FP32 ceiling"

#endif
