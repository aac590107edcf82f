#pragma once
// The building blocks of the transformer forward pass, everything between its
// matrix products: the embedding lookup, RMSNorm, RoPE (normal and NeoX pair
// order, with Llama-3.1 frequency factors), the KV-cache write, causal softmax
// attention over the cache with grouped KV heads (sliding windows, sinks), SwiGLU,
// GeGLU, swiglu_oai, scaling, logit softcapping and the residual add.
// Each block reproduces llama.cpp's CPU arithmetic to the bit (kernels.h) and
// works on a batch of `tokens` consecutive rows. forward.h composes them with
// the matrix products; the tiled executor (engine/wafer/tiledexecutor.h) runs
// the same composition with per-core tile products instead.

#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/decode/transformerconfig.h"
#include "engine/decode/weights.h"
#include "engine/tokenizer/tokenid.h"

#include <cstddef>
#include <span>

namespace ws::blocks {

// x (tokens, dim): the embedding rows of `tokens`, dequantised.
void embed(const TransformerWeights& weights, std::span<const TokenId> tokens, float* x, int dim);

// out (rows, n) = each row of x (rows, n) scaled to unit RMS, times weight (n). out may be x.
void rmsNorm(const float* x, const float* weight, float* out, int n, int rows, float eps);

// cosT, sinT (tokens, ropeDims / 2): the rotation of every pair for positions startPos, startPos+1, ...
// as ggml's rope cache (theta starts at the position and is multiplied by base^(-2/ropeDims) per pair).
// freqFactors (ropeDims / 2) are the weights' Llama-3.1 factors, or null to use the config's (or none).
// `sliding`: the tables of the sliding layers' base and scale (slidingRopeTheta, slidingRopeFreqScale).
void ropeTables(const TransformerConfig& config, const float* freqFactors, int tokens, int startPos, float* cosT,
                float* sinT, bool sliding = false);

// Rotates vec (tokens, heads, headDim) in place with the tables of ropeTables.
void rope(const TransformerConfig& config, float* vec, int tokens, int heads, const float* cosT, const float* sinT);

// x (tokens, n) += bias (n); nothing when bias is null.
void addBias(float* x, const float* bias, int n, int tokens);

// Copies state.k and state.v (tokens, kvDim) into the layer's cache at positions startPos...
void storeKv(const TransformerConfig& config, RunState& state, int layer, int tokens, int startPos);

// state.xb (tokens, qDim) = causal softmax attention of state.q (tokens, qDim) over the layer's cache,
// token t attending to positions [0, startPos + t], or in a layer with a window w (config.window(layer)) to
// the last w of them, [startPos + t + 1 - w, startPos + t]. One task per (token, head), or (token, KV head),
// claimed by the pool's threads.
// sinks (headCount, or null): each head's sink logit joins its softmax's denominator (ggml_soft_max_add_sinks).
// A batch of two or more tokens takes tiles of tokens and of the query heads that share a KV head where that gives the
// same bits (a head size that is a multiple of 32); headByHead: one head at a time always, the reference the tests
// compare that with.
void attention(const TransformerConfig& config, RunState& state, ThreadPool& pool, int layer, int tokens, int startPos,
               const float* sinks = nullptr, bool headByHead = false);

// gate (tokens, hidden) = SiLU(gate) * up, ggml's vector SiLU.
void swiglu(float* gate, const float* up, int hidden, int tokens);

// gate (tokens, hidden) = GELU(gate) * up, ggml's GeGLU (kernels::gegluRow).
void geglu(float* gate, const float* up, int hidden, int tokens);

// gate (tokens, hidden) = ggml_swiglu_oai: x = min(gate, limit), y = clamp(up, -limit, limit),
// x / (1 + expf(alpha * -x)) * (y + 1).
void swigluOai(float* gate, const float* up, int hidden, int tokens, float alpha, float limit);

// The config's gated activation (swiglu, geglu or swigluOai) of gate and up.
void gatedActivation(const TransformerConfig& config, float* gate, const float* up, int hidden, int tokens);

// x (n) *= s, as ggml_scale (one rounded product each).
void scale(float* x, size_t n, float s);

// logits (n) = cap * tanh(logits * (1 / cap)), ggml's scale, tanh, scale.
void softcap(float* logits, int n, float cap);

// x (n) += delta (n).
void addResidual(float* x, const float* delta, size_t n);

} // namespace ws::blocks
