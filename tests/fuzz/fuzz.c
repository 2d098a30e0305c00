/* fuzz.c: the helpers of the fuzz harnesses (fuzz.h). */
#include "fuzz.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static char dir[PATH_MAX];

static void remove_dir(void)
{
    char command[PATH_MAX + 16];

    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", dir);
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[PATH_MAX + 64];
    FILE *f;

    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/clmm-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (data) {
        if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
            abort();
    }
    return path;
}
