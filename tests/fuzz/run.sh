#!/bin/sh
# run.sh SECONDS TARGET...: runs each fuzz target (tests/fuzz/fuzz_TARGET, built with
# libFuzzer) for SECONDS, one after the other, from the root of the tree that built them.
# Each keeps what it learns in fuzz-corpus/TARGET between runs and starts from its seeds:
# the shipped lessons and tests/broken for lessons, the exercises for exercises, the
# lesson directory (its SOURCES) for sources, tests/fuzz/seeds/json and CLBlast's tuners'
# files (tests/clblast) for json,
# tests/fuzz/seeds/TARGET for the others.
# An input that crashes, leaks or takes over 10 s is saved as fuzz-crashes/TARGET-*; the
# script then exits 1. `make fuzz FUZZ_SECONDS=60` builds the targets and calls it.
set -u
seconds=$1
shift
mkdir -p fuzz-crashes
# A report of undefined behaviour shows where it was reached from.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
status=0
printf '%-8s %12s %9s  %s\n' target executions 'execs/s' result
for target in "$@"; do
    mkdir -p "fuzz-corpus/$target"
    case $target in
    lesson) seeds="lessons tests/broken"; dict=-dict=tests/fuzz/lesson.dict ;;
    exercise) seeds="exercises tests/exercises tests/exercises-bad"; dict=-dict=tests/fuzz/lesson.dict ;;
    sources) seeds="lessons"; dict= ;;
    json) seeds="tests/fuzz/seeds/json tests/clblast"; dict=-dict=tests/fuzz/json.dict ;;
    *) seeds="tests/fuzz/seeds/$target"; dict= ;;
    esac
    log="fuzz-$target.log"
    # shellcheck disable=SC2086
    "tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="fuzz-crashes/$target-" $dict \
        "fuzz-corpus/$target" $seeds >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    took=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        result="FAILED (exit $rc): $(grep -m 1 -E 'ERROR|SUMMARY|Test unit written' "$log")"
        status=1
    fi
    printf '%-8s %12s %9s  %s\n' "$target" "${runs:-?}" "${took:-?}" "$result"
    [ "$rc" -eq 0 ] || tail -n 40 "$log" | sed 's/^/    | /'
done
exit $status
