#!/bin/sh
# exercises.sh: every shipped exercise as a student meets it: the starting kernel, copied
# into a fresh workspace, fails its check (it does not build, or it is not verified), and
# the solution, printed by --solution after that check, passes: verified at every size (its
# speed goal, timed on a GPU, is bench/exercises.sh's business). Needs an OpenCL device
# (POCL will do); exits 77 without one.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"

if ! "$tutor" --devices >"$tmp/out" 2>&1; then
    echo "SKIP: no OpenCL device (clmm-tutor --devices failed): the exercises cannot be checked"
    exit 77
fi

count=0
for file in "$top_srcdir"/exercises/*.exercise; do
    n=$(sed -n 's/^exercise:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$file")
    start=$(sed -n 's/^kernel:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$file")
    count=$((count + 1))
    if [ -z "$n" ] || [ -z "$start" ]; then
        : >"$tmp/out"
        not_ok "$file: no exercise or kernel line"
        continue
    fi
    name="exercise $n ($(basename "$file"))"
    predict=
    grep -q '^predict:' "$file" && predict="--predict 1.5"

    # The start as shipped: the file, or (a gap file, exercises/FORMAT) the lesson's kernel with
    # the file's edits, as --reset writes it into a workspace of its own.
    ref="$top_srcdir/exercises/$start"
    case $start in
    *.gap)
        ref="$tmp/ref/${start%.gap}.cl"
        "$tutor" --reset "$n" --workspace "$tmp/ref" >/dev/null 2>&1 && [ -s "$ref" ] &&
            ok "$name: the gap file makes a start from the lesson's kernel" ||
            { : >"$tmp/out"; not_ok "$name: the gap file makes a start from the lesson's kernel"; }
        start="${start%.gap}.cl" ;;
    esac
    grep -q 'TODO' "$ref" && ok "$name: the starting kernel marks its gaps with TODO" ||
        { : >"$tmp/out"; not_ok "$name: the starting kernel has no TODO"; }

    # The start, copied into the workspace by the check itself.
    "$tutor" --check "$n" --workspace "$tmp/ws" $predict >"$tmp/out" 2>&1
    status=$?
    if [ "$status" -eq 1 ] && grep -Eq 'Does not build|Result: not verified' "$tmp/out" &&
        cmp -s "$tmp/ws/$start" "$ref"; then
        ok "$name: the starting kernel fails its check ($(grep -Eo 'Does not build|not verified yet \([a-z ()-]*\)' "$tmp/out" | head -1))"
    else
        echo "    exit status $status, expected 1 with a failed check" >>"$tmp/out"
        not_ok "$name: the starting kernel fails its check"
    fi
    # The check says the file is the start as shipped, with the line of its first TODO, and
    # guesses no other cause from C.
    todo=$(grep -n TODO "$ref" | head -1 | cut -d: -f1)
    if grep -q "^Your file is the starting kernel as shipped: fill the gap marked TODO (line $todo) first\.$" "$tmp/out" &&
        ! grep -q '^    Hint: ' "$tmp/out"; then
        ok "$name: the check of the start says it is the start, TODO at line $todo"
    else
        not_ok "$name: the check of the start says it is the start, TODO at line $todo"
    fi

    # The solution, shown only now that a check was made.
    if "$tutor" --solution "$n" --yes </dev/null >"$tmp/out" 2>&1 && head -1 "$tmp/out" | grep -q '^==== solution'; then
        # Into the workspace, as a student would write it: that check counts in the progress.
        sed 1d "$tmp/out" >"$tmp/ws/$start"
        "$tutor" --check "$n" --workspace "$tmp/ws" $predict >"$tmp/out" 2>&1
        status=$?
        # Verified at every size. Its speed goal is not asserted here: on a GPU it is timed, and
        # timings belong to bench/exercises.sh (other tests may share the device meanwhile).
        if [ "$status" -le 1 ] && grep -q '^Result: verified' "$tmp/out" && ! grep -q 'not checked' "$tmp/out"; then
            ok "$name: the solution passes its check ($(sed -n 's/^Result: //p' "$tmp/out"))"
        else
            echo "    exit status $status, expected verified at every size" >>"$tmp/out"
            not_ok "$name: the solution passes its check"
        fi
    else
        not_ok "$name: --solution prints the solution after a check"
    fi
done

# A fragment mapping broken on purpose (a1 and a2 of mma.sync's A swapped): on a device without
# tensor cores the kernel runs emulated, with the PTX layout, and the check says how many
# elements are wrong and points at the fragments. (The same awk script makes the kernel to
# check on an NVIDIA GPU, whose map must be the same.)
if [ -f "$top_srcdir/exercises/16-fragments.exercise" ]; then
    awk -f "$top_srcdir/tests/fragments/swap-a1-a2.awk" "$tmp/ref/16-fragments.cl" >"$tmp/swapped.cl"
    "$tutor" --check 16 "$tmp/swapped.cl" >"$tmp/out" 2>&1
    status=$?
    if [ "$status" -eq 1 ] && grep -q '^  128x128x128      wrong: launch 1 of 3: C\[0\]\[0\] = 3.14763, expected -0.403365$' "$tmp/out" &&
        grep -q '^    scattered: 16264 of 16384 elements wrong, 0 never written$' "$tmp/out" &&
        grep -q "check each fragment's indices against the lesson's table" "$tmp/out"; then
        ok "exercise 16: swapped fragments give the error map of the GPU, and a hint on fragments"
    else
        not_ok "exercise 16: swapped fragments give the error map of the GPU, and a hint on fragments"
    fi
fi

# Exercise 14's groups pass their parts between them: its solution without a fence is still
# right on a CPU, and the check must say which fence is missing and not verify it; with
# both fences it is verified, and oclgrind's races between groups are not held against it.
if [ -f "$top_srcdir/exercises/14-last-group-adds.exercise" ]; then
    "$tutor" --solution 14 --yes </dev/null | sed 1d >"$tmp/fenced.cl"
    count_line=$(grep -n 'last = atomic_inc(count)' "$tmp/fenced.cl" | cut -d: -f1)
    # The second fence, after the count, taken out.
    awk '/^    DEVICE_FENCE\(\);$/ && ++n == 2 { next } { print }' "$tmp/fenced.cl" >"$tmp/unfenced.cl"
    read_line=$(grep -n 'part\[b\]\[p\] = part4(parts' "$tmp/unfenced.cl" | cut -d: -f1)
    "$tutor" --check 14 "$tmp/unfenced.cl" >"$tmp/out" 2>&1
    status=$?
    if [ "$status" -eq 1 ] && grep -q '^Result: not verified yet (a fence between work-groups is missing)\.$' "$tmp/out" &&
        grep -q "^  a fence is missing: line $count_line counts the group in and line $read_line reads global memory" "$tmp/out"; then
        ok "exercise 14: a missing fence is found, with the lines of the count and the read"
    else
        not_ok "exercise 14: a missing fence is found, with the lines of the count and the read"
    fi
    if command -v oclgrind >/dev/null 2>&1; then
        "$tutor" --check 14 "$tmp/fenced.cl" >"$tmp/out" 2>&1
        status=$?
        if [ "$status" -eq 0 ] && grep -q '^Under oclgrind (one launch): at 70x40x40: no race inside a work-group and no bad access ([0-9]* \(or more \)\{0,1\}reports of races between work-groups left out' "$tmp/out"; then
            ok "exercise 14: under oclgrind, races between groups are left out and the solution is verified"
        else
            not_ok "exercise 14: under oclgrind, races between groups are left out and the solution is verified"
        fi
    else
        echo "SKIP: oclgrind is not installed: exercise 14 under oclgrind was not tested"
    fi
fi

# Under oclgrind, a tensor-core exercise whose groups take more than oclgrind's own 32 KiB of
# local memory runs (the check gives its device 48 KiB), and a load past the end of B is
# found: exercise 23's kernel without its test of the last step.
if [ -f "$top_srcdir/exercises/23-early-loads.exercise" ] && command -v oclgrind >/dev/null 2>&1; then
    sed 's/if (EARLY \&\& s + 1 < steps)/if (EARLY)/' "$top_srcdir/kernels/23-feeding.cl" >"$tmp/unguarded.cl"
    "$tutor" --check 23 "$tmp/unguarded.cl" --races >"$tmp/out" 2>&1
    status=$?
    if [ "$status" -eq 1 ] && grep -q '^Under oclgrind (one launch): at 128x128x128: .*an index runs outside its buffer' "$tmp/out"; then
        ok "exercise 23 under oclgrind (48 KiB of local memory): a load past the end of B is found"
    else
        not_ok "exercise 23 under oclgrind (48 KiB of local memory): a load past the end of B is found"
    fi
fi

[ "$count" -ge 10 ] && { : >"$tmp/out"; ok "at least ten exercises ($count)"; } ||
    { : >"$tmp/out"; not_ok "at least ten exercises (found $count)"; }

"$tutor" --exercises >"$tmp/out" 2>&1
grep -Eq "^$count of $count exercises verified" "$tmp/out" && ok "--exercises: every exercise verified by its solution" ||
    not_ok "--exercises: every exercise verified by its solution"

finish exercises.sh
