#include "engine/perf/modelbytes.h"

#include <cmath>

namespace ws {

namespace {
int64_t bytesOf(int64_t params, Precision p)
{
    return int64_t(std::ceil(double(params) * bitsPerParameter(p) / 8.0));
}
int64_t qDimOf(const ModelConfig& m)
{
    return int64_t(m.headCount) * (m.headDim > 0 ? m.headDim : m.hiddenSize / std::max(1, m.headCount));
}
int64_t kvDimOf(const ModelConfig& m)
{
    return int64_t(m.kvHeadCount > 0 ? m.kvHeadCount : m.headCount) *
           (m.headDim > 0 ? m.headDim : m.hiddenSize / std::max(1, m.headCount));
}
bool moeLayer(const ModelConfig& m, int layer)
{
    return m.isMoe() && (layer + 1) % std::max(1, m.moeLayerStep) == 0;
}
} // namespace

int64_t layerParameters(const ModelConfig& m, int layer, bool activeOnly)
{
    const int64_t h = m.hiddenSize;
    int64_t p = h * (qDimOf(m) + 2 * kvDimOf(m)) + qDimOf(m) * h + 2 * h; // attention + two norms
    if (moeLayer(m, layer)) {
        const int64_t ef = m.expertFfnSize > 0 ? m.expertFfnSize : m.ffnSize;
        const int64_t routed = activeOnly ? m.expertsPerToken : m.expertCount;
        p += h * m.expertCount + 3 * h * ef * (routed + m.sharedExpertCount);
    } else {
        p += 3 * h * m.ffnSize;
    }
    return p;
}

int64_t layerWeightBytes(const ModelConfig& m, int layer, Precision p)
{
    return bytesOf(layerParameters(m, layer, false), p);
}

int64_t embeddingBytes(const ModelConfig& m, Precision p)
{
    return bytesOf(int64_t(m.vocabSize) * m.hiddenSize, p);
}

int64_t lmHeadBytes(const ModelConfig& m, Precision p)
{
    return m.tiedEmbeddings ? 0 : bytesOf(int64_t(m.vocabSize) * m.hiddenSize, p);
}

int64_t totalWeightBytes(const ModelConfig& m, Precision p)
{
    int64_t b = embeddingBytes(m, p) + lmHeadBytes(m, p);
    for (int l = 0; l < m.layers; ++l)
        b += layerWeightBytes(m, l, p);
    return b;
}

int64_t activeParameters(const ModelConfig& m)
{
    int64_t a = int64_t(m.vocabSize) * m.hiddenSize; // LM head (tied or not, it is read once)
    for (int l = 0; l < m.layers; ++l)
        a += layerParameters(m, l, true);
    return a;
}

int64_t activeWeightBytesPerToken(const ModelConfig& m, Precision p)
{
    return bytesOf(activeParameters(m) + m.hiddenSize, p);
}

int64_t layerKvBytesPerToken(const ModelConfig& m, int /*layer*/, int bytesPerValue)
{
    return 2 * kvDimOf(m) * bytesPerValue;
}

int64_t kvBytesPerToken(const ModelConfig& m, int bytesPerValue)
{
    return int64_t(m.layers) * 2 * kvDimOf(m) * bytesPerValue;
}

} // namespace ws
