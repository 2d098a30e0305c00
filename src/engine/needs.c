/* needs.c: a lesson's needs line against a device. */
#include "needs.h"

#include <stdio.h>

const char *lesson_needs_describe(const struct lesson *l, char *buf, size_t len)
{
    if (l->needs.nvidia)
        snprintf(buf, len, "an NVIDIA GPU of compute capability %u.%u or later", l->needs.major, l->needs.minor);
    else
        snprintf(buf, len, "%s", "");
    return buf;
}

/* Whether d has what l's needs line asks. NVIDIA's driver gives the compute capability
   (cl_nv_device_attribute_query); no other device has one, whatever its vendor string says. */
static bool needs_met(const struct lesson *l, const struct device_info *d)
{
    const struct lesson_needs *n = &l->needs;

    return !n->nvidia || (d->nv_cc_major > 0 && (d->nv_cc_major > n->major ||
                                                 (d->nv_cc_major == n->major && d->nv_cc_minor >= n->minor)));
}

bool lesson_emulated(const struct lesson *l, const struct device_info *d)
{
    return l->emulation && d && !needs_met(l, d);
}

const char *lesson_emulation_note(const struct device_info *d, char *buf, size_t len)
{
    if (d && d->nv_cc_major > 0)
        snprintf(buf, len, "emulated: this GPU (compute capability %u.%u) has no tensor cores for TF32; layouts as on "
                 "NVIDIA 8.0+, speed not comparable", d->nv_cc_major, d->nv_cc_minor);
    else
        snprintf(buf, len, "%s", "emulated: no tensor cores on this device; layouts as on NVIDIA, speed not comparable");
    return buf;
}

int lesson_device_check(const struct lesson *l, const struct device_info *d, struct error *e)
{
    const struct lesson_needs *n = &l->needs;
    char needs[96];

    if (needs_met(l, d) || lesson_emulated(l, d))
        return 0;
    lesson_needs_describe(l, needs, sizeof needs);
    if (d->nv_cc_major == 0)
        error_set(e, "lesson %d needs %s (%s); %s's device %s is not an NVIDIA GPU: choose one with --device",
                  l->number, needs, n->why, d->platform_name, d->name);
    else
        error_set(e, "lesson %d needs %s (%s); %s is %u.%u: choose a newer one with --device", l->number, needs,
                  n->why, d->name, d->nv_cc_major, d->nv_cc_minor);
    return -1;
}
