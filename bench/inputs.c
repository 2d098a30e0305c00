/* bench/inputs.c: clmm-tutor's inputs for an outside library (bench/precision.sh builds it
   with src/matrix.c).
     inputs SEED COUNT > FILE   COUNT floats of the random contents for SEED
                                (matrix_fill_random, what every measurement uses), raw
     inputs --samples SEED M N  the row and column of each element that the verification
                                of an M x N product with that seed checks at random, one
                                pair a line (with the last row and column, all it checks
                                above VERIFY_FULL_LIMIT multiply-adds) */
#include "matrix.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int whole(const char *text, unsigned long long max, unsigned long long *value)
{
    char *end;

    if (!*text || *text == '-')
        return -1;
    *value = strtoull(text, &end, 10);
    return *end || *value == 0 || *value > max ? -1 : 0;
}

int main(int argc, char **argv)
{
    unsigned long long seed, count, m, n;
    struct rng r;
    float *x;

    if (argc == 5 && strcmp(argv[1], "--samples") == 0) {
        if (whole(argv[2], ~0ull, &seed) < 0 || whole(argv[3], 1ull << 31, &m) < 0 ||
            whole(argv[4], 1ull << 31, &n) < 0) {
            fprintf(stderr, "inputs: SEED, M and N are whole numbers above 0\n");
            return 2;
        }
        rng_seed(&r, seed ^ VERIFY_SAMPLE_SALT);
        for (int s = 0; s < VERIFY_SAMPLES; s++) {
            unsigned long long j = rng_next(&r) % n;
            printf("%llu %llu\n", rng_next(&r) % m, j);
        }
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc != 3 || whole(argv[1], ~0ull, &seed) < 0 || whole(argv[2], 1ull << 32, &count) < 0) {
        fprintf(stderr, "usage: inputs SEED COUNT > FILE, or inputs --samples SEED M N\n");
        return 2;
    }
    x = malloc(count * sizeof *x);
    if (!x) {
        fprintf(stderr, "inputs: no memory for %llu floats\n", count);
        return 1;
    }
    matrix_fill_random(x, count, seed);
    if (fwrite(x, sizeof *x, count, stdout) != count || fflush(stdout) != 0) {
        perror("inputs: write");
        return 1;
    }
    free(x);
    return 0;
}
