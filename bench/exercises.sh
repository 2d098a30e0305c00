#!/bin/sh
# bench/exercises.sh [DEVICE [OUTPUT]]: checks the solution of every exercise that has a speed
# goal (a target, or a "predict, then measure" step) on one device and prints a Markdown
# table of what the check measured: the solution's GFLOPS, the compared lesson's, the ratio
# and the target. It shows whether the targets of exercises/ are within reach on that
# device. Appends to OUTPUT when given (for example doc/results.md, after bench/results.sh,
# which rewrites that file), else prints.
#   bench/exercises.sh h200 doc/results.md
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
device=${1:-}
output=${2:-}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/exercises.sh needs python3 to write the table" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A progress file of its own: the student's is left alone.
export XDG_STATE_HOME="$tmp/state"
set --
[ -n "$device" ] && set -- --device "$device"

for file in "$here"/exercises/*.exercise; do
    grep -Eq '^(target|predict):' "$file" || continue
    n=$(sed -n 's/^exercise:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$file")
    # The solution is shown after a check: check the start first (it fails), then the solution.
    "$tutor" --check "$n" --workspace "$tmp/ws" "$@" >/dev/null 2>&1 || true
    "$tutor" --solution "$n" --yes "$@" </dev/null | sed 1d >"$tmp/solution-$n.cl"
    echo "checking exercise $n's solution" >&2
    predict=
    grep -q '^predict:' "$file" && predict="--predict 1"
    "$tutor" --check "$n" "$tmp/solution-$n.cl" $predict --format json "$@" >"$tmp/check-$n.json" 2>/dev/null ||
        true
done 2>&1

python3 - "$tmp" "$(date -u +%Y-%m-%d)" "$*" <<'EOF' >"$tmp/table.md"
import glob, json, os, sys
tmp, date, args = sys.argv[1], sys.argv[2], sys.argv[3]
rows, device = [], ""
for path in sorted(glob.glob(os.path.join(tmp, "check-*.json")), key=lambda p: int(p.split("-")[-1][:-5])):
    with open(path) as f:
        d = json.load(f)
    device = d["device"]
    s = d["speed"]
    fmt = lambda v: "-" if v is None else "%.0f" % v if v >= 100 else "%.3g" % v
    ratio = "-" if s["ratio"] is None else "%.2f" % s["ratio"]
    goal = "target %.2fx: %s" % (s["target"], s["state"]) if s["target"] is not None else "predict"
    rows.append("| %d | %s | %s | lesson %s | %s | %s | %s | %s |" % (
        d["exercise"], d["verdict"], s["size"], s["versus_lesson"], fmt(s["gflops"]), fmt(s["versus_gflops"]),
        ratio, goal))
print("## Exercises: the solutions against their speed goals")
print()
print("Device: %s; %s; `bench/exercises.sh%s` (each solution checked once, alone on the device, with `clmm-tutor --check N FILE"
      " --format json`, with --predict 1 for a predict step: GFLOPS are medians over the timed launches of that check, the solution"
      " and the lesson measured in the same check at the exercise's size)." % (device, date,
                                                                           " " + args if args else ""))
print()
print("| exercise | verdict | size | compared with | solution GFLOPS | lesson GFLOPS | ratio | goal |")
print("|---:|---|---|---|---:|---:|---:|---|")
print("\n".join(rows))
EOF
if [ -n "$output" ]; then
    { echo; cat "$tmp/table.md"; } >>"$output"
    echo "appended to $output" >&2
else
    cat "$tmp/table.md"
fi
