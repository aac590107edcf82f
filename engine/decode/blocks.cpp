#include "engine/decode/blocks.h"

#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>

namespace ws::blocks {

void embed(const TransformerWeights& w, std::span<const TokenId> tokens, float* x, int dim)
{
    for (size_t t = 0; t < tokens.size(); ++t)
        kernels::dequantizeRow(w.tokenEmbedding.type, w.tokenEmbedding.row(tokens[t]), x + t * size_t(dim), dim);
}

void rmsNorm(const float* x, const float* weight, float* out, int n, int rows, float eps)
{
    for (int r = 0; r < rows; ++r)
        kernels::rmsNormRow(x + size_t(r) * n, weight, out + size_t(r) * n, n, eps);
}

void ropeTables(const TransformerConfig& c, const float* freqFactors, int tokens, int startPos, float* cosT,
                float* sinT, bool sliding)
{
    const int pairs = c.ropeDims / 2;
    const float base = sliding ? c.slidingRopeTheta : c.ropeTheta;
    const float freqScale = sliding ? c.slidingRopeFreqScale : c.ropeFreqScale;
    const float thetaScale = std::pow(base, -2.0f / static_cast<float>(c.ropeDims));
    // YaRN (ggml_rope_yarn_corr_dims, rope_yarn): the pairs between the correction dims blend the interpolated
    // angle with the extrapolated one, and cos/sin carry the magnitude attn_factor * (1 + 0.1 ln(1 / freqScale)).
    const float ext = c.ropeExtFactor;
    float low = 0.0f, high = 0.0f, mscale = c.ropeAttnFactor;
    if (ext != 0.0f) {
        const float n = static_cast<float>(c.ropeDims), pi = 3.14159265358979323846f;
        auto corrDim = [&](float rotations) {
            return n * std::log(static_cast<float>(c.ropeOriginalContext) / (rotations * 2 * pi)) /
                   (2 * std::log(base));
        };
        low = std::max(0.0f, std::floor(corrDim(c.ropeBetaFast)));
        high = std::min(n - 1, std::ceil(corrDim(c.ropeBetaSlow)));
        mscale *= std::fma(0.1f, std::log(1.0f / freqScale), 1.0f); // ggml-cpu's build contracts this one
    }
    for (int t = 0; t < tokens; ++t) {
        float theta = static_cast<float>(startPos + t);
        float* cosOut = cosT + size_t(t) * pairs;
        float* sinOut = sinT + size_t(t) * pairs;
        for (int i = 0; i < pairs; ++i) {
            const float ff = freqFactors                  ? freqFactors[i]
                             : !c.ropeFreqFactors.empty() ? c.ropeFreqFactors[size_t(i)]
                                                          : 1.0f;
            const float extrap = theta / ff;
            float angle = freqScale * extrap;
            if (ext != 0.0f) {
                const float y = (static_cast<float>(i) - low) / std::max(0.001f, high - low);
                const float mix = (1 - std::min(1.0f, std::max(0.0f, y))) * ext;
                angle = std::fma(angle, 1 - mix, extrap * mix); // as GCC -O3 -mfma contracts ggml's sum
            }
            cosOut[i] = std::cos(angle) * mscale;
            sinOut[i] = std::sin(angle) * mscale;
            theta *= thetaScale;
        }
    }
}

// ggml's `x0*cos - x1*sin` and `x0*sin + x1*cos` as GCC 12 -O3 contracts them (checked on random inputs):
// the first product fused, the second rounded. Written out because this file is built with -ffp-contract=off.
void rope(const TransformerConfig& c, float* vec, int tokens, int heads, const float* cosTable, const float* sinTable)
{
    const int pairs = c.ropeDims / 2;
    for (int t = 0; t < tokens; ++t) {
        const float* cosT = cosTable + size_t(t) * pairs;
        const float* sinT = sinTable + size_t(t) * pairs;
        for (int h = 0; h < heads; ++h) {
            float* x = vec + (size_t(t) * heads + size_t(h)) * c.headDim;
            if (c.ropeStyle == RopeStyle::Normal) { // adjacent pairs (2i, 2i+1)
                for (int i = 0; i < pairs; ++i) {
                    const float x0 = x[2 * i], x1 = x[2 * i + 1];
                    x[2 * i] = std::fma(x0, cosT[i], -(x1 * sinT[i]));
                    x[2 * i + 1] = std::fma(x0, sinT[i], x1 * cosT[i]);
                }
            } else { // NeoX: the halves (i, i + pairs)
                for (int i = 0; i < pairs; ++i) {
                    const float x0 = x[i], x1 = x[i + pairs];
                    x[i] = std::fma(x0, cosT[i], -(x1 * sinT[i]));
                    x[i + pairs] = std::fma(x0, sinT[i], x1 * cosT[i]);
                }
            }
        }
    }
}

void addBias(float* x, const float* bias, int n, int tokens)
{
    if (!bias)
        return;
    for (int t = 0; t < tokens; ++t)
        for (int i = 0; i < n; ++i)
            x[size_t(t) * n + i] += bias[i];
}

void storeKv(const TransformerConfig& c, RunState& s, int layer, int tokens, int startPos)
{
    const size_t kvDim = size_t(c.kvDim());
    const size_t at = size_t(startPos) * kvDim, count = size_t(tokens) * kvDim;
    if (s.kvType == KvCacheType::F16) {
        kernels::convertRowF16(s.k.data(), s.layerKeys16(layer) + at, int(count));
        kernels::convertRowF16(s.v.data(), s.layerValues16(layer) + at, int(count));
        return;
    }
    std::copy(s.k.begin(), s.k.begin() + std::ptrdiff_t(count), s.layerKeys(layer) + at);
    std::copy(s.v.begin(), s.v.begin() + std::ptrdiff_t(count), s.layerValues(layer) + at);
}

void swiglu(float* gate, const float* up, int hidden, int tokens)
{
    for (int t = 0; t < tokens; ++t) {
        float* g = gate + size_t(t) * hidden;
        const float* u = up + size_t(t) * hidden;
        kernels::siluRow(g, hidden);
        for (int i = 0; i < hidden; ++i)
            g[i] *= u[i];
    }
}

void swigluOai(float* gate, const float* up, int hidden, int tokens, float alpha, float limit)
{
    for (size_t i = 0; i < size_t(tokens) * size_t(hidden); ++i) {
        const float x = std::min(gate[i], limit);
        const float y = std::clamp(up[i], -limit, limit);
        const float glu = x / (1.0f + std::exp(alpha * (-x)));
        gate[i] = glu * (y + 1.0f);
    }
}

void gatedActivation(const TransformerConfig& c, float* gate, const float* up, int hidden, int tokens)
{
    switch (c.ffnActivation) {
    case FfnActivation::Silu:
        swiglu(gate, up, hidden, tokens);
        break;
    case FfnActivation::GeluTanh:
        geglu(gate, up, hidden, tokens);
        break;
    case FfnActivation::SwigluOai:
        swigluOai(gate, up, hidden, tokens, c.swigluAlpha, c.swigluLimit);
        break;
    }
}

void geglu(float* gate, const float* up, int hidden, int tokens)
{
    for (int t = 0; t < tokens; ++t)
        kernels::gegluRow(gate + size_t(t) * hidden, up + size_t(t) * hidden, hidden);
}

void scale(float* x, size_t n, float s)
{
    for (size_t i = 0; i < n; ++i)
        x[i] *= s;
}

void softcap(float* logits, int n, float cap)
{
    const float inv = 1.0f / cap;
    for (int i = 0; i < n; ++i)
        logits[i] = std::tanh(logits[i] * inv) * cap;
}

void addResidual(float* x, const float* delta, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        x[i] += delta[i];
}

} // namespace ws::blocks
