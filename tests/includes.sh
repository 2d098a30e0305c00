#!/bin/sh
# includes.sh: the layers of src/ (doc/ARCHITECTURE.md) as the #include lines draw them. A
# file's layer is its folder: src/engine, src/cli (the command line), src/tui (the screen), and
# src/main.c above them. A module is a .c file and its .h. The test fails on an include
# circle between modules, on an include that runs up a layer (the engine includes no header
# of the command line or of the screen; those two none of each other's), on an include that
# names no file of src/, on curses outside the screen's folder, and on an allowance below that
# is no longer used (remove it when its include goes); and on a file of src/ that the
# README's source map does not name under its folder. (The link shows the same layers from
# the other side: Makefile.am's tests/layer_* link each layer's library whole with only the
# layers below it.)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not installed: the include graph was not read"
    exit 77
fi

python3 - "$top_srcdir/src" >"$tmp/out" 2>&1 <<'EOF'
import glob, os, re, sys

src = sys.argv[1]
LAYERS = ("engine", "cli", "tui")
# Includes up a layer that are still there, each to go (doc/ARCHITECTURE.md), as pairs of
# modules ("engine/verify", "cli/options"): none now. The list stays, for a step that must
# leave one for a while, and the test fails on one no longer used.
ALLOWED = set()

def layer(m):
    return m.split("/")[0] if "/" in m else "main"

RANK = {"engine": 0, "cli": 1, "tui": 2, "main": 3}
mods, edges, problems, used = set(), {}, [], set()
paths = sorted(glob.glob(os.path.join(src, "*.[ch]")))
for L in LAYERS:
    paths += sorted(glob.glob(os.path.join(src, L, "*.[ch]")))
for d in sorted(glob.glob(os.path.join(src, "*", ""))):
    if os.path.basename(os.path.dirname(d)) not in LAYERS:
        problems.append("src/%s: a folder that is no layer (engine, cli, tui)" % os.path.basename(os.path.dirname(d)))
for path in paths:
    rel = os.path.relpath(path, src)
    m = rel[:-2]
    here = os.path.dirname(rel)
    mods.add(m)
    for number, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        if re.match(r'\s*#\s*include\s*<n?curses', line) and layer(m) != "tui":
            problems.append("%s:%d: curses outside the screen's files" % (rel, number))
        g = re.match(r'\s*#\s*include\s+"([^"]+)\.h"', line)
        if not g:
            continue
        # As the compiler looks: beside the including file, then from src/ (-iquote).
        name = g.group(1)
        if os.path.exists(os.path.join(src, here, name + ".h")):
            to = os.path.normpath(os.path.join(here, name))
        elif os.path.exists(os.path.join(src, name + ".h")):
            to = os.path.normpath(name)
        else:
            if not os.path.exists(os.path.join(src, "..", "kernels", name + ".h")):
                problems.append("%s:%d: %s.h is no file of src/" % (rel, number, name))
            continue
        if to == m:
            continue
        edges.setdefault(m, set()).add(to)
        a, b = layer(m), layer(to)
        if RANK[b] > RANK[a] or (a, b) in (("tui", "cli"), ("cli", "tui")):
            if (m, to) in ALLOWED:
                used.add((m, to))
            else:
                problems.append("%s:%d: the %s includes %s.h, of the %s" % (rel, number, a, to, b))
for stale in sorted(ALLOWED - used):
    problems.append("allowance %s -> %s.h is no longer used: remove it from tests/includes.sh" % stale)

# Circles: Tarjan's strongly connected components of the module graph.
index, low, stack, on, count = {}, {}, [], set(), [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = count[0]
    count[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            problems.append("include circle: " + " ".join(sorted(comp)))
for v in sorted(mods):
    if v not in index:
        visit(v)

print("%d modules: %d engine, %d command line, %d screen" % (len(mods), sum(layer(m) == "engine" for m in mods),
      sum(layer(m) == "cli" for m in mods), sum(layer(m) == "tui" for m in mods)))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
EOF
status=$?
if [ "$status" -eq 0 ]; then
    ok "src/: no include circle, no include up a layer, curses only in the screen's files"
else
    not_ok "src/: no include circle, no include up a layer, curses only in the screen's files"
fi

# The README's source map names every file of src/ (a header alone where it has no .c), each
# under its folder's heading ("      engine/").
sed -n '/^The source$/,/^    kernels\//p' "$top_srcdir/README" >"$tmp/map"
: >"$tmp/out"
for f in "$top_srcdir"/src/*/*.[ch] "$top_srcdir"/src/*.c; do
    b=$(basename "$f")
    dir=$(basename "$(dirname "$f")")
    case $b in *.h) [ -f "${f%.h}.c" ] && continue ;; esac
    if [ "$dir" = src ]; then
        section=$(grep -E "^      $b( |$)" "$tmp/map")
    else
        section=$(awk -v head="      $dir/" 'index($0, head) == 1 { on = 1; next }
            on && /^      [^ ]/ { on = 0 } on' "$tmp/map")
    fi
    printf '%s\n' "$section" | grep -Eq "(^|[[:space:]])$b([[:space:]]|$)" ||
        echo "not in README's source map under its folder: ${f#"$top_srcdir"/}" >>"$tmp/out"
done
[ -s "$tmp/out" ] && not_ok "README's source map names every file of src/ under its folder" ||
    ok "README's source map names every file of src/ under its folder"

# The test itself: a circle and an include up a layer, made on purpose in a copy, are found.
mkdir -p "$tmp/src"
cp -R "$top_srcdir"/src/engine "$top_srcdir"/src/cli "$top_srcdir"/src/tui "$top_srcdir"/src/main.c "$tmp/src/"
rm -f "$tmp"/src/*/*.o "$tmp"/src/*/*.a
printf '#include "session.h"\n' >>"$tmp/src/engine/str.h"          # str -> session -> ... -> str
printf '#include "cli/options.h"\n' >>"$tmp/src/engine/verify.c"   # the engine into the command line
printf '#include "tui/crt.h"\n' >>"$tmp/src/cli/report.c"          # the command line into the screen
sed -n '/^python3 - /,/^EOF$/p' "$0" | sed '1d;$d' >"$tmp/includes.py"
python3 "$tmp/includes.py" "$tmp/src" >"$tmp/out" 2>&1
if grep -q '^include circle: .*engine/str' "$tmp/out" &&
    grep -q '^engine/verify.c:[0-9]*: the engine includes cli/options.h, of the cli$' "$tmp/out" &&
    grep -q '^cli/report.c:[0-9]*: the cli includes tui/crt.h, of the tui$' "$tmp/out"; then
    ok "a circle and includes up a layer made on purpose are found"
else
    not_ok "a circle and includes up a layer made on purpose are found"
fi

finish includes.sh
