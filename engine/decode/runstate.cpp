#include "engine/decode/runstate.h"

#include <algorithm>
#include <cstdint>

namespace ws {

const char* kvCacheTypeName(KvCacheType type)
{
    return type == KvCacheType::F16 ? "f16" : "f32";
}

uint64_t kvCacheBytes(const TransformerConfig& c, int contextLength, KvCacheType type)
{
    const uint64_t element = type == KvCacheType::F16 ? sizeof(uint16_t) : sizeof(float);
    return 2 * uint64_t(c.layerCount) * uint64_t(std::max(0, contextLength)) * uint64_t(c.kvDim()) * element;
}

RunState::RunState(const TransformerConfig& c, int contextLen, int batch, int threads, KvCacheType kv)
    : contextLength(contextLen), maxBatch(batch), threadCount(threads), kvType(kv)
{
    const size_t b = size_t(batch);
    const int maxCols = std::max({c.dim, c.qDim(), c.hiddenDim});
    x.resize(b * size_t(c.dim));
    xb.resize(b * size_t(std::max(c.dim, c.qDim())));
    xb2.resize(b * size_t(c.dim));
    q.resize(b * size_t(c.qDim()));
    k.resize(b * size_t(c.kvDim()));
    v.resize(b * size_t(c.kvDim()));
    hb.resize(b * size_t(c.hiddenDim));
    hb2.resize(b * size_t(c.hiddenDim));
    logits.resize(size_t(c.vocabSize));
    ropeCos.resize(b * size_t(c.ropeDims / 2));
    ropeSin.resize(b * size_t(c.ropeDims / 2));
    if (c.slidingRopeTheta > 0.0f) {
        slidingRopeCos.resize(ropeCos.size());
        slidingRopeSin.resize(ropeSin.size());
    }
    if (c.isMoe()) {
        const size_t slots = b * size_t(c.expertUsedCount);
        routerLogits.resize(b * size_t(c.expertCount));
        moeIn.resize(b * size_t(c.dim));
        moeOut.resize(slots * size_t(c.dim));
        moeSlots.resize(slots);
        routedExperts.resize(size_t(c.layerCount) * slots);
        routedWeights.resize(size_t(c.layerCount) * slots);
    }
    scores.resize(size_t(threads) * 8 * size_t(scoresStride()));
    laneAcc.resize(size_t(threads) * 32 * size_t(c.headDim));
    actQ8_0.resize(b * size_t((maxCols + 31) / 32));
    actQ8_K.resize(b * size_t((maxCols + 255) / 256));
    actQ8_KPacked.resize(actQ8_K.size());
    actQ8_1.resize(b * size_t((maxCols + 31) / 32));
    act16.resize(b * size_t(maxCols));
    kvScratch.resize(size_t(threads) * 2 * size_t(c.headDim));
    m_layerCacheSize = size_t(contextLen) * size_t(c.kvDim());
    m_layerCount = c.layerCount;
    m_kvDim = size_t(c.kvDim());
    const size_t cache = size_t(c.layerCount) * m_layerCacheSize;
    if (kv == KvCacheType::F16) {
        keyCache16.resize(cache);
        valueCache16.resize(cache);
    } else {
        keyCache.resize(cache);
        valueCache.resize(cache);
    }
}

void RunState::copyCache(const RunState& from, int positions)
{
    const size_t count = size_t(positions) * m_kvDim;
    for (int layer = 0; layer < m_layerCount && kvType == from.kvType; ++layer) {
        const size_t src = size_t(layer) * from.m_layerCacheSize, dst = size_t(layer) * m_layerCacheSize;
        if (kvType == KvCacheType::F16) {
            std::copy_n(from.keyCache16.begin() + std::ptrdiff_t(src), count, keyCache16.begin() + std::ptrdiff_t(dst));
            std::copy_n(from.valueCache16.begin() + std::ptrdiff_t(src), count,
                        valueCache16.begin() + std::ptrdiff_t(dst));
        } else {
            std::copy_n(from.keyCache.begin() + std::ptrdiff_t(src), count, keyCache.begin() + std::ptrdiff_t(dst));
            std::copy_n(from.valueCache.begin() + std::ptrdiff_t(src), count, valueCache.begin() + std::ptrdiff_t(dst));
        }
    }
}

} // namespace ws
