/* fuzz_ceilings.c: fuzzes the cache of measured ceilings ($XDG_CACHE_HOME/clmm-tutor/ceilings):
   ceilings_load, which reads it, and ceilings_save, which rewrites it keeping the other
   devices' lines.

   The input is the file's bytes. For two devices, "fuzz device" and "fuzz other", the
   harness reads both, then saves the first one's figures: the save must succeed, the saved
   figures must read back as written, and the other device's figures, if the file had them
   and few enough lines for all to be kept, must be unchanged. Seeds: tests/fuzz/seeds/ceilings.
   Run with `make fuzz`. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "engine/ceilings.h"

static struct device_info fake(const char *name)
{
    struct device_info d;

    memset(&d, 0, sizeof d);
    strcpy(d.platform_name, "fuzz platform");
    strcpy(d.name, name);
    strcpy(d.driver, "1.0");
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("ceilings", data, size);
    struct device_info d = fake("fuzz device"), other = fake("fuzz other");
    struct ceilings c, o, back, o_back;
    struct error e;
    size_t lines = 0;
    bool had_other;

    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    if (ceilings_load(path, &d, &c) && !(c.have && c.gflops > 0 && c.gbps > 0))
        abort();    /* a figure that is not one was taken */
    had_other = ceilings_load(path, &other, &o);
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    c.have = true;
    c.gflops = 1234.5;
    c.gbps = 67.25;
    strcpy(c.measured_on, "2026-11-20T14:03:07Z");
    error_init(&e);
    if (ceilings_save(path, &d, &c, &e) != 0)
        abort();    /* the file is ours and regular: a save must succeed */
    memset(&back, 0, sizeof back);
    if (!ceilings_load(path, &d, &back) || back.gflops != 1234.5 || back.gbps != 67.25 ||
        strcmp(back.measured_on, c.measured_on) != 0)
        abort();    /* what was saved does not read back */
    memset(&o_back, 0, sizeof o_back);
    if (had_other && size <= CEILINGS_FILE_MAX && lines < CEILINGS_MAX_LINES &&
        (!ceilings_load(path, &other, &o_back) || o_back.gflops != o.gflops || o_back.gbps != o.gbps))
        abort();    /* another device's line was lost or changed */
    error_clear(&e);
    return 0;
}
