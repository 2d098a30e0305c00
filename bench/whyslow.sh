#!/bin/sh
# bench/whyslow.sh [DEVICE [OUTPUT]]: the figures behind "why is it slow" on one device, as
# Markdown: the ceilings clmm-tutor measures (three times, --ceilings) beside clpeak's
# figures where clpeak is installed and the theoretical peak; what the compiler made of
# lessons 1, 5, 9 and 13 and the waves of their work-groups at 1024 and 4096 (--inside); and
# the whole ladder at 4096 (LADDER_SIZE) against the ceilings (--bench). Appends to OUTPUT when given (for
# example doc/results.md), else prints.
#   bench/whyslow.sh nvidia doc/results.md
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
device=${1:-}
output=${2:-}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/whyslow.sh needs python3 to write the tables" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Ceilings of its own: the user's cache is left alone (POCL is told where its kernels are).
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-$tmp}/.cache}/pocl/kcache}"
export XDG_CACHE_HOME="$tmp/cache"
set --
[ -n "$device" ] && set -- --device "$device"

for i in 1 2 3; do
    echo "measuring the ceilings ($i of 3)" >&2
    "$tutor" --ceilings --format json "$@" >"$tmp/ceilings-$i.json"
done
if command -v clpeak >/dev/null 2>&1; then
    echo "running clpeak" >&2
    clpeak --compute-sp --global-bandwidth >"$tmp/clpeak.txt" 2>&1 || true
fi
for lesson in 1 5 9 13; do
    for size in 1024 4096; do
        echo "looking inside lesson $lesson at $size" >&2
        "$tutor" --inside --lesson "$lesson" --size "$size" --format json "$@" >"$tmp/inside-$lesson-$size.json"
    done
done
ladder_size=${LADDER_SIZE:-4096}
echo "measuring the ladder at $ladder_size" >&2
"$tutor" --bench --size "$ladder_size" --format json "$@" >"$tmp/ladder.json" 2>/dev/null || true

python3 - "$tmp" "$(date -u +%Y-%m-%d)" "$*" "$ladder_size" <<'EOF' >"$tmp/tables.md"
import json, os, re, sys
tmp, date, args, ladder_size = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ceil = [json.load(open(os.path.join(tmp, "ceilings-%d.json" % i))) for i in (1, 2, 3)]
ladder = json.load(open(os.path.join(tmp, "ladder.json")))
dev = ladder["device"]
print("## Why is it slow: ceilings, roofline, waves, the compiled kernel\n")
print("Device: %s (%s, %s, %d compute units at %d MHz); %s, driver %s; `bench/whyslow.sh%s`."
      % (dev["name"], dev["platform"], dev["type"], dev["compute_units"], dev["clock_mhz"], date, dev["driver"],
         " " + args if args else ""))
print("\n### The ceilings, measured by clmm-tutor (`--ceilings`, three runs) and by clpeak\n")
best_f = max(c["fp32_gflops"] for c in ceil)
best_b = max(c["bandwidth_gbps"] for c in ceil)
print("| what | clmm-tutor, runs 1, 2, 3 | clpeak (best width) | clmm-tutor / clpeak | theoretical |")
print("|---|---|---:|---:|---|")
clpeak = {}
path = os.path.join(tmp, "clpeak.txt")
if os.path.exists(path):
    section = None
    for line in open(path, errors="replace"):
        if "Global memory bandwidth" in line:
            section = "bw"
        elif "Single-precision compute" in line:
            section = "sp"
        elif re.match(r"\s*(float\d*)\s*:\s*[\d.]+", line) and section:
            v = float(line.split(":")[1])
            clpeak[section] = max(clpeak.get(section, 0.0), v)
    # clpeak measures every device: the largest figures are the GPU's on a machine with a GPU
    # and POCL; on a machine with one device, that device's.
def ratio(a, b):
    return "%.3f" % (a / b) if b else "-"
fl = ", ".join("%.0f" % c["fp32_gflops"] for c in ceil)
bw = ", ".join("%.0f" % c["bandwidth_gbps"] for c in ceil)
th = ceil[0]["fp32_theory_gflops"]
print("| FP32 peak, GFLOPS (2 per multiply-add) | %s | %s | %s | %s |"
      % (fl, "%.0f" % clpeak["sp"] if "sp" in clpeak else "not installed", ratio(best_f, clpeak.get("sp", 0)),
         "%.0f (%s)" % (th, ceil[0]["fp32_theory"]) if th else ceil[0]["fp32_theory"]))
print("| global memory, GB/s | %s (copy: read + written) | %s (reads) | %s | %s |"
      % (bw, "%.0f" % clpeak["bw"] if "bw" in clpeak else "not installed", ratio(best_b, clpeak.get("bw", 0)),
         ceil[0]["bandwidth_theory"]))
print("\n### What the compiler made, and the waves of work-groups (`--inside --lesson N --size S`)\n")
print("| lesson | size | registers / work-item | local bytes / group | hot loop per k | work-groups | per compute unit (binds) | waves | last wave |")
print("|---:|---:|---:|---:|---|---:|---|---:|---|")
for lesson in (1, 5, 9, 13):
    for size in (1024, 4096):
        d = json.load(open(os.path.join(tmp, "inside-%d-%d.json" % (lesson, size))))
        regs = d["compiler"]["registers"]
        loop = d.get("hot_loop") or {}
        perk = loop.get("per_k") or {}
        kinds = ["%g %s" % (perk[k], "fma" if k == "fma_f32" else k) for k in
                 ("fma_f32", "ld.shared", "ld.shared.v2", "ld.shared.v4", "ld.global", "ld.global.v4")
                 if perk.get(k)]
        w = d["waves"] or {}
        binds = [name.replace("_", " ") for name, lim in (w.get("limits") or {}).items() if lim.get("binds")]
        print("| %d | %d | %s | %s | %s | %s | %s%s (%s) | %s | %s of %s (%s%%) |"
              % (lesson, size, regs if regs is not None else "not reported",
                 d["platform"].get("local_mem_bytes", "-"), ", ".join(kinds) or "-", w.get("work_groups", "-"),
                 "at most " if w.get("upper_bound") else "", w.get("resident_per_unit", "-"), ", ".join(binds),
                 w.get("waves", "-"), w.get("last_wave_groups", "-"), w.get("capacity", "-"),
                 w.get("last_wave_percent", "-")))
print("\n### The ladder at %s against the ceilings (`--bench --size %s`)\n" % (ladder_size, ladder_size))
c = dev.get("ceilings") or {}
print("Ceilings of this run: FP32 peak %.0f GFLOPS, bandwidth %.0f GB/s. Intensity under the no-cache model "
      "(every load from global memory, C written once); the bound is the slope or the roof, whichever is lower."
      % (c.get("fp32_gflops", 0), c.get("bandwidth_gbps", 0)))
print("\n| lesson | GFLOPS | of peak | flop/byte | bound GFLOPS | of bound | |")
print("|---:|---:|---:|---:|---:|---:|---|")
for r in ladder["results"]:
    if r["status"] != "ok":
        continue
    label = "ref" if r["lesson"] < 0 else str(r["lesson"])
    if "pct_peak" not in r:
        print("| %s | %.0f | - | - | - | - | host CPU |" % (label, r["gflops_median"]))
        continue
    if "bound_gflops" in r:
        words = "above the slope: caches" if r["above_bound"] else r["bound_by"] + "-bound"
        print("| %s | %.0f | %.1f%% | %.3g | %.0f | %.0f%% | %s |" % (label, r["gflops_median"], r["pct_peak"],
              r["intensity"], r["bound_gflops"], r["pct_bound"], words))
    else:
        print("| %s | %.0f | %.1f%% | - | - | - | |" % (label, r["gflops_median"], r["pct_peak"]))
EOF

if [ -n "$output" ]; then
    { echo; cat "$tmp/tables.md"; } >>"$output"
else
    cat "$tmp/tables.md"
fi
