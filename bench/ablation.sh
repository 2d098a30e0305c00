#!/bin/sh
# bench/ablation.sh [SIZES [DEVICE [OUTPUT]]]: what each change of lesson 13 brings. Measures
# lesson 13 as it is, then with each of its switches (lessons/FORMAT) taking one change out,
# then with all of them out, and lesson 12, at each size (default 4096) on one device, and
# writes a Markdown table (to OUTPUT, or to stdout) with the date, the device, its driver
# and the exact commands.
#   bench/ablation.sh 4096 h100 doc/ablation.md
# Every run uses the lessons' defaults (--no-tuned). Extra clmm-tutor options can be given
# in CLMM_BENCH_OPTIONS (for example "--budget 2").
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-4096}
device=${2:-}
output=${3:-}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/ablation.sh needs python3 to write the table" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The variants: a name, what it takes out of lesson 13, the lesson, its --param options.
variants="full|nothing: lesson 13 as it is|13|
VLOCAL=0|float4 reads from local memory (four float reads each)|13|--param VLOCAL=0
VGLOBAL=0|float4 loads and stores in global memory (one float at a time)|13|--param VGLOBAL=0
PREFETCH=0|the prefetch through registers (loads just before the stores to local memory)|13|--param PREFETCH=0
BLOCKED=1|the runs of 4 that take turns (one WPTM x WPTN block per work-item)|13|--param BLOCKED=1
PADA=0|the padding of the A tile in local memory|13|--param PADA=0
all off|all five of the above|13|--param VLOCAL=0 --param VGLOBAL=0 --param PREFETCH=0 --param BLOCKED=1 --param PADA=0
lesson 12|all of lesson 13's changes: lesson 12 with its defaults|12|"

list="$tmp/variants"
: >"$list"
n=0
echo "$variants" | while IFS='|' read -r name removes lesson params; do
    n=$((n + 1))
    # shellcheck disable=SC2086  # params is a list of words
    set -- --bench --lesson "$lesson" --size "$sizes" --format json --no-tuned --no-reference $params \
        ${CLMM_BENCH_OPTIONS:-}
    [ -n "$device" ] && set -- "$@" --device "$device"
    quoted=""
    for word in "$@"; do
        case $word in *[[:space:]]*) quoted="$quoted '$word'" ;; *) quoted="$quoted $word" ;; esac
    done
    echo "running: clmm-tutor$quoted" >&2
    status=0
    "$tutor" "$@" >"$tmp/$n.json" || status=$?
    [ "$status" -le 1 ] || exit "$status"    # 1: wrong or refused: still a row, saying so
    printf '%s\t%s\t%s\t%s\n' "$name" "$removes" "$tmp/$n.json" "clmm-tutor$quoted" >>"$list"
done

python3 - "$list" "$output" "bench/ablation.sh $sizes${device:+ '$device'}" <<'PY'
import datetime, json, sys

listing, out, script = sys.argv[1], sys.argv[2], sys.argv[3]
variants = []       # (name, removes, results by size, command)
dev = None
sizes = []
for line in open(listing):
    name, removes, path, command = line.rstrip("\n").split("\t")
    data = json.load(open(path))
    dev = dev or data["device"]
    by_size = {}
    for r in data["results"]:
        size = (r["m"], r["n"], r["k"])
        if size not in sizes:
            sizes.append(size)
        by_size[size] = r
    variants.append((name, removes, by_size, command))

def label(s):
    return str(s[0]) if s[0] == s[1] == s[2] else "%dx%dx%d" % s

def gflops(r):
    if r is None:
        return "-"
    if r["status"] == "wrong result":
        return "**wrong**"
    if r["status"] != "ok":
        return r["status"]
    g = r["gflops_median"]
    return "%.0f" % g if g >= 100 else "%.1f" % g

def change(r, full):
    if r is None or full is None or r["status"] != "ok" or full["status"] != "ok":
        return "-"
    if r is full:
        return "(reference)"
    return "%+.1f%%" % (100.0 * (r["gflops_median"] / full["gflops_median"] - 1.0))

lines = []
lines.append("# Lesson 13, one change at a time")
lines.append("")
lines.append("- Date: %s" % datetime.date.today().isoformat())
lines.append("- Device: %s (%s, %s, %d compute units at %d MHz)" % (dev["name"], dev["platform"], dev["type"],
             dev["compute_units"], dev["clock_mhz"]))
lines.append("- Driver: %s" % dev["driver"])
lines.append("- Run by `%s`; the commands:" % script)
for v in variants:
    lines.append("  - `%s`" % v[3])
lines.append("")
lines.append("Median GFLOPS (2·M·N·K of the size asked for, over the kernel time of each timed launch from")
lines.append("OpenCL profiling events), each result verified before it was timed, every lesson with its")
lines.append("defaults. Each switch of lesson 13 (lessons/13-row-major-fast.lesson) takes one of its")
lines.append("changes out and leaves the rest; the last column compares with lesson 13 as it is, measured")
lines.append("by the first command.")
for s in sizes:
    full = variants[0][2].get(s)
    lines.append("")
    lines.append("## %s" % label(s))
    lines.append("")
    lines.append("| variant | what it removes | GFLOPS | change vs full lesson 13 |")
    lines.append("|---|---|---:|---:|")
    for name, removes, by_size, _ in variants:
        r = by_size.get(s)
        lines.append("| %s | %s | %s | %s |" % (name, removes, gflops(r), change(r, full)))
notes = [(v[0], r) for v in variants for r in v[2].values() if r["status"] != "ok"]
if notes:
    lines.append("")
    lines.append("Not measured:")
    for name, r in notes:
        lines.append("- %s at %s: %s: %s" % (name, label((r["m"], r["n"], r["k"])), r["status"],
                     r.get("message", "")))
text = "\n".join(lines) + "\n"
if out:
    open(out, "w").write(text)
    print("wrote " + out, file=sys.stderr)
else:
    sys.stdout.write(text)
PY
