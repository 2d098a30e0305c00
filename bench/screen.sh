#!/bin/sh
# bench/screen.sh [LESSON SIZE [DEVICE]]: how quickly the interactive screen answers.
#
# Runs the tutor under tmux at 100x30 and measures
#   1. the time from starting the program to the first full screen (the title, the four
#      panes and the key line drawn), polling the screen every 10 ms;
#   2. the delay from a key to the redrawn screen while the worker measures LESSON at SIZE
#      (pick a slow pair, such as lesson 2 at 1024 on a CPU): 20 presses of n and p, each
#      seen from outside (tmux, so including the terminal; 10 ms polling) and from inside
#      (CLMM_TUTOR_TRACE: from reading the key to the end of the redraw).
# Prints the figures; needs tmux and a built src/clmm-tutor.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
tutor=${TUTOR:-$here/src/clmm-tutor}
lesson=${1:-2}
size=${2:-1024}
device=${3:+--device $3}
export CLMM_TUTOR_DATADIR=${CLMM_TUTOR_DATADIR:-$here}
tmp=$(mktemp -d)
sock=clmm-bench-$$
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"

now_ms() { date +%s%3N; }
shown() { tm capture-pane -p -t t | grep -Eq -- "$1"; }

start=$(now_ms)
tm -f /dev/null new-session -d -s t -x 100 -y 30 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color CLMM_TUTOR_TRACE=$tmp/trace $tutor --lesson $lesson --size $size $device; sleep 600"
until shown "Work-group layout" && shown "GFLOPS, measured" && shown "q quit"; do
    sleep 0.01
    [ $(($(now_ms) - start)) -lt 30000 ] || { echo "no screen after 30 s"; tm capture-pane -p -t t; exit 1; }
done
first=$(($(now_ms) - start))
echo "start to first full screen: $first ms (lesson $lesson at $size, 100x30)"

# The worker must be busy measuring while the keys arrive.
until shown "measuring lesson"; do sleep 0.05; done
: >"$tmp/trace"
: >"$tmp/outside"
want=$lesson
for i in $(seq 1 20); do
    if [ $((i % 2)) -eq 1 ]; then key=n; want=$((lesson + 1)); else key=p; want=$lesson; fi
    t0=$(now_ms)
    tm send-keys -t t "$key"
    until shown "Lesson $want \\("; do sleep 0.01; done
    echo $(($(now_ms) - t0)) >>"$tmp/outside"
    sleep 0.3
done
busy=$(tm capture-pane -p -t t | grep -c "measuring lesson" || true)
summary() { sort -n | awk '{ v[NR] = $1 } END { printf "median %s ms, max %s ms over %d keys\n", v[int((NR + 1) / 2)], v[NR], NR }'; }
printf "key to redraw, seen through tmux:    "; summary <"$tmp/outside"
printf "key to redraw, inside the program:   "; awk '{ print $3 }' "$tmp/trace" | summary
[ "$busy" -gt 0 ] && echo "(the worker was still measuring at the end)"
tm send-keys -t t q
