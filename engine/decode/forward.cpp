#include "engine/decode/forward.h"

#include "engine/decode/kernels.h"
#include "engine/decode/matmul.h"
#include "engine/decode/simd.h"

#include <cmath>
#include <limits>

namespace ws {

namespace {

// cos/sin of every rotated pair for each token, computed as ggml's rope cache:
// theta starts at the position and is multiplied by base^(-2/n) once per pair.
void ropeTables(const TransformerConfig& c, const TransformerWeights& w, RunState& s, int tokens, int startPos)
{
    const int pairs = c.ropeDims / 2;
    const float thetaScale = std::pow(c.ropeTheta, -2.0f / static_cast<float>(c.ropeDims));
    for (int t = 0; t < tokens; ++t) {
        float theta = static_cast<float>(startPos + t);
        float* cosOut = s.ropeCos.data() + size_t(t) * pairs;
        float* sinOut = s.ropeSin.data() + size_t(t) * pairs;
        for (int i = 0; i < pairs; ++i) {
            const float ff = w.ropeFreqFactors            ? w.ropeFreqFactors[i]
                             : !c.ropeFreqFactors.empty() ? c.ropeFreqFactors[size_t(i)]
                                                          : 1.0f;
            const float angle = c.ropeFreqScale * (theta / ff);
            cosOut[i] = std::cos(angle);
            sinOut[i] = std::sin(angle);
            theta *= thetaScale;
        }
    }
}

// ggml's `x0*cos - x1*sin` and `x0*sin + x1*cos` as GCC 12 -O3 contracts them (checked on random inputs):
// the first product fused, the second rounded. Written out because this file is built with -ffp-contract=off.
void applyRope(const TransformerConfig& c, float* vec, int heads, const float* cosT, const float* sinT)
{
    const int pairs = c.ropeDims / 2;
    for (int h = 0; h < heads; ++h) {
        float* x = vec + size_t(h) * c.headDim;
        if (c.ropeStyle == RopeStyle::Normal) {
            for (int i = 0; i < pairs; ++i) {
                const float x0 = x[2 * i], x1 = x[2 * i + 1];
                x[2 * i] = std::fma(x0, cosT[i], -(x1 * sinT[i]));
                x[2 * i + 1] = std::fma(x0, sinT[i], x1 * cosT[i]);
            }
        } else {
            for (int i = 0; i < pairs; ++i) {
                const float x0 = x[i], x1 = x[i + pairs];
                x[i] = std::fma(x0, cosT[i], -(x1 * sinT[i]));
                x[i + pairs] = std::fma(x0, sinT[i], x1 * cosT[i]);
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

// One query head of one token against cache positions [0, n).
// Scores: the dot product in tinyBLAS lane order (head size a multiple of 8) or ggml_vec_dot order.
// Softmax: scale, max, ggml's vector exp over groups of 8 (sums of each group added in double), 1/sum.
// Output: each of the 8 FMA lanes sums positions p with p % 8 == lane, then the lanes are reduced as hsum8.
// K.q goes through ggml_vec_dot_f32 in llama.cpp (the K cache view is not contiguous, so tinyBLAS is
// not used), the probability-weighted sum of V through tinyBLAS (8 lanes over positions).
void attendHead(const TransformerConfig& c, const float* q, const float* keys, const float* values, int n,
                float scale, float* scores, float* lanes, float* out)
{
    const int hd = c.headDim;
    const size_t stride = size_t(c.kvDim());
    float maxScore = -std::numeric_limits<float>::infinity();
    for (int p = 0; p < n; ++p) {
        const float* k = keys + stride * size_t(p);
        const float d = kernels::dotF32Ggml(k, q, hd);
        scores[p] = d * scale;
        maxScore = std::max(maxScore, scores[p]);
    }
    const int padded = (n + 7) / 8 * 8;
    for (int p = n; p < padded; ++p)
        scores[p] = -std::numeric_limits<float>::infinity();
    double sum = 0.0;
    const __m256 maxV = _mm256_set1_ps(maxScore);
    for (int p = 0; p < padded; p += 8) {
        const __m256 e = simd::exp8(_mm256_sub_ps(_mm256_loadu_ps(scores + p), maxV));
        _mm256_storeu_ps(scores + p, e);
        sum += static_cast<double>(simd::hsum8(e));
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (int p = 0; p < n; ++p)
        scores[p] *= inv;

    std::fill(lanes, lanes + 8 * size_t(hd), 0.0f);
    for (int p = 0; p < n; ++p) {
        const float* v = values + stride * size_t(p);
        float* acc = lanes + size_t(p & 7) * hd;
        const __m256 w = _mm256_set1_ps(scores[p]);
        int d = 0;
        for (; d + 8 <= hd; d += 8)
            _mm256_storeu_ps(acc + d, _mm256_fmadd_ps(_mm256_loadu_ps(v + d), w, _mm256_loadu_ps(acc + d)));
        for (; d < hd; ++d)
            acc[d] = std::fma(v[d], scores[p], acc[d]);
    }
    for (int d = 0; d < hd; ++d) {
        const float* a = lanes + d;
        const size_t L = size_t(hd);
        out[d] = ((a[0] + a[4 * L]) + (a[2 * L] + a[6 * L])) + ((a[L] + a[5 * L]) + (a[3 * L] + a[7 * L]));
    }
}

} // namespace

Status forward(const TransformerConfig& c, const TransformerWeights& w, RunState& s, ThreadPool& pool,
               std::span<const TokenId> tokens, int startPos)
{
    const int n = static_cast<int>(tokens.size());
    if (n == 0)
        return makeError(ErrorCode::InvalidArgument, "no tokens to process");
    if (n > s.maxBatch)
        return makeError(ErrorCode::InvalidArgument, "batch of " + std::to_string(n) + " tokens exceeds " +
                                                         std::to_string(s.maxBatch));
    if (startPos < 0 || startPos + n > s.contextLength)
        return makeError(ErrorCode::OutOfRange, "position " + std::to_string(startPos + n) +
                                                    " exceeds the context length " +
                                                    std::to_string(s.contextLength));
    for (TokenId t : tokens)
        if (t < 0 || t >= c.vocabSize)
            return makeError(ErrorCode::InvalidArgument, "token id " + std::to_string(t) + " is outside the vocabulary (" +
                                                             std::to_string(c.vocabSize) + ")");
    const int dim = c.dim, qDim = c.qDim(), kvDim = c.kvDim(), hd = c.headDim, hidden = c.hiddenDim;
    for (int t = 0; t < n; ++t)
        kernels::dequantizeRow(w.tokenEmbedding.type, w.tokenEmbedding.row(tokens[size_t(t)]), s.x.data() + size_t(t) * dim,
                               dim);
    ropeTables(c, w, s, n, startPos);
    const int pairs = c.ropeDims / 2;
    const float scale = c.attentionScale != 0.0f ? c.attentionScale : 1.0f / std::sqrt(static_cast<float>(hd));
    const int group = c.headCount / c.kvHeadCount;

    for (int layer = 0; layer < c.layerCount; ++layer) {
        const LayerWeights& L = w.layers[size_t(layer)];
        for (int t = 0; t < n; ++t)
            kernels::rmsNormRow(s.x.data() + size_t(t) * dim, L.attnNorm, s.xb.data() + size_t(t) * dim, dim,
                                c.rmsNormEps);
        const MatmulJob qkv[3] = {{&L.wq, s.q.data()}, {&L.wk, s.k.data()}, {&L.wv, s.v.data()}};
        matmulShared(qkv, 3, s.xb.data(), n, s, pool);
        addBias(s.q.data(), L.bq, qDim, n);
        addBias(s.k.data(), L.bk, kvDim, n);
        addBias(s.v.data(), L.bv, kvDim, n);
        float* keyCache = s.keyCache.data() + size_t(layer) * size_t(s.contextLength) * kvDim;
        float* valueCache = s.valueCache.data() + size_t(layer) * size_t(s.contextLength) * kvDim;
        for (int t = 0; t < n; ++t) {
            float* q = s.q.data() + size_t(t) * qDim;
            float* k = s.k.data() + size_t(t) * kvDim;
            if (c.qkNorm) {
                for (int h = 0; h < c.headCount; ++h)
                    kernels::rmsNormRow(q + size_t(h) * hd, L.qNorm, q + size_t(h) * hd, hd, c.rmsNormEps);
                for (int h = 0; h < c.kvHeadCount; ++h)
                    kernels::rmsNormRow(k + size_t(h) * hd, L.kNorm, k + size_t(h) * hd, hd, c.rmsNormEps);
            }
            const float* cosT = s.ropeCos.data() + size_t(t) * pairs;
            const float* sinT = s.ropeSin.data() + size_t(t) * pairs;
            applyRope(c, q, c.headCount, cosT, sinT);
            applyRope(c, k, c.kvHeadCount, cosT, sinT);
            const size_t pos = size_t(startPos + t);
            std::copy(k, k + kvDim, keyCache + pos * kvDim);
            std::copy(s.v.data() + size_t(t) * kvDim, s.v.data() + size_t(t + 1) * kvDim, valueCache + pos * kvDim);
        }
        // Attention: one task per (token, head).
        const int tasks = n * c.headCount;
        auto attend = [&](int index, int count) {
            int begin, end;
            ThreadPool::split(tasks, index, count, begin, end);
            float* scores = s.scores.data() + size_t(index) * s.scoresStride();
            float* lanes = s.laneAcc.data() + size_t(index) * 8 * hd;
            for (int task = begin; task < end; ++task) {
                const int t = task / c.headCount, h = task % c.headCount;
                const int kvh = h / group;
                attendHead(c, s.q.data() + size_t(t) * qDim + size_t(h) * hd, keyCache + size_t(kvh) * hd,
                           valueCache + size_t(kvh) * hd, startPos + t + 1, scale, scores, lanes,
                           s.xb.data() + size_t(t) * qDim + size_t(h) * hd);
            }
        };
        const int64_t attnWork = int64_t(tasks) * (startPos + n) * hd * 2;
        if (attnWork < (1 << 17) || pool.threadCount() == 1)
            attend(0, 1);
        else
            pool.run(attend);
        matmul(L.wo, s.xb.data(), n, s.xb2.data(), s, pool);
        for (size_t i = 0; i < size_t(n) * dim; ++i)
            s.x[i] += s.xb2[i];

        for (int t = 0; t < n; ++t)
            kernels::rmsNormRow(s.x.data() + size_t(t) * dim, L.ffnNorm, s.xb.data() + size_t(t) * dim, dim,
                                c.rmsNormEps);
        const MatmulJob gateUp[2] = {{&L.gate, s.hb.data()}, {&L.up, s.hb2.data()}};
        matmulShared(gateUp, 2, s.xb.data(), n, s, pool);
        for (int t = 0; t < n; ++t) {
            float* g = s.hb.data() + size_t(t) * hidden;
            const float* u = s.hb2.data() + size_t(t) * hidden;
            kernels::siluRow(g, hidden);
            for (int i = 0; i < hidden; ++i)
                g[i] *= u[i];
        }
        matmul(L.down, s.hb.data(), n, s.xb2.data(), s, pool);
        for (size_t i = 0; i < size_t(n) * dim; ++i)
            s.x[i] += s.xb2[i];
    }
    const float* last = s.x.data() + size_t(n - 1) * dim;
    kernels::rmsNormRow(last, w.outputNorm, s.xb.data(), dim, c.rmsNormEps);
    matmul(w.output, s.xb.data(), 1, s.logits.data(), s, pool);
    return Ok{};
}

} // namespace ws
