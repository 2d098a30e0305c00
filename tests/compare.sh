#!/bin/sh
# compare.sh: devices side by side and a saved run beside them, on the command line:
# --device all gives a GFLOPS column per device (two where the machine has two, else that
# part is skipped), a repeated or malformed list is refused, --compare adds the saved run's
# column to the table, CSV and JSON, and hostile saved files are refused with the file named,
# never a crash. Skipped (77) without an OpenCL device.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"
saved="$top_srcdir/tests/compare/saved-64.json"

# The arguments, refused before any device is opened.
expect "--device all outside --bench" 2 'several devices are measured side by side by --bench only' \
    "$tutor" --show 1 --device all
expect "an empty item in a list" 2 '--device 0,,1: an empty item in the list' "$tutor" --bench --device 0,,1
expect "--compare outside --bench and the tutor" 2 '--compare FILE goes with --bench or the tutor' \
    "$tutor" --list --compare "$saved"
# The chart over the saved run it is compared with: refused before anything is measured,
# by any name or link (the run was once replaced by the SVG without a word).
cp "$saved" "$tmp/run.json"
ln -s run.json "$tmp/run-link.svg"
for plot in "$tmp/run.json" "$tmp/./run.json" "$tmp/run-link.svg"; do
    expect "--compare and --plot of one file ($plot)" 2 \
        "--plot: $plot is the saved run that --compare reads, and the chart would replace it" \
        "$tutor" --bench --lesson 1 --size 32 --compare "$tmp/run.json" --plot "$plot"
done
cmp -s "$saved" "$tmp/run.json" || not_ok "--compare and --plot of one file: the saved run left as it was"

"$tutor" --devices >/dev/null 2>&1 || { echo "SKIP: no OpenCL device"; exit 77; }
ndevices=$("$tutor" --devices | grep -c '^  \[[0-9]*\] ')
bench() { "$tutor" --bench --size 64 --reps 1 --no-tuned "$@"; }

expect "all as an item of a list" 2 'all is every device already, not an item of a list' bench --lesson 1 --device all,0
expect "a device named twice" 2 '"0" is device \[0\] again .*name each device once' bench --lesson 1 --device 0,0
expect "a list item that matches nothing" 3 'no OpenCL device matches "nosuchdevice"' \
    bench --lesson 1 --device 0,nosuchdevice

# --device all: a column per device, each named over its column.
expect "--device all" 0 'GFLOPS \[0\]' bench --lesson 1 --device all
expect "--plot with several devices" 2 '--plot draws the run of one device' bench --lesson 1 --device all --plot "$tmp/x.svg"
# The fastest line of each device names its share of every reference row the build has.
refs=
grep -q '^#define HAVE_CLBLAST 1' "$top_builddir/config.h" 2>/dev/null && refs="$refs, [0-9]+% of CLBlast \\(defaults\\)"
grep -q '^#define HAVE_CBLAS 1' "$top_builddir/config.h" 2>/dev/null && refs="$refs, [0-9]+% of CPU BLAS"
expect "--device all: the fastest line against each reference row" 0 "Fastest on \[0\]: lesson 1 at [0-9.]+ GFLOPS$refs" \
    bench --lesson 1 --device all
columns=$(grep -c 'GFLOPS \[[0-9]*\]' "$tmp/out")
header=$(grep -o 'GFLOPS \[[0-9]*\]' "$tmp/out" | wc -l)
first=$("$tutor" --devices | sed -n 's/^  \[0\] [0-9]*:[0-9]*  //p' | cut -c1-12 | sed 's/ *$//')
if [ "$header" -eq "$ndevices" ] && grep -qF "$first" "$tmp/out" && grep -Eq '^  1  Naive.* [0-9]+\.[0-9]' "$tmp/out"; then
    ok "--device all: $ndevices column(s), the device named"
else
    echo "    $header GFLOPS columns for $ndevices devices ($columns lines), or no '$first'" >>"$tmp/err"
    not_ok "--device all: a column per device"
fi
expect "--device all in CSV names each row's device" 0 ',fp32,fp32,0,,,,,no$' bench --lesson 1 --device all --format csv
expect "--device all in JSON lists the devices" 0 '"devices": \[' bench --lesson 1 --device all --format json
if command -v python3 >/dev/null 2>&1; then
    if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert len(d["devices"]) == n and d["device"]["index"] == d["devices"][0]["index"]
assert sorted({r["device_index"] for r in d["results"]}) == sorted(x["index"] for x in d["devices"])' "$tmp/out" "$ndevices"; then
        ok "--device all in JSON: each device's rows"
    else
        not_ok "--device all in JSON: each device's rows"
    fi
fi
if [ "$ndevices" -ge 2 ]; then
    expect "two devices side by side" 0 'GFLOPS \[0\] +GFLOPS \[1\]' bench --lesson 1 --device 0,1
else
    echo "SKIP: one OpenCL device here: two devices side by side not tested"
fi

# --compare: the saved run's column, matched by lesson and size; its other rows noted.
expect "--compare: the saved column" 0 '^  1  Naive.* +1234\.5$' bench --lesson 1 --compare "$saved"
expect "--compare: the saved device over its column" 0 'Saved test d$' bench --lesson 1 --compare "$saved"
expect "--compare: other parameters marked" 0 '^  5  Tiles.* +4321\.0~$' bench --lesson 5 --compare "$saved"
expect "--compare: the reference row" 0 '^ref  CLBlast.* +9876\.0$' bench --lesson 1 --compare "$saved"
expect "--compare: rows of other sizes noted" 0 \
    'rows? of .*saved-64.json match(es)? no lesson at a size of this run.*sizes .*128x128x128' \
    bench --lesson 1 --compare "$saved"
expect "--compare: rows of the file's other devices left out" 0 '1 row of .* is of another device' \
    bench --lesson 1 --compare "$saved"
expect "--compare in CSV" 0 ',"Saved test device","ok",1234\.5,"TS=16 SWAP=0",no$' \
    bench --lesson 1 --compare "$saved" --format csv
expect "--compare in JSON" 0 '"compare": \{"status": "ok", "gflops_median": 1234\.5, "params": "TS=16 SWAP=0", "same_params": true\}' \
    bench --lesson 1 --compare "$saved" --format json
expect "--compare: a lesson the file lacks" 0 '^  6  More work.* +-$' bench --lesson 6 --compare "$saved"
# 300000 rows of distinct sizes (14 MB, under the 16 MiB limit): the note of the rows not
# shown once looked back over the rows before each, and had not ended after 300 s; now a
# second or two.
awk 'BEGIN { printf "{\"device\": {\"name\": \"D\"}, \"results\": [";
    for (i = 0; i < 300000; i++)
        printf "%s{\"lesson\":1,\"m\":%d,\"n\":%d,\"k\":1,\"status\":\"x\"}", (i ? "," : ""), 1 + i % 65536, 1 + int(i / 65536)
    print "]}" }' >"$tmp/many.json"
expect "--compare: 300000 rows of distinct sizes within a minute" 0 \
    '300000 rows of .*many.json match no lesson .*\(lessons 1, sizes 1x1x1 2x1x1 3x1x1 ' \
    timeout 60 "$tutor" --bench --size 64 --reps 1 --no-tuned --lesson 1 --compare "$tmp/many.json"

# Hostile saved runs: one message naming the file, exit 3, nothing on stdout.
hostile() {
    name=$1 pattern=$2
    printf '%s' "$3" >"$tmp/hostile.json"
    expect "--compare refuses $name" 3 "clmm-tutor: --compare: $tmp/hostile.json.*$pattern" \
        bench --lesson 1 --compare "$tmp/hostile.json"
    if [ -s "$tmp/out" ]; then
        not_ok "--compare $name: nothing on stdout"
    fi
}
hostile "a truncated file" '' '{"device": {"name": "D"}, "results": [{"lesson": 1, "m": 64'
hostile "an array" 'holds an array' '[1, 2, 3]'
hostile "a wrong type" '"m" is a string, not an integer' \
    '{"device": {"name": "D"}, "results": [{"lesson": 1, "m": "64", "n": 64, "k": 64, "status": "ok"}]}'
hostile "a giant number" '"gflops_median" is 1e\+300, not a figure' \
    '{"device": {"name": "D"}, "results": [{"lesson": 1, "m": 64, "n": 64, "k": 64, "status": "ok", "gflops_median": 1e300}]}'
hostile "a number beyond a double" '' \
    '{"device": {"name": "D"}, "results": [{"lesson": 1, "m": 1e999}]}'
hostile "a missing key" 'no "results" array' '{"device": {"name": "D"}}'
hostile "a NUL in the device's name" ':1:22: \\u0000 in a string: a NUL character, which no text here may hold' \
    '{"device": {"name": "\u0000"}, "results": []}'
python3 -c 'print("[" * 100000 + "]" * 100000)' >"$tmp/deep.json" 2>/dev/null ||
    awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]" }' >"$tmp/deep.json"
expect "--compare refuses deep nesting" 3 'deep.json.*nest' bench --lesson 1 --compare "$tmp/deep.json"
head -c 20000000 /dev/zero | tr '\0' ' ' >"$tmp/huge.json"
expect "--compare refuses a huge file" 3 'huge.json' bench --lesson 1 --compare "$tmp/huge.json"
expect "--compare refuses a missing file" 3 'clmm-tutor: --compare: .*nosuch.json' \
    bench --lesson 1 --compare "$tmp/nosuch.json"
expect "--compare refuses a directory" 3 'clmm-tutor: --compare: .*' bench --lesson 1 --compare "$tmp"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
