#pragma once
// The mixture-of-experts FFN of llama (Mixtral-style), qwen3moe and gpt-oss layers, as
// llama.cpp's build_moe_ffn computes it on the CPU: router logits
// (ffn_gate_inp) -> softmax over all experts -> the expertUsedCount largest
// probabilities (descending, as ggml_argsort_top_k) -> those probabilities,
// divided by their sum (clamped below at 2^-14) when the architecture
// normalises (gpt-oss: router bias, the top logits, softmax over those) -> per selected expert
// the gated activation of (gate x, up x), with expert biases where present -> down -> times its
// weight -> the selected experts' outputs summed in selection order. Only the
// selected experts are computed: a batch's tokens are grouped per expert and
// each expert's matrices run once over its group.

#include "engine/decode/expertrouting.h"
#include "engine/decode/forward.h"

namespace ws::blocks {

// ids, weights (used): the router's choice for one token's logits (expertCount), in ggml's order
// (ties: the lower expert first). SoftmaxWeight gating (gpt-oss): the top `used` logits, their softmax.
void routeExperts(const float* logits, int expertCount, int used, bool normalise, int* ids, float* weights,
                  ExpertGating gating = ExpertGating::Softmax);

// state.xb2 (tokens, dim) = the MoE FFN of state.xb (tokens, dim) for `layer`; records each token's
// routing in state.routedExperts / routedWeights.
void moeFfn(const TransformerConfig& config, const LayerWeights& weights, RunState& state, ThreadPool& pool, int layer,
            int tokens, Projection& projection);

// Token `token` (0-based) of the last forward call on `state`; empty for a dense model.
ExpertRouting routingOf(const TransformerConfig& config, const RunState& state, int token);

} // namespace ws::blocks
