#include "engine/decode/blocks.h"

#include "engine/decode/kernels.h"
#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace ws::blocks {

namespace {

// One query head of one token against cache positions [0, n).
// Scores: the dot product in ggml_vec_dot order.
// Softmax: scale, max, ggml's vector exp over groups of 8 (sums of each group added in double), 1/sum.
// Output of a batch of tokens: each of the 8 FMA lanes sums positions p with p % 8 == lane, then the lanes are
// reduced as hsum8. K.q goes through ggml_vec_dot_f32 in llama.cpp (the K cache view is not contiguous, so
// tinyBLAS is not used), the probability-weighted sum of V through tinyBLAS (8 lanes over positions).
// Output of a one-token batch (a decode step; tinyBLAS takes only products of at least two columns): the sum of V
// is ggml_vec_dot_f32 over the (transposed) V cache: 4 accumulators of 8 lanes, position p in accumulator
// (p % 32) / 8, lane p % 8; accumulators reduced (0 + 2) + (1 + 3), lanes ((0 + 4) + (1 + 5)) + ((2 + 6) + (3 + 7)).
// llama.cpp's n_kv is a multiple of 256, so no position falls in ggml_vec_dot_f32's scalar tail.
//
// An F16 cache (KvRows<uint16_t>): the query is rounded to F16 once and K.q is ggml_vec_dot_f16, as
// llama.cpp does with an F16 K cache; each V row is widened to F32 before the same weighted sum.
template <typename T> struct KvRows
{
    const T* keys;
    const T* values;
    float* scratch; // (2, headDim): the query as F16 (value rows are widened as they are read)
};

float keyDot(const KvRows<float>&, const float* k, const float* q, int hd, const void*)
{
    return kernels::dotF32Ggml(k, q, hd);
}
float keyDot(const KvRows<uint16_t>&, const uint16_t* k, const float*, int hd, const void* q16)
{
    return kernels::dotF16Ggml(k, static_cast<const uint16_t*>(q16), hd);
}
// Eight values of a value row from dimension d, and one, as floats (an F16 row widened as it is read: exact).
__m256 value8(const float* v, int d)
{
    return _mm256_loadu_ps(v + d);
}
__m256 value8(const uint16_t* v, int d)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + d)));
}
float value1(const float* v, int d)
{
    return v[d];
}
float value1(const uint16_t* v, int d)
{
    return simd::f16(v[d]);
}

// Positions [first, n) are attended; the scores of [first rounded down to 8, first) are -inf, so the groups of
// 8 that ggml's softmax sums stay those of the whole row (the masked cells add exact zeros).
// A sink (gpt-oss's attn_sinks, null for none) is ggml_soft_max_add_sinks: the maximum is taken with it, and
// expf(sink - max) joins the sum (in double) before the division; it gets no value row.
template <typename T>
void attendHead(const TransformerConfig& c, const float* q, const KvRows<T>& rows, int first, int n, float scale,
                const float* sink, bool decodeStep, float* scores, float* lanes, float* out)
{
    const int hd = c.headDim;
    const size_t stride = size_t(c.kvDim());
    const void* q16 = nullptr;
    if constexpr (std::is_same_v<T, uint16_t>) {
        auto* converted = reinterpret_cast<uint16_t*>(rows.scratch);
        kernels::convertRowF16(q, converted, hd);
        q16 = converted;
    }
    float maxScore = -std::numeric_limits<float>::infinity();
    const int base = first / 8 * 8;
    for (int p = base; p < first; ++p)
        scores[p] = -std::numeric_limits<float>::infinity();
    for (int p = first; p < n; ++p) {
        const T* k = rows.keys + stride * size_t(p);
        const float d = keyDot(rows, k, q, hd, q16);
        scores[p] = d * scale;
        maxScore = std::max(maxScore, scores[p]);
    }
    if (sink)
        maxScore = std::max(maxScore, *sink);
    const int padded = (n + 7) / 8 * 8;
    for (int p = n; p < padded; ++p)
        scores[p] = -std::numeric_limits<float>::infinity();
    double sum = 0.0;
    const __m256 maxV = _mm256_set1_ps(maxScore);
    for (int p = base; p < padded; p += 8) {
        const __m256 e = simd::exp8(_mm256_sub_ps(_mm256_loadu_ps(scores + p), maxV));
        _mm256_storeu_ps(scores + p, e);
        sum += static_cast<double>(simd::hsum8(e));
    }
    if (sink)
        sum += static_cast<double>(std::exp(*sink - maxScore));
    const float inv = static_cast<float>(1.0 / sum);
    for (int p = first; p < n; ++p)
        scores[p] *= inv;

    // ggml_vec_dot_f32's order for a decode step with an F32 cache (an F16 cache keeps the batch order).
    const bool vecDot = decodeStep && std::is_same_v<T, float>;
    const int laneMask = vecDot ? 31 : 7;
    std::fill(lanes, lanes + size_t(laneMask + 1) * size_t(hd), 0.0f);
    for (int p = first; p < n; ++p) {
        const T* v = rows.values + stride * size_t(p);
        float* acc = lanes + size_t(p & laneMask) * hd;
        const __m256 w = _mm256_set1_ps(scores[p]);
        int d = 0;
        for (; d + 8 <= hd; d += 8)
            _mm256_storeu_ps(acc + d, _mm256_fmadd_ps(value8(v, d), w, _mm256_loadu_ps(acc + d)));
        for (; d < hd; ++d)
            acc[d] = std::fma(value1(v, d), scores[p], acc[d]);
    }
    const size_t L = size_t(hd);
    if (vecDot) {
        // Eight dimensions at a time, each with the same additions in the same order as the scalar tail.
        int d = 0;
        for (; d + 8 <= hd; d += 8) {
            const float* a = lanes + d;
            auto lane = [&](size_t l) { return _mm256_loadu_ps(a + l * L); };
            __m256 x[8];
            for (size_t l = 0; l < 8; ++l)
                x[l] = _mm256_add_ps(_mm256_add_ps(lane(l), lane(16 + l)), _mm256_add_ps(lane(8 + l), lane(24 + l)));
            _mm256_storeu_ps(out + d,
                             _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(x[0], x[4]), _mm256_add_ps(x[1], x[5])),
                                           _mm256_add_ps(_mm256_add_ps(x[2], x[6]), _mm256_add_ps(x[3], x[7]))));
        }
        for (; d < hd; ++d) {
            const float* a = lanes + d;
            float x[8];
            for (size_t l = 0; l < 8; ++l)
                x[l] = (a[l * L] + a[(16 + l) * L]) + (a[(8 + l) * L] + a[(24 + l) * L]);
            out[d] = ((x[0] + x[4]) + (x[1] + x[5])) + ((x[2] + x[6]) + (x[3] + x[7]));
        }
        return;
    }
    int d = 0;
    for (; d + 8 <= hd; d += 8) {
        const float* a = lanes + d;
        auto lane = [&](size_t l) { return _mm256_loadu_ps(a + l * L); };
        _mm256_storeu_ps(
            out + d, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(lane(0), lane(4)), _mm256_add_ps(lane(2), lane(6))),
                                   _mm256_add_ps(_mm256_add_ps(lane(1), lane(5)), _mm256_add_ps(lane(3), lane(7)))));
    }
    for (; d < hd; ++d) {
        const float* a = lanes + d;
        out[d] = ((a[0] + a[4 * L]) + (a[2 * L] + a[6 * L])) + ((a[L] + a[5 * L]) + (a[3 * L] + a[7 * L]));
    }
}

} // namespace

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

void attention(const TransformerConfig& c, RunState& s, ThreadPool& pool, int layer, int n, int startPos,
               const float* sinks)
{
    const int qDim = c.qDim(), hd = c.headDim;
    const float scale = c.attentionScale != 0.0f ? c.attentionScale : 1.0f / std::sqrt(static_cast<float>(hd));
    const int group = c.headCount / c.kvHeadCount;
    const bool half = s.kvType == KvCacheType::F16;
    const int window = c.window(layer);
    const int tasks = n * c.headCount;
    auto attend = [&](int index, int count) {
        int begin, end;
        ThreadPool::split(tasks, index, count, begin, end);
        float* scores = s.scores.data() + size_t(index) * s.scoresStride();
        float* lanes = s.laneAcc.data() + size_t(index) * 32 * hd;
        float* scratch = s.kvScratch.data() + size_t(index) * 2 * hd;
        for (int task = begin; task < end; ++task) {
            const int t = task / c.headCount, h = task % c.headCount;
            const size_t kvOffset = size_t(h / group) * hd;
            const float* q = s.q.data() + size_t(t) * qDim + size_t(h) * hd;
            float* out = s.xb.data() + size_t(t) * qDim + size_t(h) * hd;
            const int last = startPos + t + 1, first = window > 0 ? std::max(0, last - window) : 0;
            const float* sink = sinks ? sinks + h : nullptr;
            if (half)
                attendHead(
                    c, q, KvRows<uint16_t>{s.layerKeys16(layer) + kvOffset, s.layerValues16(layer) + kvOffset, scratch},
                    first, last, scale, sink, n == 1, scores, lanes, out);
            else
                attendHead(c, q, KvRows<float>{s.layerKeys(layer) + kvOffset, s.layerValues(layer) + kvOffset, scratch},
                           first, last, scale, sink, n == 1, scores, lanes, out);
        }
    };
    const int64_t attnWork = int64_t(tasks) * (startPos + n) * hd * 2;
    if (attnWork < (1 << 17) || pool.threadCount() == 1)
        attend(0, 1);
    else
        pool.run(attend);
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
