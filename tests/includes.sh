#!/bin/sh
# includes.sh: the layers of src/ (doc/ARCHITECTURE.md) as the #include lines draw them. A
# module is a .c file and its .h. The test fails on an include circle between modules, on an
# include that runs up a layer (the engine includes no header of the command line or of the
# screen; the command line none of the screen's), on curses outside the screen's files, and
# on an allowance below that is no longer used (remove it when its include goes); and on a
# file of src/ that the README's source map does not name.
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
# The layers. Every module of src/ not named here is the engine's.
CLI = {"cli", "commands", "excommands", "options", "report", "rowtext", "side"}
TUI = {"crt", "exmode", "panes", "tutor", "tutorint"}
MAIN = {"main"}
# Includes up a layer that are still there, each to go (doc/ARCHITECTURE.md): none now. The
# list stays, for a step that must leave one for a while, and the test fails on one no
# longer used.
ALLOWED = set()

def layer(m):
    return "main" if m in MAIN else "tui" if m in TUI else "cli" if m in CLI else "engine"

RANK = {"engine": 0, "cli": 1, "tui": 2, "main": 3}
mods, edges, problems, used = set(), {}, [], set()
for path in sorted(glob.glob(os.path.join(src, "*.[ch]"))):
    m = os.path.basename(path)[:-2]
    mods.add(m)
    for number, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        if re.match(r'\s*#\s*include\s*<n?curses', line) and layer(m) != "tui":
            problems.append("%s:%d: curses outside the screen's files" % (os.path.basename(path), number))
        g = re.match(r'\s*#\s*include\s+"([^"/]+)\.h"', line)
        if not g or g.group(1) == m or not os.path.exists(os.path.join(src, g.group(1) + ".h")):
            continue
        to = g.group(1)
        edges.setdefault(m, set()).add(to)
        a, b = layer(m), layer(to)
        if RANK[b] > RANK[a] or (a, b) in (("tui", "cli"), ("cli", "tui")):
            if (m, to) in ALLOWED:
                used.add((m, to))
            else:
                problems.append("%s:%d: the %s includes %s.h, of the %s" % (os.path.basename(path), number, a, to, b))
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

# The README's source map names every file of src/ (a header alone where it has no .c).
sed -n '/^The source$/,/^    kernels\//p' "$top_srcdir/README" >"$tmp/map"
: >"$tmp/out"
for f in "$top_srcdir"/src/*.c "$top_srcdir"/src/*.h; do
    b=$(basename "$f")
    case $b in *.h) [ -f "$top_srcdir/src/${b%.h}.c" ] && continue ;; esac
    grep -Eq "(^|[[:space:]])$b([[:space:]]|$)" "$tmp/map" || echo "not in README's source map: src/$b" >>"$tmp/out"
done
[ -s "$tmp/out" ] && not_ok "README's source map names every file of src/" || ok "README's source map names every file of src/"

# The test itself: a circle and an include up a layer, made on purpose in a copy, are found.
mkdir -p "$tmp/src"
cp "$top_srcdir"/src/*.[ch] "$tmp/src/"
printf '#include "session.h"\n' >>"$tmp/src/str.h"     # str -> session -> ... -> str
printf '#include "options.h"\n' >>"$tmp/src/verify.c"  # the engine into the command line
sed -n '/^python3 - /,/^EOF$/p' "$0" | sed '1d;$d' >"$tmp/includes.py"
python3 "$tmp/includes.py" "$tmp/src" >"$tmp/out" 2>&1
if grep -q '^include circle: .*str' "$tmp/out" && grep -q '^verify.c:[0-9]*: the engine includes options.h, of the cli$' "$tmp/out"; then
    ok "a circle and an include up a layer made on purpose are found"
else
    not_ok "a circle and an include up a layer made on purpose are found"
fi

finish includes.sh
