#!/bin/sh
# cli-exercises.sh: the exercise modes of the command line (--exercises, --check, --hint,
# --reset, --solution) with the test sets of tests/exercises and tests/exercises-bad.
# Skipped parts say why; exit 77 if nothing ran.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"

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

finish_or_skip cli-exercises.sh
