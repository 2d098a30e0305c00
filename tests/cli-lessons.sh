#!/bin/sh
# cli-lessons.sh: lesson files and sizes from someone else, as the command line reads them:
# control characters and bytes that are not UTF-8, hostile sizes and expressions, an
# interrupted --tune, precision, units and needs, and the case study's kernels as its
# document writes them. Skipped parts say why; exit 77 if nothing ran.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"

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

finish_or_skip cli-lessons.sh
