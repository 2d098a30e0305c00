#!/bin/sh
# bench/mma-peak.sh [DEVICE]: how fast the tensor cores' mma.sync.m16n8k8 with TF32 inputs
# runs on its own, the instruction of lessons 20 to 24: a kernel of nothing but independent
# products in registers (bench/mma-peak/), timed by clmm-tutor (its small check product
# beside it costs nothing), at a few numbers of warps per compute unit. Prints TFLOPS,
# 2 * 16 * 8 * 8 flops per mma, as Markdown. Needs an NVIDIA GPU of compute capability 8.0
# or later and python3.
#   bench/mma-peak.sh nvidia
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/mma-peak.sh needs python3" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set --
[ -n "${1:-}" ] && set -- --device "$1"

echo "| groups x warps per compute unit (ACC) | mma per warp | kernel ms | TFLOPS |"
echo "|---|---:|---:|---:|"
for config in "8 4 8" "4 8 8" "16 4 4" "4 4 16"; do
    g=${config%% *}; rest=${config#* }; w=${rest%% *}; acc=${rest#* }
    "$tutor" --bench --lessons "$here/bench/mma-peak" --lesson 90 --size 16 --reps 5 --no-reference \
        --param ITER=4096 --param ACC="$acc" --param G="$g" --param WPG="$w" --format csv "$@" >"$tmp/run.csv" || true
    python3 - "$tmp/run.csv" "$g" "$w" "$acc" <<'PY' || exit 1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
g, w, acc = (int(x) for x in sys.argv[2:5])
r = next((r for r in rows if r["lesson"] == "90"), None)
if r is None or r["status"] != "ok":
    sys.exit("bench/mma-peak.sh: %s" % (r["message"] if r else "no result"))
units = int(re.search(r"UNITS=(\d+)", r["params"]).group(1))
ms = float(r["kernel_ms_median"])
mma = units * g * w * 4096 * acc
print("| %d x %d (%d) | %d | %.3f | %.1f |" % (g, w, acc, 4096 * acc, ms, mma * 2048 / (ms * 1e-3) / 1e12))
PY
done
