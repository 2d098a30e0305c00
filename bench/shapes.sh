#!/bin/sh
# bench/shapes.sh [SHAPES [DEVICE [OUTPUT]]]: the top lessons of the ladder against CLBlast
# (with its defaults, and tuned for the device when tuned parameters are given) and cuBLAS,
# at small, odd, deep-K and skinny shapes, one run side by side. Appends a Markdown table to
# OUTPUT (default: standard output) with the date, device, driver and commands, and each
# shape's best lesson against CLBlast tuned and against cuBLAS.
#   CLMM_CLBLAST_PARAMS=tuned/clblast_xgemm_1_32.json:tuned/clblast_xgemm_direct_1_32.json \
#       bench/shapes.sh "" nvidia
# SHAPES: sizes as --size takes them (default: the list below). The lessons measured:
# CLMM_SHAPES_LESSONS (default "16 18 19": those the lesson set has). CLBlast tuned: the
# files of CLMM_CLBLAST_PARAMS, ':' between them (bench/clblast-tune.sh writes them); without
# it, no tuned row. cuBLAS: bench/cublas.py where PyTorch and a CUDA GPU are present, else no
# such row. Extra clmm-tutor options: CLMM_BENCH_OPTIONS (default "--budget 0.5").
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
invoked="bench/shapes.sh"
[ $# -ge 1 ] && invoked="$invoked \"${1:-}\""
[ $# -ge 2 ] && invoked="$invoked '$2'"
shapes=${1:-}
[ -n "$shapes" ] || shapes=256,512,1000,1024,2048,3000,4096,4097,8192,1024x1024x16384,16384x16384x256,8192x8192x1024,256x4096x4096,4096x256x4096
device=${2:-}
output=${3:-}
tutor=${CLMM_TUTOR:-$here/src/clmm-tutor}
command -v python3 >/dev/null 2>&1 || { echo "bench/shapes.sh needs python3 to write the table" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

lessons=""
for l in ${CLMM_SHAPES_LESSONS:-16 18 19}; do
    if "$tutor" --show "$l" >/dev/null 2>&1; then lessons="$lessons $l"; else echo "lesson $l: not in the lesson set, left out" >&2; fi
done
[ -n "$lessons" ] || { echo "bench/shapes.sh: none of the lessons asked for exists" >&2; exit 2; }

commands="$work/commands"
: >"$commands"
bench() {   # bench NAME ARGS...: one clmm-tutor --bench run into NAME.json
    name=$1
    shift
    set -- --bench --size "$shapes" --format json --no-tuned ${CLMM_BENCH_OPTIONS:---budget 0.5} "$@"
    [ -n "$device" ] && set -- "$@" --device "$device"
    echo "clmm-tutor $*" >>"$commands"
    echo "running: clmm-tutor $*" >&2
    status=0
    "$tutor" "$@" >"$work/$name.json" || status=$?
    [ "$status" -le 1 ] || exit "$status"   # 1: a run was wrong or refused: still a table
}

# The first lesson brings CLBlast with its defaults, the second CLBlast tuned; the others none.
n=0
for l in $lessons; do
    n=$((n + 1))
    if [ "$n" -eq 1 ]; then
        CLMM_TUTOR_CLBLAST_PARAMS= bench "lesson$l" --lesson "$l"
    elif [ "$n" -eq 2 ] && [ -n "${CLMM_CLBLAST_PARAMS:-}" ]; then
        set --
        old_ifs=$IFS
        IFS=:
        for f in $CLMM_CLBLAST_PARAMS; do set -- "$@" --clblast-params "$f"; done
        IFS=$old_ifs
        bench "lesson$l" --lesson "$l" "$@"
    else
        bench "lesson$l" --lesson "$l" --no-reference
    fi
done
if [ "$n" -eq 1 ] && [ -n "${CLMM_CLBLAST_PARAMS:-}" ]; then
    echo "bench/shapes.sh: CLBlast tuned needs a second lesson to run beside" >&2
fi

cublas=""
if python3 "$here/bench/cublas.py" "$shapes" --json "$work/cublas.json" >"$work/cublas.md" 2>"$work/cublas.err"; then
    cublas="$work/cublas.json"
    echo "bench/cublas.py $shapes" >>"$commands"
else
    echo "cuBLAS: $(cat "$work/cublas.err")" >&2
fi

python3 - "$work" "$commands" "$cublas" "$invoked" $lessons >"$work/table.md" <<'PY'
import datetime, glob, json, os, sys

work, commands, cublas_file, script = sys.argv[1:5]
lessons = [int(x) for x in sys.argv[5:]]
shapes, cell, titles, dev = [], {}, {}, None
tuned_files = []
for l in lessons:
    data = json.load(open(os.path.join(work, "lesson%d.json" % l)))
    dev = data["device"]
    for r in data["results"]:
        s = (r["m"], r["n"], r["k"])
        if s not in shapes:
            shapes.append(s)
        key = r["lesson"] if r["lesson"] >= 0 else ("tuned" if r.get("tuned_reference") or "tuned" in r["title"] else "defaults")
        titles[key] = r["title"]
        cell[(key, s)] = r
cublas = {}
if cublas_file:
    for r in json.load(open(cublas_file))["results"]:
        cublas[(r["m"], r["n"], r["k"])] = r["fp32_gflops"]

def label(s):
    return str(s[0]) if s[0] == s[1] == s[2] else "%dx%dx%d" % s

# TFLOPS on a GPU, GFLOPS where no figure reaches a TFLOPS (a CPU).
figures = [r["gflops_median"] for r in cell.values() if r["status"] == "ok"] + [g for g in cublas.values()]
unit, scale = ("TFLOPS", 1000.0) if figures and max(figures) >= 1000 else ("GFLOPS", 1.0)

def tf(g):
    g /= scale
    return "%.2f" % g if g < 10 else "%.1f" % g if g < 1000 else "%.0f" % g

def fig(r):
    if r is None:
        return "-", None
    if r["status"] == "wrong result":
        return "**wrong**", None
    if r["status"] != "ok":
        return r["status"], None
    return tf(r["gflops_median"]), r["gflops_median"]

cols = [("lesson %d" % l, l) for l in lessons] + [("CLBlast defaults", "defaults")]
if any(k == "tuned" for k, _ in cell):
    cols.append(("CLBlast tuned", "tuned"))
print("- Date: %s" % datetime.date.today().isoformat())
print("- Device: %s (%s, driver %s, %d compute units)" % (dev["name"], dev["platform"], dev["driver"], dev["compute_units"]))
print("- Commands: `%s`, which ran:" % script)
for line in open(commands):
    print("  `%s`" % line.strip())
print()
print("%s, median of the timed launches" % unit + ", each run verified; lessons with their default")
print("parameters. Best: the fastest lesson at that shape.")
print()
head = ["shape"] + [c[0] for c in cols] + (["cuBLAS FP32"] if cublas else []) + ["best lesson", "/ CLBlast tuned" if any(k == "tuned" for k, _ in cell) else "/ CLBlast", "/ cuBLAS" if cublas else None]
head = [h for h in head if h]
print("| " + " | ".join(head) + " |")
print("|---|" + "---:|" * (len(head) - 1))
for s in shapes:
    row = [label(s)]
    best, best_l = None, None
    for name, key in cols:
        text, g = fig(cell.get((key, s)))
        row.append(text)
        if isinstance(key, int) and g is not None and (best is None or g > best):
            best, best_l = g, key
    if cublas:
        row.append(tf(cublas[s]) if s in cublas else "-")
    row.append("%d" % best_l if best_l is not None else "-")
    ref = cell.get(("tuned", s)) or cell.get(("defaults", s))
    row.append("%.0f%%" % (100 * best / ref["gflops_median"]) if best and ref and ref["status"] == "ok" else "-")
    if cublas:
        row.append("%.0f%%" % (100 * best / cublas[s]) if best and s in cublas else "-")
    print("| " + " | ".join(row) + " |")
for key in ("defaults", "tuned"):
    if key in titles:
        print()
        print("CLBlast %s: %s." % (key, titles[key]))
PY

if [ -n "$output" ]; then cat "$work/table.md" >>"$output"; else cat "$work/table.md"; fi
