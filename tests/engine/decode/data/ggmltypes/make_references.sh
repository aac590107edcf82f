#!/bin/sh
# Rebuilds this folder's models, reference.json and reference-moe.json (see README.md).
# usage: make_references.sh <stories260K.gguf> <llama.cpp build dir> <greedy tool>
# The greedy tool is greedy.cpp here (build: g++ -O2 greedy.cpp -I<llama.cpp>/include -I<llama.cpp>/ggml/include
# -L<build>/bin -lllama -lggml -lggml-base), a program against libllama written for this:
# it loads the model, n_ctx 512, F32 KV cache (type_k = type_v = GGML_TYPE_F32), flash attention off
# (flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED, i.e. -fa off; see README.md), 1 thread, tokenizes
# the prompt with add_special and parse_special, and prints one JSON object with prompt_ids,
# generated_ids (greedy: the argmax of the logits) and margins (top-1 minus top-2 logit) per step.
set -e
here=$(cd "$(dirname "$0")" && pwd)
# One file's object of a reference JSON: its tensor types and llama.cpp's greedy runs of both prompts.
model_json() {
    printf '{"file": "%s", "tensor_types": "%s", "runs": [' "$(basename "$1")" "$(python3 "$here/make_models.py" --types "$1")"
    rsep=''
    for p in 'Once upon a time' 'The cat'; do
        printf '%s{"prompt": "%s", ' "$rsep" "$p"
        NOFA=1 "$2" "$1" "$p" 24 | sed 's/^{//'
        rsep=','
    done
    printf ']}'
}
work=$(mktemp -d)
python3 "$here/make_models.py" "$1" "$work"
q="$2/bin/llama-quantize"
for t in Q8_0 Q4_1 Q5_0 Q5_1 Q2_K Q3_K_M Q4_K_M Q5_K_M Q6_K IQ4_NL IQ4_XS; do
    "$q" "$work/llama-random-F32.gguf" "$here/llama-random-$t.gguf" "$t" > /dev/null 2>&1
done
# MXFP4: llama-quantize's MXFP4_MOE preset only touches MoE experts; force every matrix to MXFP4.
"$q" --tensor-type attn=mxfp4 --tensor-type ffn=mxfp4 "$work/llama-random-F32.gguf" "$here/llama-random-MXFP4.gguf" Q8_0 > /dev/null 2>&1
for t in Q8_0 Q4_K_M; do
    "$q" "$work/qwen3-random-F32.gguf" "$here/qwen3-random-$t.gguf" "$t" > /dev/null 2>&1
done
cp "$work/llama-random-F32.gguf" "$work/qwen3-random-F32.gguf" "$here/"

# MoE (llama Mixtral-style and qwen3moe): F32, Q8_0 and Q4_K_M each, references in reference-moe.json.
moe_references() {
    for m in llamamoe qwen3moe; do
        for t in Q8_0 Q4_K_M; do
            "$q" "$work/$m-random-F32.gguf" "$here/$m-random-$t.gguf" "$t" > /dev/null 2>&1
        done
        cp "$work/$m-random-F32.gguf" "$here/"
    done
    {
        echo '{"generator": "make_references.sh: llama.cpp greedy, F32 KV cache, flash attention off, n_ctx 512, 1 thread, 24 steps", "models": ['
        sep=''
        for f in "$here"/*moe-random-*.gguf; do
            printf '%s' "$sep"
            model_json "$f" "$1"
            sep=','
        done
        echo ']}'
    } > "$work/reference-moe.json"
    python3 -m json.tool "$work/reference-moe.json" > "$here/reference-moe.json"
}
moe_references "$3"
{
    echo '{"generator": "make_references.sh: llama.cpp greedy, F32 KV cache, flash attention off, n_ctx 512, 1 thread, 24 steps", "models": ['
    first=1
    for f in "$here"/*.gguf; do
        name=$(basename "$f")
        case "$name" in *moe-random-*) continue ;; esac # reference-moe.json
        [ $first = 1 ] || echo ','
        first=0
        model_json "$f" "$3"
    done
    echo ']}'
} > "$work/reference.json"
python3 -m json.tool "$work/reference.json" > "$here/reference.json"
rm -r "$work"
