#!/bin/sh
# cli-bench.sh: what the measuring modes print beyond the table: the device's ceilings,
# the error map of a wrong result, an emulated lesson's labels, and the reference rows
# (CLBlast tuned by its own tuners, the CPU's BLAS). Skipped parts say why; exit 77 if
# nothing ran.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/testlib.sh"

# ---- the device's ceilings (FP32 peak and bandwidth) ----
# --devices measures each device the first time and keeps the figures in the cache; later
# runs read them; --ceilings measures again. A cache that cannot be read or kept is no error.
if "$tutor" --devices >/dev/null 2>&1; then
    cache="$tmp/cache-ceilings"
    file="$cache/clmm-tutor/ceilings"
    # The figures' sentence, on one line whatever its wrapping.
    figures() { tr '\n' ' ' <"$tmp/out" | tr -s ' '; }
    positive='([1-9][0-9]*(\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)'
    expect "--devices measures the ceilings the first time" 0 'measuring the FP32 peak and bandwidth of \[0\]' \
        env XDG_CACHE_HOME="$cache" "$tutor" --devices
    figures | grep -Eq "FP32 peak $positive [GT]FLOPS measured \((no theoretical figure: [^)]*|$positive [GT]FLOPS theoretical: [^)]*)\); bandwidth $positive GB/s measured \(copy; no theoretical figure: OpenCL does not report the memory's clock or width\)" &&
        ok "--devices shows a positive FP32 peak and bandwidth" || not_ok "--devices shows the ceilings"
    awk -F '\t' 'NF == 6 && $4 > 0 && $5 > 0 && $6 ~ /^[0-9-]+T[0-9:]+Z$/ { n++ } END { exit n != 1 }' "$file" 2>/dev/null &&
        ok "--devices keeps the figures in the cache, one line" || not_ok "the cache holds the device's line"
    cp "$file" "$tmp/ceilings-before"
    first=$(figures)
    expect "--devices reads the cache the second time" 0 'FP32 peak' env XDG_CACHE_HOME="$cache" "$tutor" --devices
    if grep -q measuring "$tmp/err" || [ "$(figures)" != "$first" ] || ! cmp -s "$file" "$tmp/ceilings-before"; then
        not_ok "the second --devices measures nothing and shows the same figures"
    fi
    before=$(ls -i "$file")
    expect "--ceilings measures again" 0 'FP32 peak [0-9.]+ [GT]FLOPS measured' \
        env XDG_CACHE_HOME="$cache" "$tutor" --ceilings
    grep -q 'measuring' "$tmp/err" && grep -q "Kept in $file" "$tmp/out" && [ "$(ls -i "$file")" != "$before" ] &&
        [ "$(wc -l <"$file")" -eq 1 ] || not_ok "--ceilings rewrites the device's line"
    expect "--ceilings --format json" 0 '"fp32_gflops": ' env XDG_CACHE_HOME="$cache" "$tutor" --ceilings --format json
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fp32_gflops"] > 0 and d["bandwidth_gbps"] > 0 and d["cache"] == sys.argv[2] and d["bandwidth_theory_gbps"] is None' \
            "$tmp/out" "$file" && ok "--ceilings json parses, positive figures" || not_ok "--ceilings json"
    fi
    # Lines that are not entries: garbage, empty fields, a name too long, the device's own
    # line with figures that are not figures, a NUL byte.
    tab=$(printf '\t')
    { printf 'garbage\n\t\t\t\t\t\n'; head -c 3000 /dev/zero | tr '\0' x; printf '\tx\t1\t1\t1\t2026-01-01T00:00:00Z\n'
      sed "s/$tab[0-9.e+]*$tab[0-9.e+]*$tab/${tab}nan$tab-1$tab/" "$tmp/ceilings-before"; printf 'a\0b\n'; } >"$file"
    expect "a corrupt cache is measured over" 0 'FP32 peak [0-9.]+ [GT]FLOPS measured' \
        env XDG_CACHE_HOME="$cache" "$tutor" --devices
    grep -q measuring "$tmp/err" && [ "$(wc -l <"$file")" -eq 1 ] || not_ok "a corrupt cache is replaced by one line"
    expect "without XDG_CACHE_HOME and HOME, measured and not kept" 0 \
        'not kept: neither XDG_CACHE_HOME nor HOME is set' env -u XDG_CACHE_HOME -u HOME "$tutor" --devices
    grep -q 'FP32 peak [0-9.]* [GT]FLOPS measured' "$tmp/out" || not_ok "without a home, the ceilings are shown"
    # A relative XDG_CACHE_HOME is ignored (the XDG specification): nothing appears under
    # the working directory, the figures go under HOME instead.
    (cd "$tmp" && env XDG_CACHE_HOME=relative HOME="$tmp/home" "$tutor" --devices >/dev/null 2>&1)
    [ ! -e "$tmp/relative" ] && [ -s "$tmp/home/.cache/clmm-tutor/ceilings" ] &&
        ok "a relative XDG_CACHE_HOME is ignored" || not_ok "a relative XDG_CACHE_HOME is ignored"
    : >"$tmp/not-a-directory"
    expect "a cache that cannot be written is not an error" 0 'not kept: .*XDG_CACHE_HOME may name a directory' \
        env XDG_CACHE_HOME="$tmp/not-a-directory" "$tutor" --ceilings
    expect "--devices says when the figures could not be kept" 0 'measured now, and not kept' \
        env XDG_CACHE_HOME="$tmp/not-a-directory" "$tutor" --devices
    # Every measurement against the ceilings: the share of the peak, and for a lesson with
    # a loads line its intensity, the model's bound and the share of it. Lesson 5 at 64 with
    # TS = 16 reads (16 + 16) 64 floats per group: 2K / (8K/16 + 4) = 128/36 = 3.56 flop/B.
    expect "--bench: the rows against the ceilings" 0 'Against the ceilings \(no-cache model' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 5 --size 64 --reps 3 --no-reference --no-tuned
    grep -Eq '^Ceilings: FP32 peak [0-9.]+ GFLOPS, bandwidth [0-9.]+ GB/s' "$tmp/out" &&
        grep -Eq '^  5 +[0-9.]+%  +3\.56 +[0-9.]+ +[0-9]+%  (memory-bound|compute-bound|above the slope: caches)$' \
            "$tmp/out" && ok "--bench table: ceilings, and lesson 5's intensity, bound and share" ||
        not_ok "--bench table against the ceilings"
    # The host reference is not judged against the device's ceilings.
    expect "--bench: the host lesson is not against the device's ceilings" 0 \
        '^  0 +- +runs on the host CPU: not against this device' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 0 --size 64 --reps 3 --no-reference
    expect "--bench csv: the roofline's columns" 0 'pct_peak,intensity,bound_gflops,pct_bound,bound_by' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 5 --size 64 --reps 3 --no-reference --no-tuned --format csv
    tail -1 "$tmp/out" | grep -Eq ',[0-9.e+-]+,3\.55556,[0-9.e+-]+,[0-9.e+-]+,(memory|compute),[0-9.e+-]+,[0-9.e+-]+,"",fp32,fp32,[0-9]+,,,,,no$' &&
        ok "--bench csv row: share of peak, intensity, bound" || not_ok "--bench csv row against the ceilings"
    expect "--bench json: ceilings and the row's figures" 0 '"pct_peak": ' \
        env XDG_CACHE_HOME="$cache" "$tutor" --bench --lesson 5 --size 64 --reps 3 --no-reference --no-tuned --format json
    json_has "$tmp/out" 'd["device"]["ceilings"]["fp32_gflops"] > 0 and abs(d["results"][0]["intensity"] - 128/36) < 1e-4 and d["results"][0]["bound_gflops"] > 0 and d["results"][0]["bound_by"] in ("memory", "compute")' &&
        ok "--bench json parses with the roofline's fields" || not_ok "--bench json against the ceilings"
else
    echo "SKIP: no OpenCL device; the ceilings were not measured"
fi
# ---- end of the device's ceilings ----

# ---- error map of a wrong result ----
# 37x29 is not a multiple of lesson 96's 8x8 tiles: it leaves the last row and column of tiles
# unwritten (37 x 29 - 32 x 24 = 305 elements); 40x32 is, and is right.
if "$tutor" --devices >/dev/null 2>&1; then
    broken="$top_srcdir/tests/broken"
    expect "a kernel that skips the partial tiles: the edges pattern with its counts" 1 \
        'error map: edges: 305 of 1073 elements wrong, 305 never written' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 37x29x20 --reps 2 --no-reference
    grep -q 'the last row and column of tiles are wrong' "$tmp/out" || not_ok "the edges pattern has its hint"
    grep -q "C by tiles of 8x8: '.' right, '#' wrong, '?' never written" "$tmp/out" &&
        grep -Eq '^ +\.\.\.\?$' "$tmp/out" && grep -Eq '^ +\?\?\?\?$' "$tmp/out" &&
        ok "the drawing marks the last column and row of tiles" || not_ok "the drawing of the edges"
    expect "a size that is a multiple of the tile is right" 0 '^ +96 +Broken: full tiles only +[0-9.]+ ' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 40x32x20 --reps 2 --no-reference
    expect "csv: the pattern and its counts" 1 ',wrong result,.*,edges,305,305,' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 37x29x20 --reps 2 --no-reference --format csv
    head -1 "$tmp/out" | grep -q ',message,error_pattern,wrong_elements,unwritten_elements,' ||
        not_ok "csv header names the error map's columns"
    expect "json: the pattern and its counts" 1 '"error_pattern": "edges", "wrong_elements": 305, "unwritten_elements": 305' \
        "$tutor" --bench --lessons "$broken" --lesson 96 --size 37x29x20 --reps 2 --no-reference --format json
    expect "a kernel that writes C transposed" 1 'error map: transposed: ' \
        "$tutor" --bench --lessons "$broken" --lesson 97 --size 37x29x20 --reps 2 --no-reference
    expect "one work-item of every group wrong: an index pattern" 1 \
        'error map: index: 63 of 1073 elements wrong, 0 never written; 1 of 16' \
        "$tutor" --bench --lessons "$broken" --lesson 98 --size 37x29x20 --reps 2 --no-reference
    grep -q 'positions in every 4x4 tile, first (1, 2)' "$tmp/out" || not_ok "the index pattern names the position"
else
    echo "SKIP: no OpenCL device; the error map was not tested"
fi
# ---- end of error map of a wrong result ----

# A tensor-core lesson on a device without tensor cores runs emulated (kernels/ptx-emulated.h)
# and every output says so: the table under its row, CSV's emulated column, JSON's field and
# note; it is never the fastest lesson. On a device with tensor cores: not emulated.
if "$tutor" --devices >/dev/null 2>&1; then
    "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference >"$tmp/out" 2>"$tmp/err"
    if grep -q '^ 20  mma.sync tensor cores \[TF32\] ' "$tmp/out"; then
        if grep -q '^     emulated: no tensor cores on this device; layouts as on NVIDIA, speed not comparable$' "$tmp/out" &&
            ! grep -q '^Fastest' "$tmp/out"; then
            ok "an emulated lesson: verified, its row labelled, never the fastest"
            expect "csv: an emulated lesson's row says yes" 0 '^"[^"]*",20,"mma.sync tensor cores",.*,ok,.*,yes$' \
                "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference --format csv
            "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference --format json >"$tmp/emu.json" 2>"$tmp/err"
            json_has "$tmp/emu.json" 'd["results"][0]["emulated"] is True and "speed not comparable" in d["results"][0]["emulated_note"] and d["results"][0]["status"] == "ok"' &&
                ok "json: an emulated lesson's row says so" || not_ok "json: an emulated lesson's row says so"
            expect "--bench: an emulated lesson is not against the ceilings" 0 \
                '^ 20        -  emulated: ran as plain OpenCL C, not on tensor cores$' \
                "$tutor" --bench --lesson 20 --size 64x40x24 --reps 1 --no-reference
            expect "--inside: an emulated lesson says its figures are the emulation's" 0 \
                "^emulated: no tensor cores on this device; layouts as on NVIDIA, speed not" \
                "$tutor" --inside --lesson 20 --size 64x40x24
            "$tutor" --inside --lesson 20 --size 64x40x24 --format json >"$tmp/emu.json" 2>"$tmp/err"
            json_has "$tmp/emu.json" 'd["emulated"] is True and d["emulated_note"].startswith("emulated: no tensor cores")' &&
                ok "--inside json: an emulated lesson says so" || not_ok "--inside json: an emulated lesson says so"
        else
            echo "SKIP: lesson 20 runs on this device's tensor cores: the emulated labels were not tested"
        fi
    else
        not_ok "an emulated lesson: verified, its row labelled, never the fastest"
    fi
fi


# ---- CLBlast tuned by its own tuners (tests/clblast: their files, from POCL) ----
# The fixtures name the device they were tuned on; the tests apply a copy naming this one.
fixtures="$top_srcdir/tests/clblast"
if "$tutor" --list --clblast-params "$fixtures/clblast_copy_32.json" 2>&1 | grep -q 'this build has no CLBlast'; then
    usage_error "--clblast-params in a build without CLBlast" 'this build has no CLBlast' \
        --bench --clblast-params "$fixtures/clblast_copy_32.json"
    echo "SKIP: this build has no CLBlast; its tuned parameters were not applied"
elif "$tutor" --devices >/dev/null 2>&1; then
    usage_error "--clblast-params outside --bench and the tutor" 'goes with --bench and the tutor' \
        --list --clblast-params "$fixtures/clblast_copy_32.json"
    usage_error "--clblast-params with --no-reference" 'the CLBlast row that --no-reference leaves out' \
        --bench --no-reference --clblast-params "$fixtures/clblast_copy_32.json"
    # The name of the device that --bench opens, as its JSON says it.
    "$tutor" --bench --lesson 0 --size 8 --reps 1 --no-reference --format json >"$tmp/dev.json" 2>/dev/null
    devname=$(sed -n 's/^  "device": {"name": "\([^"\\]*\)".*/\1/p' "$tmp/dev.json")
    mkdir "$tmp/cb"
    # tuned_copy FIXTURE DEVICE: the fixture as tuned on DEVICE, in $tmp/cb.
    tuned_copy() {
        sed "s/^  \"device\": \".*\",\$/  \"device\": \"$(printf '%s' "$2" | sed 's/[\/&\\]/\\&/g')\",/" \
            "$fixtures/$1" >"$tmp/cb/$1"
    }
    for f in clblast_xgemm_1_32.json clblast_xgemm_2_32.json clblast_xgemm_direct_1_32.json clblast_copy_32.json; do
        tuned_copy "$f" "$devname"
    done
    bench13() { "$tutor" --bench --lesson 13 --size 256 --reps 1 "$@"; }
    expect "CLBlast with the tuners' parameters is the tuned row" 0 '^ref  CLBlast \(tuned\) +[0-9.]+ ' \
        bench13 --clblast-params "$tmp/cb/clblast_xgemm_direct_1_32.json" --clblast-params "$tmp/cb/clblast_xgemm_1_32.json"
    grep -q '^CLBlast: tuned for this device by its tuners: XgemmDirect (clblast_xgemm_direct_1_32.json), Xgemm (clblast_xgemm_1_32.json)$' "$tmp/out" ||
        not_ok "the table names the kernels and files applied to CLBlast"
    grep -Eq 'Fastest: lesson 13 at .*% of CLBlast \(tuned\)(,|$)' "$tmp/out" || not_ok "the fastest lesson against CLBlast (tuned)"
    expect "CLMM_TUTOR_CLBLAST_PARAMS applies them as --clblast-params does" 0 '"title": "CLBlast \(tuned\)"' \
        env CLMM_TUTOR_CLBLAST_PARAMS="$tmp/cb/clblast_xgemm_1_32.json::$tmp/cb/clblast_copy_32.json" \
        "$tutor" --bench --lesson 13 --size 256 --reps 1 --format json
    json_has "$tmp/out" '(d["clblast_params"]["files"][1].endswith("clblast_copy_32.json") and
        [k["name"] for k in d["clblast_params"]["kernels"]] == ["Xgemm", "Copy"] and
        "PRECISION" not in d["clblast_params"]["kernels"][0]["parameters"] and
        [r for r in d["results"] if r["lesson"] == -1][0]["tuned"])' ||
        not_ok "JSON names the files and kernels applied to CLBlast, PRECISION left out"
    expect "CSV: the CLBlast row tuned, keyed by its parameters" 0 ',-1,"CLBlast \(tuned\)","tuned:[0-9a-f]{16}",.*,yes,' \
        bench13 --format csv --clblast-params "$tmp/cb/clblast_copy_32.json"
    expect "of phases 1 and 2 the faster is applied, and said" 0 \
        'Xgemm: clblast_xgemm_2_32.json \(0.58 ms\) kept over clblast_xgemm_1_32.json \(1.11 ms\)' \
        bench13 --clblast-params "$tmp/cb/clblast_xgemm_1_32.json" --clblast-params "$tmp/cb/clblast_xgemm_2_32.json"
    expect "without tuned parameters CLBlast runs its defaults" 0 '^ref  CLBlast \(defaults\) +[0-9.]+ ' bench13
    grep -q '^CLBlast: tuned' "$tmp/out" && not_ok "the defaults' table says nothing of tuning"
    # Files that cannot be used: a clear message, exit status 3, nothing measured.
    bad_params() {
        expect "$1" 3 "$2" bench13 --clblast-params "$3"
        [ -s "$tmp/out" ] && not_ok "$1: nothing measured"
    }
    head -c 300 "$tmp/cb/clblast_copy_32.json" >"$tmp/cb/cut.json"
    bad_params "a malformed file of CLBlast's parameters" \
        "^clmm-tutor: --clblast-params: $tmp/cb/cut.json:[0-9]+:[0-9]+: " "$tmp/cb/cut.json"
    bad_params "a missing file of CLBlast's parameters" "--clblast-params: .*none.json.*No such file" "$tmp/cb/none.json"
    tuned_copy clblast_xgemm_direct_1_32.json "Another Device 9000"
    bad_params "CLBlast's parameters of another device" \
        'tuned on "Another Device 9000", not on this device, "' "$tmp/cb/clblast_xgemm_direct_1_32.json"
    grep -Fq "not on this device, \"$devname\"" "$tmp/err" || not_ok "the message names the device measured"
    tuned_copy clblast_xgemm_direct_1_32.json "$devname"
    sed 's/"KWID=2 /"/' "$tmp/cb/clblast_xgemm_direct_1_32.json" >"$tmp/cb/missing.json"
    bad_params "CLBlast refusing a kernel's parameters" \
        'CLBlast refused the parameters of XgemmDirect from .*: CLBlastOverrideParameters failed: CLBlastMissingOverrideParameter' \
        "$tmp/cb/missing.json"
    expect "a bad file in CLMM_TUTOR_CLBLAST_PARAMS" 3 "^clmm-tutor: CLMM_TUTOR_CLBLAST_PARAMS: .*cut.json:" \
        env CLMM_TUTOR_CLBLAST_PARAMS="$tmp/cb/cut.json" "$tutor" --bench --lesson 13 --size 256 --reps 1
    expect "CLMM_TUTOR_CLBLAST_PARAMS is not read without the CLBlast row" 0 "^ 13 " \
        env CLMM_TUTOR_CLBLAST_PARAMS="$tmp/cb/cut.json" "$tutor" --bench --lesson 13 --size 256 --reps 1 --no-reference
else
    echo "SKIP: no OpenCL device; CLBlast's tuned parameters were not applied"
fi
# ---- end of CLBlast tuned by its own tuners ----

# ---- the CPU's BLAS (OpenBLAS) as a reference row ----
# Whether the build has it is configure's answer (config.h), not the program's: a row that
# went missing fails here rather than skipping.
cpublas() { "$tutor" --bench --lesson 0 --size 96x80x72 --reps 2 "$@"; }
if ! grep -q '^#define HAVE_CBLAS 1' "$top_builddir/config.h" 2>/dev/null; then
    echo "SKIP: this build has no CBLAS (Debian: libopenblas-dev); the CPU BLAS row was not measured"
    if "$tutor" --devices >/dev/null 2>&1; then
        cpublas >"$tmp/out" 2>"$tmp/err"
        if grep -q 'CPU BLAS' "$tmp/out"; then not_ok "no CPU BLAS row without a CBLAS"
        else ok "no CPU BLAS row without a CBLAS"; fi
    fi
elif "$tutor" --devices >/dev/null 2>&1; then
    expect "the CPU BLAS row is measured, with OpenBLAS's threads in its title" 0 \
        '^ref  CPU BLAS \(1 thread\) +[0-9.]+ +[0-9]+% +[0-9.]+ +[0-9.]+  [0-9.]+e-[0-9]+$' \
        env OPENBLAS_NUM_THREADS=1 "$tutor" --bench --lesson 0 --size 96x80x72 --reps 2
    grep -Eq '^ref +- +runs on the host CPU' "$tmp/out" || ! grep -q '^Against the ceilings' "$tmp/out" ||
        not_ok "the CPU BLAS row is not set against the device's ceilings"
    grep -Eq '^Fastest: lesson 0 at .*[0-9]+% of CPU BLAS \(1 thread\)$' "$tmp/out" ||
        not_ok "the fastest lesson against the CPU BLAS row"
    expect "the CPU BLAS row with as many threads as OPENBLAS_NUM_THREADS" 0 '^ref  CPU BLAS \(2 threads\) ' \
        env OPENBLAS_NUM_THREADS=2 "$tutor" --bench --lesson 0 --size 96x80x72 --reps 2
    expect "the CPU BLAS row after CLBlast's, both verified (CSV)" 0 \
        ',-2,"CPU BLAS \([0-9]+ threads?\)","",96,80,72,96,80,72,ok,([0-9.e+-]+,){10}(exhaustive|sampled\+projections),' \
        cpublas --format csv
    awk -F, '$2 == -1 { c = NR } $2 == -2 { b = NR } END { exit !(b && (!c || c < b)) }' "$tmp/out" ||
        not_ok "CSV: the CPU BLAS row comes after CLBlast's"
    expect "JSON: the CPU BLAS row" 0 '"title": "CPU BLAS \(' cpublas --format json
    json_has "$tmp/out" '([(r["status"], r["max_error"] <= r["tolerance"], r["gflops_median"] > 0, r["tuned"],
        "pct_peak" in r, r["m"], r["n"], r["k"]) for r in d["results"] if r["lesson"] == -2] ==
        [("ok", True, True, False, False, 96, 80, 72)])' ||
        not_ok "JSON: the CPU BLAS row verified, measured, not tuned, not against the ceilings"
    expect "--no-reference leaves the CPU BLAS row out" 0 '^  0 ' cpublas --no-reference
    if grep -q 'CPU BLAS' "$tmp/out"; then not_ok "--no-reference: no CPU BLAS row"; else ok "--no-reference: no CPU BLAS row"; fi
else
    echo "SKIP: no OpenCL device; the CPU BLAS row was not measured"
fi
# ---- end of the CPU's BLAS ----

finish_or_skip cli-bench.sh
