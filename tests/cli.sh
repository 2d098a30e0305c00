#!/bin/sh
# cli.sh: the command line as a user meets it: bad arguments get one clear line and exit
# status 2, and the modes print what they promise. The parts that measure need an OpenCL
# device; without one they are skipped (and the whole script exits 77 if nothing ran).
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"

# A usage error is exactly one message line plus the hint, on stderr, and exit status 2.
usage_error() {
    name=$1 pattern=$2
    shift 2
    expect "$name" 2 "$pattern" "$tutor" "$@"
    if [ "$(grep -c '^clmm-tutor: ' "$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ]; then
        echo "    wanted one 'clmm-tutor:' line on stderr and nothing on stdout" >>"$tmp/err"
        passed=$((passed - 1))
        not_ok "$name (one line)"
    fi
}

# json_has FILE EXPR: FILE parses as JSON and the Python expression EXPR holds of it, d.
json_has() {
    command -v python3 >/dev/null 2>&1 || return 0
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

expect "--help lists every mode" 0 "--bench.*--show|--show" "$tutor" --help
for opt in --list --devices --show --sources --bench --lesson --size --reps --format --device --lessons \
           --param --budget --max-launch --force --seed --no-reference --clblast-params --ceilings; do
    grep -q -- "$opt" "$tmp/out" || { echo "    --help lacks $opt" >>"$tmp/err"; not_ok "--help mentions $opt"; }
done
expect "--version" 0 "^clmm-tutor [0-9]+\.[0-9]+" "$tutor" --version

usage_error "size zero" 'not a positive size' --bench --size 0
usage_error "negative size" 'not a positive size|not a number' --bench --size -5
usage_error "non-numeric size" 'not a number' --bench --size abc
usage_error "size with two sides" 'one side .* or three' --bench --size 100x200
usage_error "size too large" 'too large' --bench --size 100000
usage_error "unknown lesson number" 'no lesson 42' --bench --lesson 42
usage_error "lesson out of range" 'not a lesson number' --show 200
usage_error "lesson not a number" 'not a lesson number' --lesson x
usage_error "unknown format" 'not a format' --bench --format xml
usage_error "zero repetitions" 'not a count' --bench --reps 0
usage_error "unknown option" 'unknown or ambiguous option' --frobnicate
usage_error "missing value" 'needs a value' --bench --size
usage_error "stray argument" 'unexpected argument' --list extra
usage_error "two modes" 'cannot be combined' --list --devices
usage_error "parameter value not allowed" 'allows TS = ' --show 1 --param TS=7
usage_error "unknown parameter" 'no parameter called NOPE' --bench --lesson 1 --param NOPE=1
usage_error "malformed parameter" 'NAME=VALUE' --bench --param TS
usage_error "bad budget" 'positive number of seconds' --bench --budget -1
usage_error "--tune needs a lesson" 'needs one lesson' --tune
usage_error "--tune takes one lesson" 'needs one lesson' --tune --lesson all
usage_error "--tune takes one size" 'one size' --tune --lesson 5 --size 64,128
usage_error "bad --max-configs" 'not a count' --tune --lesson 5 --max-configs 0
usage_error "bad --time-limit" 'positive number of seconds' --tune --lesson 5 --time-limit x
usage_error "--param with --tune" 'cannot be combined with --tune' --tune --lesson 5 --param TS=8
usage_error "--ceilings with another mode" 'cannot be combined' --ceilings --devices
usage_error "--ceilings has no csv" 'json to .*--ceilings' --ceilings --format csv
usage_error "--inside needs a lesson" '--inside needs one lesson' --inside
usage_error "--inside takes one lesson" '--inside needs one lesson' --inside --lesson all
usage_error "--inside takes one size" '--inside looks at one size' --inside --lesson 5 --size 64,128
usage_error "--inside has no csv" '--format applies to --bench' --inside --lesson 5 --format csv
usage_error "--binary without --inside" '--binary FILE goes with --inside' --bench --binary "$tmp/kernel.bin"
usage_error "--inside of the host lesson" 'lesson 0 runs on the host: it has no kernel to look inside' \
    --inside --lesson 0
usage_error "--plot without --bench" '--plot FILE goes with --bench' --list --plot "$tmp/chart.svg"
usage_error "--plot with no name" '--plot: the file name is empty' --bench --plot ''
# A FILE that cannot be written is refused before anything is measured, and nothing made.
usage_error "--plot in a missing directory" "--plot: .*/missing/chart.svg cannot be created: .*/missing does not exist" \
    --bench --lesson 1 --size 32 --plot "$tmp/missing/chart.svg"
[ -e "$tmp/missing" ] && not_ok "--plot made no directory"
usage_error "--plot onto a directory" "--plot: .* is a directory" --bench --lesson 1 --size 32 --plot "$tmp"
usage_error "--plot takes no option for its file" '--plot needs a file name \(FILE.svg\) before --no-reference' \
    --bench --lesson 1 --size 32 --plot --no-reference
[ -e ./--no-reference ] && not_ok "--plot --no-reference wrote no file"
usage_error "--compare takes no option for its file" '--compare needs a saved run.s file \(FILE.json\) before --no-reference' \
    --bench --lesson 1 --size 32 --compare --no-reference
echo "keep me" >"$tmp/taken.bin"
usage_error "--binary to an existing file" "--binary: $tmp/taken.bin exists \\(a file\\); give a new file name" \
    --inside --lesson 5 --binary "$tmp/taken.bin"
[ "$(cat "$tmp/taken.bin")" = "keep me" ] || not_ok "--binary leaves an existing file as it was"
usage_error "--binary into a directory that is not there, before the build" \
    "--binary: $tmp/none/kernel.bin cannot be created: $tmp/none does not exist" \
    --inside --lesson 5 --binary "$tmp/none/kernel.bin"
usage_error "--binary to a directory" "--binary: $tmp exists \\(a directory\\)" --inside --lesson 5 --binary "$tmp"
# A symbolic link to nothing: said so (it once was "not a regular file"), and not written through.
ln -s "$tmp/nowhere.bin" "$tmp/dangling.bin"
usage_error "--binary to a symbolic link to nothing" \
    "--binary: $tmp/dangling.bin is a symbolic link to $tmp/nowhere.bin, which does not exist; give a new file name" \
    --inside --lesson 5 --binary "$tmp/dangling.bin"
[ -e "$tmp/nowhere.bin" ] && not_ok "--binary wrote nothing through a link"
ln -s "$tmp/nowhere.svg" "$tmp/dangling.svg"
usage_error "--plot through a symbolic link to nothing" \
    "--plot: $tmp/dangling.svg is a symbolic link to $tmp/nowhere.svg, which does not exist" \
    --bench --lesson 1 --size 32 --plot "$tmp/dangling.svg"
[ -e "$tmp/nowhere.svg" ] && not_ok "--plot wrote nothing through a link to nothing"

expect "--list shows lessons 0 to 14" 0 "^14 " "$tutor" --list
for n in 0 1 2 3 4 5 6 7 8 9 10 11 12; do
    grep -Eq "^ ?$n " "$tmp/out" || { echo "    lesson $n missing" >>"$tmp/err"; not_ok "--list has lesson $n"; }
done
# Lessons 2 to 4 are a side branch: marked, with a line saying where it leaves the main line.
for n in 2 3 4; do
    grep -q "^ $n  | " "$tmp/out" || not_ok "--list marks lesson $n as a side branch"
done
for n in 1 5; do
    grep -q "^ $n  [A-Z]" "$tmp/out" || not_ok "--list shows lesson $n on the main line"
done
grep -qx '| side branch "row per work-item": lessons 2 to 4, off lesson 1' "$tmp/out" ||
    not_ok "--list names the side branch and the lesson it leaves"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out" || not_ok "--list fits 80 columns"
expect "--help" 0 'Exit status' "$tutor" --help
awk 'length($0) > 80 { print "    over 80 columns: " $0; bad = 1 } END { exit bad }' "$tmp/out" >"$tmp/wide" &&
    ok "--help fits 80 columns" || { cat "$tmp/wide"; not_ok "--help fits 80 columns"; }
# The host lesson shows the C loop the tool runs, from the file the tool is built with.
expect "--show 0 prints the host loop" 0 "^==== .*/kernels/00-host-reference\.c ====$" "$tutor" --show 0
grep -q "^Source: C, built into the tool, in .*/kernels/00-host-reference\.c$" "$tmp/out" &&
    grep -q "acc += A\[i \* K + k\] \* B\[k \* N + j\];" "$tmp/out" ||
    not_ok "--show 0 names the C source and prints its loop"
# Every shipped lesson opens with its summary: after the header, an "In short" section of
# four items, in order (what changes, why it should help, what to predict, what was
# measured, with a figure and where it comes from), before any other section; and no
# figure is left to fill in. --show prints it first.
for file in "$top_srcdir"/lessons/[0-9]*.lesson; do
    n=$(sed -n 's/^lesson: *//p' "$file")
    got=$(awk 'body && /^## / { sections++ }
               body && sections == 1 && /^- \*Measured:\* .*[0-9].*doc\/results\.md/ { figure = 1 }
               body && sections == 1 && /^- \*/ { sub(/\*[^*]*$/, ""); printf "%s|", $0 }
               END { if (figure) printf "figure|" }
               /^---$/ { body = 1 } body && /^## / && sections == 1 && !/^## In short$/ { printf "first:%s|", $0 }' "$file")
    "$tutor" --show "$n" >"$tmp/out" 2>"$tmp/err"
    first=$(sed -n '/^---*$/{x;p;q;};h' "$tmp/out")
    if [ "$got" = "- *Changes:|- *Why it should help:|- *Predict:|- *Measured:|figure|" ] &&
        [ "$first" = "In short" ] && ! grep -q '{{' "$file"; then
        ok "lesson $n opens with its four-line summary"
    else
        echo "    summary items: $got; first section printed: $first" >>"$tmp/err"
        not_ok "lesson $n opens with its four-line summary"
    fi
    # Each of the four lines is one short sentence a student reads at once: at most 200
    # characters, no second sentence, no question; Predict gives a number or a direction with
    # a size ("about 20% faster at 4096", "a small gain"), not a question.
    bad=$(awk 'body && /^## / { sections++ }
               body && sections == 1 && /^- \*/ {
                   line = $0; text = $0; sub(/^- \*[^*]*:\* /, "", text)
                   if (length(line) > 200) printf "longer than 200 characters: %s|", substr(line, 1, 40)
                   if (text ~ /\?/) printf "a question: %s|", substr(line, 1, 40)
                   if (text ~ /[.!] [A-Z]/) printf "two sentences: %s|", substr(line, 1, 40)
                   if (line ~ /^- \*Predict:\*/ && text !~ /[0-9]/ &&
                       text !~ /(faster|slower|gain|loss|more|less|same|twice|half|above|below|larger|smaller|percent|few|fall|rise)/)
                       printf "Predict without a number or a direction: %s|", substr(line, 1, 40)
               }
               /^---$/ { body = 1 }' "$file")
    if [ -z "$bad" ]; then
        ok "lesson $n: its summary lines are short sentences, its prediction a size"
    else
        echo "    $bad" >>"$tmp/err"
        not_ok "lesson $n: its summary lines are short sentences, its prediction a size"
    fi
done
expect "--show prints the lesson and its kernel" 0 "__kernel" "$tutor" --show 5
grep -q "^Lesson 5: " "$tmp/out" || not_ok "--show 5 starts with its title"
# After its sources line, each document it cites, whole, from lessons/SOURCES.
sed -n '/^From: /,/^Kernel: /p' "$tmp/out" >"$tmp/cited"
grep -q "^      003  Tutorial: OpenCL SGEMM tuning for Kepler$" "$tmp/cited" &&
    grep -q "^           Address: not given in the document; document 000 links its page 8 as$" "$tmp/cited" &&
    grep -q "^           Author:  Tim Mattson, Simon McIntosh-Smith and Tom Deakin" "$tmp/cited" &&
    [ "$(grep -c "^      00[0-4]  " "$tmp/cited")" -eq 5 ] &&
    ok "--show 5 prints the five documents it cites after its sources line" ||
    not_ok "--show 5 prints the five documents it cites after its sources line"
expect "--show 2 cites only document 002" 0 "^      002  Tutorial OpenCL$" "$tutor" --show 2
[ "$(grep -c "^      00[0-4]  " "$tmp/out")" -eq 1 ] || not_ok "--show 2 prints one document"
expect "--sources prints every document" 0 "^004  Case study: matrix multiplication$" "$tutor" --sources
[ "$(grep -c "^00[0-4]  " "$tmp/out")" -eq 5 ] && [ "$(grep -c "^     About:   " "$tmp/out")" -eq 5 ] ||
    not_ok "--sources prints the five documents with what each is"
usage_error "--sources with another mode" 'cannot be combined' --sources --list
mkdir "$tmp/sources"
cp "$top_srcdir/lessons/02-row-per-item.lesson" "$top_srcdir/kernels/02-row-per-item.cl" "$tmp/sources/"
expect "--sources without a SOURCES file" 0 "^No documents: .*/SOURCES does not exist" \
    "$tutor" --sources --lessons "$tmp/sources"
expect "--show without a SOURCES file prints the sources line alone" 0 "^From: 002 " \
    "$tutor" --show 2 --lessons "$tmp/sources"
grep -q "^      002  " "$tmp/out" && not_ok "--show without a SOURCES file names no document"
printf 'source: 002\ntitle: A title\nauthor: An author\naddress: https://example.org/2\nabout: What it is.\n' \
    >"$tmp/sources/SOURCES"
expect "--show takes the SOURCES file of --lessons DIR" 0 "^           Address: https://example.org/2$" \
    "$tutor" --show 2 --lessons "$tmp/sources"
printf 'source: 002\ntitle: A title\nwho: nobody\n' >"$tmp/sources/SOURCES"
expect "malformed SOURCES: file, line and what was expected" 3 \
    "sources/SOURCES:3: unknown key \"who\" \(expected source, title, author, address or about\)" \
    "$tutor" --show 2 --lessons "$tmp/sources"
expect "--show tells a switch from a parameter" 0 "^Switch PREFETCH = 1 \(allowed: 1, 0\)" "$tutor" --show 13
expect "--show gives a range parameter's range" 0 "^Parameter WAVE = 132 \(allowed: 1 to 1024\)" "$tutor" --show 19
expect "--param outside a range parameter's range" 2 "--param WAVE=0: lesson 19 allows WAVE = 1 to 1024" \
    "$tutor" --bench --lesson 19 --param WAVE=0 --size 64

# --show N --host-code: the launch as C, evaluated at the size (lesson 8 pads 1000x700x300
# to 1024x704x320; global M, N / WPTN) with the defaults and --param, B passed as B^T.
usage_error "--host-code without --show" '--host-code goes with --show N' --bench --host-code
usage_error "--host-code at two sizes" '--host-code writes the launch at one size' --show 8 --host-code --size 64,128
usage_error "--host-code of the host lesson" 'lesson 0 runs on the host: it launches no kernel' --show 0 --host-code
usage_error "--host-code with a value not allowed" 'allows TSM = 32, 64, 128' --show 8 --host-code --param TSM=7
expect "--show 8 --host-code at 1000x700x300" 0 'void run_lesson_8\(' "$tutor" --show 8 --host-code --size 1000x700x300
for line in 'so 1000x700x300 is padded to 1024x704x320' \
            '"-DTSM=64 -DTSN=64 -DTSK=32 -DWPTN=16 -DPAD=1 -cl-kernel-arg-info"' \
            'clCreateKernel(program, "gemm_rect_tiles", &err)' \
            'CHECK(clSetKernelArg(kernel, 4, sizeof(cl_mem), &b_buf));   /* B^T */' \
            'const size_t global[2] = { 1024, 44 };   /* M, N / WPTN */' \
            'const size_t local[2] = { 64, 4 };   /* TSM, TSN / WPTN */'; do
    grep -Fq -- "$line" "$tmp/out" || { echo "    no: $line" >>"$tmp/err"; not_ok "--host-code writes: $line"; }
done
expect "--host-code with --param" 0 'global\[2\] = \{ 1024, 88 \};' \
    "$tutor" --show 8 --host-code --size 1000x700x300 --param WPTN=8
grep -Fq -- '"-DTSM=64 -DTSN=64 -DTSK=32 -DWPTN=8 -DPAD=1 -cl-kernel-arg-info"' "$tmp/out" || not_ok "--host-code builds with the --param value"
expect "--host-code of a launch the lesson refuses" 1 \
    'clmm-tutor: lesson 12 at 100x100x100: two buffers of both tiles' \
    "$tutor" --show 12 --host-code --size 100 --param TSK=32
[ -s "$tmp/out" ] && not_ok "a refused --host-code prints no code"

mkdir "$tmp/bad"
printf 'lesson: 1\ntitle: t\nsources: s\nkernel: k.cl\nfoo: bar\n---\ntext\n' >"$tmp/bad/01-bad.lesson"
expect "malformed lesson: file, line and what was expected" 3 "01-bad.lesson:4: kernel file" \
    "$tutor" --list --lessons "$tmp/bad"
expect "missing lesson directory" 3 "cannot open the lesson directory" "$tutor" --list --lessons "$tmp/none"
# A lesson of several launches: a then line's lines before any then line, or a W without a
# scratch line, stop the tool with the file and line.
mkdir "$tmp/then"
printf '__kernel void k(void) {}\n' >"$tmp/then/k.cl"
printf 'lesson: 1\ntitle: t\nsources: s\nkernel: k.cl\nentry: k\nargs: C\nglobal: M\nthen-args: C\n---\n' \
    >"$tmp/then/01-then.lesson"
expect "then-args before any then line: file and line" 3 "01-then.lesson:8: then-args comes before any then line" \
    "$tutor" --list --lessons "$tmp/then"
printf 'lesson: 1\ntitle: t\nsources: s\nkernel: k.cl\nentry: k\nargs: C\nglobal: M\nthen: k\nthen-args: C W\nthen-global: M\n---\n' \
    >"$tmp/then/01-then.lesson"
expect "W without a scratch line: file and line" 3 "01-then.lesson:9: argument W is the scratch buffer" \
    "$tutor" --list --lessons "$tmp/then"
# --show lists every launch of lesson 15, and the scratch buffer.
expect "--show 15 names its second launch" 0 "^Then kernel: reduce_split_k, where SPLIT > 1 is not 0$" \
    "$tutor" --show 15
grep -q "^Arguments: M N C W$" "$tmp/out" && grep -q "^Scratch:      (SPLIT > 1) \* SPLIT \* M \* N floats (argument W)$" "$tmp/out" &&
    grep -q "^Arguments: M N K A B C W$" "$tmp/out" && ok "--show 15 gives each launch's arguments and the scratch buffer" ||
    not_ok "--show 15 gives each launch's arguments and the scratch buffer"
expect "--show 15 --host-code writes both launches" 0 "clEnqueueNDRangeKernel\(queue, kernel2, 1, NULL, global2, local2" \
    "$tutor" --show 15 --host-code --size 100x70x300 --param SPLIT=3
expect "--show 15 --host-code with SPLIT=1 skips the second" 0 "Launch 2 of 2 \(then: reduce_split_k\): skipped at this size" \
    "$tutor" --show 15 --host-code --size 1024 --param SPLIT=1

# ocl-icd (Debian's loader) reads its platforms from OCL_ICD_VENDORS; other loaders may not.
mkdir "$tmp/no-icd"
if OCL_ICD_VENDORS="$tmp/no-icd" "$tutor" --devices >/dev/null 2>&1; then
    echo "SKIP: no OpenCL platform: this ICD loader ignores OCL_ICD_VENDORS, so platforms cannot be hidden"
else
    expect "no OpenCL platform says how to install one" 3 "pocl-opencl-icd" \
        env OCL_ICD_VENDORS="$tmp/no-icd" "$tutor" --devices
fi

if ! "$tutor" --devices >/dev/null 2>&1; then
    echo "SKIP: no OpenCL device; the measuring tests did not run"

else
    expect "unknown device lists the devices" 3 "no OpenCL device matches .*devices: 0 " \
        "$tutor" --bench --lesson 1 --size 32 --device no-such-device
    # --bench marks a side branch's lessons as --list does, and says so under the table;
    # CSV and JSON name the branch, the main line's lessons none.
    expect "--bench marks a side branch" 0 '^  3  \| Row, A row in private' \
        "$tutor" --bench --lesson 3 --size 32 --reps 2 --no-reference
    grep -qx '| side branch "row per work-item": a detour from the main line of the ladder (see --list)' "$tmp/out" ||
        not_ok "--bench names the side branch under its table"
    expect "--bench leaves the main line unmarked" 0 '^  5  Tiles in local memory' \
        "$tutor" --bench --lesson 5 --size 32 --reps 2 --no-reference
    grep -q 'side branch' "$tmp/out" && not_ok "--bench names no side branch for lesson 5"
    expect "csv: the branch column" 0 ',"row per work-item",fp32,fp32,[0-9]+,,,,,no$' \
        "$tutor" --bench --lesson 4 --size 32 --reps 2 --no-reference --format csv
    head -1 "$tmp/out" | grep -q ',branch,precision,units,device_index,compare_device,compare_status,compare_gflops_median,compare_params,emulated$' ||
        not_ok "csv: the header ends with branch, then precision and units, then the device, the saved run and emulated"
    "$tutor" --bench --lesson 2 --size 32 --reps 2 --format json >"$tmp/branch.json" 2>"$tmp/err"
    json_has "$tmp/branch.json" 'd["results"][0]["branch"] == "row per work-item" and d["results"][1]["branch"] is None' &&
        ok "json: a lesson's branch, null for the reference" || not_ok "json: a lesson's branch, null for the reference"
    # A branch's name of 28 columns in three-byte characters comes through whole.
    mkdir "$tmp/euro"
    sed 's/^branch: .*/branch: €€€€€€€€€€€€€€€€€€€€€€€€€€€€/' \
        "$top_srcdir/lessons/02-row-per-item.lesson" >"$tmp/euro/02-row-per-item.lesson"
    cp "$top_srcdir/kernels/02-row-per-item.cl" "$tmp/euro/"
    "$tutor" --bench --lessons "$tmp/euro" --lesson 2 --size 32 --reps 2 --no-reference --format json >"$tmp/euro.json" 2>"$tmp/err"
    json_has "$tmp/euro.json" 'd["results"][0]["branch"] == "\u20ac" * 28' &&
        ok "json: a branch of 28 three-byte characters whole" || not_ok "json: a branch of 28 three-byte characters whole"
    expect "device by index" 0 "ok" "$tutor" --bench --lesson 1 --size 32 --reps 2 --device 0 --format csv
    expect "device by platform:device" 0 "ok" "$tutor" --bench --lesson 1 --size 32 --reps 2 --device 0:0 --format csv
    expect "csv: header and a verified row" 0 '^[^,]*,1,"[^"]*","TS=[0-9]+ SWAP=[0-9]+",40,30,20,[0-9]+,[0-9]+,[0-9]+,ok,' \
        "$tutor" --bench --lesson 1 --size 40x30x20 --reps 2 --format csv --no-reference
    head -1 "$tmp/out" | grep -q '^device,lesson,title,params,m,n,k,' || not_ok "csv header"
    expect "--check-timing adds the host-clock figure" 0 '^[^,]*,5,.*,ok,.*,exhaustive,[0-9.e+-]+,[0-9.e+-]+,' \
        "$tutor" --bench --lesson 5 --size 32 --reps 3 --format csv --no-reference --check-timing
    expect "json is well formed" 0 '"status": "ok"' \
        "$tutor" --bench --lesson 12 --size 33x17x9,64 --reps 2 --format json
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"]) >= 2' "$tmp/out" \
            && ok "json parses, one result per lesson and size" || not_ok "json parses"
    fi
    expect "table of several sizes" 0 "Size 48x40x24" "$tutor" --bench --lesson 5 --size 32,48x40x24 --reps 2
    expect "a broken lesson is reported wrong, the others still run" 1 "WRONG RESULT" \
        "$tutor" --bench --lessons "$top_srcdir/tests/broken" --size 64x48x40 --reps 2 --no-reference
    grep -Eq '^ +90 +Control: a correct kernel +[0-9.]+ ' "$tmp/out" || not_ok "the control lesson is measured"
    grep -q 'build log' "$tmp/out" || not_ok "a build failure shows its build log"
    grep -q 'work-group of' "$tmp/out" || not_ok "an oversized work-group is refused with figures"

    # --plot: the chart as SVG, valid (xmllint), from the table's own figures; a title
    # from a lesson file escaped, and a bad byte in it made U+FFFD.
    have_xmllint=$(command -v xmllint)
    [ -n "$have_xmllint" ] || echo "SKIP: xmllint (Debian: libxml2-utils) is not installed: SVG validity not checked"
    # svg_ok NAME FILE PATTERN...: FILE is well-formed XML whose root is <svg> with xmlns,
    # width, height and viewBox, and holds each fixed string PATTERN.
    svg_ok() {
        name=$1 file=$2
        shift 2
        if [ ! -s "$file" ]; then
            echo "    $file is missing or empty" >>"$tmp/err"
            not_ok "$name"
            return
        fi
        if [ -n "$have_xmllint" ] && ! xmllint --noout "$file" 2>>"$tmp/err"; then
            not_ok "$name (xmllint)"
            return
        fi
        if [ -n "$have_xmllint" ] && [ "$(xmllint --xpath 'count(/*[local-name()="svg" and
                namespace-uri()="http://www.w3.org/2000/svg" and @width and @height and @viewBox])' "$file")" != 1 ]; then
            not_ok "$name (an <svg> root with xmlns, width, height and viewBox)"
            return
        fi
        for want in "$@"; do
            if ! grep -Fq -- "$want" "$file"; then
                echo "    no '$want' in $file" >>"$tmp/err"
                not_ok "$name"
                return
            fi
        done
        ok "$name"
    }
    "$tutor" --bench --size 32 --reps 3 --plot "$tmp/one.svg" >"$tmp/out" 2>"$tmp/err"
    device=$(sed -n 's/^Device: \(.*\) (.*/\1/p' "$tmp/out" | sed 's/&/\&amp;/g')
    svg_ok "--plot at one size: a bar per lesson, the device, refusals said" "$tmp/one.svg" \
        "GFLOPS of each lesson at 32x32x32" ">$device" "Tiles in local memory</text>" \
        "CPU triple loop, one core</text>" "GFLOPS: higher is faster" "mma.sync tensor cores [TF32, emulated]</text>" \
        "emulated: no tensor cores on this device; layouts as on NVIDIA, speed not comparable"
    grep -q 'CLBlast' "$tmp/out" && { grep -Fq '>ref</text>' "$tmp/one.svg" ||
        not_ok "--plot: the reference row"; }
    # Each bar's figure is the table's median, as the table rounds it.
    # The rows measured: a lesson number or ref first, the largest error last.
    awk '$1 ~ /^([0-9]+|ref)$/ && $NF ~ /^[0-9.]+e[-+][0-9]+$/ { print $1, $(NF - 4) }' "$tmp/out" >"$tmp/figures"
    while read -r n fig; do
        grep -Eq ">$fig( TF32)?( emulated)?</text>" "$tmp/one.svg" || echo "    $n: no bar of $fig" >>"$tmp/err"
    done <"$tmp/figures"
    if [ ! -s "$tmp/figures" ] || grep -q 'no bar of' "$tmp/err"; then not_ok "--plot: the table's medians"
    else ok "--plot: the table's medians"; fi
    ls "$tmp"/one.svg.* >/dev/null 2>&1 && not_ok "--plot leaves no temporary file"
    # Through a symbolic link, as a shell's > writes: the file it leads to replaced, the link kept.
    echo "an old chart" >"$tmp/target.svg"
    ln -s target.svg "$tmp/link.svg"
    "$tutor" --bench --lesson 1 --size 32 --reps 1 --no-reference --plot "$tmp/link.svg" >"$tmp/out" 2>"$tmp/err"
    if [ -L "$tmp/link.svg" ] && [ "$(readlink "$tmp/link.svg")" = target.svg ]; then
        svg_ok "--plot writes through a symbolic link" "$tmp/target.svg" "GFLOPS of each lesson at 32x32x32"
    else
        not_ok "--plot keeps a symbolic link and writes through it"
    fi
    "$tutor" --bench --size 32,48 --reps 1 --plot "$tmp/sizes.svg" >"$tmp/out" 2>"$tmp/err"
    svg_ok "--plot at several sizes: GFLOPS against size, a legend" "$tmp/sizes.svg" \
        "GFLOPS against size, a line per lesson" ">$device" "5 Tiles in local memory</text>" ">32</text>" \
        ">48</text>" "<polyline" "mma.sync tensor cores [TF32, em" \
        "emulated: no tensor cores on this device; layouts as on NVIDIA, speed not comparable"
    mkdir "$tmp/hostile"
    sed "s/^short: .*/short: Hostile <\&>\"' $(printf '\377') title/" "$top_srcdir/lessons/01-naive.lesson" \
        >"$tmp/hostile/01-naive.lesson"
    cp "$top_srcdir/kernels/01-naive.cl" "$tmp/hostile/"
    hostile="Hostile &lt;&amp;&gt;&quot;&apos; $(printf '\357\277\275') title</text>"
    "$tutor" --bench --lessons "$tmp/hostile" --size 32 --reps 1 --no-reference --plot "$tmp/hostile1.svg" \
        >"$tmp/out" 2>"$tmp/err"
    svg_ok "--plot escapes a lesson's title (one size)" "$tmp/hostile1.svg" "$hostile"
    "$tutor" --bench --lessons "$tmp/hostile" --size 32,40 --reps 1 --no-reference --plot "$tmp/hostile2.svg" \
        >"$tmp/out" 2>"$tmp/err"
    svg_ok "--plot escapes a lesson's title (several sizes)" "$tmp/hostile2.svg" "$hostile"
    "$tutor" --bench --lessons "$top_srcdir/tests/broken" --size 64x48x40 --reps 1 --no-reference \
        --plot "$tmp/broken.svg" >"$tmp/out" 2>"$tmp/err"
    svg_ok "--plot shows wrong, failed and refused lessons as such" "$tmp/broken.svg" \
        "WRONG RESULT (not timed)" "failed: " "refused: " "Control: a correct kernel</text>"
    # Progress goes to a terminal only: with stderr a file, nothing of it.
    "$tutor" --bench --lesson 1 --size 32,48 --reps 1 --no-reference >"$tmp/out" 2>"$tmp/err"
    if grep -q 'elapsed' "$tmp/err" || [ "$(tr -cd '\r' <"$tmp/err" | wc -c)" -ne 0 ]; then
        not_ok "--bench prints no progress when stderr is not a terminal"
    else
        ok "--bench prints no progress when stderr is not a terminal"
    fi
    # On a terminal (script(1) makes one), the progress line shows and is blanked at the end:
    # what the terminal's last line shows after each carriage return is written over it.
    progress_shown() {
        name=$1 pattern=$2
        shift 2
        if ! command -v script >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
            echo "SKIP: $name: needs script(1) and python3"
            return
        fi
        script -qec "$*" /dev/null >"$tmp/tty" 2>&1 </dev/null
        if python3 - "$tmp/tty" "$pattern" <<'PY'
import re, sys
raw = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
if not re.search(sys.argv[2], raw):
    sys.exit("no progress line matching " + sys.argv[2])
# The last line as the terminal leaves it: each \r returns to its start and writes over.
screen = []
for piece in raw.replace("\r\n", "\n").split("\n")[-1].split("\r"):
    screen[:len(piece)] = list(piece)
if "".join(screen).strip():
    sys.exit("left on the terminal: " + "".join(screen))
PY
        then ok "$name"; else not_ok "$name"; fi
    }
    progress_shown "--bench shows its progress on a terminal, then blanks it" \
        'lesson 1, 1 of 2, at 32x32x32 \(size 1 of 2\): [0-9]+ s elapsed' \
        "'$tutor' --bench --lesson 1 --size 32,48 --reps 1 --no-reference >/dev/null"
    progress_shown "--tune shows its progress on a terminal, then blanks it" \
        'lesson 5 at 32x32x32: configuration 1 of [0-9]+: [0-9]+ s elapsed' \
        "'$tutor' --tune --lesson 5 --size 32 --max-configs 2 --reps 1 >/dev/null"
    expect "a launch over the limit is refused with the estimate" 1 "would take about [0-9.]+ s" \
        "$tutor" --bench --lesson 0 --size 2048 --max-launch 0.05 --no-reference
    grep -q -- "--force" "$tmp/out" || not_ok "the refusal says how to force it"
    # 65536x65536 floats are 16 GiB: more than a CPU device's largest buffer, not more than
    # a large GPU's, which would really run it.
    largest=$("$tutor" --devices | sed -n 's/.*largest buffer \([0-9.]*\) GiB.*/\1/p' | head -n 1)
    if awk "BEGIN { exit !(${largest:-0} < 16) }"; then
        expect "a size beyond the device's memory is refused with the figures" 1 \
            '"size 65536x65536x1 refused: .*(largest allocation|global memory).*MiB' \
            "$tutor" --bench --lesson 1 --size 65536x65536x1 --no-reference --format json --device 0
    else
        echo "SKIP: the first device's largest buffer (${largest} GiB) holds 16 GiB: no size is too large for it"
    fi
    expect "the host lesson has nothing to tune" 2 "no parameters to tune" "$tutor" --tune --lesson 0
    expect "--tune stops at --max-configs" 0 "Stopped by --max-configs at 2 of 20" \
        "$tutor" --tune --lesson 6 --size 64 --reps 1 --max-configs 2
    grep -q "best so far" "$tmp/out" || not_ok "--tune shows the best so far"
    sed -n 's/^\[ *1\/20\] \(TS=[0-9]* WPT=[0-9]*\) .*/\1/p' "$tmp/out" | grep -qx "TS=32 WPT=8" ||
        not_ok "--tune measures the lesson's defaults first"
    expect "--tune resumes where it stopped" 0 "Searched all 20 configurations \(18 in this run\)" \
        "$tutor" --tune --lesson 6 --size 64 --reps 1
    grep -q "(earlier run)" "$tmp/out" || not_ok "--tune replays the earlier run"
    grep -q "refused: .*TS % WPT == 0" "$tmp/out" || not_ok "--tune skips configurations with their reason"
    grep -Eq "^ +[0-9.]+ - +[0-9.]+ \|#+ [0-9]+$" "$tmp/out" || not_ok "--tune draws the spread of GFLOPS"
    best=$(sed -n 's/^Best: \(.*\) at .*/\1/p' "$tmp/out")
    # A run that died while measuring leaves "started" and no outcome: that configuration is
    # recorded as failed, not tried forever; a line cut short by the crash is ignored.
    "$tutor" --tune --lesson 5 --size 64 --reps 1 --max-configs 1 >/dev/null 2>&1
    log5=$(ls "$XDG_STATE_HOME"/clmm-tutor/tune/*lesson-5-64x64x64.log)
    printf '0\tstarted\n2\tok' >>"$log5"
    expect "a configuration that ended the run is not tried again" 0 \
        "TS=8 .*error: the previous run ended while measuring" \
        "$tutor" --tune --lesson 5 --size 64 --reps 1
    grep -q "^\[2/3\] TS=32 .*earlier run" "$tmp/out" && not_ok "a half-written log line is not replayed"
    mkdir "$tmp/lessons6"
    sed 's/^param: WPT = .*/param: WPT = 8 in 16, 8, 4, 2, 1/' "$top_srcdir/lessons/06-more-work.lesson" \
        >"$tmp/lessons6/06-more-work.lesson"
    cp "$top_srcdir/kernels/06-more-work.cl" "$tmp/lessons6/"
    # Its own data directory: its one measurement must not replace the entry tested below.
    expect "a log of other parameter values is not replayed" 0 "started afresh" \
        env XDG_DATA_HOME="$tmp/data-other" \
        "$tutor" --tune --lesson 6 --size 64 --reps 1 --max-configs 1 --lessons "$tmp/lessons6"
    [ -s "$XDG_DATA_HOME/clmm-tutor/tuned" ] || not_ok "--tune saves the best parameters"
    expect "later runs use the tuned parameters, marked with their size" 0 "6  $best \(tuned at 64x64x64\)$" \
        "$tutor" --bench --lesson 6 --size 64 --reps 1 --no-reference
    # A search stopped by --max-configs is saved as partial, for sizes near its own only.
    partial="env XDG_DATA_HOME=$tmp/data-partial XDG_STATE_HOME=$tmp/state-partial"
    expect "a stopped search is saved as partial" 0 "Saved in .* as a partial search" \
        $partial "$tutor" --tune --lesson 6 --size 32 --reps 1 --max-configs 1
    expect "the bench marks a partial search's parameters" 0 "6  TS=32 WPT=8 \(tuned at 32x32x32, partial search\)$" \
        $partial "$tutor" --bench --lesson 6 --size 32,128 --reps 1 --no-reference
    grep -q "6  TS=32 WPT=8 (defaults; tuned at 32x32x32, not applied at 128x128x128)$" "$tmp/out" ||
        not_ok "tuned parameters are not applied at a size 4 times larger, and the table says so"
    expect "csv: the tuned size and a partial search" 0 '^[^,]*,6,.*,32,32,32,.*,yes,32,32,32,yes,(yes|no),"' \
        $partial "$tutor" --bench --lesson 6 --size 32,128 --reps 1 --no-reference --format csv
    grep -Eq '^[^,]*,6,.*,128,128,128,.*,no,,,,,(yes|no),"' "$tmp/out" || not_ok "csv: not tuned at a far size"
    expect "json: the tuned size and a partial search" 0 \
        '"tuned": true, "tuned_m": 32, "tuned_n": 32, "tuned_k": 32, "tuned_partial": true, "m": 32' \
        $partial "$tutor" --bench --lesson 6 --size 32 --reps 1 --no-reference --format json
    expect "--no-tuned uses the defaults" 0 "6  TS=32 WPT=8$" \
        "$tutor" --bench --lesson 6 --size 64 --reps 1 --no-reference --no-tuned
    expect "--param starts from the defaults, not the tuned values" 0 "6  TS=32 WPT=4$" \
        "$tutor" --bench --lesson 6 --size 64 --reps 1 --no-reference --param WPT=4
    expect "--lesson walks through one lesson" 0 "Lesson 2: .*|GFLOPS" \
        "$tutor" --lesson 2 --size 64 --reps 2 --no-reference
    grep -q "__kernel" "$tmp/out" && grep -q "GFLOPS" "$tmp/out" || not_ok "--lesson prints the kernel and a measurement"

    # --inside: what the platform tells of the kernel, and, plainly, what it does not.
    expect "--inside prints the platform's figures" 0 '^  local memory +[0-9]+ bytes per work-group$' \
        "$tutor" --inside --lesson 5 --size 64
    grep -Eq '^Lesson 5 \(.*\), kernel gemm_local_tiles$' "$tmp/out" &&
        grep -Eq '^  work-group size +at most [0-9]+ work-items$' "$tmp/out" ||
        not_ok "--inside names the lesson and gives the work-group size"
    # NVIDIA's compiler gives registers and PTX; others say they do not.
    grep -Eq '^  registers +[0-9]+ per work-item$' "$tmp/out" ||
        grep -q '^  - registers, spills and stack: not reported by this platform' "$tmp/out" ||
        not_ok "--inside gives the registers or says that the platform does not"
    grep -Eq 'Per k: 1 FMA and 2 ld\.shared\.' "$tmp/out" ||
        grep -q '^  - instruction counts: the program binary is not readable text' "$tmp/out" ||
        not_ok "--inside counts the hot loop or says why it cannot"
    expect "--inside --format json" 0 '"lesson": 5' "$tutor" --inside --lesson 5 --size 64 --format json
    json_has "$tmp/out" '(d["kernel"] == "gemm_local_tiles" and d["platform"]["local_mem_bytes"] > 0 and
        (d["hot_loop"] is not None or any(m.startswith("instruction counts: ") for m in d["missing"])) and
        (d["compiler"]["registers"] is not None or any(m.startswith("registers") for m in d["missing"])))' ||
        not_ok "--inside --format json parses, with the figures or what is missing"
    expect "--inside --binary saves the program binary" 0 "The program binary \\([0-9]+ bytes.*\\) is saved in $tmp/kernel.bin" \
        "$tutor" --inside --lesson 5 --size 64 --binary "$tmp/kernel.bin"
    bytes=$(sed -n 's/^The program binary (\([0-9]*\) bytes.*/\1/p' "$tmp/out")
    [ -n "$bytes" ] && [ "$(wc -c <"$tmp/kernel.bin")" -eq "$bytes" ] || not_ok "--binary writes the whole binary"
    cp "$tmp/kernel.bin" "$tmp/kernel.copy"
    expect "--inside --binary does not replace the file it wrote" 2 'exists' \
        "$tutor" --inside --lesson 5 --size 64 --binary "$tmp/kernel.bin"
    cmp -s "$tmp/kernel.bin" "$tmp/kernel.copy" || not_ok "a second --binary leaves the first file as it was"
    expect "--inside --format json --binary" 0 "\"saved_to\": \"$tmp/kernel2.bin\"" \
        "$tutor" --inside --lesson 5 --size 64 --format json --binary "$tmp/kernel2.bin"
fi

# --- Hostile files: lesson, kernel and tuned files that are not what they should be ------
# Every run is bounded by timeout: a FIFO or /dev/zero read as a file would hang or grow
# without end, and the test fails instead of hanging the suite.
hostile="$top_srcdir/tests/hostile/files"
mkdir "$tmp/fifo-lesson" "$tmp/zero-lesson" "$tmp/kernel-dir" "$tmp/kernel-loop"
mkfifo "$tmp/fifo-lesson/01-fifo.lesson"
expect "a FIFO named *.lesson is refused, not waited on" 3 "01-fifo.lesson is a FIFO \(named pipe\), not a regular file" \
    timeout 20 "$tutor" --list --lessons "$tmp/fifo-lesson"
ln -s /dev/zero "$tmp/zero-lesson/01-zero.lesson"
expect "a *.lesson link to /dev/zero is refused, not read" 3 "01-zero.lesson is a character device, not a regular file" \
    timeout 20 "$tutor" --list --lessons "$tmp/zero-lesson"
expect "a kernel path out of the lesson directory is refused with where it leads" 3 \
    'kernel file "[./]*etc/passwd" is /etc/passwd, outside the lesson directory and the kernels directory' \
    timeout 20 "$tutor" --show 1 --lessons "$hostile/escape"
grep -q "^root:" "$tmp/out" && not_ok "--show does not print a file out of the lesson directory"
expect "a lesson saved with a byte-order mark is read" 0 "Saved with a byte-order mark" \
    timeout 20 "$tutor" --list --lessons "$hostile/bom"
for case in kernel-dir kernel-loop; do
    printf 'lesson: 1\ntitle: t\nsources: s\nkernel: k.cl\nentry: e\nargs: M N K A B C\nglobal: M, N\n---\n' \
        >"$tmp/$case/01-k.lesson"
done
mkdir "$tmp/kernel-dir/k.cl"
expect "a kernel path that is a directory says so" 3 "k.cl is a directory" \
    timeout 20 "$tutor" --list --lessons "$tmp/kernel-dir"
ln -s k.cl "$tmp/kernel-loop/k.cl"
expect "a kernel path that is a loop of links says so" 3 "k.cl is a loop of symbolic links" \
    timeout 20 "$tutor" --list --lessons "$tmp/kernel-loop"
if "$tutor" --devices >/dev/null 2>&1; then
    mkdir -p "$tmp/fifo-data/clmm-tutor"
    mkfifo "$tmp/fifo-data/clmm-tutor/tuned"
    expect "a FIFO as the tuned file is not waited on" 0 "ok" \
        env XDG_DATA_HOME="$tmp/fifo-data" timeout 60 "$tutor" --bench --lesson 1 --size 32 --reps 1 \
        --no-reference --format csv
    expect "a search does not replace a FIFO as the tuned file, and says why" 3 \
        "tuned is a FIFO \(named pipe\), not a regular file \(it is left as it is" \
        env XDG_DATA_HOME="$tmp/fifo-data" XDG_STATE_HOME="$tmp/fifo-state" timeout 60 \
        "$tutor" --tune --lesson 5 --size 32 --reps 1 --max-configs 1
    [ -p "$tmp/fifo-data/clmm-tutor/tuned" ] || not_ok "the FIFO is left in place"
    # The tuner's log: a FIFO at its path is refused, not waited on.
    mkdir -p "$tmp/fifo-log/clmm-tutor/tune"
    log=$(env XDG_DATA_HOME="$tmp/fifo-log-data" XDG_STATE_HOME="$tmp/fifo-log" timeout 60 \
        "$tutor" --tune --lesson 5 --size 32 --reps 1 --max-configs 1 2>&1 | grep -o "/[^ ]*lesson-5-32x32x32.log" | head -n 1)
    if [ -n "$log" ] && rm -f "$log" && mkfifo "$log"; then
        expect "a FIFO as the tuner's log is refused, not waited on" 3 "log .* is a FIFO \(named pipe\), not a regular file" \
            env XDG_DATA_HOME="$tmp/fifo-log-data" XDG_STATE_HOME="$tmp/fifo-log" timeout 60 \
            "$tutor" --tune --lesson 5 --size 32 --reps 1 --max-configs 1
    else
        not_ok "the tuner names its log"
    fi
else
    echo "SKIP: no OpenCL device: a FIFO as the tuned file was not tried"
fi
# --- end of hostile files ---------------------------------------------------------------
# ---- a lesson from someone else: control characters and bytes that are not UTF-8 ----
# Its title, text and kernel hold escape sequences (Esc, BEL, CSI as U+009B) and invalid
# UTF-8: the text output shows them as ^[, ^G, ~[ and U+FFFD, JSON parses, CSV is UTF-8.
mkdir "$tmp/hostile"
printf 'lesson: 7\ntitle: Evil \033]0;pwned\007 \033[2J\033[31mred \302\2332J \377\376 bad\nshort: Sh\033[2Jort \377 end\nsources: src \033[5m blink \303\050\nengine: host\nparam: TS = 8 in 8, 16\n---\n## Head \033[1m ing \377\n\nText with \033[2J clear, bell \007, \233 and \300\257 bytes.\n\n    verbatim \033[7m line \377\n' \
    >"$tmp/hostile/07-hostile.lesson"
printf 'lesson: 8\ntitle: Kernel \033[2J\007 title\nsources: s\nkernel: 08-hostile.cl\nentry: hostile\nargs: M N K A B C\nglobal: M, N\n---\nText \033]0;x\007.\n' \
    >"$tmp/hostile/08-hostile.lesson"
printf '// \033[2J\033]0;owned\007 comment \377\n__kernel void hostile(const int M, const int N, const int K,\n    const __global float *A, const __global float *B, __global float *C)\n{\n    int x = 1 \033[31m;\n}\n' \
    >"$tmp/hostile/08-hostile.cl"
# printable FILE: no control character but newline and tab, no C1 control, valid UTF-8.
printable() {
    python3 -c 'import sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
bad = [hex(ord(c)) for c in t if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0 or 0xdc80 <= ord(c) <= 0xdcff]
sys.exit("not printable: " + " ".join(sorted(set(bad))) if bad else 0)' "$1" 2>>"$tmp/err"
}
if command -v python3 >/dev/null 2>&1; then
    expect "--list with a hostile title" 0 "Evil \^\[\]0;pwned\^G" "$tutor" --list --lessons "$tmp/hostile"
    printable "$tmp/out" && ok "--list prints no control characters" || not_ok "--list prints no control characters"
    for n in 7 8; do
        expect "--show $n of a hostile lesson" 0 "\^\[\[2J" "$tutor" --show $n --lessons "$tmp/hostile"
        printable "$tmp/out" && ok "--show $n prints no control characters" ||
            not_ok "--show $n prints no control characters"
    done
    expect "--host-code of a hostile lesson" 0 "Lesson 8: Kernel \^\[\[2J\^G title\." \
        "$tutor" --show 8 --host-code --lessons "$tmp/hostile"
    printable "$tmp/out" && ok "--host-code prints no control characters" ||
        not_ok "--host-code prints no control characters"
    if "$tutor" --devices >/dev/null 2>&1; then
        expect "--bench table of hostile lessons" 1 "Sh\^\[\[2Jort" \
            "$tutor" --bench --lessons "$tmp/hostile" --size 16 --reps 1 --no-reference
        printable "$tmp/out" && ok "the bench table prints no control characters" ||
            not_ok "the bench table prints no control characters"
        expect "--bench json of hostile lessons" 1 '"status"' \
            "$tutor" --bench --lessons "$tmp/hostile" --size 16 --reps 1 --no-reference --format json
        python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" 2>>"$tmp/err" &&
            ok "its json parses" || not_ok "its json parses"
        python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' <"$tmp/out" \
            2>>"$tmp/err" && ok "its json is UTF-8" || not_ok "its json is UTF-8"
        printable "$tmp/out" && ok "its json holds no control characters" ||
            not_ok "its json holds no control characters"
        expect "--bench csv of hostile lessons" 1 '^[^,]*,7,' \
            "$tutor" --bench --lessons "$tmp/hostile" --size 16 --reps 1 --no-reference --format csv
        python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' <"$tmp/out" 2>>"$tmp/err" &&
            ok "its csv is UTF-8" || not_ok "its csv is UTF-8"
    fi
else
    echo "SKIP: python3 is not installed; the hostile lesson's output is not checked"
fi
# An error that quotes a lesson file quotes it printable: an escape sequence in a key.
mkdir -p "$tmp/esc-key"
printf 'lesson: 1\ntitle: x\n\033[2Jbad: 1\n' >"$tmp/esc-key/01-x.lesson"
expect "an error quoting a lesson file shows its control characters as ^[" 3 'unknown key "\^\[\[2Jbad"' \
    "$tutor" --list --lessons "$tmp/esc-key"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/err"; then not_ok "no escape byte reaches the terminal"; else ok "no escape byte reaches the terminal"; fi
# ---- end of: a lesson from someone else ----

# ---- an interrupted --tune is a cancellation, not a crash ----
# SIGINT or SIGTERM while a configuration is measured: the search stops after the running
# launch, the program ends by that signal, and the next run measures that configuration
# (it is not taken for one that ended the program). A budget of 3 s per configuration keeps
# the first one running when the signal comes, at a size where 1000 launches (the most a
# budget buys) take that long: 256 on a CPU, 2048 on a GPU (the default device when there
# is one).
tune_side=256
"$tutor" --devices 2>/dev/null | grep -q "type GPU" && tune_side=2048
if "$tutor" --devices >/dev/null 2>&1 && env --default-signal=INT true 2>/dev/null; then
    for signal in INT:130 TERM:143; do
        name=${signal%:*} want=${signal#*:}
        state="$tmp/state-$name"
        # A background job of a script ignores SIGINT: env gives it back its default.
        XDG_STATE_HOME="$state" XDG_DATA_HOME="$tmp/data-$name" env --default-signal=INT \
            "$tutor" --tune --lesson 5 --size $tune_side --budget 3 >"$tmp/out" 2>"$tmp/err" &
        pid=$!
        i=0
        until grep -qs "started" "$state"/clmm-tutor/tune/*.log || [ $i -ge 600 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        sleep 0.5
        kill -"$name" $pid
        i=0
        while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -KILL $pid 2>/dev/null
        wait $pid
        got=$?
        if [ "$got" -eq "$want" ] && grep -q "^Interrupted at 0 of 3 configurations" "$tmp/out" &&
           grep -q "cancelled" "$state"/clmm-tutor/tune/*.log; then
            ok "SIG$name stops --tune, logged as cancelled, status $want"
        else
            echo "    exit status $got, expected $want" >>"$tmp/err"
            not_ok "SIG$name stops --tune, logged as cancelled, status $want"
        fi
        expect "after SIG$name, the next --tune measures the interrupted configuration" 0 \
            '^\[1/3\] TS=16 +[0-9.]+ GFLOPS +best so far$' \
            env XDG_STATE_HOME="$state" XDG_DATA_HOME="$tmp/data-$name" \
            "$tutor" --tune --lesson 5 --size $tune_side --reps 1 --max-configs 1
    done
else
    echo "SKIP: no OpenCL device, or no env --default-signal; --tune is not interrupted"
fi
# ---- end of: an interrupted --tune ----
# ---- hostile sizes and expressions (tests/hostile/sizes) ----
# Lesson files that once crashed the tool or computed with sizes that wrapped: each is
# refused with a message that says what did not fit, and no sanitizer finds anything.
hostile="$top_srcdir/tests/hostile/sizes"
# refused_cleanly NAME STATUS PATTERN COMMAND...: as expect, and no sanitizer report.
refused_cleanly() {
    failed_before=$failed
    expect "$@"
    if grep -Eq 'runtime error:|AddressSanitizer|UndefinedBehaviorSanitizer' "$tmp/out" "$tmp/err"; then
        [ "$failed" -eq "$failed_before" ] && passed=$((passed - 1))
        not_ok "$1 (a sanitizer report)"
    fi
}
refused_cleanly "40,000 nested parentheses are refused with the line" 3 \
    '63-deep-parentheses\.lesson:8: an expression of 80001 characters, over the 1000 allowed' \
    "$tutor" --list --lessons "$hostile/deep-parentheses"
refused_cleanly "150,000 unary minus signs are refused with the line" 3 \
    '64-deep-unary\.lesson:8: an expression of 150001 characters, over the 1000 allowed' \
    "$tutor" --list --lessons "$hostile/deep-unary"
if "$tutor" --devices >/dev/null 2>&1; then
    refused_cleanly "a multiple of 2^60 + 1 is refused, not packed beyond the buffers" 1 \
        'padding K from 64 to a multiple of 1152921504606846977 .* goes over 2147483647' \
        "$tutor" --bench --lessons "$hostile/multiple-2p60" --size 64 --reps 2 --no-reference --format csv
    refused_cleanly "sizes padded to 2^32, whose products wrap to 0, are refused" 1 \
        ',61,.*,refused,.*padding [MNK] from 64 to a multiple of 4294967296' \
        "$tutor" --bench --lessons "$hostile/multiple-2p32" --size 64 --reps 2 --no-reference --format csv
    refused_cleanly "an NDRange of 2^64 work-items is refused, not launched" 1 \
        ',62,.*,refused,.*the global NDRange \(4294967296, 4294967296\) has more work-items than a size_t holds' \
        "$tutor" --bench --lessons "$hostile/ndrange-2p64" --size 64 --reps 2 --no-reference --format csv
else
    echo "SKIP: no OpenCL device; the hostile sizes were not measured"
fi
# ---- end of hostile sizes and expressions ----

# ---- the device's ceilings (FP32 peak and bandwidth) ----
# --devices measures each device the first time and keeps the figures in the cache; later
# runs read them; --ceilings measures again. A cache that cannot be read or kept is no error.
if "$tutor" --devices >/dev/null 2>&1; then
    cache="$tmp/cache-ceilings"
    file="$cache/clmm-tutor/ceilings"
    # The figures' sentence, on one line whatever its wrapping.
    figures() { tr '\n' ' ' <"$tmp/out" | tr -s ' '; }
    positive='([1-9][0-9]*(\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)'
    expect "--devices measures the ceilings the first time" 0 'measuring the FP32 peak and bandwidth of \[0\]' \
        env XDG_CACHE_HOME="$cache" "$tutor" --devices
    figures | grep -Eq "FP32 peak $positive [GT]FLOPS measured \((no theoretical figure: [^)]*|$positive [GT]FLOPS theoretical: [^)]*)\); bandwidth $positive GB/s measured \(copy; no theoretical figure: OpenCL does not report the memory's clock or width\)" &&
        ok "--devices shows a positive FP32 peak and bandwidth" || not_ok "--devices shows the ceilings"
    awk -F '\t' 'NF == 6 && $4 > 0 && $5 > 0 && $6 ~ /^[0-9-]+T[0-9:]+Z$/ { n++ } END { exit n != 1 }' "$file" 2>/dev/null &&
        ok "--devices keeps the figures in the cache, one line" || not_ok "the cache holds the device's line"
    cp "$file" "$tmp/ceilings-before"
    first=$(figures)
    expect "--devices reads the cache the second time" 0 'FP32 peak' env XDG_CACHE_HOME="$cache" "$tutor" --devices
    if grep -q measuring "$tmp/err" || [ "$(figures)" != "$first" ] || ! cmp -s "$file" "$tmp/ceilings-before"; then
        not_ok "the second --devices measures nothing and shows the same figures"
    fi
    before=$(ls -i "$file")
    expect "--ceilings measures again" 0 'FP32 peak [0-9.]+ [GT]FLOPS measured' \
        env XDG_CACHE_HOME="$cache" "$tutor" --ceilings
    grep -q 'measuring' "$tmp/err" && grep -q "Kept in $file" "$tmp/out" && [ "$(ls -i "$file")" != "$before" ] &&
        [ "$(wc -l <"$file")" -eq 1 ] || not_ok "--ceilings rewrites the device's line"
    expect "--ceilings --format json" 0 '"fp32_gflops": ' env XDG_CACHE_HOME="$cache" "$tutor" --ceilings --format json
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fp32_gflops"] > 0 and d["bandwidth_gbps"] > 0 and d["cache"] == sys.argv[2] and d["bandwidth_theory_gbps"] is None' \
            "$tmp/out" "$file" && ok "--ceilings json parses, positive figures" || not_ok "--ceilings json"
    fi
    # Lines that are not entries: garbage, empty fields, a name too long, the device's own
    # line with figures that are not figures, a NUL byte.
    tab=$(printf '\t')
    { printf 'garbage\n\t\t\t\t\t\n'; head -c 3000 /dev/zero | tr '\0' x; printf '\tx\t1\t1\t1\t2026-01-01T00:00:00Z\n'
      sed "s/$tab[0-9.e+]*$tab[0-9.e+]*$tab/${tab}nan$tab-1$tab/" "$tmp/ceilings-before"; printf 'a\0b\n'; } >"$file"
    expect "a corrupt cache is measured over" 0 'FP32 peak [0-9.]+ [GT]FLOPS measured' \
        env XDG_CACHE_HOME="$cache" "$tutor" --devices
    grep -q measuring "$tmp/err" && [ "$(wc -l <"$file")" -eq 1 ] || not_ok "a corrupt cache is replaced by one line"
    expect "without XDG_CACHE_HOME and HOME, measured and not kept" 0 \
        'not kept: neither XDG_CACHE_HOME nor HOME is set' env -u XDG_CACHE_HOME -u HOME "$tutor" --devices
    grep -q 'FP32 peak [0-9.]* [GT]FLOPS measured' "$tmp/out" || not_ok "without a home, the ceilings are shown"
    # A relative XDG_CACHE_HOME is ignored (the XDG specification): nothing appears under
    # the working directory, the figures go under HOME instead.
    (cd "$tmp" && env XDG_CACHE_HOME=relative HOME="$tmp/home" "$tutor" --devices >/dev/null 2>&1)
    [ ! -e "$tmp/relative" ] && [ -s "$tmp/home/.cache/clmm-tutor/ceilings" ] &&
        ok "a relative XDG_CACHE_HOME is ignored" || not_ok "a relative XDG_CACHE_HOME is ignored"
    : >"$tmp/not-a-directory"
    expect "a cache that cannot be written is not an error" 0 'not kept: .*XDG_CACHE_HOME may name a directory' \
        env XDG_CACHE_HOME="$tmp/not-a-directory" "$tutor" --ceilings
    expect "--devices says when the figures could not be kept" 0 'measured now, and not kept' \
        env XDG_CACHE_HOME="$tmp/not-a-directory" "$tutor" --devices
    # Every measurement against the ceilings: the share of the peak, and for a lesson with
    # a loads line its intensity, the model's bound and the share of it. Lesson 5 at 64 with
    # TS = 16 reads (16 + 16) 64 floats per group: 2K / (8K/16 + 4) = 128/36 = 3.56 flop/B.
    expect "--bench: the rows against the ceilings" 0 'Against the ceilings \(no-cache model' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 5 --size 64 --reps 3 --no-reference --no-tuned
    grep -Eq '^Ceilings: FP32 peak [0-9.]+ GFLOPS, bandwidth [0-9.]+ GB/s' "$tmp/out" &&
        grep -Eq '^  5 +[0-9.]+%  +3\.56 +[0-9.]+ +[0-9]+%  (memory-bound|compute-bound|above the slope: caches)$' \
            "$tmp/out" && ok "--bench table: ceilings, and lesson 5's intensity, bound and share" ||
        not_ok "--bench table against the ceilings"
    # The host reference is not judged against the device's ceilings.
    expect "--bench: the host lesson is not against the device's ceilings" 0 \
        '^  0 +- +runs on the host CPU: not against this device' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 0 --size 64 --reps 3 --no-reference
    expect "--bench csv: the roofline's columns" 0 'pct_peak,intensity,bound_gflops,pct_bound,bound_by' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 5 --size 64 --reps 3 --no-reference --no-tuned --format csv
    tail -1 "$tmp/out" | grep -Eq ',[0-9.e+-]+,3\.55556,[0-9.e+-]+,[0-9.e+-]+,(memory|compute),[0-9.e+-]+,[0-9.e+-]+,"",fp32,fp32,[0-9]+,,,,,no$' &&
        ok "--bench csv row: share of peak, intensity, bound" || not_ok "--bench csv row against the ceilings"
    expect "--bench json: ceilings and the row's figures" 0 '"pct_peak": ' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 5 --size 64 --reps 3 --no-reference --no-tuned --format json
    json_has "$tmp/out" 'd["device"]["ceilings"]["fp32_gflops"] > 0 and abs(d["results"][0]["intensity"] - 128/36) < 1e-4 and d["results"][0]["bound_gflops"] > 0 and d["results"][0]["bound_by"] in ("memory", "compute")' &&
        ok "--bench json parses with the roofline's fields" || not_ok "--bench json against the ceilings"
else
    echo "SKIP: no OpenCL device; the ceilings were not measured"
fi
# ---- end of the device's ceilings ----

# ---- error map of a wrong result ----
# 37x29 is not a multiple of lesson 96's 8x8 tiles: it leaves the last row and column of tiles
# unwritten (37 x 29 - 32 x 24 = 305 elements); 40x32 is, and is right.
if "$tutor" --devices >/dev/null 2>&1; then
    broken="$top_srcdir/tests/broken"
    expect "a kernel that skips the partial tiles: the edges pattern with its counts" 1 \
        'error map: edges: 305 of 1073 elements wrong, 305 never written' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 37x29x20 --reps 2 --no-reference
    grep -q 'the last row and column of tiles are wrong' "$tmp/out" || not_ok "the edges pattern has its hint"
    grep -q "C by tiles of 8x8: '.' right, '#' wrong, '?' never written" "$tmp/out" &&
        grep -Eq '^ +\.\.\.\?$' "$tmp/out" && grep -Eq '^ +\?\?\?\?$' "$tmp/out" &&
        ok "the drawing marks the last column and row of tiles" || not_ok "the drawing of the edges"
    expect "a size that is a multiple of the tile is right" 0 '^ +96 +Broken: full tiles only +[0-9.]+ ' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 40x32x20 --reps 2 --no-reference
    expect "csv: the pattern and its counts" 1 ',wrong result,.*,edges,305,305,' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 37x29x20 --reps 2 --no-reference --format csv
    head -1 "$tmp/out" | grep -q ',message,error_pattern,wrong_elements,unwritten_elements,' ||
        not_ok "csv header names the error map's columns"
    expect "json: the pattern and its counts" 1 '"error_pattern": "edges", "wrong_elements": 305, "unwritten_elements": 305' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 37x29x20 --reps 2 --no-reference --format json
    expect "a kernel that writes C transposed" 1 'error map: transposed: ' \
        "$tutor" --bench --lessons "$broken" --lesson 97 --size 37x29x20 --reps 2 --no-reference
    expect "one work-item of every group wrong: an index pattern" 1 \
        'error map: index: 63 of 1073 elements wrong, 0 never written; 1 of 16' \
        "$tutor" --bench --lessons "$broken" --lesson 98 --size 37x29x20 --reps 2 --no-reference
    grep -q 'positions in every 4x4 tile, first (1, 2)' "$tmp/out" || not_ok "the index pattern names the position"
else
    echo "SKIP: no OpenCL device; the error map was not tested"
fi
# ---- end of error map of a wrong result ----

# A tensor-core lesson on a device without tensor cores runs emulated (kernels/ptx-emulated.h)
# and every output says so: the table under its row, CSV's emulated column, JSON's field and
# note; it is never the fastest lesson. On a device with tensor cores: not emulated.
if "$tutor" --devices >/dev/null 2>&1; then
    "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference >"$tmp/out" 2>"$tmp/err"
    if grep -q '^ 20  mma.sync tensor cores \[TF32\] ' "$tmp/out"; then
        if grep -q '^     emulated: no tensor cores on this device; layouts as on NVIDIA, speed not comparable$' "$tmp/out" &&
            ! grep -q '^Fastest' "$tmp/out"; then
            ok "an emulated lesson: verified, its row labelled, never the fastest"
            expect "csv: an emulated lesson's row says yes" 0 '^"[^"]*",20,"mma.sync tensor cores",.*,ok,.*,yes$' \
                "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference --format csv
            "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference --format json >"$tmp/emu.json" 2>"$tmp/err"
            json_has "$tmp/emu.json" 'd["results"][0]["emulated"] is True and "speed not comparable" in d["results"][0]["emulated_note"] and d["results"][0]["status"] == "ok"' &&
                ok "json: an emulated lesson's row says so" || not_ok "json: an emulated lesson's row says so"
            expect "--bench: an emulated lesson is not against the ceilings" 0 \
                '^ 20        -  emulated: ran as plain OpenCL C, not on tensor cores$' \
                "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference
            expect "--inside: an emulated lesson says its figures are the emulation's" 0 \
                "^emulated: no tensor cores on this device; layouts as on NVIDIA, speed not" \
                "$tutor" --inside --lesson 20 --size 64x40x24
            "$tutor" --inside --lesson 20 --size 64x40x24 --format json >"$tmp/emu.json" 2>"$tmp/err"
            json_has "$tmp/emu.json" 'd["emulated"] is True and d["emulated_note"].startswith("emulated: no tensor cores")' &&
                ok "--inside json: an emulated lesson says so" || not_ok "--inside json: an emulated lesson says so"
        else
            echo "SKIP: lesson 20 runs on this device's tensor cores: the emulated labels were not tested"
        fi
    else
        not_ok "an emulated lesson: verified, its row labelled, never the fastest"
    fi
fi

# ---- precision, units and needs (tests/precision) ----
# Lesson 72 needs an NVIDIA GPU of compute capability 8.0 and its kernel builds with NVIDIA's
# compiler alone: shown and listed anywhere; on any other device refused, never built.
precision="$top_srcdir/tests/precision"
needs_reason='lesson 72 needs an NVIDIA GPU of compute capability 8\.0 or later \(tensor cores with TF32, reached through inline PTX mma\.sync\)'
expect "--list says what a lesson needs" 0 '^Lesson 72: an NVIDIA GPU of compute capability 8\.0 or later only\.$' \
    "$tutor" --list --lessons "$precision"
grep -q '^70  TF32 inputs, declared tf32  *\[TF32\]  any$' "$tmp/out" && grep -q '^\[TF32\]: ' "$tmp/out" ||
    not_ok "--list marks a TF32 lesson [TF32] in its title column, and says what that means"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out" || not_ok "--list fits 80 columns with lessons that need a device"
expect "--show of a lesson that needs an NVIDIA GPU" 0 '^Needs: an NVIDIA GPU of compute capability 8\.0 or later' \
    "$tutor" --show 72 --lessons "$precision"
expect "--show --host-code of a lesson that needs an NVIDIA GPU" 0 'clEnqueueNDRangeKernel' \
    "$tutor" --show 72 --lessons "$precision" --host-code --size 64x48x40
if "$tutor" --devices >/dev/null 2>&1 && ! "$tutor" --devices | grep -q 'NVIDIA'; then
    expect "a lesson that needs an NVIDIA GPU is refused elsewhere, with why" 1 \
        'lesson 72 needs an NVIDIA GPU of compute capability 8\.0 or later \(tensor$' \
        "$tutor" --bench --lessons "$precision" --lesson 72 --size 64x48x40 --reps 2 --no-reference
    tr -s '\n ' '  ' <"$tmp/out" | grep -Eq " 72 Tensor cores, NVIDIA \\[TF32\\] refused $needs_reason; .*'s device .* is not an NVIDIA GPU: choose one with --device" ||
        not_ok "the table's row says refused, what this device is and what to do"
    grep -q 'build log' "$tmp/out" && not_ok "a refused lesson is not built"
    expect "csv: refused, with why" 1 ',72,"Tensor cores, NVIDIA only",.*,refused,.*lesson 72 needs an NVIDIA GPU' \
        "$tutor" --bench --lessons "$precision" --lesson 72 --size 64x48x40 --reps 2 --no-reference --format csv
    expect "json: refused, with why" 1 '"status": "refused".*"message": "lesson 72 needs an NVIDIA GPU' \
        "$tutor" --bench --lessons "$precision" --lesson 72 --size 64x48x40 --reps 2 --no-reference --format json
    expect "--inside refuses it with why" 1 "^clmm-tutor: $needs_reason" \
        "$tutor" --inside --lessons "$precision" --lesson 72 --size 64
else
    echo "SKIP: no OpenCL device, or an NVIDIA one; the refusal of lesson 72 was not tested"
fi
# Lessons 70 and 71 run one kernel whose inputs are truncated to TF32: right as tf32 (70),
# wrong as fp32 (71), which it is not.
if "$tutor" --devices >/dev/null 2>&1; then
    expect "a tf32 lesson of TF32 inputs is verified, labelled TF32" 0 '^ 70  TF32 inputs, declared \[TF32\] +[0-9.]+ ' \
        "$tutor" --bench --lessons "$precision" --lesson 70 --size 64x48x200 --reps 2 --no-reference
    grep -q '^Fastest in TF32 (not FP32 results): lesson 70 at [0-9.]* TF32 GFLOPS$' "$tmp/out" && ! grep -q '^Fastest: ' "$tmp/out" ||
        not_ok "the fastest TF32 lesson is named apart, its speed labelled TF32"
    expect "csv: a tf32 lesson verified, its precision in the last columns" 0 \
        ',70,"TF32 inputs, declared tf32",.*,ok,.*,"",tf32,fp32,[0-9]+,,,,,no$' \
        "$tutor" --bench --lessons "$precision" --lesson 70 --size 64x48x200 --reps 2 --no-reference --format csv
    head -1 "$tmp/out" | grep -q ',bandwidth_gbps,branch,precision,units,device_index,' || not_ok "csv header: precision,units"
    "$tutor" --bench --lessons "$precision" --lesson 70 --size 64x48x200 --reps 2 --no-reference --format json >"$tmp/tf32.json" 2>"$tmp/err"
    json_has "$tmp/tf32.json" 'd["results"][0]["precision"] == "tf32" and d["results"][0]["units"] == "fp32" and d["results"][0]["status"] == "ok"' &&
        ok "json: a tf32 lesson verified, its precision and units" || not_ok "json: a tf32 lesson verified, its precision and units"
    expect "the same kernel declared fp32 is wrong" 1 '^ +71 +TF32 inputs, declared fp32 +WRONG RESULT' \
        "$tutor" --bench --lessons "$precision" --lesson 71 --size 64x48x200 --reps 2 --no-reference
    # Lesson 73 runs on the tensor cores (it says): no share of the FP32 peak, no bound.
    expect "a lesson on the tensor cores is not against the FP32 peak" 0 \
        '^ 73        -  runs on the tensor cores, whose peak is not measured$' \
        "$tutor" --bench --lessons "$precision" --lesson 73 --size 64x48x40 --reps 2 --no-reference
    expect "csv: no share of the peak, no bound on the tensor cores" 0 \
        ',ok,.*,"",,,,,[0-9.e+-]+,,,,[0-9.e+-]+,[0-9.e+-]+,""' \
        "$tutor" --bench --lessons "$precision" --lesson 73 --size 64x48x40 --reps 2 --no-reference --format csv
    "$tutor" --bench --lessons "$precision" --lesson 73 --size 64x48x40 --reps 2 --no-reference --format json >"$tmp/tensor.json" 2>"$tmp/err"
    json_has "$tmp/tensor.json" '"pct_peak" not in d["results"][0] and "bound_gflops" not in d["results"][0] and d["results"][0]["intensity"] > 0' &&
        ok "json: no share of the peak, no bound on the tensor cores" || not_ok "json: no share of the peak, no bound on the tensor cores"
else
    echo "SKIP: no OpenCL device; the precision of lessons 70 and 71 was not tested"
fi
# ---- end of precision, units and needs ----

# ---- the case study of document 004 (tests/casestudy): kernels as the document writes them ----
# They take the inner dimension as `__global int *q`: the lessons pass it as ints(K).
casestudy="$top_srcdir/tests/casestudy"
mkdir "$tmp/q"
cp "$casestudy/floatMatrixMult.cl" "$tmp/q/"
sed 's/^args: .*/args: C A B K/' "$casestudy/80-case-study-global.lesson" >"$tmp/q/80-declares-k.lesson"
expect "--show lists an ints(...) argument" 0 '^Arguments: C A B ints\(K\)$' "$tutor" --show 80 --lessons "$casestudy"
expect "--host-code makes, fills and sets the buffer of ints(K)" 0 \
    'clSetKernelArg\(kernel, 3, sizeof\(cl_mem\), &ints3_buf\)' \
    "$tutor" --show 81 --lessons "$casestudy" --host-code --size 100x90x20
grep -q '^    const cl_int ints3\[1\] = { 24 };   /\* ints(K) \*/$' "$tmp/out" &&
    grep -q 'cl_mem ints3_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,$' "$tmp/out" &&
    grep -q 'sizeof ints3, (void \*)ints3, &err);$' "$tmp/out" && grep -q 'clReleaseMemObject(ints3_buf);' "$tmp/out" ||
    not_ok "--host-code: the buffer holds K after padding (24), made from the array, released"
grep -q -- '-cl-kernel-arg-info' "$tmp/out" || not_ok "--host-code builds with the engine's options, -cl-kernel-arg-info too"
sed 's/^args: .*/args: C A B ints(K,)/' "$casestudy/80-case-study-global.lesson" >"$tmp/q/81-bad.lesson"
expect "an ints(...) with an empty value is an error of the lesson file, at its line" 3 \
    '81-bad\.lesson:9: ints\(K,\) has an empty value: write ints\(EXPR, \.\.\.\)' "$tutor" --list --lessons "$tmp/q"
sed 's/^args: .*/args: C A B ints(K \/ Q)/' "$casestudy/80-case-study-global.lesson" >"$tmp/q/81-bad.lesson"
expect "an ints(...) value that is no expression is an error at its line" 3 \
    '81-bad\.lesson:9: .*unknown name.*Q' "$tutor" --list --lessons "$tmp/q"
rm "$tmp/q/81-bad.lesson"
if "$tutor" --devices >/dev/null 2>&1; then
    # Both verified (the table shows an error, a refusal or WRONG RESULT in place of figures),
    # at a size that is no multiple of 8 too: lesson 81 is padded, ints(K) holds the padded K.
    for size in 64 100x90x20; do
        expect "the case study's kernels run verified at $size" 0 '^ 81  004 with __local +[0-9.]+ ' \
            "$tutor" --bench --lessons "$casestudy" --size "$size" --reps 2 --no-reference
        grep -Eq '^ 80  004 without __local +[0-9.]+ ' "$tmp/out" ||
            not_ok "lesson 80 of the case study is verified at $size"
    done
    "$tutor" --bench --lessons "$casestudy" --size 100x90x20 --reps 2 --no-reference --format json >"$tmp/case.json" 2>"$tmp/err"
    json_has "$tmp/case.json" '[r["status"] for r in d["results"]] == ["ok", "ok"] and d["results"][1]["run_k"] == 24' &&
        ok "json: both verified, lesson 81 at K padded to 24" || not_ok "json: both verified, lesson 81 at K padded to 24"
    # Declared K where the kernel takes `__global int *q`: refused before any launch, with the
    # argument, its type, what was declared and the word that fits.
    expect "a lesson declaring K for __global int *q is refused with the word that fits" 1 \
        "80-declares-k\.lesson:9: argument 4 of floatMatrixMult is \`__global int \*q\`; the lesson declares K, an int: use ints\(K\)" \
        "$tutor" --bench --lessons "$tmp/q" --size 64 --reps 2 --no-reference --format csv
    grep -q 'CL_INVALID_ARG_SIZE' "$tmp/out" "$tmp/err" && not_ok "the mismatch is named before clSetKernelArg fails"
    expect "--inside refuses the mismatch too" 1 'argument 4 of floatMatrixMult is .__global int \*q.' \
        "$tutor" --inside --lessons "$tmp/q" --lesson 80
    sed 's/^args: .*/args: C A B/' "$casestudy/80-case-study-global.lesson" >"$tmp/q/80-declares-k.lesson"
    expect "a lesson declaring too few arguments is refused with the kernel's signature" 1 \
        'floatMatrixMult\(__global float \*MResp, __global float \*M1, __global float \*M2, __global int \*q\) takes 4 arguments; the args line declares 3 \(C A B\)' \
        "$tutor" --bench --lessons "$tmp/q" --size 64 --reps 2 --no-reference --format csv
else
    echo "SKIP: no OpenCL device; the case study's kernels were not run"
fi
# ---- end of the case study ----

# ---- CLBlast tuned by its own tuners (tests/clblast: their files, from POCL) ----
# The fixtures name the device they were tuned on; the tests apply a copy naming this one.
fixtures="$top_srcdir/tests/clblast"
if "$tutor" --list --clblast-params "$fixtures/clblast_copy_32.json" 2>&1 | grep -q 'this build has no CLBlast'; then
    usage_error "--clblast-params in a build without CLBlast" 'this build has no CLBlast' \
        --bench --clblast-params "$fixtures/clblast_copy_32.json"
    echo "SKIP: this build has no CLBlast; its tuned parameters were not applied"
elif "$tutor" --devices >/dev/null 2>&1; then
    usage_error "--clblast-params outside --bench and the tutor" 'goes with --bench and the tutor' \
        --list --clblast-params "$fixtures/clblast_copy_32.json"
    usage_error "--clblast-params with --no-reference" 'the CLBlast row that --no-reference leaves out' \
        --bench --no-reference --clblast-params "$fixtures/clblast_copy_32.json"
    # The name of the device that --bench opens, as its JSON says it.
    "$tutor" --bench --lesson 0 --size 8 --reps 1 --no-reference --format json >"$tmp/dev.json" 2>/dev/null
    devname=$(sed -n 's/^  "device": {"name": "\([^"\\]*\)".*/\1/p' "$tmp/dev.json")
    mkdir "$tmp/cb"
    # tuned_copy FIXTURE DEVICE: the fixture as tuned on DEVICE, in $tmp/cb.
    tuned_copy() {
        sed "s/^  \"device\": \".*\",\$/  \"device\": \"$(printf '%s' "$2" | sed 's/[\/&\\]/\\&/g')\",/" \
            "$fixtures/$1" >"$tmp/cb/$1"
    }
    for f in clblast_xgemm_1_32.json clblast_xgemm_2_32.json clblast_xgemm_direct_1_32.json clblast_copy_32.json; do
        tuned_copy "$f" "$devname"
    done
    bench13() { "$tutor" --bench --lesson 13 --size 256 --reps 1 "$@"; }
    expect "CLBlast with the tuners' parameters is the tuned row" 0 '^ref  CLBlast \(tuned\) +[0-9.]+ ' \
        bench13 --clblast-params "$tmp/cb/clblast_xgemm_direct_1_32.json" --clblast-params "$tmp/cb/clblast_xgemm_1_32.json"
    grep -q '^CLBlast: tuned for this device by its tuners: XgemmDirect (clblast_xgemm_direct_1_32.json), Xgemm (clblast_xgemm_1_32.json)$' "$tmp/out" ||
        not_ok "the table names the kernels and files applied to CLBlast"
    grep -Eq 'Fastest: lesson 13 at .*% of CLBlast \(tuned\)(,|$)' "$tmp/out" || not_ok "the fastest lesson against CLBlast (tuned)"
    expect "CLMM_TUTOR_CLBLAST_PARAMS applies them as --clblast-params does" 0 '"title": "CLBlast \(tuned\)"' \
        env CLMM_TUTOR_CLBLAST_PARAMS="$tmp/cb/clblast_xgemm_1_32.json::$tmp/cb/clblast_copy_32.json" \
        "$tutor" --bench --lesson 13 --size 256 --reps 1 --format json
    json_has "$tmp/out" '(d["clblast_params"]["files"][1].endswith("clblast_copy_32.json") and
        [k["name"] for k in d["clblast_params"]["kernels"]] == ["Xgemm", "Copy"] and
        "PRECISION" not in d["clblast_params"]["kernels"][0]["parameters"] and
        [r for r in d["results"] if r["lesson"] == -1][0]["tuned"])' ||
        not_ok "JSON names the files and kernels applied to CLBlast, PRECISION left out"
    expect "CSV: the CLBlast row tuned, keyed by its parameters" 0 ',-1,"CLBlast \(tuned\)","tuned:[0-9a-f]{16}",.*,yes,' \
        bench13 --format csv --clblast-params "$tmp/cb/clblast_copy_32.json"
    expect "of phases 1 and 2 the faster is applied, and said" 0 \
        'Xgemm: clblast_xgemm_2_32.json \(0.58 ms\) kept over clblast_xgemm_1_32.json \(1.11 ms\)' \
        bench13 --clblast-params "$tmp/cb/clblast_xgemm_1_32.json" --clblast-params "$tmp/cb/clblast_xgemm_2_32.json"
    expect "without tuned parameters CLBlast runs its defaults" 0 '^ref  CLBlast \(defaults\) +[0-9.]+ ' bench13
    grep -q '^CLBlast: tuned' "$tmp/out" && not_ok "the defaults' table says nothing of tuning"
    # Files that cannot be used: a clear message, exit status 3, nothing measured.
    bad_params() {
        expect "$1" 3 "$2" bench13 --clblast-params "$3"
        [ -s "$tmp/out" ] && not_ok "$1: nothing measured"
    }
    head -c 300 "$tmp/cb/clblast_copy_32.json" >"$tmp/cb/cut.json"
    bad_params "a malformed file of CLBlast's parameters" \
        "^clmm-tutor: --clblast-params: $tmp/cb/cut.json:[0-9]+:[0-9]+: " "$tmp/cb/cut.json"
    bad_params "a missing file of CLBlast's parameters" "--clblast-params: .*none.json.*No such file" "$tmp/cb/none.json"
    tuned_copy clblast_xgemm_direct_1_32.json "Another Device 9000"
    bad_params "CLBlast's parameters of another device" \
        'tuned on "Another Device 9000", not on this device, "' "$tmp/cb/clblast_xgemm_direct_1_32.json"
    grep -Fq "not on this device, \"$devname\"" "$tmp/err" || not_ok "the message names the device measured"
    tuned_copy clblast_xgemm_direct_1_32.json "$devname"
    sed 's/"KWID=2 /"/' "$tmp/cb/clblast_xgemm_direct_1_32.json" >"$tmp/cb/missing.json"
    bad_params "CLBlast refusing a kernel's parameters" \
        'CLBlast refused the parameters of XgemmDirect from .*: CLBlastOverrideParameters failed: CLBlastMissingOverrideParameter' \
        "$tmp/cb/missing.json"
    expect "a bad file in CLMM_TUTOR_CLBLAST_PARAMS" 3 "^clmm-tutor: CLMM_TUTOR_CLBLAST_PARAMS: .*cut.json:" \
        env CLMM_TUTOR_CLBLAST_PARAMS="$tmp/cb/cut.json" "$tutor" --bench --lesson 13 --size 256 --reps 1
    expect "CLMM_TUTOR_CLBLAST_PARAMS is not read without the CLBlast row" 0 "^ 13 " \
        env CLMM_TUTOR_CLBLAST_PARAMS="$tmp/cb/cut.json" "$tutor" --bench --lesson 13 --size 256 --reps 1 --no-reference
else
    echo "SKIP: no OpenCL device; CLBlast's tuned parameters were not applied"
fi
# ---- end of CLBlast tuned by its own tuners ----

# ---- the CPU's BLAS (OpenBLAS) as a reference row ----
# Whether the build has it is configure's answer (config.h), not the program's: a row that
# went missing fails here rather than skipping.
cpublas() { "$tutor" --bench --lesson 0 --size 96x80x72 --reps 2 "$@"; }
if ! grep -q '^#define HAVE_CBLAS 1' "$top_builddir/config.h" 2>/dev/null; then
    echo "SKIP: this build has no CBLAS (Debian: libopenblas-dev); the CPU BLAS row was not measured"
    if "$tutor" --devices >/dev/null 2>&1; then
        cpublas >"$tmp/out" 2>"$tmp/err"
        if grep -q 'CPU BLAS' "$tmp/out"; then not_ok "no CPU BLAS row without a CBLAS"
        else ok "no CPU BLAS row without a CBLAS"; fi
    fi
elif "$tutor" --devices >/dev/null 2>&1; then
    expect "the CPU BLAS row is measured, with OpenBLAS's threads in its title" 0 \
        '^ref  CPU BLAS \(1 thread\) +[0-9.]+ +[0-9]+% +[0-9.]+ +[0-9.]+  [0-9.]+e-[0-9]+$' \
        env OPENBLAS_NUM_THREADS=1 "$tutor" --bench --lesson 0 --size 96x80x72 --reps 2
    grep -Eq '^ref +- +runs on the host CPU' "$tmp/out" || ! grep -q '^Against the ceilings' "$tmp/out" ||
        not_ok "the CPU BLAS row is not set against the device's ceilings"
    grep -Eq '^Fastest: lesson 0 at .*[0-9]+% of CPU BLAS \(1 thread\)$' "$tmp/out" ||
        not_ok "the fastest lesson against the CPU BLAS row"
    expect "the CPU BLAS row with as many threads as OPENBLAS_NUM_THREADS" 0 '^ref  CPU BLAS \(2 threads\) ' \
        env OPENBLAS_NUM_THREADS=2 "$tutor" --bench --lesson 0 --size 96x80x72 --reps 2
    expect "the CPU BLAS row after CLBlast's, both verified (CSV)" 0 \
        ',-2,"CPU BLAS \([0-9]+ threads?\)","",96,80,72,96,80,72,ok,([0-9.e+-]+,){10}(exhaustive|sampled\+projections),' \
        cpublas --format csv
    awk -F, '$2 == -1 { c = NR } $2 == -2 { b = NR } END { exit !(b && (!c || c < b)) }' "$tmp/out" ||
        not_ok "CSV: the CPU BLAS row comes after CLBlast's"
    expect "JSON: the CPU BLAS row" 0 '"title": "CPU BLAS \(' cpublas --format json
    json_has "$tmp/out" '([(r["status"], r["max_error"] <= r["tolerance"], r["gflops_median"] > 0, r["tuned"],
        "pct_peak" in r, r["m"], r["n"], r["k"]) for r in d["results"] if r["lesson"] == -2] ==
        [("ok", True, True, False, False, 96, 80, 72)])' ||
        not_ok "JSON: the CPU BLAS row verified, measured, not tuned, not against the ceilings"
    expect "--no-reference leaves the CPU BLAS row out" 0 '^  0 ' cpublas --no-reference
    if grep -q 'CPU BLAS' "$tmp/out"; then not_ok "--no-reference: no CPU BLAS row"; else ok "--no-reference: no CPU BLAS row"; fi
else
    echo "SKIP: no OpenCL device; the CPU BLAS row was not measured"
fi
# ---- end of the CPU's BLAS ----

# ---- exercises (tests/exercises, tests/exercises-bad) ----
# The fixture exercises: 1 has a wrong store, 2 is "predict, then measure". Progress goes to a
# state directory of this section's own, the student's files to $tmp/ws; stdin is never a
# terminal, so nothing asks.
export XDG_STATE_HOME="$tmp/exstate"
exdir="$top_srcdir/tests/exercises"
ws="$tmp/ws"
ex() { "$tutor" --exercises-dir "$exdir" --workspace "$ws" "$@" </dev/null; }

expect "--exercises lists the fixture exercises" 0 '0 of 2 exercises verified' ex --exercises
# The table gives the short titles (the first is cut to fit).
grep -q 'Store the result where\.\.\. *not started' "$tmp/out" &&
    grep -q "Predict the tiles' speed-up *not started" "$tmp/out" ||
    not_ok "--exercises lists both exercises, not started"
expect "--exercises --format json" 0 '"total": 2' ex --exercises --format json
json_has "$tmp/out" 'd["total"] == 2 and [x["number"] for x in d["exercises"]] == [1, 2]' ||
    not_ok "--exercises --format json parses, with exercises 1 and 2"
usage_error "--check of an exercise that does not exist" 'there is no exercise 99 \(exercises: 1 2\)' \
    --exercises-dir "$exdir" --workspace "$ws" --check 99
usage_error "--check takes one FILE" 'unexpected argument "b"' --exercises-dir "$exdir" --check 1 a b
usage_error "--predict without --check" '--predict goes with --check' --exercises-dir "$exdir" --predict 2
usage_error "--check 0 is not an exercise number" 'not an exercise number' --exercises-dir "$exdir" --check 0
usage_error "--check without its number" '--check needs an exercise number before --workspace' \
    --exercises-dir "$exdir" --check --workspace "$ws"
usage_error "--exercise with another mode" '--exercise opens the tutor on an exercise' \
    --exercises-dir "$exdir" --exercise 1 --bench
usage_error "--check with two sizes" '--check measures the speed at one size' \
    --exercises-dir "$exdir" --check 1 --size 64,128
usage_error "--predict for an exercise without the step" 'exercise 1 has no "predict, then measure" step' \
    --exercises-dir "$exdir" --workspace "$ws" --check 1 --predict 2
expect "--check of a FILE that does not exist" 3 "cannot open $tmp/none.cl" ex --check 1 "$tmp/none.cl"
expect "--check --format json of a FILE that does not exist" 3 '"verdict": "unreadable"' \
    ex --check 1 "$tmp/none.cl" --format json
json_has "$tmp/out" 'd["passed"] is False and d["exercise"] == 1' ||
    not_ok "--check --format json of a missing FILE parses"
# Hints, one more at each --hint, kept in the progress.
expect "--hint reveals the first hint" 0 '^Hint 1 of 2: C is column-major' ex --hint 1
grep -q '^Hint 2 of 2' "$tmp/out" && not_ok "the first --hint reveals one hint only"
expect "a second --hint reveals the second after the first" 0 '^Hint 2 of 2: ' ex --hint 1
grep -q '^Hint 1 of 2' "$tmp/out" || not_ok "a second --hint prints the first hint again"
expect "--hint after the last" 0 'That was the last hint' ex --hint 1
expect "--hint without a home to keep them: every hint" 0 '^Hint 2 of 2: ' \
    env -u HOME -u XDG_STATE_HOME "$tutor" --exercises-dir "$exdir" --hint 1
grep -Eq '^exercise 1 .*hints=2 ' "$XDG_STATE_HOME/clmm-tutor/progress" || not_ok "--hint keeps the hints revealed"
expect "--solution before any check" 1 'check your own kernel first' ex --solution 1
grep -q 'gemm_naive' "$tmp/out" && not_ok "--solution before any check prints no kernel"
[ -e "$ws" ] && not_ok "nothing made the workspace before a check"

# --reset: the student's file is kept, never lost.
mkdir -p "$ws"
echo "/* my own store */" >"$ws/01-store.cl"
expect "--reset without --yes and no terminal" 2 'add --yes' ex --reset 1
[ "$(cat "$ws/01-store.cl")" = "/* my own store */" ] && [ ! -e "$ws/01-store.cl.~1~" ] ||
    not_ok "--reset without --yes changes nothing"
expect "--reset --yes" 0 "your file is kept as $ws/01-store.cl.~1~" ex --reset 1 --yes
[ "$(cat "$ws/01-store.cl.~1~")" = "/* my own store */" ] && cmp -s "$ws/01-store.cl" "$exdir/01-store.cl" ||
    not_ok "--reset --yes keeps the student's file as .~1~ and puts the start back"
echo "/* again */" >"$ws/01-store.cl"
expect "a second --reset --yes" 0 "kept as $ws/01-store.cl.~2~" ex --reset 1 --yes
[ "$(cat "$ws/01-store.cl.~1~")" = "/* my own store */" ] && [ "$(cat "$ws/01-store.cl.~2~")" = "/* again */" ] ||
    not_ok "a second --reset keeps .~1~ and adds .~2~"
rm -rf "$ws"

# Malformed exercise files: each alone beside the fixture kernels, refused with exit 3 and
# "FILE:LINE: what was expected"; its first line says which ("# expect: LINE: PATTERN").
for bad in "$top_srcdir"/tests/exercises-bad/*.exercise; do
    name=$(basename "$bad")
    line=$(sed -n '1s/^# expect: \([0-9]*\): .*/\1/p' "$bad")
    pattern=$(sed -n '1s/^# expect: [0-9]*: //p' "$bad")
    [ -n "$line" ] && [ -n "$pattern" ] || { not_ok "$name starts with \"# expect: LINE: PATTERN\""; continue; }
    rm -rf "$tmp/bad" && mkdir "$tmp/bad" && cp "$exdir"/*.cl "$bad" "$tmp/bad/"
    expect "malformed exercise $name" 3 "$name:$line: .*$pattern" \
        "$tutor" --exercises-dir "$tmp/bad" --exercises
done

if "$tutor" --devices >/dev/null 2>&1; then
    expect "--exercise without a terminal: the task, the hints revealed, a check" 1 'Hint 2 of 2: ' ex --exercise 1
    grep -q '^Result: not verified yet' "$tmp/out" || not_ok "--exercise without a terminal checks the file"
    rm -rf "$ws"
    expect "--check of the start: wrong, with the error map" 1 'Result: not verified yet \(wrong\)' ex --check 1
    grep -q "created $ws/01-store.cl from the starting kernel of exercise 1" "$tmp/err" ||
        not_ok "--check creates the workspace file and says so"
    cmp -s "$ws/01-store.cl" "$exdir/01-store.cl" || not_ok "the workspace file is the start"
    grep -Eq '^  48x32x40 +wrong: launch 1 of 2: ' "$tmp/out" &&
        grep -Eq '^    [a-z]+: [0-9]+ of 1536 elements wrong' "$tmp/out" &&
        grep -Eq '^      [.#?]+$' "$tmp/out" && grep -Eq '^  64x64x64 +not checked' "$tmp/out" ||
        not_ok "--check prints the error map of the first wrong size and stops there"
    # The start as shipped: the check says so, with its TODO's line, and guesses no cause from C.
    grep -q "^Your file is the starting kernel as shipped: fill the gap marked TODO (line $(grep -n TODO "$exdir/01-store.cl" | head -1 | cut -d: -f1)) first\.$" "$tmp/out" &&
        ! grep -q '^    Hint: ' "$tmp/out" || not_ok "--check of the start as shipped says so, without the map's hint"
    expect "--check --format json of the start as shipped" 1 '"as_shipped": true' ex --check 1 --format json
    json_has "$tmp/out" 'd["as_shipped"] is True and d["todo_line"] == '"$(grep -n TODO "$exdir/01-store.cl" | head -1 | cut -d: -f1)" ||
        not_ok "--check --format json of the start: as_shipped and the TODO's line"
    # Changed at all, the file is the student's: the map's hint, and no word of the start.
    echo "/* mine */" >>"$ws/01-store.cl"
    expect "--check of a changed start: wrong, with the map's hint" 1 '^    Hint: ' ex --check 1
    grep -q 'as shipped' "$tmp/out" && not_ok "a changed start is not called the start"
    expect "--check of the solution" 0 'Result: verified\.' ex --check 1 "$exdir/01-store.solution.cl"
    grep -Eq '^  64x64x64 +verified: 2 launches' "$tmp/out" || not_ok "--check verifies each size, repeat times"
    # A kernel that asks for its local id but keeps nothing in local memory: no note.
    sed 's|    float acc = 0.0f;|    float acc = 0.0f * (float)get_local_id(0);|' "$exdir/01-store.solution.cl" >"$tmp/local-id.cl"
    expect "--check of a kernel without local memory" 0 'Result: verified\.' ex --check 1 "$tmp/local-id.cl"
    grep -q '^Note: on this CPU device' "$tmp/out" && not_ok "no note about hidden races for a kernel without local memory"
    expect "--check --format json" 0 '"verdict": "verified"' ex --check 1 "$exdir/01-store.solution.cl" --format json
    json_has "$tmp/out" 'd["verdict"] == "verified" and d["passed"] is True and len(d["sizes"]) == 2' ||
        not_ok "--check --format json parses, with verdict and passed"
    expect "--check --format json of the start" 1 '"verdict": "wrong"' ex --check 1 --format json
    json_has "$tmp/out" 'd["passed"] is False and d["as_shipped"] is False and d["todo_line"] is None and d["sizes"][0]["error_pattern"] is not None' ||
        not_ok "--check --format json of a wrong kernel names its error pattern"

    # A store past the end of C lands in a guard after it and is reported; the program (whose
    # memory it is, on a CPU device) goes on.
    sed 's/C\[col \* M + row\] = acc;/C[col * M + row + 5] = acc;/' "$exdir/01-store.solution.cl" >"$tmp/oob.cl"
    expect "--check of a kernel that stores past the end of C" 1 'wrote past the end of C: 5 of the' \
        ex --check 1 "$tmp/oob.cl"
    expect "--check --format json of a kernel that stores past the end of C" 1 '"verdict": "failed"' \
        ex --check 1 "$tmp/oob.cl" --format json

    # The student's file is theirs: a second check reads it and never writes it.
    { cat "$exdir/01-store.solution.cl"; echo "/* mine */"; } >"$ws/01-store.cl"
    cp "$ws/01-store.cl" "$tmp/mine.cl"
    expect "--check of the student's own file" 0 'Result: verified\.' ex --check 1
    cmp -s "$ws/01-store.cl" "$tmp/mine.cl" || not_ok "--check leaves the workspace file as it was"
    grep -q 'created' "$tmp/err" && not_ok "--check creates nothing over the student's file"

    expect "--check of a predict exercise without --predict" 1 'predict first' \
        ex --check 2 "$exdir/02-predict.solution.cl"
    grep -q 'Result: verified; now predict, then measure\.' "$tmp/out" || not_ok "the check asks for a prediction"
    expect "--check with --predict" 0 'You predicted 2\.00x; measured [0-9.]+x' \
        ex --check 2 "$exdir/02-predict.solution.cl" --predict 2
    grep -q 'Result: verified, prediction measured\.' "$tmp/out" || not_ok "--predict: the speed is measured"
    if grep -q 'CPU' "$tmp/out"; then
        grep -q '^Note: on this CPU device the work-items of a group run one after another' "$tmp/out" ||
            not_ok "a kernel with local memory verified on a CPU device: races may hide, the report says"
    fi
    grep -q "Not recorded in your progress: $exdir/02-predict.solution.cl is not your file" "$tmp/out" ||
        not_ok "a check of a file outside the workspace says it is not recorded"
    expect "--exercises: checks of other files are not the student's progress" 0 '1 of 2 exercises verified' \
        ex --exercises
    grep -Eq '^ +2 +5 +Predict the tiles.* +not started +0 ' "$tmp/out" ||
        not_ok "--exercises: exercise 2 not started after checks of other files only"
    cp "$exdir/02-predict.solution.cl" "$ws/02-predict.cl"
    expect "--check of the workspace file with --predict" 0 'You predicted 1\.50x' ex --check 2 --predict 1.5

    expect "--exercises after the checks" 0 '2 of 2 exercises verified' ex --exercises
    grep -Eq '^ +1 +1 +Store the result where\.\.\. +done +6 ' "$tmp/out" ||
        not_ok "--exercises shows exercise 1 done after its 6 checks of the workspace file"
    expect "--solution after a check" 0 '==== solution of exercise 1: ' ex --solution 1
    sed 1d "$tmp/out" | cmp -s - "$exdir/01-store.solution.cl" || not_ok "--solution prints the solution's source"
    expect "--exercises --format json after --solution" 0 '"solution_shown": true' ex --exercises --format json
else
    echo "SKIP: no OpenCL device; the exercises were not checked"
fi
export XDG_STATE_HOME="$tmp/state"
# ---- end of exercises ----

# Every lesson, kernel and exercise of the tree is in the distribution (Makefile.am), which
# make install and the sanitizer's build (make check-sanitize) take their lessons from.
if [ -f "$top_srcdir/Makefile.am" ]; then
    : >"$tmp/out"
    : >"$tmp/err"
    for f in "$top_srcdir"/lessons/*.lesson "$top_srcdir"/kernels/*.cl "$top_srcdir"/exercises/*; do
        rel=${f#"$top_srcdir"/}
        grep -Fq "$rel" "$top_srcdir/Makefile.am" || echo "not in Makefile.am: $rel" >>"$tmp/err"
    done
    # The tests' own lesson directories too (tests/precision was missed once: the
    # sanitizer's build failed every test of its lessons).
    for d in "$top_srcdir"/tests/*/; do
        ls "$d"*.lesson >/dev/null 2>&1 || continue
        rel=${d#"$top_srcdir"/}
        rel=${rel%/}
        grep -Eq "(^|[[:space:]])$rel([[:space:]]|$)" "$top_srcdir/Makefile.am" || echo "not in Makefile.am: $rel" >>"$tmp/err"
    done
    if [ -s "$tmp/err" ]; then not_ok "every lesson, kernel and exercise is distributed"
    else ok "every lesson, kernel and exercise is distributed"; fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
exit 0
