#!/usr/bin/env bash
# Decode speed side by side with llama.cpp, interleaved: for every round, model
# and thread count, one bench_decode run and then one llama-bench run (tg, no
# prompt) on the same file, so both see the same machine load. Prints, per
# model and thread count, the medians of both, the median of the per-pair
# ratios, and the median per pair of the share of the read bandwidth each
# reaches (GB/s = weight bytes read per token, as bench_decode counts them, x
# tokens/s, against the bandwidth that pair's bench_decode run measured), with
# the median CPU share bench_decode reports (processor time its decode got over
# wall time x threads: below 100% other processes' load took part of the figure).
#
# Usage: tests/bench/decode_vs_llama.sh LLAMA_BENCH BENCH_DECODE [--rounds N] [--tokens N]
#                                       [--threads "1 2"] MODEL.gguf...
#   LLAMA_BENCH   llama.cpp's llama-bench binary (e.g. build/bin/llama-bench)
#   BENCH_DECODE  this project's bench_decode (build/<preset>/bench/bench_decode)
# Make the models with llama.cpp's llama-quantize from an F16 file given a tokenizer (llama-bench needs one):
#   bench_decode --large-type F16 --keep /tmp/q3-f16.gguf --skip-small --threads 1 --large-tokens 1
#   tests/bench/add_tokenizer.py /tmp/q3-f16.gguf $WAFERSCOPE_TEST_MODELS/tokenizer/ggml-vocab-qwen3.gguf /tmp/q3-f16v.gguf
#   llama-quantize /tmp/q3-f16v.gguf /tmp/q3-Q4_K_M.gguf Q4_K_M   (and Q5_K_M, Q8_0)
set -euo pipefail

source "$(dirname "$0")/vs_llama_common.sh"
vs_llama_usage "$0" "$@"
llama=$1 bench=$2
shift 2
rounds=5 tokens=32 threads="1 2"
vs_llama_options "$@"

results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "load before: $(uptime)"
for ((round = 1; round <= rounds; ++round)); do
    for model in "${models[@]}"; do
        for t in $threads; do
            # bench_decode's table row: model threads t/s GB/s bandwidth % CPU-share%; the weight bytes per token line.
            out=$("$bench" --model "$model" --skip-small --threads "$t" --runs 1 --large-tokens "$tokens" 2>&1)
            row=$(awk -v t="$t" '$2 == t && $NF ~ /%$/ {sub(/%$/, "", $7); print $3, $4, $5, $7}' <<<"$out" | tail -1)
            mb=$(awk '/weights read per token:/ {print $5}' <<<"$out")
            ls=$("$llama" -m "$model" -t "$t" -p 0 -n "$tokens" -r 1 -o csv 2>/dev/null |
                vs_llama_avg_ts)
            [[ -n $row && -n $ls && -n $mb ]] || { echo "round $round $model t=$t: no result" >&2; continue; }
            echo "$(basename "$model") $t $row $ls $mb" >>"$results"
            echo "round $round $(basename "$model") t=$t: WaferScope $(cut -d' ' -f1 <<<"$row") t/s (CPU share" \
                 "$(cut -d' ' -f4 <<<"$row")%), llama.cpp $ls t/s, bandwidth $(cut -d' ' -f3 <<<"$row") GB/s," \
                 "load $(cut -d' ' -f1 /proc/loadavg)"
        done
    done
done
echo "load after: $(uptime)"
echo
# Columns of $results: model threads ws_tps ws_gbs bw_gbs ws_cpu_share llama_tps mb_per_token
sort -k1,1 -k2,2n "$results" | awk "$vs_llama_median_awk"'
{
    k = $1 " " $2
    if (!(k in ws)) order[++count] = k
    ws[k] = ws[k] " " $3; bw[k] = bw[k] " " $5; cs[k] = cs[k] " " $6; ll[k] = ll[k] " " $7; ratio[k] = ratio[k] " " ($3 / $7)
    # Shares of bandwidth per pair: each against the bandwidth bench_decode measured in the same run.
    wsp[k] = wsp[k] " " (100 * $3 * $8 / 1000 / $5); llp[k] = llp[k] " " (100 * $7 * $8 / 1000 / $5)
    mb[k] = $8
}
END {
    printf "%-28s %7s %14s %13s %11s %16s %10s %10s %10s %6s\n", "model", "threads", "WaferScope t/s", "llama.cpp t/s",
           "ratio", "bandwidth GB/s", "WS % bw", "llama % bw", "WS CPU", "pairs"
    for (i = 1; i <= count; ++i) {
        k = order[i]; split(k, f, " ")
        w = median(ws[k]); l = median(ll[k]); b = median(bw[k])
        printf "%-28s %7d %14.2f %13.2f %10.2fx %16.2f %9.0f%% %9.0f%% %9.0f%% %6d\n", f[1], f[2], w, l, median(ratio[k]), b,
               median(wsp[k]), median(llp[k]), median(cs[k]), split(ws[k], tmp, " ")
    }
}'
