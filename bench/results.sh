#!/bin/sh
# bench/results.sh [SIZES [DEVICE [OUTPUT]]]: measures every lesson and CLBlast on one device
# at each size and writes a Markdown results table (default doc/results.md), with the date,
# the device, its driver and the exact command, and each lesson's ratio to CLBlast.
#   bench/results.sh 1024,2048,4096 h100
# Extra clmm-tutor options can be given in CLMM_BENCH_OPTIONS (for example "--budget 2", or
# "--clblast-params FILE" for CLBlast tuned by its tuners, as CLMM_TUTOR_CLBLAST_PARAMS does);
# CLMM_BENCH_JSON=FILE keeps the raw measurements as well.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-1024,2048,4096}
device=${2:-}
output=${3:-$here/doc/results.md}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/results.sh needs python3 to write the table" >&2; exit 2; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT

set -- --bench --lesson all --size "$sizes" --format json --check-timing --no-tuned ${CLMM_BENCH_OPTIONS:-}
[ -n "$device" ] && set -- "$@" --device "$device"
echo "running: clmm-tutor $*" >&2
status=0
"$tutor" "$@" >"$json" || status=$?
[ "$status" -le 1 ] || exit "$status"    # 1: some lesson was wrong or refused: still a table
[ -z "${CLMM_BENCH_JSON:-}" ] || cp "$json" "$CLMM_BENCH_JSON"

quoted=""
for word in "$@"; do
    case $word in *[[:space:]]*) quoted="$quoted '$word'" ;; *) quoted="$quoted $word" ;; esac
done
python3 - "$json" "$output" "clmm-tutor$quoted" "bench/results.sh $sizes${device:+ '$device'}" <<'PY'
import datetime, json, sys

data = json.load(open(sys.argv[1]))
out, command, script = sys.argv[2], sys.argv[3], sys.argv[4]
dev = data["device"]
sizes = []
rows = {}       # lesson -> title
cell = {}       # (lesson, size) -> result
for r in data["results"]:
    size = (r["m"], r["n"], r["k"])
    if size not in sizes:
        sizes.append(size)
    rows.setdefault(r["lesson"], r["title"])
    cell[(r["lesson"], size)] = r

def label(s):
    return str(s[0]) if s[0] == s[1] == s[2] else "%dx%dx%d" % s

def fmt(r, ref):
    if r is None:
        return "-"
    if r["status"] == "wrong result":
        return "**wrong**"
    if r["status"] != "ok":
        return r["status"]
    g = r["gflops_median"]
    text = "%.0f" % g if g >= 100 else "%.1f" % g
    if ref and ref.get("status") == "ok" and r["lesson"] >= 0:
        share = 100.0 * g / ref["gflops_median"]
        text += " (%.0f%%)" % share if share >= 1 else " (<1%)"
    return text

lines = []
lines.append("# Measured results")
lines.append("")
lines.append("- Date: %s" % datetime.date.today().isoformat())
lines.append("- Device: %s (%s, %s, %d compute units at %d MHz)" % (dev["name"], dev["platform"], dev["type"],
             dev["compute_units"], dev["clock_mhz"]))
lines.append("- Driver: %s" % dev["driver"])
lines.append("- Command: `%s`, run by `%s`" % (command, script))
tuned = data.get("clblast_params")
if tuned:
    lines.append("- CLBlast: tuned for the device by its tuners, from %s (%s)" % (", ".join(tuned["files"]),
                 ", ".join(k["name"] for k in tuned["kernels"])))
else:
    lines.append("- CLBlast: its default parameters")
lines.append("")
lines.append("Median GFLOPS (2·M·N·K of the size asked for, over the kernel time of each timed launch from")
lines.append("OpenCL profiling events), each result verified before it was timed. In parentheses: the")
lines.append("percentage of %s measured in the same run on the same buffers and inputs;" % rows.get(-1, "CLBlast"))
lines.append("CLBlast is timed on the host clock over batches of back-to-back calls, since its event")
lines.append("covers only its last kernel (see clmm-tutor(1)). Parameters are each lesson's defaults")
lines.append("unless the command says otherwise.")
lines.append("")
lines.append("| # | lesson | " + " | ".join(label(s) for s in sizes) + " |")
lines.append("|---|---|" + "---:|" * len(sizes))
for lesson in sorted(rows, key=lambda n: (n < 0, n)):
    name = "ref" if lesson < 0 else str(lesson)
    lines.append("| %s | %s | %s |" % (name, rows[lesson],
                 " | ".join(fmt(cell.get((lesson, s)), cell.get((-1, s))) for s in sizes)))
notes = [r for r in data["results"] if r["status"] != "ok"]
if notes:
    lines.append("")
    lines.append("Not measured:")
    for r in notes:
        lines.append("- lesson %d at %s: %s: %s" % (r["lesson"], label((r["m"], r["n"], r["k"])), r["status"],
                     r.get("message", "")))
# The reference is timed on the host clock already: its check would compare a method with itself.
checked = [r for r in data["results"] if r["status"] == "ok" and r.get("batch_gflops") and r["lesson"] >= 0]
if checked:
    lines.append("")
    lines.append("## Timing check")
    lines.append("")
    lines.append("The same kernels timed independently: host clock over a batch of back-to-back launches")
    lines.append("ended by one clFinish (as many launches as were timed), against the median of the")
    lines.append("profiling events above. Differences over 5% are marked.")
    lines.append("")
    lines.append("| # | size | events | host clock | difference |")
    lines.append("|---|---|---:|---:|---:|")
    for r in checked:
        diff = 100.0 * (r["batch_gflops"] / r["gflops_median"] - 1.0)
        lines.append("| %s | %s | %.1f | %.1f | %+.1f%%%s |" % ("ref" if r["lesson"] < 0 else r["lesson"],
                     label((r["m"], r["n"], r["k"])), r["gflops_median"], r["batch_gflops"], diff,
                     " **over 5%**" if abs(diff) > 5 else ""))
params = sorted({(r["lesson"], r["params"]) for r in data["results"] if r["params"] and r["lesson"] >= 0})
if params:
    lines.append("")
    lines.append("Parameters: " + "; ".join("%d: %s" % p for p in params) + ".")
open(out, "w").write("\n".join(lines) + "\n")
print("wrote " + out, file=sys.stderr)
PY
