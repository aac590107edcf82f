#include "engine/decode/moeblock.h"

#include "engine/decode/blocks.h"
#include "engine/decode/simd.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ws::blocks {

namespace {

// ggml_soft_max of one row, out may be x: the maximum, then exp(x - max) in groups of 8 with ggml's vector exp
// (each group's sum added in double), libm expf for the rest, then every value times (float)(1 / sum).
void softmaxRow(const float* x, float* out, int n)
{
    const float maxValue = *std::max_element(x, x + n);
    double sum = 0.0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 e = simd::exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), _mm256_set1_ps(maxValue)));
        _mm256_storeu_ps(out + i, e);
        sum += double(simd::hsum8(e));
    }
    for (; i < n; ++i) {
        out[i] = std::exp(x[i] - maxValue);
        sum += double(out[i]);
    }
    const float inv = float(1.0 / sum);
    for (int e = 0; e < n; ++e)
        out[e] *= inv;
}

} // namespace

void routeExperts(const float* logits, int expertCount, int used, bool normalise, int* ids, float* weights,
                  ExpertGating gating)
{
    // Softmax: the probabilities of all experts rank them; SoftmaxWeight: the logits themselves.
    float probs[512];
    const int n = std::min(expertCount, 512);
    if (gating == ExpertGating::Softmax)
        softmaxRow(logits, probs, n);
    else
        std::copy(logits, logits + n, probs);
    // ggml_argsort (descending) then the first `used`.
    int order[512];
    std::iota(order, order + n, 0);
    std::stable_sort(order, order + n, [&](int a, int b) { return probs[a] > probs[b]; });
    for (int j = 0; j < used; ++j) {
        ids[j] = order[j];
        weights[j] = probs[order[j]];
    }
    if (gating == ExpertGating::SoftmaxWeight)
        softmaxRow(weights, weights, used); // ggml_soft_max over the selected logits, in selection order
    if (!normalise)
        return;
    double selected = 0.0;
    for (int j = 0; j < used; ++j)
        selected += double(weights[j]);
    // ggml_sum_rows (double accumulator, stored as float), clamped to F16's smallest normal, then a division.
    const float total = std::max(float(selected), 6.103515625e-5f);
    for (int j = 0; j < used; ++j)
        weights[j] = weights[j] / total;
}

void moeFfn(const TransformerConfig& c, const LayerWeights& L, RunState& s, ThreadPool& pool, int layer, int n,
            Projection& projection)
{
    const int k = c.expertUsedCount, dim = c.dim, hidden = c.hiddenDim;
    const MatmulJob router{&L.router, s.routerLogits.data()};
    projection.project(&router, 1, s.xb.data(), n, s, pool);
    addBias(s.routerLogits.data(), L.routerBias, c.expertCount, n);
    int* ids = s.routedExperts.data() + size_t(layer) * size_t(s.maxBatch) * size_t(k);
    float* weights = s.routedWeights.data() + size_t(layer) * size_t(s.maxBatch) * size_t(k);
    for (int t = 0; t < n; ++t)
        routeExperts(s.routerLogits.data() + size_t(t) * size_t(c.expertCount), c.expertCount, k, c.expertWeightsNorm,
                     ids + size_t(t) * size_t(k), weights + size_t(t) * size_t(k), c.expertGating);

    // Each expert once, over the tokens routed to it; weighted outputs land in their (token, slot) row.
    for (int e = 0; e < c.expertCount; ++e) {
        int count = 0;
        for (int slot = 0; slot < n * k; ++slot) {
            if (ids[slot] != e)
                continue;
            const float* row = s.xb.data() + size_t(slot / k) * size_t(dim);
            std::copy(row, row + dim, s.moeIn.begin() + std::ptrdiff_t(count) * dim);
            s.moeSlots[size_t(count++)] = slot;
        }
        if (count == 0)
            continue;
        const MatmulJob gateUp[2] = {{&L.expertGate[size_t(e)], s.hb.data()}, {&L.expertUp[size_t(e)], s.hb2.data()}};
        projection.project(gateUp, 2, s.moeIn.data(), count, s, pool);
        if (L.expertGateBias) { // ggml_add_id: expert e's bias row on each of its tokens
            addBias(s.hb.data(), L.expertGateBias + size_t(e) * size_t(hidden), hidden, count);
            addBias(s.hb2.data(), L.expertUpBias + size_t(e) * size_t(hidden), hidden, count);
        }
        gatedActivation(c, s.hb.data(), s.hb2.data(), hidden, count);
        const MatmulJob down{&L.expertDown[size_t(e)], s.xb2.data()};
        projection.project(&down, 1, s.hb.data(), count, s, pool);
        if (L.expertDownBias)
            addBias(s.xb2.data(), L.expertDownBias + size_t(e) * size_t(dim), dim, count);
        for (int i = 0; i < count; ++i) {
            const int slot = s.moeSlots[size_t(i)];
            const float w = weights[slot];
            const float* src = s.xb2.data() + size_t(i) * size_t(dim);
            float* dst = s.moeOut.data() + size_t(slot) * size_t(dim);
            for (int d = 0; d < dim; ++d)
                dst[d] = src[d] * w;
        }
    }
    // ggml_add of the slots' views, first to last.
    for (int t = 0; t < n; ++t) {
        float* y = s.xb2.data() + size_t(t) * size_t(dim);
        const float* first = s.moeOut.data() + size_t(t) * size_t(k) * size_t(dim);
        std::copy(first, first + dim, y);
        for (int j = 1; j < k; ++j)
            addResidual(y, first + size_t(j) * size_t(dim), size_t(dim));
    }
}

ExpertRouting routingOf(const TransformerConfig& c, const RunState& s, int token)
{
    ExpertRouting r;
    if (!c.isMoe() || token < 0 || token >= s.maxBatch || s.routedExperts.empty())
        return r;
    r.layers = c.layerCount;
    r.perLayer = c.expertUsedCount;
    for (int l = 0; l < c.layerCount; ++l) {
        const size_t at = (size_t(l) * size_t(s.maxBatch) + size_t(token)) * size_t(r.perLayer);
        r.experts.insert(r.experts.end(), s.routedExperts.begin() + std::ptrdiff_t(at),
                         s.routedExperts.begin() + std::ptrdiff_t(at + size_t(r.perLayer)));
        r.weights.insert(r.weights.end(), s.routedWeights.begin() + std::ptrdiff_t(at),
                         s.routedWeights.begin() + std::ptrdiff_t(at + size_t(r.perLayer)));
    }
    return r;
}

} // namespace ws::blocks
