#!/bin/sh
# bench/clblast-tune.sh [OUTDIR [DEVICE]]: tunes CLBlast's SGEMM kernels for one OpenCL device
# with CLBlast's own tuners (Debian package clblast-utils) and keeps the JSON files they write
# in OUTDIR (default ./clblast-tuned), for `clmm-tutor --clblast-params`:
#   bench/clblast-tune.sh tuned nvidia
#   clmm-tutor --bench --clblast-params tuned/clblast_xgemm_1_32.json ...
# DEVICE is a fragment of the platform's or the device's name as `clinfo -l` prints it
# (default: the first device of the first platform). What is tuned, in this order, each
# tuner bounded in time (seconds, from the environment; a tuner stopped by its limit keeps
# the files of the phases it finished):
#   clblast_tuner_xgemm          the indirect kernel Xgemm, its four phases one after the
#                                other (CLMM_TUNE_XGEMM_SECONDS, default 540)
#   clblast_tuner_xgemm_direct   the direct kernel XgemmDirect, used for small products
#                                (CLMM_TUNE_DIRECT_SECONDS, default 150)
#   clblast_tuner_routine_xgemm  the size at which CLBlast switches from the direct kernel to
#                                the indirect one, run after the others (whose files it reads
#                                from the directory) over its own sizes, 64 to 2048
#                                (CLMM_TUNE_ROUTINE_SECONDS, default 0: skipped)
# A limit of 0 skips that tuner. The products are CLMM_TUNE_SIZE square (default 1024), those
# of the direct kernel CLMM_TUNE_DIRECT_SIZE (default: the same).
set -eu

out=${1:-clblast-tuned}
want=${2:-}
size=${CLMM_TUNE_SIZE:-1024}
direct_size=${CLMM_TUNE_DIRECT_SIZE:-$size}

for tool in clblast_tuner_xgemm clblast_tuner_xgemm_direct clblast_tuner_routine_xgemm clinfo timeout; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "bench/clblast-tune.sh: $tool not found (Debian: apt-get install clblast-utils clinfo)" >&2
        exit 77
    }
done

# The platform and device numbers of the first device whose line (or platform's) matches.
platform=0 device=0
if [ -n "$want" ]; then
    found=$(clinfo -l | awk -v want="$want" '
        BEGIN { want = tolower(want) }
        /^Platform #/ { p = $2; sub(/#/, "", p); sub(/:/, "", p); pname = tolower($0); next }
        /Device #/ { d = $0; sub(/.*Device #/, "", d); sub(/:.*/, "", d)
                     if (index(tolower($0), want) || index(pname, want)) { print p, d; exit } }')
    [ -n "$found" ] || { echo "bench/clblast-tune.sh: no OpenCL device matches \"$want\" (clinfo -l lists them)" >&2; exit 2; }
    platform=${found% *} device=${found#* }
fi
mkdir -p "$out"
cd "$out"
echo "tuning CLBlast on platform $platform, device $device at $size (direct kernel $direct_size); JSON files in $(pwd)" >&2

tune() {    # tune SECONDS TUNER SIZE: runs TUNER within SECONDS, its output in TUNER.log
    seconds=$1 tuner=$2 n=$3
    [ "$seconds" -gt 0 ] || { echo "$tuner: skipped (limit 0)" >&2; return 0; }
    start=$(date +%s)
    status=0
    # The routine tuner with -m compares the two kernels at one size and writes no parameters.
    if [ "$n" = all ]; then set --; else set -- -m "$n" -n "$n" -k "$n"; fi
    timeout "$seconds" "$tuner" -platform "$platform" -device "$device" -precision 32 "$@" \
        >"$tuner.log" 2>&1 || status=$?
    case $status in
        0) how="finished" ;;
        124) how="stopped at its limit of $seconds s" ;;
        *) how="failed with status $status (see $tuner.log)" ;;
    esac
    echo "$tuner: $how after $(( $(date +%s) - start )) s" >&2
}

tune "${CLMM_TUNE_XGEMM_SECONDS:-540}" clblast_tuner_xgemm "$size"
tune "${CLMM_TUNE_DIRECT_SECONDS:-150}" clblast_tuner_xgemm_direct "$direct_size"
tune "${CLMM_TUNE_ROUTINE_SECONDS:-0}" clblast_tuner_routine_xgemm all

# What each file holds: its kernel, best time and parameters.
found=0
for f in clblast_*.json; do
    [ -f "$f" ] || continue
    found=1
    python3 - "$f" <<'PY' || echo "$f: written"
import json, sys
d = json.load(open(sys.argv[1]))
print("%s: %s, best %s ms: %s" % (sys.argv[1], d.get("kernel_family"), d.get("best_time"),
                                  d.get("best_parameters")))
PY
done
[ "$found" -eq 1 ] || { echo "bench/clblast-tune.sh: no tuner finished a phase: no JSON file (raise the limits)" >&2; exit 1; }
