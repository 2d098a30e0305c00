#!/bin/sh
# bench/precision.sh [DEVICE [OUTPUT]]: how far each way of computing C is from the exact
# product, and how that grows with K, as Markdown: lesson 19 (FP32 lanes), lesson 20
# (tensor cores, TF32; rounded inputs and, with ROUND=0, cut ones) and lesson 24 (3xTF32,
# with its ways of keeping the sums), on the same inputs (the same seed) at 1024x1024xK for
# K = 256, 1024, 4096 and 16384 (CLMM_PRECISION_K, CLMM_PRECISION_MN; the runs, lesson and
# parameters, in CLMM_PRECISION_RUNS, separated by commas). The figure is clmm-tutor's
# max_error: the largest |C - exact| / (|A||B|) over the elements it compares with a
# double-precision sum (all of C up to 2^27 multiply-adds, else 4096 random elements and
# the last row and column), beside the tolerance the lesson is checked against. Last rows
# give cuBLAS's SGEMM (TF32 off) on the same inputs (bench/inputs.c writes them), through
# PyTorch where it and a CUDA device are there: its error at the same elements, and over
# all of C, against a product in FP64 on the same GPU.
# Appends to OUTPUT when given (for example doc/results.md), else prints.
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

runs=${CLMM_PRECISION_RUNS:-19,20,20 ROUND=0,24,24 PROMOTE=4,24 PROMOTE=0}
printf '%s\n' "$runs" | tr ',' '\n' | grep -v '^ *$' >"$tmp/runs" ||
    { echo "bench/precision.sh: CLMM_PRECISION_RUNS names no run" >&2; exit 2; }
i=0
while IFS= read -r run <&3; do
    i=$((i + 1))
    lesson=${run%% *}
    params=
    [ "$run" != "$lesson" ] && params=$(echo "${run#* }" | sed 's/\([^ ]*\)/--param \1/g')
    echo "lesson $run at $sizes" >&2
    # shellcheck disable=SC2086
    "$tutor" --bench --lesson "$lesson" $params --size "$sizes" --no-reference --budget 0.2 \
        --format json "$@" >"$tmp/run-$i.json" 2>"$tmp/run-$i.err" || true
    echo "$run" >"$tmp/run-$i.name"
done 3<"$tmp/runs"

# cuBLAS on the same inputs: clmm-tutor's generator, A from seed 42 and B from 43.
cublas=none
if cc -O2 -I"$here/src/engine" -o "$tmp/inputs" "$here/bench/inputs.c" "$here/src/engine/matrix.c" 2>"$tmp/cublas.err"; then
    echo "cuBLAS at $sizes" >&2
    python3 - "$tmp" "$ks" "$mn" <<'PY' >"$tmp/cublas.txt" 2>>"$tmp/cublas.err" && cublas=yes
import os, subprocess, sys
tmp, ks, mn = sys.argv[1], [int(k) for k in sys.argv[2].split(",")], int(sys.argv[3])
try:
    import numpy, torch
except ImportError:
    sys.exit("PyTorch (with numpy) is not installed")
if not torch.cuda.is_available():
    sys.exit("no CUDA device")
torch.backends.cuda.matmul.allow_tf32 = False
def inputs(seed, rows, cols):
    raw = subprocess.run([os.path.join(tmp, "inputs"), str(seed), str(rows * cols)],
                         check=True, stdout=subprocess.PIPE).stdout
    return torch.from_numpy(numpy.frombuffer(raw, dtype=numpy.float32).copy()).reshape(rows, cols).cuda()
# The elements clmm-tutor compares: all of C up to 2^27 multiply-adds, else the last row
# and column and the random ones its verification draws (bench/inputs.c --samples).
pairs = subprocess.run([os.path.join(tmp, "inputs"), "--samples", "42", str(mn), str(mn)],
                       check=True, stdout=subprocess.PIPE, text=True).stdout.split()
rows = torch.tensor([int(x) for x in pairs[0::2]] + [mn - 1] * mn + list(range(mn)), device="cuda")
cols = torch.tensor([int(x) for x in pairs[1::2]] + list(range(mn)) + [mn - 1] * mn, device="cuda")
for k in ks:
    a, b = inputs(42, mn, k), inputs(43, k, mn)
    c = torch.mm(a, b).double()
    exact = torch.mm(a.double(), b.double())
    scale = torch.mm(a.double().abs(), b.double().abs())
    err = (c - exact).abs() / scale
    seen = err if mn * mn * k <= 2 ** 27 else err[rows, cols]
    print("%d %.2g %.2g" % (k, seen.max().item(), err.max().item()))
print("torch %s %s" % (torch.__version__, torch.cuda.get_device_name(0)))
PY
fi

i=$(wc -l <"$tmp/runs")
python3 - "$tmp" "$i" "$(date -u +%Y-%m-%d)" "$given" "$ks" "$mn" "$cublas" <<'PY' >"$tmp/table.md"
import json, os, sys
tmp, count, date, args, ks, mn, cublas = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
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
if cublas == "yes":
    lines = open(os.path.join(tmp, "cublas.txt")).read().split("\n")
    got = dict((l.split()[0], l.split()[1:]) for l in lines if l and not l.startswith("torch"))
    who = next(l for l in lines if l.startswith("torch")).split(" ", 2)
    print("| cuBLAS SGEMM, TF32 off (PyTorch %s, %s) | " % (who[1], who[2])
          + " | ".join(got[str(k)][0] if str(k) in got else "-" for k in ks) + " |")
    print("| the same, over all of C | " + " | ".join(got[str(k)][1] if str(k) in got else "-" for k in ks) + " |")
    print("\ncuBLAS is given the same inputs (bench/inputs.c) and compared at the same elements;"
          " its exact product is computed in FP64 on the same GPU.")
else:
    err = open(os.path.join(tmp, "cublas.err")).read().strip().splitlines()
    print("\ncuBLAS not measured: %s." % (err[-1] if err else "?"))
PY
if [ -n "$output" ]; then
    { echo; cat "$tmp/table.md"; } >>"$output"
else
    cat "$tmp/table.md"
fi
