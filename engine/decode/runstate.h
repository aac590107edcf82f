#pragma once
// The mutable state of one decode session: the KV cache and the activation
// buffers of the forward pass, sized once (context length and batch size)
// so that generating a token allocates nothing. One RunState per concurrent
// conversation; the weights are shared and read-only.
//
// The KV cache is F32 (llama.cpp's -ctk f32 -ctv f32, which the reference
// tests use) or F16 (llama.cpp's default): half the memory per position.

#include "engine/decode/kvcachetype.h"
#include "engine/decode/quantblocks.h"
#include "engine/decode/transformerconfig.h"

#include <cstdint>
#include <vector>

namespace ws {

// Bytes of a KV cache (keys and values, every layer) of `contextLength` positions.
uint64_t kvCacheBytes(const TransformerConfig& config, int contextLength, KvCacheType type);

struct RunState
{
    RunState(const TransformerConfig& config, int contextLength, int maxBatch, int threadCount,
             KvCacheType kvType = KvCacheType::F32);

    int contextLength = 0; // KV cache positions
    int maxBatch = 0;      // tokens per forward call
    int threadCount = 1;

    // Activations for a batch of tokens.
    std::vector<float> x;              // (batch, dim) residual stream
    std::vector<float> xb;             // (batch, max(dim, qDim)) normed input, then attention output
    std::vector<float> xb2;            // (batch, dim) projection output
    std::vector<float> q;              // (batch, qDim)
    std::vector<float> k;              // (batch, kvDim)
    std::vector<float> v;              // (batch, kvDim)
    std::vector<float> hb;             // (batch, hiddenDim) gate, then gate * up
    std::vector<float> hb2;            // (batch, hiddenDim) up
    std::vector<float> logits;         // (vocab) for the last token of the batch
    std::vector<float> ropeCos;        // (batch, ropeDims / 2)
    std::vector<float> ropeSin;        // (batch, ropeDims / 2)
    std::vector<float> slidingRopeCos; // (batch, ropeDims / 2) the sliding layers' tables, where their RoPE differs
    std::vector<float> slidingRopeSin;

    // MoE layers (empty for dense models): router logits, one expert's gathered input rows, the
    // weighted output of every (token, selected expert) and which rows an expert's group came from.
    std::vector<float> routerLogits; // (batch, expertCount)
    std::vector<float> moeIn;        // (batch, dim)
    std::vector<float> moeOut;       // (batch, expertUsedCount, dim)
    std::vector<int> moeSlots;       // (batch * expertUsedCount)
    // The last forward call's routing: per layer, per token of the batch, the selected experts
    // (descending router probability) and their weights.
    std::vector<int> routedExperts;   // (layer, batch, expertUsedCount)
    std::vector<float> routedWeights; // (layer, batch, expertUsedCount)
    int batchTokens = 0;              // tokens of the last forward call

    // Per-thread attention scratch.
    std::vector<float> scores;  // (thread, 8, contextLength rounded up to 8): a tile of queries
    std::vector<float> laneAcc; // (thread, 32, headDim) the FMA lanes of the sum of V, or a tile's queries
    // A prompt batch's value cache transposed, (kvDim, positions rounded up to 8) in the cache's type, grown to the
    // positions a batch attends (blocks::attention).
    std::vector<uint8_t> valueColumns;

    // The activation converted for the dot product with a quantised or F16 matrix.
    std::vector<BlockQ8_0> actQ8_0;       // (batch, maxCols / 32)
    std::vector<BlockQ8_K> actQ8_K;       // (batch, maxCols / 256)
    std::vector<BlockQ8_K> actQ8_KPacked; // (batch, maxCols / 256), permuted for packed Q4_K matrices
    std::vector<BlockQ8_1> actQ8_1;       // (batch, maxCols / 32)
    std::vector<uint16_t> act16;          // (batch, maxCols) F16 or BF16

    std::vector<float> kvScratch; // (thread, 2 * headDim) a query or a value row converted from/to F16

    // KV cache: F32 as llama.cpp with -ctk f32 -ctv f32, or F16 (the *16 vectors; the others are empty).
    KvCacheType kvType = KvCacheType::F32;
    std::vector<float> keyCache;        // (layer, contextLength, kvDim)
    std::vector<float> valueCache;      // (layer, contextLength, kvDim)
    std::vector<uint16_t> keyCache16;   // (layer, contextLength, kvDim) F16
    std::vector<uint16_t> valueCache16; // (layer, contextLength, kvDim) F16

    int scoresStride() const { return (contextLength + 7) / 8 * 8; }
    // One layer's (contextLength, kvDim) slice of the caches (F32 caches only).
    float* layerKeys(int layer) { return keyCache.data() + size_t(layer) * m_layerCacheSize; }
    float* layerValues(int layer) { return valueCache.data() + size_t(layer) * m_layerCacheSize; }
    // The same for F16 caches.
    uint16_t* layerKeys16(int layer) { return keyCache16.data() + size_t(layer) * m_layerCacheSize; }
    uint16_t* layerValues16(int layer) { return valueCache16.data() + size_t(layer) * m_layerCacheSize; }
    // Copies the first `positions` of every layer's keys and values from `from` (same model and KV type,
    // positions <= both contexts): a cache that grows keeps what it holds.
    void copyCache(const RunState& from, int positions);

private:
    size_t m_layerCacheSize = 0; // contextLength * kvDim
    int m_layerCount = 0;
    size_t m_kvDim = 0;
};

} // namespace ws
