#!/bin/sh
# screen.sh: the interactive screen end to end, in a pseudo-terminal under tmux: it starts
# at a lesson and shows its text, source, layout and a verified GFLOPS figure; keys switch
# lesson, size, parameters, panes and overlays; resizing below the minimum shows the
# "too small" screen and recovers; q, Ctrl-C, SIGTERM and a crash all give the terminal
# back. Skipped (77) without tmux or without an OpenCL device.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
# Absolute: a run may start in another directory (start_dir).
tutor="$(cd "$top_builddir/src" && pwd)/clmm-tutor"
export CLMM_TUTOR_DATADIR="${CLMM_TUTOR_DATADIR:-$(cd "$top_srcdir" && pwd)}"

command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }

# SCREEN_DEVICE picks the device (default: the tutor's default).
device=${SCREEN_DEVICE:+--device $SCREEN_DEVICE}
esc=$(printf '\033')
tmp=$(mktemp -d)
# A tmux server per run of the tutor: a new server on a socket whose old one is still
# shutting down can fail to start.
runs=0
tm() { tmux -L "clmm-screen-$$-$runs" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"
# The ceilings --devices measures go here, not to the user's cache; POCL, which keeps its
# compiled kernels under XDG_CACHE_HOME too, is told where they were.
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-$tmp}/.cache}/pocl/kcache}"
export XDG_CACHE_HOME="$tmp/cache"
"$tutor" --devices >/dev/null 2>&1 || { echo "SKIP: no OpenCL device"; exit 77; }
# The lessons of the set, as --list numbers them: the title counts them ("6 of N"), the
# prompt of g names the first and last, and at 120x40 each has a bar.
numbers=$("$tutor" --list | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }')
count=$(echo $numbers | wc -w)
lastlesson=${numbers% }
lastlesson=${lastlesson##* }
[ "$count" -gt 13 ] || { echo "FAIL: --list shows $count lessons"; exit 1; }
# The lessons that get a bar: all of them but those that need another device than this one
# (under the list, "Lessons 20 to 24: an NVIDIA GPU ... only"), which are refused here.
needing=$("$tutor" --list | awk '/^Lessons? [0-9]+( to [0-9]+)?: / {
    sub(/:.*/, ""); n = split($0, w, " "); for (i = w[2]; i <= w[n]; i++) printf "%s ", i }')
bars=
for n in $numbers; do
    case " $needing " in
    *" $n "*)
        # shellcheck disable=SC2086
        "$tutor" --bench --lesson "$n" --size 64 --reps 1 --no-reference --format csv $device 2>/dev/null |
            grep -q ',refused,' && continue ;;
    esac
    bars="$bars$n "
done
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "PASS: $1"; }
not_ok() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    tm capture-pane -p -t t 2>/dev/null | sed 's/^/    | /'
}

# start COLS ROWS ARGS...: runs the tutor in a new tmux session "t" (in the directory
# start_dir, else this one); when it ends, the
# shell prints its exit status and whether the terminal is back in canonical mode with
# echo, then waits to be read.
start() {
    cols=$1 rows=$2
    shift 2
    tm kill-server >/dev/null 2>&1
    runs=$((runs + 1))
    # The shell ignores Ctrl-C, so that it lives to report how the tutor ended (the tutor
    # installs its own handler).
    cat >"$tmp/run.sh" <<EOF
trap '' INT
sh -c 'echo \$\$ >"$tmp/pid"; exec "$tutor" "\$@"' tutor $* 2>"$tmp/stderr"
echo "EXIT=\$?"
stty -a | tr ' ;' '\n\n' | grep -Ex -- '-?(icanon|echo)' | tr '\n' ' '
echo "<- tty"
sleep 600
EOF
    tm -f /dev/null new-session -d -s t -x "$cols" -y "$rows" -c "${start_dir:-$PWD}" \
        "env LANG=${SCREEN_LANG:-C.UTF-8} LC_ALL=${SCREEN_LANG:-C.UTF-8} TERM=xterm-256color sh $tmp/run.sh"
}

screen_text() { tm capture-pane -p -t t; }

# wait_for PATTERN [SECONDS]: until the pane shows PATTERN (an extended regex).
wait_for() {
    i=0
    limit=$(( ${2:-60} * 10 ))
    while [ $i -lt $limit ]; do
        screen_text | grep -Eq -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

check() { if wait_for "$2" "${3:-60}"; then ok "$1"; else not_ok "$1 (no '$2')"; fi; }
# check_gone NAME PATTERN: the pattern leaves the screen within 10 s.
check_gone() {
    i=0
    while screen_text | grep -Eq -- "$2"; do
        i=$((i + 1))
        [ $i -lt 100 ] || { not_ok "$1 ('$2' still there)"; return; }
        sleep 0.1
    done
    ok "$1"
}
check_absent() { if screen_text | grep -Eq -- "$2"; then not_ok "$1 ('$2' present)"; else ok "$1"; fi; }
keys() { tm send-keys -t t "$@"; }

# The terminal is back: the program ended with status $2, in canonical mode with echo.
check_restored() {
    if wait_for "EXIT=$2" 30 && wait_for "(^| )icanon echo <- tty" 5; then
        ok "$1: exit $2, terminal restored"
    else
        not_ok "$1: exit $2, terminal restored"
        # What the program printed on stderr (a sanitizer's report, say) says why.
        sed 's/^/    stderr| /' "$tmp/stderr" 2>/dev/null | head -n 40
    fi
}

# ---- a lesson at a small size ----
start 100 30 --lesson 5 --size 128 $device
check "title names the lesson" "Lesson 5 \\(6 of $count\\): Tiling in local memory"
check "lesson text" "Lesson 5: "
check "work-group layout figures" "work-items|work-group"
check "a verified GFLOPS figure" "latest [0-9][0-9.]* +median [0-9][0-9.]*"
check_absent "no wrong result" "wrong result"
keys Tab
check "Tab shows the source" "__kernel|__local"
keys c
check "c shows the diff from the previous lesson" "diff from lesson 4"
keys c n
check "n goes to lesson 6" "Lesson 6 \\(7 of $count\\)"
check "its GFLOPS" "latest [0-9][0-9.]* +median"
keys +
check "+ doubles the size" "Lesson 6 \\(7 of $count\\).*256"
keys p
check "p goes back" "Lesson 5 \\(6 of $count\\)"
keys 9
check "a digit jumps to that lesson" "Lesson 9 \\(10 of $count\\)"
keys t
check "t opens the parameters" "Lesson 9 parameters"
keys Right
check "a parameter changes at once" "TSM=128|TSM +32 +64 +128"
keys Enter '?'
check "? shows every key" "Keys \(Esc or any other key closes\)"
keys Escape
check_gone "Esc closes the help" "Keys \(Esc or any other key closes\)"
keys d
check "d lists the devices" "OpenCL device: Up/Down"
keys Escape
check_gone "Esc closes the device list" "OpenCL device: Up/Down"
keys s
check "s asks for a size" "size \(N or MxNxK"
keys 1 0 0 x 7 0 x 3 0 Enter
check "an exact MxNxK" "100x70x30"
check "measured at that size" "latest [0-9][0-9.]* +median"

# ---- resizing ----
tm resize-window -t t -x 70 -y 20
check "too small below 80x24" "terminal too small: have 70x20, need 80x24"
tm resize-window -t t -x 80 -y 24
check "recovers at 80x24" "Lesson 9 \\(10 of $count\\)"
tm resize-window -t t -x 200 -y 50
check "uses a large terminal: text and source together" "__kernel|__local"
check "and the text" "Lesson 9: "

# ---- series ----
keys a
check "a runs every lesson" "all lessons: [0-9]+ of"
check "the bar chart" "GFLOPS medians at 100x70x30"
keys x
keys q
check_restored "q" 0

# ---- remembered between runs ----
if grep -q "lesson=9" "$XDG_STATE_HOME/clmm-tutor/state" 2>/dev/null &&
   grep -q "size=100x70x30" "$XDG_STATE_HOME/clmm-tutor/state"; then
    ok "the state file remembers lesson and size"
else
    not_ok "the state file remembers lesson and size"
fi
start 100 30 $device
check "a new run starts where the last ended" "Lesson 9 \\(10 of $count\\).*100x70x30"
keys C-c
check_restored "Ctrl-C" 0

# ---- the host lesson: its C loop as the source, and the documents it cites ----
# A state of its own: the run before set the one the next sections start from.
export XDG_STATE_HOME="$tmp/state-host"
start 100 40 --lesson 0 --size 64 $device
check "the host lesson" "Lesson 0 \\(1 of $count\\)"
keys End
check "its explanation ends with its sources line" "000 \\(numpy as the CPU figure to"
check "then each document cited, with its author and address" \
    "002: Tutorial OpenCL; author: Tim Mattson"
keys Tab
check "the source pane shows the host loop" "00-host-reference\\.c"
check "its C function" "gemm_host_reference"
keys n c
check "c in lesson 1 shows the diff from lesson 0's loop" "diff from lesson 0"
keys q
check_restored "q after the host lesson" 0
export XDG_STATE_HOME="$tmp/state"
# ---- end of: the host lesson ----

# ---- signals and crashes ----
start 100 30 --lesson 1 --size 64 $device
check "started for SIGTERM" "Lesson 1 \\(2 of $count\\)"
check "measuring before SIGTERM" "latest [0-9]"
kill -TERM "$(cat "$tmp/pid")"
check_restored "SIGTERM" 0
start 100 30 --lesson 1 --size 64 $device
check "started for a crash" "Lesson 1 \\(2 of $count\\)"
# Paused first: a compiler inside the OpenCL implementation (POCL's LLVM) catches SIGSEGV
# on its own thread while it builds, and would take this one for a crash of the build.
keys Space
check "paused" "paused \(space resumes\)"
kill -SEGV "$(cat "$tmp/pid")"
check_restored "a crash (SIGSEGV)" 139

# ---- a bad device is reported after the screen closes ----
start 100 30 --lesson 1 --device no-such-device
check_restored "an unknown device" 3
if grep -q "no-such-device" "$tmp/stderr"; then ok "its message is printed"; else not_ok "its message is printed"; fi

# ---- reloading an edited kernel that does not build ----
mkdir -p "$tmp/mine/lessons" "$tmp/mine/kernels"
cp "$top_srcdir"/lessons/05-* "$tmp/mine/lessons/"
cp "$top_srcdir"/kernels/05-* "$tmp/mine/kernels/"
start 100 30 --lessons "$tmp/mine/lessons" --lesson 5 --size 64 $device
check "own lessons" "latest [0-9][0-9.]* +median"
echo "this is not OpenCL C;" >>"$tmp/mine/kernels/05-local-tiles.cl"
keys r
check "r shows the build error" "Build failed"
keys Escape
check "the previous kernel is still measured" "latest [0-9][0-9.]* +median"
keys q
check_restored "q after a failed build" 0
# What the OpenCL implementation printed on stderr while the screen was up (POCL: "1 error
# generated.") comes out after a crash too, not only after q.
if [ -s "$tmp/stderr" ]; then
    cp "$tmp/stderr" "$tmp/stderr-q"
    start 100 30 --lessons "$tmp/mine/lessons" --lesson 5 --size 64 $device
    check "started with the broken kernel on disk" "Lesson 5 \(1 of 1\)"
    keys r
    check "its build fails again" "Build failed"
    # Esc alone (a key right behind it would make it Alt+key), then pause.
    keys Escape
    sleep 0.3
    keys Space
    check "paused before the crash" "paused \(space resumes\)"
    kill -ABRT "$(cat "$tmp/pid")"
    check_restored "an abort (SIGABRT)" 134
    if [ -s "$tmp/stderr" ] && grep -qF "$(head -n 1 "$tmp/stderr-q")" "$tmp/stderr"; then
        ok "what was held from stderr is printed after an abort"
    else
        not_ok "what was held from stderr is printed after an abort"
    fi
else
    echo "SKIP: the OpenCL implementation printed nothing for a failed build: stderr after a crash not tried"
fi

# ---- without colours, and without UTF-8 ----
start 100 30 --lesson 5 --size 64 --no-color $device
check "--no-color runs" "latest [0-9]"
if tm capture-pane -p -e -t t | grep -Eq "$esc\\[([0-9]+;)*(3[0-7]|38;5)[;m]"; then
    not_ok "--no-color: no colour escapes"
else
    ok "--no-color: no colour escapes"
fi
keys q
check_restored "q without colour" 0
SCREEN_LANG=C start 100 30 --lesson 9 --size 64 $device
check "an ASCII terminal" "latest [0-9]"
if screen_text | LC_ALL=C grep -q '[^ -~]'; then not_ok "ASCII only in a C locale"; else ok "ASCII only in a C locale"; fi
keys q
check_restored "q in ASCII" 0

# ---- the tuner, the sweep, and presenter mode ----
start 100 30 --lesson 5 --size 64 $device
check "ready to tune" "latest [0-9][0-9.]* +median"
keys T
check "T tunes the lesson, with its progress" "Tuning lesson 5: [0-9]+ of 3"
check "and saves the best" "best of 3 configurations saved in"
keys w
check "w sweeps sizes" "Sweep: lesson 5, GFLOPS against size"
check "with progress, naming its lesson" "sweep lesson 5: [0-9]+ of [0-9]+"
keys w
check_gone "w again stops it" "Sweep: lesson 5"
keys q
check_restored "q after tuning" 0

# ---- G: the chart on screen saved as SVG, in the directory the tutor started in ----
# svg_valid FILE: well-formed (xmllint, where installed) with an <svg> root.
svg_valid() {
    [ -s "$1" ] || return 1
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$1" || return 1
        [ "$(xmllint --xpath 'count(/*[local-name()="svg" and namespace-uri()="http://www.w3.org/2000/svg"])' "$1")" = 1 ]
    else
        echo "SKIP: xmllint (Debian: libxml2-utils) is not installed: the chart's validity is not checked" >&2
        grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$1"
    fi
}
mkdir "$tmp/charts"
start_dir="$tmp/charts"
start 120 40 --lesson 5 --size 64 $device
check "ready to save the chart" "latest [0-9][0-9.]* +median"
keys '?'
check "the help lists G" "G +save the chart \(SVG\)"
keys Escape
check_gone "the help closes" "save the chart \(SVG\)"
keys G
check "G saves the bars and says where, the file first" "clmm-tutor-lesson5-64-[0-9]{8}-[0-9]{6}\.svg: the bars saved, in the directory"
chart=$(ls "$tmp/charts"/clmm-tutor-lesson5-64-*.svg 2>/dev/null | head -n 1)
if svg_valid "$chart" && grep -q 'fill="#111111" font-weight="bold">Tiles in local memory</text>' "$chart"; then
    ok "the saved bars are valid SVG, the lesson on screen in bold"
else
    not_ok "the saved bars are valid SVG, the lesson on screen in bold ($chart)"
fi
keys G
check "G again: a second file, not the first one replaced" "clmm-tutor-lesson5-64-[0-9]{8}-[0-9]{6}(-2)?\.svg: the bars saved"
sleep 0.5
if [ "$(ls "$tmp/charts"/clmm-tutor-lesson5-64-*.svg 2>/dev/null | wc -l)" -eq 2 ]; then
    ok "two presses of G, two files"
else
    not_ok "two presses of G, two files ($(ls "$tmp/charts" | tr '\n' ' '))"
fi
keys w
check "a sweep to save, two sizes measured" "sweep lesson 5: [3-9][0-9]* of [0-9]+"
keys G
check "G saves the sweep" "clmm-tutor-lesson5-sweep-[0-9]{8}-[0-9]{6}\.svg: the sweep saved"
chart=$(ls "$tmp/charts"/clmm-tutor-lesson5-sweep-*.svg 2>/dev/null | head -n 1)
if svg_valid "$chart" && grep -q 'font-weight="bold">5 Tiles in local memory</text>' "$chart" &&
    grep -q '>64</text>' "$chart" && grep -q '<polyline' "$chart"; then
    ok "the saved sweep is valid SVG, GFLOPS against size"
else
    not_ok "the saved sweep is valid SVG, GFLOPS against size ($chart)"
fi
keys q
check_restored "q after saving charts" 0
start_dir=
start 100 30 --demo=1 --lesson 1 --size 64 $device
check "--demo shows it" "\[demo\].*Lesson 1 \\(2 of $count\\)"
check "and moves on by itself" "\[demo\].*Lesson 2 \\(3 of $count"
keys x
check_gone "a key ends the presentation" "\[demo\]"
keys q
check_restored "q after the demo" 0

# ---- the whole ladder, its numbers, and keys that never surprise ----
# bar_lessons: the lesson numbers that have a bar with a figure and its spread, "ref" for
# CLBlast and "cpu" for the CPU's BLAS, one a line, from the screen as it is now (their
# titles, "CLBlast (defaults)" and "CPU BLAS (2 threads)", cut to "CLBlast (defau…" and
# "CPU BLAS (2 th…" in a narrow pane).
bar_lessons() {
    screen_text | grep -Eo "(^|│|\|) ?[0-9]{1,2}( |┆|:)[^│|]*[0-9.]+ (±|\+-)[0-9.]+%" |
        sed -E 's/^(│|\|)? ?([0-9]+)( |┆|:).*/\2/' | sort -un
    screen_text | grep -Eq "CLBlast \\(def[^ ]* +[^ ]+ [0-9.]+ (±|\+-)" && echo ref
    screen_text | grep -Eq "CPU BLAS \\([^│|]* [0-9.]+ (±|\+-)" && echo cpu
}
# The reference rows of this build: CLBlast's and, with a CBLAS (configure's answer in
# config.h, not the program's), the CPU's BLAS, whose bar takes the room of one more lesson
# at 80x24.
refs="ref "
at80="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
if grep -q '^#define HAVE_CBLAS 1' "$top_builddir/config.h" 2>/dev/null; then
    refs="ref cpu "
    at80="0 1 2 3 4 5 6 7 8 9 10 11 12 13 "
fi
# all_bars NAME WANT: the lessons and CLBlast with a bar are WANT ("0 1 ... ref ").
all_bars() {
    i=0
    while [ "$(bar_lessons | tr '\n' ' ')" != "$2" ]; do
        i=$((i + 1))
        [ $i -lt 100 ] || { not_ok "$1 (bars for: $(bar_lessons | tr '\n' ' '))"; return; }
        sleep 0.2
    done
    ok "$1"
}
for geometry in "80 24" "120 40"; do
    # shellcheck disable=SC2086
    start $geometry --lesson 5 --size 64 $device
    check "ready at ${geometry% *}x${geometry#* }" "latest [0-9][0-9.]* +median"
    keys a
    check "a runs every lesson" "all lessons: [0-9]+ of"
    wait_for "CLBlast \\(def[^ ]* +[^ ]+ [0-9.]+" 240 >/dev/null
    check_gone "the series ends" "all lessons: [0-9]+ of"
    # At 120x40 every lesson of the set (all of --list) and the reference rows have a bar; at
    # 80x24 the pane holds fewer, and those left out are the farthest from the current lesson (5).
    if [ "$geometry" = "80 24" ]; then
        all_bars "every lesson but the farthest from the current and the references have a bar at 80x24" \
            "$at80$refs"
    else
        all_bars "every lesson this device runs and the references have a bar at ${geometry% *}x${geometry#* }" \
            "${bars}$refs"
    fi
    # Lessons 2 to 4, a side branch, marked beside the main ladder; the legend names it.
    check "the side branch's bars are marked at ${geometry% *}x${geometry#* }" " 2┆One row of C"
    check_absent "the main ladder's are not" " [15]┆"
    # The legend gives way in whole items, the one that explains ┆ last: never cut mid-word.
    check "the legend names the side branch at ${geometry% *}x${geometry#* }" "┆ side branch: row per work-item(  |│|$)"
    # A bar leaves room for its figures: the fastest's ★ stays inside the pane's border.
    check "the ★ inside the pane at ${geometry% *}x${geometry#* }" "(±|\+-)[0-9.]+% ★ *│"
    check_absent "the ★ never in the border's place" "(±|\+-)[0-9.]+% ★$"
    # The bar of the current lesson is its median line: the same summary of the same runs.
    keys Space
    check "paused" "paused \(space resumes\)"
    sleep 0.5
    median=$(screen_text | sed -nE 's/.*latest [0-9.]+ +median ([0-9.]+) .*/\1/p' | head -n 1)
    bar=$(screen_text | sed -nE 's/.*(│|\|) ?5 [^│|]* ([0-9.]+) (±|\+-)[0-9.]+%.*/\2/p' | head -n 1)
    if [ -n "$median" ] && [ "$median" = "$bar" ]; then
        ok "lesson 5's bar ($bar) is its median ($median)"
    else
        not_ok "lesson 5's bar ($bar) is its median ($median)"
    fi
    keys q
    check_restored "q after the ladder" 0
done

start 120 40 --lesson 5 --size 64 $device
check "ready for + and -" "latest [0-9][0-9.]* +median"
keys a
check "a starts the ladder" "all lessons: [0-9]+ of"
wait_for "CLBlast \\(def[^ ]* +[^ ]+ [0-9.]+" 240 >/dev/null
check_gone "the series ends" "all lessons: [0-9]+ of"
keys v
check "v: a log scale" "GFLOPS medians at 64.*, log scale"
keys v
check "v again: the speed-up over lesson 1" "Speed-up over lesson 1 at 64³, log scale"
check_absent "the legend offers no log scale on a log scale" "v: log scale"
keys v +
check "+ goes to 128" "Lesson 5 \(6 of $count\).*128"
keys -
check "- comes back to 64" "Lesson 5 \(6 of $count\).*64"
all_bars "+ then - keeps the ladder measured at 64" "${bars}$refs"
keys Escape
check "Esc on the screen says how to quit" "Esc closes windows and prompts; q quits"
keys Escape n
check "Escape followed by n leaves the tutor running" "Lesson [56] \([67] of $count\)"
tm send-keys -t t -H 1b 5b 39 39 3b 39 7e
sleep 0.5
tm send-keys -t t -H 1b 4f 5a
sleep 0.5
keys n
check "unknown escape sequences are ignored" "Lesson [67] \([78] of $count\)"
check_absent "and nothing quit" "EXIT="
keys g 1 2 Enter
check "g 12 goes to lesson 12" "Lesson 12 \(13 of $count\)"
keys g 9 9 Enter
check "g 99: no such lesson, said in the prompt" "no lesson 99: the lessons are 0 to $lastlesson"
keys Escape
check_gone "Esc cancels the prompt" "go to lesson"
check "still at lesson 12" "Lesson 12 \(13 of $count\)"
keys q
check_restored "q after the keys" 0

# ---- why is it slow: the roofline, the look inside, the waves ----
# A state of their own: the lesson these runs end at is not remembered by the later ones.
export XDG_STATE_HOME="$tmp/state-why"
# At 80x24 the roofline takes the GFLOPS pane: the device's measured ceilings, every lesson
# measured at this size placed by its intensity (lesson 5 at 64 with TS = 16: 2K/(8K/16 + 4)
# = 3.56 flop/B), and what the model says of the current lesson.
start 80 24 --lesson 5 --size 64 --param TS=16 $device
check "ready for the roofline" "latest [0-9][0-9.]* +median"
keys a
check "a runs the ladder for the roofline" "all lessons: [0-9]+ of"
wait_for "CLBlast \\(def[^ ]* +[^ ]+ [0-9.]+" 240 >/dev/null
check_gone "the ladder is measured" "all lessons: [0-9]+ of"
keys l
check "l: the roofline in the GFLOPS pane" "Roofline: GFLOPS against"
check "the ceilings, measured" "measured: roof [0-9.]+ GFLOPS, slope [0-9.]+"
check "its axes: decades of GFLOPS and of flop/byte, the ridge" "└.*▲"
check "the verdict on lesson 5 at its intensity" "Lesson 5: 3\.56 flop/B allows [0-9.]+"
keys z
check "z zooms the roofline" "Roofline: GFLOPS against flops per byte \(log-log\)"
check "lesson 13 has its place too" "[ ,]13( |,|│|$)"
check "the median line gives the share of the peak" "median [0-9.]+ .*[0-9]+% of peak"
keys z l
check "l again: the bars" "GFLOPS, measured and verified"
keys q
check_restored "q after the roofline" 0

# The look inside and the waves, on a screen with room for them.
start 120 40 --lesson 5 --size 64 --param TS=16 $device
check "ready to look inside" "latest [0-9][0-9.]* +median"
keys i
check "i: the look inside in the source pane" "Look inside lesson 5's built kernel"
check "what the platform reports of the kernel" "local memory +[0-9]+ bytes per work-group"
check "what it does not say, and why" "not reported by this platform"
# The waves come under the drawing's figures: Tab to the layout pane, End to its last lines.
keys Tab End
check "the waves of work-groups in the layout pane" "16 work-groups, 1 per compute unit"
check "every wave's line, to the last" "8\\.00 waves, all full"
keys i
check "i again: the source" "05-local-tiles\.cl"
keys q
check_restored "q after the look inside" 0
export XDG_STATE_HOME="$tmp/state"

# ---- the host code of the launch ----
# H puts it in the source pane, at the size and parameters now (lesson 9 pads 100x90x20 to
# 128x128x32: global M / WPTM, N / WPTN = 32, 16 with WPTM = 4), and it follows them; i and
# H take each other's place; H again gives the kernel back.
export XDG_STATE_HOME="$tmp/state-host"
start 120 40 --lesson 9 --size 100x90x20 --param WPTM=4 $device
check "ready for the host code" "Lesson 9 \(10 of $count\)"
keys '?'
check "the help lists H" "H +the launch.s host code"
keys Escape
check_gone "Esc closes the help" "Keys \(Esc or any other key closes\)"
keys H
check "H: the host code in the source pane" "Host code of lesson 9's launch at 100x90x20"
check "its padding" "so 100x90x20 is padded to 128x128x32"
keys z End
check "z and End: zoomed, at its last line" "clReleaseProgram\(program\);"
check "the NDRange, evaluated, the expressions beside it" "global\[2\] = \{ 32, 16 \}; +/\* M / WPTM, N / WPTN \*/"
check "B^T passed as argument 4" "clSetKernelArg\(kernel, 4, sizeof\(cl_mem\), &b_buf\)\); +/\* B\^T \*/"
keys z +
check "a new size, a new launch" "Host code of lesson 9's launch at 128³"
keys i
check "i: the look inside instead" "Look inside lesson 9's built kernel"
keys H
check "H: the host code again" "Host code of lesson 9's launch"
keys H
check "H again: the kernel" "09-register-blocks\.cl"
keys 0 H
check "the host lesson launches no kernel" "lesson 0 runs on the host: it launches no kernel"
keys q
check_restored "q after the host code" 0
export XDG_STATE_HOME="$tmp/state"

# At 80 columns: the title keeps the size and whole words, the parameters give way with a
# mark; the source pane's title keeps the size; the key line names the command that prints
# the host code whole, with the size and the parameters that are not the defaults.
start 80 24 --lesson 13 --size 160 --param TSK=16 $device
check "the title at 80 columns, whole words and the size" "Lesson 13 \(14 of $count\): A fast row-major kernel for … │ 160³ │ …$"
keys H
check "H at 80 columns: the command for the whole code" "H: back · whole: clmm-tutor --show 13 --host-code --size 160 --param TSK=16 *$"
check "the host code's title keeps the size" "Host code.* 160³"
keys t
check "t: the names in a column, a space after the longest" "│ PREFETCH \[1\] +0 +\(default 1\)"
check "a switch is marked" "│ VGLOBAL  \[1\] +0 +\(default 1\)  switch, not tuned"
check_absent "a parameter is not" "TSM .*switch"
keys Escape
check_gone "Esc closes the parameters" "Lesson 13 parameters"
# Lesson 16's parameters chosen by rule: marked in their line, the rules written out whole
# under the list, wrapped at 80 columns.
keys g 1 6 Enter t
check "a parameter chosen by rule is marked" "│ SPLIT .*\(default 1\)  by rule"
check "its rule is written out" "│ TSM by rule: 64 \+ 64 \* \(16 \* cdiv\(M, 128\) \* cdiv\(N, 128\) >= CU\)"
check "a long rule is written whole inside the dialog, wrapped" "│ [^│]*64\)\) +│"
keys Escape
check_gone "Esc closes lesson 16's parameters" "Lesson 16 parameters"
# Lesson 19's: a list too long for the row shown by its span, a range with its rule, and rules
# longer than 24 rows hold: as many as fit, then where the rest are; the refusal of TSK=16
# (the --param above) whole below them, and the key line still in its place.
keys g 1 9 Enter t
check "a long list of values: the current one and the span" "│ SPLIT +\[[0-9]+\] of 16 values, 1 to 16 +\(default 1\)  by rule"
check "a range: by rule and not tuned" "│ WAVE +\[[0-9]+\] of 1 to 1024 +\(default 132\)  by rule, not tuned"
check "rules that do not fit: where the rest are" "│ \.\.\. the rest: clmm-tutor --show 19 +│"
check "the refusal below them, whole" "│ (GPUs .*)?does not hold\) +│"
check "the key line in its place" "^ n/p lesson "
keys Escape
check_gone "Esc closes lesson 19's parameters" "Lesson 19 parameters"
keys q
check_restored "q after the host code at 80 columns" 0
start 100 30 --lesson 13 --size 160 $device
check "the title at 100 columns: whole parameters, then a mark" "│ 160³ │ TSM=128 …$"
keys q
check_restored "q after the title at 100 columns" 0
start 80 24 --lesson 2 --size 64 $device
check "a side branch's title at 80 columns" "Lesson 2 \(3 of $count, side branch\): One row of C per … │ 64³ │ …$"
keys q
check_restored "q after the side branch's title" 0

# A set without lesson 1 opens at its first lesson.
mkdir -p "$tmp/few/lessons" "$tmp/few/kernels"
cp "$top_srcdir"/lessons/00-* "$top_srcdir"/lessons/05-* "$top_srcdir"/lessons/09-* "$tmp/few/lessons/"
cp "$top_srcdir"/kernels/00-* "$top_srcdir"/kernels/05-* "$top_srcdir"/kernels/09-* "$tmp/few/kernels/"
start 100 30 --lessons "$tmp/few/lessons" --size 64 $device
check "a set without lesson 1 opens at its first" "Lesson 0 \(1 of 3\)"
keys q
check_restored "q in a set of three" 0

# The diff marks removed lines with "-", without colours too.
start 120 40 --lesson 13 --size 64 --no-color $device
check "lesson 13" "Lesson 13 \(14 of $count\)"
keys c
check "the diff" "diff from lesson 12"
check "removed lines carry a -" "(│|\|)- .*Lesson 12"
check "added lines a +" "(│|\|)\+ .*Lesson 13"
keys o
check "o: code lines only" "diff from lesson 12, code only"
keys q
check_restored "q after the diff" 0

# A launch refused for its estimated time can be run anyway.
start 100 30 --lesson 2 --size 512 --max-launch 0.0001 $device
check "refused for its estimate, with the key that runs it" "f runs it anyway"
keys f
check "f runs it" "latest [0-9][0-9.]*"
keys q
check_restored "q after f" 0
# A wrong result shows where it is wrong: the pattern, its hint, and C drawn by tiles.
start 100 30 --lessons "$top_srcdir/tests/broken" --lesson 96 --size 37x29x20 $device
check "a wrong result" "wrong result"
check "its error map's pattern and counts" "edges: 305 of 1073 elements wrong"
check "its hint" "the last row and column of tiles are wrong"
keys q
check_restored "q after a wrong result" 0
# A lesson whose kernel reads far outside its buffers (document 004's kernel given K =
# 2^31 - 1) ends the process that runs it, not the screen, which says so and goes on.
mkdir -p "$tmp/faulty"
cp "$top_srcdir/tests/casestudy/floatMatrixMult.cl" "$tmp/faulty/"
sed -e 's/^lesson: 80/lesson: 61/; s/args: C A B ints(K)/args: C A B ints(2147483647)/' \
    "$top_srcdir/tests/casestudy/80-case-study-global.lesson" >"$tmp/faulty/61-huge-k.lesson"
sed -e 's/^lesson: 80/lesson: 60/' "$top_srcdir/tests/casestudy/80-case-study-global.lesson" >"$tmp/faulty/60-right-k.lesson"
start 100 30 --lessons "$tmp/faulty" --lesson 61 --size 64 $device
check "a kernel that faults: the screen says what ended it" "ended on signal|illegal memory"
keys p
check "and goes on to the next lesson" "latest [0-9][0-9.]* +median"
keys q
check_restored "q after a kernel that faulted" 0
# Back at a lesson whose runs were refused, paused: its refusal, never "latest 0".
start 100 30 --lesson 1 --size 512 --max-launch 0.0001 $device
check "lesson 1 refused" "f runs it anyway"
keys Space
check "paused at lesson 1" "paused \(space resumes\)"
keys n
check "lesson 2, on a side branch" "Lesson 2 \(3 of $count, side branch: row per work-item\)"
keys p
check "back at lesson 1, its refusal shown" "f runs it anyway"
check_absent "no figure for a lesson that was never measured" "latest 0 "
keys q
check_restored "q after the refusal" 0

# ---- every signal that ends the program gives the terminal back first ----
# Each ends it with the status the signal gives (128 + its number). SIGQUIT is sent twice:
# POCL's compiler (LLVM) may take the first and let the program run on.
start 100 30 --lesson 1 --size 64 $device
check "measuring before SIGQUIT" "latest [0-9][0-9.]* +median"
keys Space
check "paused for SIGQUIT" "paused \(space resumes\)"
kill -QUIT "$(cat "$tmp/pid")"
sleep 1
kill -QUIT "$(cat "$tmp/pid")" 2>/dev/null
check_restored "SIGQUIT twice" 131
for signal in ALRM:142 PIPE:141; do
    start 100 30 --lesson 1 --size 64 $device
    check "measuring before SIG${signal%:*}" "latest [0-9][0-9.]* +median"
    kill -"${signal%:*}" "$(cat "$tmp/pid")"
    check_restored "SIG${signal%:*}" "${signal#*:}"
done
# ---- end of: every signal that ends the program ----

# ---- exercises: each save of the student's file is checked, without a key ----
exercises="$top_srcdir/tests/exercises"
ws="$tmp/ws"
progress="$tmp/exstate/clmm-tutor/progress"
export XDG_STATE_HOME="$tmp/exstate"
unset EDITOR VISUAL
# save_as FILE DEST: writes DEST as editors do, a new file renamed over the old one.
save_as() { cp "$1" "$2.new" && mv "$2.new" "$2"; }
# The headline of a check that passed: the word alone on its row of the check pane.
verified_row="(│|\|)verified( |,)"
start 80 24 --exercises-dir "$exercises" --workspace "$ws" --exercise 1 $device
check "--exercise 1 opens it" "Exercise 1 \(1 of 2\): Store the result where it belongs"
check "its task, goal and file" "Goal: verified at 48x32x40"
check "not checked before a save" "Not checked yet"
if [ -f "$ws/01-store.cl" ]; then ok "the start is copied into the workspace"; else not_ok "the start is copied into the workspace"; fi
keys c
check "c checks the start as shipped, and says so" "This is the starting kernel as shipped:"
# The start is wrong everywhere; this store is right but for a factor of 2.
sed 's/C\[row \* N + col\] = acc;/C[col * M + row] = 2.0f * acc;/' "$exercises/01-store.cl" >"$tmp/wrong.cl"
save_as "$tmp/wrong.cl" "$ws/01-store.cl"
check "a save is checked without a key: wrong" "not verified yet: wrong"
check "the error map's pattern" "factor: 1536 of 1536 elements wrong"
check "its hint" "C is 2 times the product"
check "and C drawn by cells" "(│|\|)  (██|##)"
save_as "$exercises/01-store.solution.cl" "$ws/01-store.cl"
check "the next save is verified, without a key" "$verified_row"
check "at each size" "64x64x64 verified: 2 launches"
check "the key line counts it" "1 of 2 verified"
if grep -q "^exercise 1 best=done last=done checks=3 " "$progress" 2>/dev/null; then
    ok "the progress file records the three checks"
else
    not_ok "the progress file records the three checks"
fi

# A loop that never ends: the check shows its time and how to stop it, the verdict before
# it stays but is said to be stale, x stops it at once, and the next save is checked.
sed 's/for (int k = 0; k < K; k++)/for (int k = 0; k < K; k += 0)/' "$exercises/01-store.solution.cl" >"$tmp/endless.cl"
save_as "$tmp/endless.cl" "$ws/01-store.cl"
check "a check that runs shows its time and x" "checking(…|\\.\\.\\.) [0-9]+ s \\(x stops it\\)"
check "and the launch it is at" "48x32x40, launch 1 of 2"
check "the verdict before it is stale" "Before your last save"
keys x
check "x stops the check" "Check stopped \\(x\\)"
check_gone "x stops it at once" "x stops it"
save_as "$exercises/01-store.solution.cl" "$ws/01-store.cl"
check_gone "the next save is checked, and no longer stale" "Before your last save|Check stopped"
check "verified again" "$verified_row"

# ---- exercises: hints, the solution, the list, back to the lessons ----
keys i
check "i shows the first hint" "C is column-major"
check "counted" "Hints: 1 of 2 shown"
if grep -q "^exercise 1 .* hints=1 " "$progress" 2>/dev/null; then ok "the hint is remembered"; else not_ok "the hint is remembered"; fi
keys S
check "S asks first" "Show the solution of exercise 1\? \(y/n\)"
keys y
check "y shows the solution" "Solution: .*01-st"
keys Escape
check_gone "Esc goes back to the student's file" "Solution: "
keys X
check "X lists the exercises" "Exercises: Up/Down, Enter opens"
check "with the progress" "1 of 2 exercises verified"
check "and each one's status" " 1  lesson 1 .* done +4 checks"
keys Escape
check_gone "Esc closes the list" "Exercises: Up/Down"
keys b
check "b goes back to the lessons, at the exercise's" "Lesson 1 \(2 of $count\)"
check "with the lessons' keys" "n/p lesson"
keys X
check "X in the lessons lists the exercises" "Exercises: Up/Down, Enter opens"
keys 2
check "its number opens exercise 2" "Exercise 2 \(2 of 2\): Predict the tiles"

# ---- exercises: predict, then measure ----
check_absent "nothing asked before a check" "Your prediction"
save_as "$exercises/02-predict.solution.cl" "$ws/02-predict.cl"
check "verified, the prediction is asked for" "Your prediction: how many times as fast as lesson 1 at [0-9x]+\?"
check_absent "no measurement before the prediction" "GFLOPS|measured"
keys 2 Enter
check "the prediction beside the measurement" "You predicted 2.00x; measured [0-9.]+x"
check "done" "$verified_row"
if grep -q "^exercise 2 best=done .*prediction=2 " "$progress" 2>/dev/null; then
    ok "the prediction is recorded"
else
    not_ok "the prediction is recorded"
fi
keys q
check_restored "q in an exercise" 0

# ---- exercises: the student's editor ----
cat >"$tmp/editor.sh" <<'EOF'
sed -i 's/C\[col \* M + row\] = acc;/C[col * M + row] = 3.0f * acc;/' "$1"
EOF
EDITOR="sh $tmp/editor.sh"
export EDITOR
start 80 24 --exercises-dir "$exercises" --workspace "$ws" --exercise 1 $device
check "a file that is there is checked on opening" "$verified_row"
keys e
check "after the editor the screen is back and the edit is checked" "C = 3 x the product"
keys q
check_restored "q after the editor" 0
EDITOR="no-such-editor-$$"
start 80 24 --exercises-dir "$exercises" --workspace "$ws" --exercise 1 $device
check "opened for a missing editor" "Exercise 1 \(1 of 2\)"
keys e
check "a missing editor is said on the screen" "no-such-editor-$$: command not found"
keys q
check_restored "q after a missing editor" 0
unset EDITOR
export XDG_STATE_HOME="$tmp/state"
# ---- end of: exercises ----

# ---- a tensor-core lesson on a device without tensor cores: emulated, said so ----
# (The run that tells also fills POCL's cache for the tutor's build.)
if "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference $device 2>/dev/null | grep -q '^     emulated: '; then
    start 100 30 --lesson 20 --size 64x40x24 --reps 1 $device
    check "an emulated lesson: its title line says so" "Lesson 20 \[TF32, emulated\]" 120
    check "an emulated lesson: its figure is marked emulated" "median [0-9.]+ .*  emulated" 120
    check "an emulated lesson: its bar is marked E, the legend says why" "E emulated" 60
    keys q
    check_restored "q on an emulated lesson" 0
else
    echo "SKIP: lesson 20 is not emulated on this device (it has tensor cores): its labels were not tested"
fi
# ---- end of: an emulated lesson ----

# ---- a saved run beside the bars (--compare) ----
start 80 24 --size 64 --lesson 5 --reps 1 --compare "$top_srcdir/tests/compare/saved-64.json" $device
check "the legend names the saved run's device" "(░|-) saved: Saved test device"
check "a ghost bar behind lesson 5's bar" " 5 Tiles in.*(░|-)+ [0-9.]+ "
keys q
check_restored "q with a saved run" 0
printf '{"device": {"name": "D"}, "results": [{"lesson": 1, "m": "64"}]}' >"$tmp/hostile.json"
start 80 24 --size 64 --compare "$tmp/hostile.json" $device
check_restored "a malformed saved run is refused before the screen" 3
if grep -q "results\[0\]: \"m\" is a string, not an integer" "$tmp/stderr"; then
    ok "a malformed saved run: the file and the value named"
else
    not_ok "a malformed saved run: the file and the value named"
fi
# ---- end of: a saved run ----

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
