#!/bin/sh
# Rebuilds this folder's models and reference files (see README.md): reference.json (llama, qwen3),
# reference-qwen2.json, reference-gemma3.json, reference-moe.json (llama Mixtral-style MoE, qwen3moe) and
# reference-gptoss.json (gpt-oss).
# usage: make_references.sh <stories260K.gguf> <llama.cpp build dir> <greedy tool>
# The greedy tool is greedy.cpp here (build: g++ -O2 greedy.cpp -I<llama.cpp>/include -I<llama.cpp>/ggml/include
# -L<build>/bin -lllama -lggml -lggml-base), a program against libllama written for this:
# it loads the model, n_ctx 512, F32 KV cache (type_k = type_v = GGML_TYPE_F32), flash attention off
# (flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED, i.e. -fa off; see README.md), 1 thread, tokenizes
# the prompt with add_special and parse_special, and prints one JSON object with prompt_ids,
# generated_ids (greedy: the argmax of the logits) and margins (top-1 minus top-2 logit) per step.
set -e
greedy="$3"
here=$(cd "$(dirname "$0")" && pwd)
# One file's object of a reference JSON: its tensor types and llama.cpp's greedy runs of both prompts.
model_json() {
    printf '{"file": "%s", "tensor_types": "%s", "runs": [' "$(basename "$1")" "$(python3 "$here/make_models.py" --types "$1")"
    rsep=''
    for p in 'Once upon a time' 'The cat'; do
        printf '%s{"prompt": "%s", ' "$rsep" "$p"
        NOFA=1 "$greedy" "$1" "$p" 24 | sed 's/^{//'
        rsep=','
    done
    printf ']}'
}
# references <output json> <model files...>
references() {
    out="$1"
    shift
    {
        echo '{"generator": "make_references.sh: llama.cpp greedy, F32 KV cache, flash attention off, n_ctx 512, 1 thread, 24 steps", "models": ['
        sep=''
        for f in "$@"; do
            printf '%s' "$sep"
            model_json "$f"
            sep=','
        done
        echo ']}'
    } > "$work/$out"
    python3 -m json.tool "$work/$out" > "$here/$out"
}
work=$(mktemp -d)
python3 "$here/make_models.py" "$1" "$work"
q="$2/bin/llama-quantize"
for t in Q8_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K_M Q4_K_M Q5_K_M Q6_K IQ4_NL IQ4_XS; do
    "$q" "$work/llama-random-F32.gguf" "$here/llama-random-$t.gguf" "$t" > /dev/null 2>&1
done
# MXFP4: llama-quantize's MXFP4_MOE preset only touches MoE experts; force every matrix to MXFP4.
"$q" --tensor-type attn=mxfp4 --tensor-type ffn=mxfp4 "$work/llama-random-F32.gguf" "$here/llama-random-MXFP4.gguf" Q8_0 > /dev/null 2>&1
# Every other architecture (MoE ones included): F32, Q8_0 and Q4_K_M.
for a in qwen3 qwen2 gemma3 llamamoe qwen3moe; do
    for t in Q8_0 Q4_K_M; do
        "$q" "$work/$a-random-F32.gguf" "$here/$a-random-$t.gguf" "$t" > /dev/null 2>&1
    done
done
# gpt-oss: Q8_0, MXFP4_MOE (llama-quantize's gpt-oss preset: MXFP4 experts, Q8_0 for every other matrix) and
# Q5_K_M (not Q4_K_M: see README.md, "gpt-oss").
for t in Q8_0 MXFP4_MOE Q5_K_M; do
    "$q" "$work/gptoss-random-F32.gguf" "$here/gptoss-random-$t.gguf" "$t" > /dev/null 2>&1
done
for a in llama qwen3 qwen2 gemma3 llamamoe qwen3moe gptoss; do
    cp "$work/$a-random-F32.gguf" "$here/"
done
references reference.json "$here"/llama-*.gguf "$here"/qwen3-*.gguf
references reference-qwen2.json "$here"/qwen2-*.gguf
references reference-gemma3.json "$here"/gemma3-*.gguf
references reference-moe.json "$here"/llamamoe-*.gguf "$here"/qwen3moe-*.gguf
references reference-gptoss.json "$here"/gptoss-*.gguf
rm -r "$work"
