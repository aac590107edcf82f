#pragma once
// The mutable state of one decode session: the KV cache and the activation
// buffers of the forward pass, sized once (context length and batch size)
// so that generating a token allocates nothing. One RunState per concurrent
// conversation; the weights are shared and read-only.

#include "engine/decode/quantblocks.h"
#include "engine/decode/transformerconfig.h"

#include <vector>

namespace ws {

struct RunState
{
    RunState(const TransformerConfig& config, int contextLength, int maxBatch, int threadCount);

    int contextLength = 0; // KV cache positions
    int maxBatch = 0;      // tokens per forward call
    int threadCount = 1;

    // Activations for a batch of tokens.
    std::vector<float> x;      // (batch, dim) residual stream
    std::vector<float> xb;     // (batch, max(dim, qDim)) normed input, then attention output
    std::vector<float> xb2;    // (batch, dim) projection output
    std::vector<float> q;      // (batch, qDim)
    std::vector<float> k;      // (batch, kvDim)
    std::vector<float> v;      // (batch, kvDim)
    std::vector<float> hb;     // (batch, hiddenDim) gate, then gate * up
    std::vector<float> hb2;    // (batch, hiddenDim) up
    std::vector<float> logits; // (vocab) for the last token of the batch
    std::vector<float> ropeCos; // (batch, ropeDims / 2)
    std::vector<float> ropeSin; // (batch, ropeDims / 2)

    // Per-thread attention scratch.
    std::vector<float> scores; // (thread, contextLength rounded up to 8)
    std::vector<float> laneAcc; // (thread, 8, headDim) the 8 FMA lanes of the probability-weighted sum of V

    // The activation converted for the dot product with a quantised or F16 matrix.
    std::vector<BlockQ8_0> actQ8_0; // (batch, maxCols / 32)
    std::vector<BlockQ8_K> actQ8_K; // (batch, maxCols / 256)
    std::vector<BlockQ8_1> actQ8_1; // (batch, maxCols / 32)
    std::vector<uint16_t> act16;    // (batch, maxCols) F16 or BF16

    // KV cache, F32 as llama.cpp with -ctk f32 -ctv f32.
    std::vector<float> keyCache;   // (layer, contextLength, kvDim)
    std::vector<float> valueCache; // (layer, contextLength, kvDim)

    int scoresStride() const { return (contextLength + 7) / 8 * 8; }
    // One layer's (contextLength, kvDim) slice of the caches.
    float* layerKeys(int layer) { return keyCache.data() + size_t(layer) * m_layerCacheSize; }
    float* layerValues(int layer) { return valueCache.data() + size_t(layer) * m_layerCacheSize; }

private:
    size_t m_layerCacheSize = 0; // contextLength * kvDim
};

} // namespace ws
