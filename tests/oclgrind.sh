#!/bin/sh
# oclgrind.sh TUTOR: runs every lesson kernel once under oclgrind, an OpenCL simulator that
# checks each memory access, at a small odd size (so padding and edge code run too), with
# data-race and API checks. Any message from oclgrind, or a run that is not verified,
# fails. Used by "make check-oclgrind".
set -u

tutor=${1:?usage: oclgrind.sh path/to/clmm-tutor}
oclgrind=${OCLGRIND:-oclgrind}
size=${OCLGRIND_SIZE:-33x17x9}
command -v "$oclgrind" >/dev/null 2>&1 || { echo "SKIP: oclgrind is not installed (apt-get install oclgrind)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# check LESSON SIZE [--param NAME=VALUE ...]: one run under oclgrind, with its race check
# unless races is set to "off" for the call.
check() {
    n=$1
    at=$2
    shift 2
    what="at $at${*:+ $*}"
    set -- --bench --lesson "$n" --size "$at" --reps 1 --no-reference --format csv "$@"
    log="$tmp/oclgrind-$n.log"
    rm -f "$log"
    race_check=--data-races
    if [ "${races:-on}" = off ]; then
        race_check=
        what="$what, without the race check"
    fi
    start=$(date +%s)
    "$oclgrind" $race_check --check-api --log "$log" "$tutor" "$@" >"$tmp/out" 2>&1
    status=$?
    seconds=$(( $(date +%s) - start ))
    if [ "$status" -ne 0 ] || [ -s "$log" ] || ! grep -q ",ok," "$tmp/out"; then
        failed=$((failed + 1))
        echo "FAIL: lesson $n under oclgrind $what (exit $status, ${seconds}s)"
        sed 's/^/    | /' "$tmp/out" | head -20
        [ -s "$log" ] && sed 's/^/    oclgrind| /' "$log" | head -40
    else
        passed=$((passed + 1))
        echo "PASS: lesson $n under oclgrind $what (${seconds}s)"
    fi
}

# The lessons with a kernel: numbered lines of --list, but the host lesson, marked "(host)",
# and those that need a device oclgrind is not. Under the list, "Lessons 20 to 24: an NVIDIA
# GPU ...;" and then "elsewhere emulated": their PTX runs emulated (kernels/ptx-emulated.h),
# which oclgrind checks as any kernel, the warp's swaps through local memory included, with
# tiles of 64 x 64 (oclgrind's device has 32 KiB of local memory). A line that ends "only.":
# lessons that must be refused with the reason, never built.
needing=$("$tutor" --list | awk '/^Lessons? [0-9]+( to [0-9]+)?: .* only\.$/ {
    sub(/:.*/, ""); n = split($0, w, " "); for (i = w[2]; i <= w[n]; i++) printf "%s ", i }')
emulated=$("$tutor" --list | awk '/^Lessons? [0-9]+( to [0-9]+)?: .*;$/ {
    sub(/:.*/, ""); n = split($0, w, " "); for (i = w[2]; i <= w[n]; i++) printf "%s ", i }')
lessons=
for n in $("$tutor" --list | awk 'NR > 1 && $1 ~ /^[0-9]+$/ && !/\(host\)/ { print $1 }'); do
    case " $needing $emulated " in *" $n "*) ;; *) lessons="$lessons$n " ;; esac
done
[ -n "$lessons" ] || { echo "no lessons listed"; exit 1; }
for n in $lessons; do
    check "$n" "$size"
done
for n in $emulated; do
    check "$n" 40x24x16 --param TSM=64 --param TSN=64 --param WM=32 --param WN=32
done
for n in $needing; do
    "$oclgrind" --check-api "$tutor" --bench --lesson "$n" --size "$size" --reps 1 --no-reference --format csv \
        >"$tmp/out" 2>&1
    if grep -q ",refused,.*needs an NVIDIA GPU" "$tmp/out" && ! grep -qi "build log\|clBuildProgram" "$tmp/out"; then
        passed=$((passed + 1))
        echo "PASS: lesson $n refused under oclgrind: it needs an NVIDIA GPU"
    else
        failed=$((failed + 1))
        echo "FAIL: lesson $n under oclgrind: expected a refusal naming what it needs"
        sed 's/^/    | /' "$tmp/out" | head -20
    fi
done

# check_each: check, for each line "LESSON SIZE NAME=VALUE ..." of its input whose lesson the
# set has, that lesson at that size with those parameters.
check_each() {
    while read -r n at params; do
        case " $lessons " in *" $n "*) ;; *) continue ;; esac
        set --
        for p in $params; do set -- "$@" --param "$p"; done
        check "$n" "$at" "$@"
    done
}

# Paths that an odd size does not reach: lesson 17's loads of whole tiles (every tile inside
# C, K a multiple of 4), over an odd number of steps (two per trip of its loop) and a partial
# last one (K = 44), with and without a split, and its bands of groups (BAND = 8, off by
# default) over more rows of tiles than a band holds, two columns of tiles wide (with one,
# a band that ignores its partial last rows still covers C). Lesson 18's split added by its
# second launch (LAST = 0), its parts after the counters. Lesson 19 with waves of 5 groups:
# 12 tiles, 10 whole and 2 split (PIECES = 0), their blocks added by the second launch.
check_each <<'EXTRA'
17 128x128x44 TSM=64 TSN=64 WM=32 WIM=4 SPLIT=1
17 128x128x40 TSM=64 TSN=64 WM=32 WIM=4 SPLIT=2
17 640x128x8 TSM=64 TSN=64 WM=32 WIM=4 SPLIT=1 BAND=8
18 130x70x100 TSM=64 TSN=64 WM=16 WIM=2 SPLIT=3 LAST=0
19 130x200x100 TSM=64 TSN=64 WM=32 WIM=4 WAVE=5 SPLIT=3 PIECES=0 LAST=0
EXTRA

# Lesson 18's split with LAST = 1, where the last of a tile's groups reads the parts the
# others wrote, after counting itself in with an atomic increment. OpenCL 1.2 orders nothing
# between work-groups, and oclgrind's race check, which follows it, reports each of those
# reads (the lesson says why the GPUs it is written for order them): these runs check the
# bounds of every access and the API calls, without the race check. Partial tiles with N not
# a multiple of 4 (parts read float by float), whole tiles (float4s), and an uneven split.
# Lesson 19's tail added the same way, after whole tiles, split (PIECES = 0) and in pieces of
# two rounds (PIECES = 1).
races=off
check_each <<'LAST'
18 130x70x100 TSM=64 TSN=64 WM=32 WIM=4 SPLIT=2 LAST=1
18 128x128x40 TSM=64 TSN=64 WM=16 WIM=2 SPLIT=2 LAST=1
18 200x136x300 TSM=64 TSN=64 WM=32 WIM=8 SPLIT=3 LAST=1
19 130x200x100 TSM=64 TSN=64 WM=32 WIM=4 WAVE=5 SPLIT=3 PIECES=0 LAST=1
19 130x200x100 TSM=64 TSN=64 WM=32 WIM=4 WAVE=5 PIECES=1 LAST=1
19 192x260x44 TSM=64 TSN=64 WM=16 WIM=2 WAVE=7 PIECES=1 LAST=1
19 192x130x44 TSM=64 TSN=64 WM=16 WIM=2 WAVE=4 SPLIT=2 PIECES=0 LAST=1
LAST
races=on
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
