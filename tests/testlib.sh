# testlib.sh: what the shell tests share, sourced after they set top_srcdir: the program,
# a scratch directory removed at exit, XDG directories inside it (so that no test touches
# the user's files, and no saved tuning changes a run), POCL's kernel cache kept where the
# user keeps it, and the counting of checks.
#   ok NAME / not_ok NAME        count one check (not_ok shows the output)
#   expect NAME STATUS PATTERN COMMAND...
#                                runs COMMAND; wants exit STATUS and PATTERN (an extended
#                                regex) in its stdout or stderr ($tmp/out, $tmp/err)
#   usage_error NAME PATTERN ARGS...
#                                the program with ARGS: exit status 2 and exactly one
#                                "clmm-tutor:" line matching PATTERN on stderr, nothing on
#                                stdout
#   json_has FILE EXPR           FILE parses as JSON and the Python expression EXPR holds
#                                of it, d (true without python3)
#   finish NAME                  prints the counts; the script's status
#   finish_or_skip NAME          the same, and exit status 77 when no check passed (the
#                                script's parts all skipped)

top_builddir=${top_builddir:-$top_srcdir}
tutor="$top_builddir/src/clmm-tutor"
export CLMM_TUTOR_DATADIR="${CLMM_TUTOR_DATADIR:-$top_srcdir}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"
# POCL keeps its compiled kernels under XDG_CACHE_HOME: told where they were, or it would
# compile every kernel again; the tool's own cache (the measured ceilings) goes to $tmp.
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-$tmp}/.cache}/pocl/kcache}"
export XDG_CACHE_HOME="$tmp/cache"
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "PASS: $1"; }
not_ok() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    sed 's/^/    | /' "$tmp/out" "$tmp/err" 2>/dev/null | head -20
}

expect() {
    name=$1 want=$2 pattern=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "    exit status $got, expected $want" >>"$tmp/err"
        not_ok "$name"
    elif ! cat "$tmp/out" "$tmp/err" | grep -Eq -- "$pattern"; then
        echo "    no match for: $pattern" >>"$tmp/err"
        not_ok "$name"
    else
        ok "$name"
    fi
}

finish() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

# A usage error is exactly one message line plus the hint, on stderr, and exit status 2.
usage_error() {
    name=$1 pattern=$2
    shift 2
    expect "$name" 2 "$pattern" "$tutor" "$@"
    if [ "$(grep -c '^clmm-tutor: ' "$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ]; then
        echo "    wanted one 'clmm-tutor:' line on stderr and nothing on stdout" >>"$tmp/err"
        passed=$((passed - 1))
        not_ok "$name (one line)"
    fi
}

# json_has FILE EXPR: FILE parses as JSON and the Python expression EXPR holds of it, d.
json_has() {
    command -v python3 >/dev/null 2>&1 || return 0
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

finish_or_skip() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    [ "$passed" -gt 0 ] || exit 77
    exit 0
}
