#!/bin/sh
# practice.sh: a student's kernel cannot take the tool down, and the check names the right
# mistake. Each kernel runs in a process of the tool's own (isolate.h): a loop that never
# ends is stopped at its limit, a store far outside C ends that process and not the tool,
# Ctrl-C ends the check, and a lesson set's kernel that faults fails its row only. The error
# map's hint names what the mistake is (M and N exchanged, a missing barrier), and oclgrind,
# where installed, shows a race that a CPU device hides. The kernels are in tests/practice.
# Needs an OpenCL device (POCL will do); exits 77 without one.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"
ws="$tmp/ws"
fix="$tmp/fix"
mkdir -p "$fix"

# The kernels: the shipped solutions, each with one mistake made by sed (the test fails
# when sed finds nothing to change: the solution's text moved on).
mistake() {
    out=$1 from=$2 script=$3
    sed -e "$script" "$from" >"$fix/$out"
    cmp -s "$from" "$fix/$out" && echo "FAIL: sed made no mistake in $out: $script" && failed=$((failed + 1))
}
ex1="$top_srcdir/exercises/01-row-major-order.solution.cl"
ex3="$top_srcdir/exercises/03-missing-barrier.solution.cl"
mistake 01-endless.cl "$ex1" 's/k < K; k++/k < K; k += 0/'
mistake 01-far-store.cl "$ex1" 's/C\[row \* N + col\] = acc;/C[row * N + col + (1 << 28)] = acc;/'
mistake 01-m-n-exchanged.cl "$ex1" 's/const int row = id \/ N;/const int row = id % N;/; s/const int col = id % N;/const int col = id \/ N;/'
first=$(grep -n 'barrier(CLK_LOCAL_MEM_FENCE);' "$ex3" | sed -n 1p | cut -d: -f1)
second=$(grep -n 'barrier(CLK_LOCAL_MEM_FENCE);' "$ex3" | sed -n 2p | cut -d: -f1)
mistake 03-no-first-barrier.cl "$ex3" "${first}s|barrier(CLK_LOCAL_MEM_FENCE);|/* (no barrier) */|"
mistake 03-no-second-barrier.cl "$ex3" "${second}s|barrier(CLK_LOCAL_MEM_FENCE);|/* (no barrier) */|"
far_line=$(grep -n '(1 << 28)' "$fix/01-far-store.cl" | cut -d: -f1)
# A lesson set: document 004's kernel as the case study runs it (60), and given K =
# 2147483647 in its int buffer (61): that one reads far outside A and B.
mkdir -p "$fix/lessons"
cp "$top_srcdir/tests/casestudy/floatMatrixMult.cl" "$fix/lessons/"
sed -e 's/^lesson: 80/lesson: 60/' "$top_srcdir/tests/casestudy/80-case-study-global.lesson" >"$fix/lessons/60-right-k.lesson"
sed -e 's/^lesson: 80/lesson: 61/; s/^short: .*/short: K far too large/; s/args: C A B ints(K)/args: C A B ints(2147483647)/' \
    "$top_srcdir/tests/casestudy/80-case-study-global.lesson" >"$fix/lessons/61-huge-k.lesson"

"$tutor" --devices >"$tmp/out" 2>&1 || { echo "SKIP: no OpenCL device: the kernels cannot be checked"; exit 77; }
ex() { "$tutor" --workspace "$ws" "$@"; }
# On a GPU a store far outside C is the driver's error, not the end of a process.
fault='the process running it ended on signal [0-9]+ \([A-Za-z ]+\): the kernel read or wrote outside its buffers'
on_gpu=no
"$tutor" --devices 2>/dev/null | grep -q "type GPU" && on_gpu=yes
[ "$on_gpu" = yes ] && fault="($fault|illegal memory access)"
has_oclgrind=no
command -v "${OCLGRIND:-oclgrind}" >/dev/null 2>&1 && has_oclgrind=yes

# The processes this script's tools started to run kernels and left behind: those whose
# environment holds this script's scratch directory.
left_behind() {
    for p in /proc/[0-9]*; do
        grep -qs -- "--isolated-child" "$p/cmdline" 2>/dev/null || continue
        tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -q "^XDG_STATE_HOME=$tmp/" && echo "${p#/proc/}"
    done
}
no_child_left() {
    sleep 0.2
    if [ -n "$(left_behind)" ]; then
        echo "    processes left: $(left_behind)" >>"$tmp/err"
        not_ok "$1: no process left running its kernel"
    else
        ok "$1: no process left running its kernel"
    fi
}

# ---- a loop that never ends ----
mkdir -p "$ws"
cp "$fix/01-endless.cl" "$ws/01-row-major-order.cl"
export XDG_STATE_HOME="$tmp/state/endless"
start=$(date +%s)
expect "a loop that never ends is stopped at its limit" 1 \
    'did not finish in time: launch 1 of 3 stopped after [0-9]+ s, its limit: a loop that never ends, or far too much work\?' \
    ex --check 1 --check-timeout 1
seconds=$(( $(date +%s) - start ))
grep -q '^Result: not verified yet (did not finish in time)' "$tmp/out" || not_ok "the result says it did not finish"
# The limit is --check-timeout, and 60 s more for the first launch of a CPU device, which
# also compiles the kernel for its work-group size.
[ "$seconds" -le 100 ] && ok "the endless kernel is stopped in time (${seconds} s)" ||
    not_ok "the endless kernel is stopped in time (${seconds} s)"
grep -q 'exercise=1 verdict=did-not-finish' "$XDG_STATE_HOME/clmm-tutor/progress.log" &&
    ok "the progress log records a check that did not finish" ||
    not_ok "the progress log records a check that did not finish"
no_child_left "a loop that never ends"

# Ctrl-C ends the check and its kernel, and says so; the program ends as SIGINT does.
if env --default-signal=INT true 2>/dev/null; then
    # A background job of a script ignores SIGINT: env gives it back its default.
    env --default-signal=INT "$tutor" --workspace "$ws" --check 1 >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    i=0
    until [ -n "$(left_behind)" ] || [ $i -ge 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    sleep 1
    kill -INT $pid
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    kill -KILL $pid 2>/dev/null
    wait $pid
    got=$?
    if [ "$got" -eq 130 ] && grep -q 'the check of exercise 1 was stopped while 64x64x64, launch 1 of 3; its kernel was ended' "$tmp/err"; then
        ok "Ctrl-C stops a check, ends its kernel and says so (status 130)"
    else
        echo "    exit status $got, expected 130" >>"$tmp/err"
        not_ok "Ctrl-C stops a check, ends its kernel and says so (status 130)"
    fi
    no_child_left "Ctrl-C"
fi
export XDG_STATE_HOME="$tmp/state"
rm -rf "$ws"

# ---- a store far outside C ends the process that runs it, not the tool ----
expect "a store far outside C: the tool says what ended the kernel's process" 1 "$fault" \
    ex --check 1 "$fix/01-far-store.cl"
grep -Eq '^Result: not verified yet \((the kernel ended the process running it|failed)\)' "$tmp/out" ||
    not_ok "the report of the far store ends with its result"
if [ "$has_oclgrind" = yes ]; then
    grep -Eq "Under oclgrind \\(one launch\\): at 64x64x64: work-item \\([0-9,]+\\) of group \\([0-9,]+\\) at line $far_line \\(C\\[row \\* N \\+ col \\+ \\(1 << 28\\)\\] = acc;\\) of .*01-far-store.cl" "$tmp/out" &&
        ok "oclgrind names the line of the store outside C" || not_ok "oclgrind names the line of the store outside C"
fi
crashed=crashed
[ "$on_gpu" = yes ] && crashed=failed
expect "--format json of the far store" 1 "\"verdict\": \"$crashed\"" ex --check 1 "$fix/01-far-store.cl" --format json
json_ok=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["sizes"][0]["verdict"], d["passed"])' \
    "$tmp/out" 2>/dev/null)
[ "$json_ok" = "$crashed False" ] && ok "the JSON report of the far store parses, its size $crashed" ||
    not_ok "the JSON report of the far store parses, its size $crashed ($json_ok)"
no_child_left "a store far outside C"

# ---- lessons of a set given with --lessons run apart too ----
expect "a lesson whose kernel faults fails its row; the others are measured" 1 \
    "^\"[^\"]*\",61,\"K far too large\",.*,error,.*$fault" \
    "$tutor" --lessons "$fix/lessons" --bench --size 64 --reps 1 --no-reference --format csv
grep -q '^"[^"]*",60,.*,ok,' "$tmp/out" && ok "the lesson beside it is measured and verified" ||
    not_ok "the lesson beside it is measured and verified"

# ---- the hint names the mistake ----
expect "M and N exchanged: the hint says so" 1 'Hint: right when M = N, wrong when M and N differ: M and N are exchanged' \
    ex --check 1 "$fix/01-m-n-exchanged.cl"
grep -Eq '^  64x64x64 +verified' "$tmp/out" || not_ok "M and N exchanged: verified at 64x64x64, where M = N"
grep -qi 'barrier\|local tile' "$tmp/out" && not_ok "a hint for exercise 1 names no barrier and no local tile"
expect "exercise 3 without its first barrier: a race, not an index" 1 \
    'Hint: a race: work-items read local memory before another work-item of the group has written it' \
    ex --check 3 "$fix/03-no-first-barrier.cl"
grep -q "an index computed from" "$tmp/out" && not_ok "the race is not called an index's mistake"

# ---- oclgrind's race check: exercise 3 (race-check: yes) is not verified with a race ----
if [ "$has_oclgrind" = yes ]; then
    expect "exercise 3 without its second barrier: oclgrind sees the race, with the two lines" 1 \
        'Under oclgrind \(one launch\): at 64x64x64: work-items race: work-item \([0-9,]+\) of group \([0-9,]+\) at line [0-9]+ \(.*\) and work-item \([0-9,]+\) of group \([0-9,]+\) at line [0-9]+ \(.*\) of .*03-no-second-barrier.cl' \
        ex --check 3 "$fix/03-no-second-barrier.cl"
    grep -q '^Result: not verified yet (oclgrind saw a race or a bad access)' "$tmp/out" ||
        not_ok "a kernel that races is not verified"
    expect "exercise 3's solution: no race under oclgrind" 0 'Under oclgrind \(one launch\): at 64x64x64: no race and no bad access' \
        ex --check 3 "$top_srcdir/exercises/03-missing-barrier.solution.cl"
    expect "--races on an exercise that does not ask for it" 0 'Under oclgrind \(one launch\): at 64x64x64: no race' \
        ex --check 1 "$top_srcdir/exercises/01-row-major-order.solution.cl" --races
    expect "without oclgrind, --races says what to install" 0 'the race check needs oclgrind, which is not installed \(Debian: apt-get install oclgrind\)' \
        env OCLGRIND=/nonexistent/oclgrind "$tutor" --workspace "$ws" --check 1 "$top_srcdir/exercises/01-row-major-order.solution.cl" --races
else
    echo "SKIP: oclgrind is not installed: the race check is not tested"
fi

# ---- the command line ----
expect "--races without --check" 2 '--races goes with --check N' "$tutor" --races --list
expect "--check-timeout that is not a time" 2 '--check-timeout: "soon" is not a positive number of seconds' \
    "$tutor" --check 1 --check-timeout soon
expect "--check-timeout without a check" 2 '--check-timeout goes with --check N or --exercise N' \
    "$tutor" --bench --check-timeout 5

# On a terminal (script(1) makes one) the check shows its step before each launch, and
# leaves nothing behind on the line.
if command -v script >/dev/null 2>&1; then
    script -qec "'$tutor' --workspace '$ws' --check 1 '$top_srcdir/exercises/01-row-major-order.solution.cl' --check-timeout 30" \
        /dev/null >"$tmp/out" 2>&1 </dev/null
    grep -q 'checking: 64x64x64, launch 1 of 3\.\.\. [0-9]* s (limit [0-9]* s; Ctrl-C stops it)' "$tmp/out" && grep -q '^Exercise 1: ' "$tmp/out" &&
        grep -q 'Result: verified' "$tmp/out" &&
        ok "on a terminal the check shows each step" || not_ok "on a terminal the check shows each step"
fi

finish practice.sh
