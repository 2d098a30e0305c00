/* precision.c: the names of precisions and units. */
#include "precision.h"

#include <string.h>

/* Both enums have two values, named as the lesson files spell them. */
static const char *const precision_names[2] = { [PRECISION_FP32] = "fp32", [PRECISION_TF32] = "tf32" };
static const char *const units_names[2] = { [UNITS_FP32] = "fp32", [UNITS_TENSOR] = "tensor" };

/* The index of name in names, or -1. */
static int find_name(const char *name, const char *const names[2])
{
    for (int i = 0; i < 2; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *precision_name(enum precision p)
{
    return precision_names[p];
}

const char *precision_mark(enum precision p)
{
    return p == PRECISION_TF32 ? "TF32" : "";
}

const char *units_name(enum units u)
{
    return units_names[u];
}

const char *precision_tag(enum precision p, enum units u)
{
    if (p == PRECISION_TF32)
        return "TF32";
    return u == UNITS_TENSOR ? "FP32 on tensor cores" : "";
}

bool precision_parse(const char *name, enum precision *out)
{
    int i = find_name(name, precision_names);

    if (i >= 0)
        *out = (enum precision)i;
    return i >= 0;
}

bool units_parse(const char *name, enum units *out)
{
    int i = find_name(name, units_names);

    if (i >= 0)
        *out = (enum units)i;
    return i >= 0;
}
