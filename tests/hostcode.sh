#!/bin/sh
# hostcode.sh: the host code that --show N --host-code prints is C that compiles: for a
# few lessons (column- and row-major, B transposed, padded, any size, a local argument,
# two launches with a scratch buffer, an ints(...) buffer), with a small main() around it,
# against the OpenCL headers. Where the OpenCL library links and a device is there, some of
# them are also run and their C compared with a product computed here. Skipped (77) without
# a C compiler or the OpenCL headers.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
tutor="$top_builddir/src/clmm-tutor"
export CLMM_TUTOR_DATADIR="${CLMM_TUTOR_DATADIR:-$top_srcdir}"
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-$tmp}/.cache}/pocl/kcache}"
export XDG_CACHE_HOME="$tmp/cache"
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "PASS: $1"; }
not_ok() { failed=$((failed + 1)); echo "FAIL: $1"; sed 's/^/    | /' "$tmp/err" | head -30; }

printf '#include <CL/cl.h>\nint main(void) { return 0; }\n' >"$tmp/probe.c"
if ! "$cc" -fsyntax-only "$tmp/probe.c" 2>/dev/null; then
    echo "SKIP: no C compiler ($cc) or no OpenCL headers (CL/cl.h)"
    exit 77
fi

# The harness: reads the kernel, takes the first device, fills a and b (zero in the padding),
# runs the generated function and compares the asked part of C with a product computed
# here. The sizes and the layouts come as macros (see run_case).
cat >"$tmp/harness.c" <<'EOF'

#include <math.h>
#include <string.h>

static float value(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((*state >> 40) % 2001) / 1000.0f - 1.0f;
}

int main(int argc, char **argv)
{
    static char source[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    size_t len;
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    unsigned long long state = 42;
    float *a = calloc((size_t)MP * KP, sizeof *a), *b = calloc((size_t)KP * NP, sizeof *b);
    float *c = calloc((size_t)MP * NP, sizeof *c);
    double worst = 0.0;

    if (!f || !a || !b || !c)
        return 2;
    len = fread(source, 1, sizeof source - 1, f);
    source[len] = '\0';
    fclose(f);
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    for (int i = 0; i < MA; i++)
        for (int p = 0; p < KA; p++)
            a[A_AT(i, p)] = value(&state);
    for (int p = 0; p < KA; p++)
        for (int j = 0; j < NA; j++)
            b[B_AT(p, j)] = value(&state);
    RUN(context, device, queue, source, a, b, c);
    for (int i = 0; i < MA; i++)
        for (int j = 0; j < NA; j++) {
            double want = 0.0;
            for (int p = 0; p < KA; p++)
                want += (double)a[A_AT(i, p)] * b[B_AT(p, j)];
            if (fabs(want - c[C_AT(i, j)]) > worst)
                worst = fabs(want - c[C_AT(i, j)]);
        }
    printf("largest difference %g\n", worst);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(a);
    free(b);
    free(c);
    return worst < 1e-3 ? 0 : 1;
}
EOF

# compile_case LESSON SIZE [--param X=V]...: the printed code, with the harness after it, has
# no error and no warning (-Wall -Wextra) as C99.
compile_case() {
    lesson=$1 size=$2
    shift 2
    name="lesson $lesson at $size${*:+ $*} compiles"
    if ! "$tutor" --show "$lesson" --host-code --size "$size" "$@" >"$tmp/host$lesson.c" 2>"$tmp/err"; then
        not_ok "$name"
        return
    fi
    { cat "$tmp/host$lesson.c"
      printf '#define RUN run_lesson_%s\n#define MA 1\n#define NA 1\n#define KA 1\n' "$lesson"
      printf '#define MP 1\n#define NP 1\n#define KP 1\n#define A_AT(i, p) 0\n#define B_AT(p, j) 0\n#define C_AT(i, j) 0\n'
      cat "$tmp/harness.c"; } >"$tmp/whole$lesson.c"
    if "$cc" -std=c99 -Wall -Wextra -Werror -fsyntax-only "$tmp/whole$lesson.c" 2>"$tmp/err"; then
        ok "$name"
    else
        not_ok "$name"
    fi
}

compile_case 1 256
compile_case 4 100
compile_case 8 1000x700x300
compile_case 9 256 --param WPTM=4
compile_case 12 97x61x35
compile_case 13 97x61x35 --param TSK=16
compile_case 15 1000 --param SPLIT=3
compile_case 15 100x70x300 --param SPLIT=1

# run_case LESSON MA NA KA MP NP KP A_AT B_AT C_AT [--param X=V]...: the code of lesson
# LESSON at MAxNAxKA (MPxNPxKP after padding) built with the harness and run on the first
# OpenCL device. A_AT(i, p), B_AT(p, j) and C_AT(i, j) say where the elements are, as the
# generated function's comment must say it.
run_case() {
    lesson=$1 ma=$2 na=$3 ka=$4 mp=$5 np=$6 kp=$7 a_at=$8 b_at=$9 c_at=${10}
    shift 10
    name="lesson $lesson at ${ma}x${na}x${ka}${*:+ $*} runs and computes C = A B"
    "$tutor" --show "$lesson" --host-code --size "${ma}x${na}x${ka}" "$@" >"$tmp/run$lesson.c" 2>"$tmp/err" ||
        { not_ok "$name"; return; }
    for at in "A(i, p) at a[$a_at]" "B(p, j) at b[$b_at]" "C(i, j) at c[$c_at]"; do
        if ! grep -Fq "$at" "$tmp/run$lesson.c"; then
            echo "the comment does not say: $at" >"$tmp/err"
            not_ok "$name"
            return
        fi
    done
    kernel=$(sed -n 's/^kernel: //p' "$lesson_dir"/"$(printf %02d "$lesson")"-*.lesson)
    { cat "$tmp/run$lesson.c"
      printf '#define RUN run_lesson_%s\n#define MA %s\n#define NA %s\n#define KA %s\n' "$lesson" "$ma" "$na" "$ka"
      printf '#define MP %s\n#define NP %s\n#define KP %s\n' "$mp" "$np" "$kp"
      printf '#define A_AT(i, p) (%s)\n#define B_AT(p, j) (%s)\n#define C_AT(i, j) (%s)\n' "$a_at" "$b_at" "$c_at"
      cat "$tmp/harness.c"; } >"$tmp/runwhole$lesson.c"
    if ! "$cc" -std=c99 -o "$tmp/run$lesson" "$tmp/runwhole$lesson.c" -lOpenCL -lm 2>"$tmp/err"; then
        echo "SKIP: $name: the OpenCL library does not link"
        return
    fi
    "$tmp/run$lesson" "$kernel_dir/$kernel" >"$tmp/err" 2>&1
    case $? in
        0) ok "$name" ;;
        *) if grep -q 'clGetPlatformIDs\|clGetDeviceIDs' "$tmp/err"; then echo "SKIP: $name: no OpenCL device"
           else not_ok "$name"; fi ;;
    esac
}

lesson_dir="$top_srcdir/lessons"
kernel_dir="$top_srcdir/kernels"
# Lesson 9: column-major, B transposed, 100x90x20 padded to 128x128x32.
run_case 9 100 90 20 128 128 32 'i + p * 128' 'j + p * 128' 'i + j * 128'
# Lesson 13: row-major, B as it is, any size: no padding.
run_case 13 97 61 35 97 61 35 'i * 35 + p' 'p * 61 + j' 'i * 61 + j'
# Lesson 15: two launches and a scratch buffer; M*N = 5917 is odd: the sum in plain floats.
run_case 15 97 61 35 97 61 35 'i * 35 + p' 'p * 61 + j' 'i * 61 + j'
# Lesson 18: one launch that counts its groups in at the start of the scratch buffer, which
# must start at 0 (scratch-zero); split 3 ways over 4 tiles of 64 x 64.
run_case 18 100 70 300 100 70 300 'i * 300 + p' 'p * 70 + j' 'i * 70 + j' --param TSM=64 --param TSN=64 --param LAST=1 \
    --param WM=32 --param WIM=4 --param SPLIT=3
# Lesson 19: waves of 3 groups over 4 tiles, the last one in pieces (PIECES = 1), and split 3
# ways (PIECES = 0), added by its last group (counters that start at 0) and by a second launch.
run_case 19 100 70 300 100 70 300 'i * 300 + p' 'p * 70 + j' 'i * 70 + j' --param TSM=64 --param TSN=64 \
    --param WM=32 --param WIM=4 --param WAVE=3 --param PIECES=1 --param LAST=1
for last in 1 0; do
    run_case 19 100 70 300 100 70 300 'i * 300 + p' 'p * 70 + j' 'i * 70 + j' --param TSM=64 --param TSN=64 \
        --param WM=32 --param WIM=4 --param WAVE=3 --param SPLIT=3 --param PIECES=0 --param LAST=$last
done

# The case study of document 004 (tests/casestudy): its kernels take K in a __global int
# buffer, ints(K), which the code must create, fill and pass. Lesson 81 pads to multiples of 8.
casestudy="$top_srcdir/tests/casestudy"
lesson_dir=$casestudy
kernel_dir=$casestudy
compile_case 80 97x61x35 --lessons "$casestudy"
run_case 80 97 61 35 97 61 35 'i + p * 97' 'p + j * 35' 'i + j * 97' --lessons "$casestudy"
run_case 81 100 90 20 104 96 24 'i + p * 104' 'p + j * 24' 'i + j * 104' --lessons "$casestudy"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
