#include "engine/decode/runstate.h"

#include <algorithm>

namespace ws {

RunState::RunState(const TransformerConfig& c, int contextLen, int batch, int threads)
    : contextLength(contextLen), maxBatch(batch), threadCount(threads)
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
    scores.resize(size_t(threads) * size_t(scoresStride()));
    laneAcc.resize(size_t(threads) * 8 * size_t(c.headDim));
    actQ8_0.resize(b * size_t((maxCols + 31) / 32));
    actQ8_K.resize(b * size_t((maxCols + 255) / 256));
    actQ8_1.resize(b * size_t((maxCols + 31) / 32));
    act16.resize(b * size_t(maxCols));
    m_layerCacheSize = size_t(contextLen) * size_t(c.kvDim());
    const size_t cache = size_t(c.layerCount) * m_layerCacheSize;
    keyCache.resize(cache);
    valueCache.resize(cache);
}

} // namespace ws
