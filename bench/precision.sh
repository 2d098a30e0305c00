#!/bin/sh
# bench/precision.sh [DEVICE [OUTPUT]]: how far each way of computing C is from the exact
# product, and how that grows with K, as Markdown: lesson 20 (FP32 lanes), lesson 21
# (tensor cores, TF32; rounded inputs and, with ROUND=0, cut ones) and lesson 24 (3xTF32;
# with LANES=1 the sums kept on the FP32 lanes), on the same inputs (the same seed) at
# 1024x1024xK for K = 256, 1024, 4096 and 16384 (CLMM_PRECISION_K, CLMM_PRECISION_MN). The
# figure is clmm-tutor's max_error: the largest |C - exact| / (|A||B|) over the elements it
# compares with a double-precision sum (all of C up to 2^27 multiply-adds, else 4096 random
# elements and the last row and column), beside the tolerance the lesson is checked
# against. Appends to OUTPUT when given (for example doc/results.md), else prints.
#   bench/precision.sh nvidia doc/results.md
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
given="$*"
device=${1:-}
output=${2:-}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
ks=${CLMM_PRECISION_K:-256,1024,4096,16384}
mn=${CLMM_PRECISION_MN:-1024}
command -v python3 >/dev/null 2>&1 || { echo "bench/precision.sh needs python3 to write the table" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set --
[ -n "$device" ] && set -- --device "$device"
sizes=$(echo "$ks" | tr ',' '\n' | sed "s/^/${mn}x${mn}x/" | paste -sd, -)

i=0
for run in "20" "21" "21 ROUND=0" "24" "24 LANES=1"; do
    i=$((i + 1))
    lesson=${run%% *}
    params=
    [ "$run" != "$lesson" ] && params="--param ${run#* }"
    echo "lesson $run at $sizes" >&2
    # shellcheck disable=SC2086
    "$tutor" --bench --lesson "$lesson" $params --size "$sizes" --no-reference --budget 0.2 \
        --format json "$@" >"$tmp/run-$i.json" 2>"$tmp/run-$i.err" || true
    echo "$run" >"$tmp/run-$i.name"
done

python3 - "$tmp" "$i" "$(date -u +%Y-%m-%d)" "$given" "$ks" "$mn" <<'PY' >"$tmp/table.md"
import json, os, sys
tmp, count, date, args, ks, mn = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
ks = [int(k) for k in ks.split(",")]
rows, dev = [], None
for i in range(1, count + 1):
    name = open(os.path.join(tmp, "run-%d.name" % i)).read().strip()
    try:
        d = json.load(open(os.path.join(tmp, "run-%d.json" % i)))
    except ValueError:
        err = open(os.path.join(tmp, "run-%d.err" % i)).read().strip().splitlines()
        rows.append((name, None, ["no result: " + (err[-1] if err else "?")] * len(ks), [""] * len(ks)))
        continue
    dev = dev or d["device"]
    cells, tols, title = [], [], None
    for k in ks:
        r = next((r for r in d["results"] if r["lesson"] >= 0 and r["k"] == k), None)
        if r is None:
            cells.append("-"); tols.append(""); continue
        title = title or r["title"]
        if r["status"] in ("ok", "wrong"):
            cells.append("%.2g%s" % (r["max_error"], "" if r["status"] == "ok" else " (wrong)"))
            tols.append("%.2g" % r["tolerance"])
        else:
            cells.append(r["status"]); tols.append("")
    rows.append((name, title, cells, tols))
print("### Precision: the error of FP32 lanes, TF32 and 3xTF32 as K grows\n")
if dev:
    print("Device: %s (%s); driver %s; %s; `bench/precision.sh%s`: max_error, the largest"
          % (dev["name"], dev["platform"], dev["driver"], date, " " + args if args else ""))
print("|C - exact| / (|A||B|) over the elements compared (all of C up to 2^27 multiply-adds, else"
      " 4096 random ones and the last row and column), at %sx%sxK, the same inputs (seed 42,"
      " uniform in [-1, 1)) for every row. The tolerance each result is checked against follows"
      " in brackets.\n" % (mn, mn))
print("| lesson | " + " | ".join("K = %d" % k for k in ks) + " |")
print("|---|" + "---:|" * len(ks))
for name, title, cells, tols in rows:
    label = "%s%s" % (name, " (%s)" % title if title else "")
    print("| %s | " % label + " | ".join("%s%s" % (c, " [%s]" % t if t else "") for c, t in zip(cells, tols)) + " |")
PY
if [ -n "$output" ]; then
    { echo; cat "$tmp/table.md"; } >>"$output"
else
    cat "$tmp/table.md"
fi
