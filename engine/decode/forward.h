#pragma once
// The transformer forward pass (llama, qwen2, qwen3, qwen3moe, gemma3, gpt-oss): embedding lookup
// (gemma3: scaled), then per layer RMSNorm -> Q/K/V projections (+ biases,
// + per-head q/k RMSNorm) -> RoPE (the layer's tables) -> (query scale) -> KV
// cache write -> causal softmax attention with GQA (within the layer's window)
// -> output projection -> (post-norm) -> residual; RMSNorm -> SwiGLU or GeGLU
// FFN (MoE layers: the routed experts' SwiGLU FFNs, moeblock.h) -> (post-norm) -> residual; final RMSNorm,
// the output (classifier) matrix and (gemma3) logit softcapping. The differences are TransformerConfig fields.
// A batch of consecutive tokens goes
// through in one call (prompt processing), each token attending to the cache
// up to its own position; the logits are those of the batch's last token.
// Every step reproduces llama.cpp's CPU arithmetic (see kernels.h); the steps
// between the matrix products are the blocks of blocks.h.

#include "engine/core/error.h"
#include "engine/decode/matmul.h"
#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/decode/transformerconfig.h"
#include "engine/decode/weights.h"
#include "engine/tokenizer/tokenid.h"

#include <atomic>
#include <span>

namespace ws {

// The matrix products of a forward pass: out = W x for each job, all jobs sharing the input x
// (tokens, cols). The dense pass multiplies the stored matrices (matmul.h); the tiled executor
// (engine/wafer/tiledexecutor.h) sums per-core tile products instead.
class Projection
{
public:
    virtual ~Projection() = default;
    virtual void project(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState& state,
                         ThreadPool& pool) = 0;
};

// Runs `tokens` at positions startPos, startPos+1, ... (tokens.size() <= state.maxBatch,
// startPos + tokens.size() <= state.contextLength); leaves the last token's logits in state.logits.
// `stop` (may be null) is read before every layer: once set, the pass ends with ErrorCode::Cancelled, its
// positions' keys and values only partly written (the caller does not count them as cached).
Status forward(const TransformerConfig& config, const TransformerWeights& weights, RunState& state, ThreadPool& pool,
               std::span<const TokenId> tokens, int startPos, const std::atomic<bool>* stop = nullptr);
// The same pass with its matrix products computed by `projection`.
Status forward(const TransformerConfig& config, const TransformerWeights& weights, RunState& state, ThreadPool& pool,
               std::span<const TokenId> tokens, int startPos, Projection& projection,
               const std::atomic<bool>* stop = nullptr);

} // namespace ws
