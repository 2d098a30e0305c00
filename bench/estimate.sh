#!/bin/sh
# bench/estimate.sh [SIZES [DEVICE [LESSONS]]]: how well the launch-time estimate predicts a
# launch. For each lesson and size it prints the estimate (what a refusal would say, taken
# from a run whose limit refuses everything) beside one launch measured with --force.
#   bench/estimate.sh                      lessons 1-5 at 512 and 1024 on the CPU (POCL)
#   bench/estimate.sh 2048,4096 h200 0-13
# estimate/kernel is the estimate over the measured kernel time: 1 is perfect, below 1 the
# estimate is short (a launch is let through that the limit should have refused).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-512,1024}
device=${2:-cpu}
lessons=${3:-1-5}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
export CLMM_TUTOR_DATADIR="${CLMM_TUTOR_DATADIR:-$here}"
command -v python3 >/dev/null 2>&1 || { echo "bench/estimate.sh needs python3" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $lessons in
*-*) list=$(seq "${lessons%-*}" "${lessons#*-}") ;;
*) list=$(echo "$lessons" | tr ',' ' ') ;;
esac
"$tutor" --devices | sed -n "1,3p" >&2
printf '%6s %-12s %12s %12s %12s %10s\n' lesson size "estimate s" "kernel s" "wall s" "est/kernel"
for size in $(echo "$sizes" | tr ',' ' '); do
    for lesson in $list; do
        # A limit of a microsecond refuses every launch that is estimated, after the probes.
        "$tutor" --bench --lesson "$lesson" --size "$size" --device "$device" --no-reference --no-tuned \
            --max-launch 0.000001 --format json >"$tmp/estimate.json" 2>"$tmp/err" || true
        "$tutor" --bench --lesson "$lesson" --size "$size" --device "$device" --no-reference --no-tuned \
            --force --reps 1 --format json >"$tmp/measured.json" 2>>"$tmp/err" || true
        python3 - "$tmp/estimate.json" "$tmp/measured.json" "$lesson" "$size" <<'PY'
import json, sys

def result(path):
    try:
        return json.load(open(path))["results"][0]
    except (OSError, ValueError, IndexError, KeyError):
        return {}

est, meas = result(sys.argv[1]), result(sys.argv[2])
e = est.get("estimate_s")
if meas.get("status") == "ok":
    k, w = meas["kernel_ms_median"] / 1e3, meas["wall_ms"] / 1e3
    ratio = "%10.2f" % (e / k) if e else "%10s" % "-"
    print("%6s %-12s %12s %12.4g %12.4g %s" % (sys.argv[3], sys.argv[4], "%.4g" % e if e else "none",
                                             k, w, ratio))
else:
    print("%6s %-12s %12s %s: %s" % (sys.argv[3], sys.argv[4], "%.4g" % e if e else "none",
                                    meas.get("status", "no result"), meas.get("message", "")))
PY
    done
done
