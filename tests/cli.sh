#!/bin/sh
# cli.sh: the command line as a user meets it: bad arguments get one clear line and exit
# status 2, and the modes print what they promise. The parts that measure need an OpenCL
# device; without one they are skipped (and the whole script exits 77 if nothing ran).
# More of it, by area: cli-lessons.sh (lesson files from others), cli-bench.sh (what the
# measuring modes print beyond the table), cli-exercises.sh (the exercise modes).
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"


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

finish_or_skip cli.sh
