/* needs.h: whether a device can run a lesson, from its needs line (lessons/FORMAT). Checked
   before the lesson's kernel is built, wherever it is built (measuring, the tuner, --inside,
   an exercise's check, the tutor's build), so that none of them tries a kernel that may not
   compile elsewhere and each refuses it with the same reason. No curses here. */
#ifndef CLMM_NEEDS_H
#define CLMM_NEEDS_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "error.h"
#include "lesson.h"

/* 0 when d can run l, itself or emulated (lesson_emulated); -1 with the reason in e when not:
   what the lesson needs and why, what this device is, and what to do. */
int lesson_device_check(const struct lesson *l, const struct device_info *d, struct error *e);

/* Whether l runs on d emulated: d lacks what its needs line asks and the lesson has an
   emulation line, whose header then stands in for the kernel's PTX (lessons/FORMAT). Chosen
   here, from the device, never by the lesson. */
bool lesson_emulated(const struct lesson *l, const struct device_info *d);

/* What a figure of an emulated run is, for every place that shows one: "emulated: no tensor
   cores on this device; ...". Returns buf. */
const char *lesson_emulation_note(const struct device_info *d, char *buf, size_t len);

/* What the lesson needs, in words: "an NVIDIA GPU of compute capability 8.0 or later"; ""
   when any device will do. Returns buf. */
const char *lesson_needs_describe(const struct lesson *l, char *buf, size_t len);

#endif
