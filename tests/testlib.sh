# testlib.sh: what the shell tests share, sourced after they set top_srcdir: the program,
# a scratch directory removed at exit, XDG directories inside it (so that no test touches
# the user's files, and no saved tuning changes a run), POCL's kernel cache kept where the
# user keeps it, and the counting of checks.
#   ok NAME / not_ok NAME        count one check (not_ok shows the output)
#   expect NAME STATUS PATTERN COMMAND...
#                                runs COMMAND; wants exit STATUS and PATTERN (an extended
#                                regex) in its stdout or stderr ($tmp/out, $tmp/err)
#   finish NAME                  prints the counts; the script's status

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
