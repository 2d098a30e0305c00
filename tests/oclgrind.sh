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

# The lessons with a kernel: numbered lines of --list, but the host lesson, marked "(host)".
lessons=$("$tutor" --list | awk 'NR > 1 && $1 ~ /^[0-9]+$/ && !/\(host\)/ { print $1 }')
[ -n "$lessons" ] || { echo "no lessons listed"; exit 1; }
for n in $lessons; do
    log="$tmp/oclgrind-$n.log"
    start=$(date +%s)
    "$oclgrind" --data-races --check-api --log "$log" \
        "$tutor" --bench --lesson "$n" --size "$size" --reps 1 --no-reference --format csv \
        >"$tmp/out" 2>&1
    status=$?
    seconds=$(( $(date +%s) - start ))
    if [ "$status" -ne 0 ] || [ -s "$log" ] || ! grep -q ",ok," "$tmp/out"; then
        failed=$((failed + 1))
        echo "FAIL: lesson $n under oclgrind (exit $status, ${seconds}s)"
        sed 's/^/    | /' "$tmp/out" | head -20
        [ -s "$log" ] && sed 's/^/    oclgrind| /' "$log" | head -40
    else
        passed=$((passed + 1))
        echo "PASS: lesson $n under oclgrind at $size (${seconds}s)"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
