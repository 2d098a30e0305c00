#!/bin/sh
# bench/variants.sh [DEVICE [LIST [OUTPUT]]]: measures the lesson variants that the lessons'
# text quotes (bench/variants.list: one "LESSON SIZES [NAME=VALUE ...]" per line) on one
# device, and writes a Markdown table (to OUTPUT, else to stdout) with the date, the device,
# its driver and the command of each run.
#   bench/variants.sh h200 bench/variants.list variants.md
# Extra clmm-tutor options can be given in CLMM_BENCH_OPTIONS (default "--budget 0.5");
# CLMM_BENCH_JSON_DIR=DIR keeps each run's command (NNN.cmd) and raw measurements (NNN.json).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
device=${1:-}
list=${2:-$here/bench/variants.list}
output=${3:-/dev/stdout}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/variants.sh needs python3 to write the table" >&2; exit 2; }
[ -r "$list" ] || { echo "bench/variants.sh: cannot read the list $list" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
grep -v '^[[:space:]]*\(#\|$\)' "$list" | while read -r lesson sizes rest; do
    n=$((n + 1))
    set -- --bench --lesson "$lesson" --size "$sizes" --format json --no-reference --no-tuned \
        ${CLMM_BENCH_OPTIONS:---budget 0.5}
    for p in $rest; do set -- "$@" --param "$p"; done
    [ -n "$device" ] && set -- "$@" --device "$device"
    echo "running: clmm-tutor $*" >&2
    echo "clmm-tutor $*" >"$tmp/$(printf %03d "$n").cmd"
    "$tutor" "$@" >"$tmp/$(printf %03d "$n").json" || true   # 1: wrong or refused: in the table
done

[ -z "${CLMM_BENCH_JSON_DIR:-}" ] || { mkdir -p "$CLMM_BENCH_JSON_DIR" && cp "$tmp"/* "$CLMM_BENCH_JSON_DIR"/; }
python3 - "$tmp" "$output" "${list#"$here"/}" "${CLMM_BENCH_OPTIONS:---budget 0.5}" <<'PY'
import datetime, glob, json, os, sys

tmp, out, listname, options = sys.argv[1:5]
rows, dev = [], None
for path in sorted(glob.glob(os.path.join(tmp, "*.json"))):
    command = open(path[:-5] + ".cmd").read().strip()
    try:
        data = json.load(open(path))
    except ValueError:
        rows.append((None, command, None))
        continue
    dev = dev or data["device"]
    for r in data["results"]:
        rows.append((r, command, data["device"]))

def label(r):
    return str(r["m"]) if r["m"] == r["n"] == r["k"] else "%dx%dx%d" % (r["m"], r["n"], r["k"])

def figure(r):
    if r["status"] != "ok":
        return r["status"] + (": " + r["message"] if r.get("message") else "")
    g = r["gflops_median"]
    return "%.0f" % g if g >= 100 else "%.1f" % g

lines = []
if dev:
    lines.append("- Date: %s" % datetime.date.today().isoformat())
    lines.append("- Device: %s (%s, %s, %d compute units at %d MHz)" % (dev["name"], dev["platform"], dev["type"],
                 dev["compute_units"], dev["clock_mhz"]))
    lines.append("- Driver: %s" % dev["driver"])
lines.append("- Commands: one `clmm-tutor --bench --lesson L --size S --param NAME=VALUE ... --format json "
             "--no-reference --no-tuned %s` per line of %s, run by `bench/variants.sh`" % (options, listname))
lines.append("")
lines.append("Median GFLOPS over the timed launches (profiling events), each result verified first; "
             "the parameters are the lesson's defaults but for those the list names (all are shown).")
lines.append("")
lines.append("| # | parameters | size | GFLOPS |")
lines.append("|---:|---|---|---:|")
for r, command, d in rows:
    if r is None:
        lines.append("| ? | `%s` | | no output |" % command)
        continue
    lines.append("| %d | %s | %s | %s |" % (r["lesson"], r["params"] or "-", label(r), figure(r)))
text = "\n".join(lines) + "\n"
if out == "/dev/stdout":
    sys.stdout.write(text)
else:
    open(out, "w").write(text)
    print("wrote " + out, file=sys.stderr)
PY
