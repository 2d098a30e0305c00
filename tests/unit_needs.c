/* unit_needs.c: a lesson's needs line against a device. */
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "engine/needs.h"

/* A lesson that needs an NVIDIA GPU of compute capability 8.0 or later. */
static struct lesson tensor_lesson(void)
{
    static char why[] = "tensor cores with TF32, reached through inline PTX mma.sync";
    struct lesson l;

    memset(&l, 0, sizeof l);
    l.number = 21;
    l.needs = (struct lesson_needs){ true, 8, 0, why };
    return l;
}

static struct device_info device(const char *platform, const char *name, unsigned major, unsigned minor)
{
    struct device_info d;

    memset(&d, 0, sizeof d);
    snprintf(d.platform_name, sizeof d.platform_name, "%s", platform);
    snprintf(d.name, sizeof d.name, "%s", name);
    d.nv_cc_major = major;
    d.nv_cc_minor = minor;
    return d;
}

/* lesson_device_check refuses d for l with exactly the message want. */
static void refused(const struct lesson *l, const struct device_info *d, const char *want)
{
    struct error e;

    error_init(&e);
    ck_assert_int_eq(lesson_device_check(l, d, &e), -1);
    ck_assert_str_eq(e.msg, want);
}

START_TEST(test_needs_not_nvidia)
{
    struct lesson l = tensor_lesson();
    struct device_info d = device("Portable Computing Language", "cpu-haswell", 0, 0);
    struct error e;

    refused(&l, &d, "lesson 21 needs an NVIDIA GPU of compute capability 8.0 or later (tensor cores with TF32, "
                    "reached through inline PTX mma.sync); Portable Computing Language's device cpu-haswell is not "
                    "an NVIDIA GPU: choose one with --device");
    /* A lesson that needs nothing runs anywhere. */
    error_init(&e);
    l.needs.nvidia = false;
    ck_assert_int_eq(lesson_device_check(&l, &d, &e), 0);
    /* Not even "nvidia 0.0" lets a device without a compute capability pass. */
    l.needs = (struct lesson_needs){ true, 0, 0, "why" };
    refused(&l, &d, "lesson 21 needs an NVIDIA GPU of compute capability 0.0 or later (why); Portable Computing "
                    "Language's device cpu-haswell is not an NVIDIA GPU: choose one with --device");
}
END_TEST

/* An NVIDIA GPU of an older compute capability is refused with it; one as new or newer runs the lesson. */
START_TEST(test_needs_nvidia)
{
    struct lesson l = tensor_lesson();
    struct device_info v100 = device("NVIDIA CUDA", "Tesla V100-SXM2-16GB", 7, 0), a100 = device("NVIDIA CUDA", "A100", 8, 0);
    struct device_info h200 = device("NVIDIA CUDA", "NVIDIA H200", 9, 0);
    struct error e;
    char buf[96];

    error_init(&e);
    ck_assert_int_eq(lesson_device_check(&l, &h200, &e), 0);
    ck_assert_int_eq(lesson_device_check(&l, &a100, &e), 0);
    ck_assert_str_eq(lesson_needs_describe(&l, buf, sizeof buf), "an NVIDIA GPU of compute capability 8.0 or later");
    refused(&l, &v100, "lesson 21 needs an NVIDIA GPU of compute capability 8.0 or later (tensor cores with TF32, "
                       "reached through inline PTX mma.sync); Tesla V100-SXM2-16GB is 7.0: choose a newer one with "
                       "--device");
    /* The minor number counts within the same major. */
    l.needs.minor = 6;
    refused(&l, &a100, "lesson 21 needs an NVIDIA GPU of compute capability 8.6 or later (tensor cores with TF32, "
                       "reached through inline PTX mma.sync); A100 is 8.0: choose a newer one with --device");
    l.needs.nvidia = false;
    ck_assert_str_eq(lesson_needs_describe(&l, buf, sizeof buf), "");
}
END_TEST

/* With an emulation line, a device without what the needs line asks runs the lesson emulated
   (not refused), and says what it is: no tensor cores, or an older NVIDIA GPU; a device that
   has them runs the PTX itself. The choice is the device's, never the lesson's. */
START_TEST(test_needs_emulated)
{
    static char header[] = "ptx-emulated.h";
    struct lesson l = tensor_lesson();
    struct device_info cpu = device("Portable Computing Language", "cpu-haswell", 0, 0);
    struct device_info v100 = device("NVIDIA CUDA", "Tesla V100-SXM2-16GB", 7, 0);
    struct device_info h200 = device("NVIDIA CUDA", "NVIDIA H200", 9, 0);
    struct error e;
    char note[160];

    ck_assert(!lesson_emulated(&l, &cpu));     /* no emulation line: refused there */
    l.emulation = header;
    error_init(&e);
    ck_assert_int_eq(lesson_device_check(&l, &cpu, &e), 0);
    ck_assert_int_eq(lesson_device_check(&l, &v100, &e), 0);
    ck_assert_int_eq(lesson_device_check(&l, &h200, &e), 0);
    ck_assert(lesson_emulated(&l, &cpu));
    ck_assert(lesson_emulated(&l, &v100));
    ck_assert(!lesson_emulated(&l, &h200));
    ck_assert(!lesson_emulated(&l, NULL));
    ck_assert_str_eq(lesson_emulation_note(&cpu, note, sizeof note),
                     "emulated: no tensor cores on this device; layouts as on NVIDIA, speed not comparable");
    ck_assert_str_eq(lesson_emulation_note(&v100, note, sizeof note),
                     "emulated: this GPU (compute capability 7.0) has no tensor cores for TF32; layouts as on "
                     "NVIDIA 8.0+, speed not comparable");
    /* A lesson that needs nothing is never emulated. */
    l.needs.nvidia = false;
    ck_assert(!lesson_emulated(&l, &cpu));
}
END_TEST

Suite *needs_suite(void)
{
    Suite *s = suite_create("needs");
    TCase *tc = tcase_create("needs");

    tcase_add_test(tc, test_needs_not_nvidia);
    tcase_add_test(tc, test_needs_nvidia);
    tcase_add_test(tc, test_needs_emulated);
    suite_add_tcase(s, tc);
    return s;
}
