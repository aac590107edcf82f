#!/usr/bin/env bash
# Builds the fuzz preset and runs every libFuzzer target, one after another (one process: the machine may be
# shared), for SECONDS each (default 600) on its seeds, then prints one summary line per target: executions,
# libFuzzer's final coverage (cov) and features (ft), and the finding, if any.
# Usage: tests/fuzz/run-all.sh [SECONDS] [TARGET...]    (targets without the fuzz_ prefix; default: all)
# Corpora and findings go to $FUZZ_WORK (default /tmp/waferscope-fuzz/<target>/): a corpus grows across runs and
# stays outside the repository. A finding is fixed, minimised (-minimize_crash=1) and kept under
# tests/fuzz/regressions/<target>/ (README.md). The models folder: $WAFERSCOPE_TEST_MODELS (default shared/models
# beside the checkout, as ctest's default).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
seconds=${1:-600}
shift $(($# > 0 ? 1 : 0))
work=${FUZZ_WORK:-/tmp/waferscope-fuzz}
models=${WAFERSCOPE_TEST_MODELS:-$(cd .. && pwd)/shared/models}
export WAFERSCOPE_TEST_MODELS=$models
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} # undefined behaviour is a finding

cmake --preset fuzz >/dev/null || exit 1
if [ $# -gt 0 ]; then
    cmake --build --preset fuzz --target "${@/#/fuzz_}" || exit 1
    targets=("$@")
else
    cmake --build --preset fuzz || exit 1
    targets=()
    for s in build/fuzz/tests/fuzz/fuzz_*.seeds; do
        t=${s##*/fuzz_}
        targets+=("${t%.seeds}")
    done
fi

summary=()
for t in "${targets[@]}"; do
    bin=build/fuzz/tests/fuzz/fuzz_$t
    [ -x "$bin" ] || { summary+=("fuzz_$t: not built"); continue; }
    mkdir -p "$work/$t/corpus" "$work/$t/findings"
    # libFuzzer reads folders only: a seed that is a file is copied into seed-files/.
    seeds=("$work/$t/seed-files")
    rm -rf "$work/$t/seed-files" && mkdir -p "$work/$t/seed-files"
    while IFS= read -r s; do
        [ -n "$s" ] || continue
        [ "${s#models:}" != "$s" ] && s="$models/${s#models:}"
        if [ -d "$s" ]; then
            seeds+=("$s")
        elif [ -f "$s" ]; then
            cp "$s" "$work/$t/seed-files/"
        fi
    done <"build/fuzz/tests/fuzz/fuzz_$t.seeds"
    log="$work/$t/run-$(date -u +%Y%m%dT%H%M%SZ).log"
    echo "== fuzz_$t: ${seconds} s, log $log"
    started=$SECONDS
    nice "$bin" -max_total_time="$seconds" -max_len="$(cat "build/fuzz/tests/fuzz/fuzz_$t.maxlen")" -timeout=20 \
        -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$work/$t/findings/" \
        "$work/$t/corpus" "${seeds[@]}" >"$log" 2>&1
    rc=$?
    took=$((SECONDS - started))
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    cov=$(sed -nE 's/.* cov: ([0-9]+) .*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+) .*/\1/p' <<<"$last")
    finding=none
    if [ $rc -ne 0 ]; then
        finding=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)[^(]*|runtime error: .*' "$log")
        finding="${finding:-exit $rc}; $(grep -m1 -oE "Test unit written to .*" "$log")"
    fi
    line="fuzz_$t: ${runs:-?} executions in ${took} s, cov ${cov:-?}, ft ${ft:-?}, findings: $finding"
    echo "$line"
    summary+=("$line")
done
echo
echo "== summary ($(date -u +%Y-%m-%d), ${seconds} s each)"
printf '%s\n' "${summary[@]}"
