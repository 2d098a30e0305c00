/* needs.h: whether a device can run a lesson, from its needs line (lessons/FORMAT). Checked
   before the lesson's kernel is built, wherever it is built (measuring, the tuner, --inside,
   an exercise's check, the tutor's build), so that none of them tries a kernel that may not
   compile elsewhere and each refuses it with the same reason. No curses here. */
#ifndef CLMM_NEEDS_H
#define CLMM_NEEDS_H

#include <stddef.h>

#include "device.h"
#include "error.h"
#include "lesson.h"

/* 0 when d can run l; -1 with the reason in e when not: what the lesson needs and why, what
   this device is, and what to do. */
int lesson_device_check(const struct lesson *l, const struct device_info *d, struct error *e);

/* What the lesson needs, in words: "an NVIDIA GPU of compute capability 8.0 or later"; ""
   when any device will do. Returns buf. */
const char *lesson_needs_describe(const struct lesson *l, char *buf, size_t len);

#endif
