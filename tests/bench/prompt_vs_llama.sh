#!/usr/bin/env bash
# Prompt processing side by side with llama.cpp, interleaved: for every round, model and thread count, one
# bench_prompt run and then one llama-bench pp run (`-p N -n 0 -mmp 0`: the weights read into memory, as
# WaferScope reads them) on the same file, so both see the same machine load. Both use an F16 KV cache
# (llama-bench's default; bench_prompt --kv f16). Prints, per model and thread count, the medians of both, the
# median of the per-pair ratios and the median CPU share bench_prompt reports (below 100%: other processes took
# part of the machine, and the pair's figures are low by about that share).
#
# Usage: tests/bench/prompt_vs_llama.sh LLAMA_BENCH BENCH_PROMPT [--rounds N] [--tokens N] [--threads "1 2"]
#                                       MODEL.gguf...
#   LLAMA_BENCH   llama.cpp's llama-bench, built by shared/tools/build-llamacpp.sh (state its commit and flags
#                 with the figures: the build prints them)
#   BENCH_PROMPT  this project's bench_prompt (build/<preset>/bench/bench_prompt)
# The models need a tokenizer for llama-bench: make them as decode_vs_llama.sh's header says, or with
#   bench_prompt --type Q8_0 --keep /tmp/q3-Q8_0.gguf --tokens 1
#   tests/bench/add_tokenizer.py /tmp/q3-Q8_0.gguf $WAFERSCOPE_TEST_MODELS/tokenizer/ggml-vocab-qwen3.gguf /tmp/q3-Q8_0v.gguf
set -euo pipefail

source "$(dirname "$0")/vs_llama_common.sh"
vs_llama_usage "$0" "$@"
llama=$1 bench=$2
shift 2
rounds=5 tokens=512 threads="1 2"
vs_llama_options "$@"

results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "load before: $(uptime)"
for ((round = 1; round <= rounds; ++round)); do
    for model in "${models[@]}"; do
        for t in $threads; do
            # bench_prompt's row: threads, batched t/s, token by token t/s, ratio, CPU share.
            out=$("$bench" --model "$model" --tokens "$tokens" --serial-tokens 1 --threads "$t" --runs 1 --kv f16 \
                --stop-tokens 0 2>&1)
            row=$(awk -v t="$t" '$1 == t && $NF ~ /%$/ {sub(/%$/, "", $NF); print $2, $NF}' <<<"$out" | tail -1)
            ls=$("$llama" -m "$model" -t "$t" -p "$tokens" -n 0 -mmp 0 -r 1 -o csv 2>/dev/null |
                vs_llama_avg_ts)
            [[ -n $row && -n $ls ]] || { echo "round $round $model t=$t: no result" >&2; continue; }
            echo "$(basename "$model") $t $row $ls" >>"$results"
            echo "round $round $(basename "$model") t=$t: WaferScope $(cut -d' ' -f1 <<<"$row") t/s (CPU share" \
                 "$(cut -d' ' -f2 <<<"$row")%), llama.cpp $ls t/s, load $(cut -d' ' -f1 /proc/loadavg)"
        done
    done
done
echo "load after: $(uptime)"
echo
# Columns of $results: model threads ws_tps ws_cpu_share llama_tps
sort -k1,1 -k2,2n "$results" | awk "$vs_llama_median_awk"'
{
    k = $1 " " $2
    if (!(k in ws)) order[++count] = k
    ws[k] = ws[k] " " $3; cs[k] = cs[k] " " $4; ll[k] = ll[k] " " $5; ratio[k] = ratio[k] " " ($3 / $5)
}
END {
    printf "%-28s %7s %14s %13s %11s %10s %6s\n", "model", "threads", "WaferScope t/s", "llama.cpp t/s", "ratio",
           "WS CPU", "pairs"
    for (i = 1; i <= count; ++i) {
        k = order[i]; split(k, f, " ")
        printf "%-28s %7d %14.2f %13.2f %10.2fx %9.0f%% %6d\n", f[1], f[2], median(ws[k]), median(ll[k]),
               median(ratio[k]), median(cs[k]), split(ws[k], tmp, " ")
    }
}'
