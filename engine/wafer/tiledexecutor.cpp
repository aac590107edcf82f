#include "engine/wafer/tiledexecutor.h"

#include "engine/decode/kernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace ws {

namespace {

constexpr int kLayerMatrices = 7; // q k v o gate up down

std::string matrixName(TensorKind kind, int layer)
{
    std::string s = tensorKindId(kind);
    if (layer >= 0)
        s += " of layer " + std::to_string(layer);
    return s;
}

bool isMatrixKind(TensorKind k)
{
    return k != TensorKind::Norm && k != TensorKind::Bias;
}

} // namespace

Expected<TiledExecutor> TiledExecutor::create(const Placement& placement, const TransformerConfig& config,
                                              const TransformerWeights& weights, int contextLength)
{
    if (contextLength <= 0)
        return makeError(ErrorCode::InvalidArgument, "context length must be positive");
    if (int(weights.layers.size()) != config.layerCount)
        return makeError(ErrorCode::InvalidArgument, "the weights have " + std::to_string(weights.layers.size()) +
                                                         " layers, the configuration " +
                                                         std::to_string(config.layerCount));
    TiledExecutor e;
    e.m_config = config;
    e.m_weights = weights;
    e.m_contextLength = contextLength;

    auto addMatrix = [&](TensorKind kind, int layer, const WeightMatrix& w) {
        Matrix m;
        m.kind = kind;
        m.layer = layer;
        m.rows = w.rows;
        m.cols = w.cols;
        m.values.resize(size_t(w.rows) * size_t(w.cols));
        for (int r = 0; r < w.rows; ++r)
            kernels::dequantizeRow(w.type, w.row(r), m.values.data() + size_t(r) * size_t(w.cols), w.cols);
        e.m_matrices.push_back(std::move(m));
        return int(e.m_matrices.size()) - 1;
    };
    const TensorKind layerKinds[kLayerMatrices] = {TensorKind::AttnQ,  TensorKind::AttnK,   TensorKind::AttnV,
                                                   TensorKind::AttnO,  TensorKind::FfnGate, TensorKind::FfnUp,
                                                   TensorKind::FfnDown};
    for (int l = 0; l < config.layerCount; ++l) {
        const LayerWeights& L = weights.layers[size_t(l)];
        const WeightMatrix* ms[kLayerMatrices] = {&L.wq, &L.wk, &L.wv, &L.wo, &L.gate, &L.up, &L.down};
        for (int i = 0; i < kLayerMatrices; ++i)
            e.m_layerMatrix.push_back(addMatrix(layerKinds[i], l, *ms[i]));
    }
    const int embedding = addMatrix(TensorKind::TokenEmbedding, -1, weights.tokenEmbedding);
    e.m_outputMatrix = weights.tiedOutput ? embedding : addMatrix(TensorKind::Output, -1, weights.output);

    // Collect every core's tiles.
    std::vector<std::vector<uint8_t>> covered(e.m_matrices.size());
    for (size_t i = 0; i < e.m_matrices.size(); ++i)
        covered[i].assign(e.m_matrices[i].values.size(), 0);
    std::vector<std::map<std::pair<int64_t, int64_t>, RowGroup>> groups(e.m_matrices.size());
    std::vector<std::set<int>> matrixCores(e.m_matrices.size());
    for (int d = 0; d < placement.deviceCount; ++d) {
        for (int y = 0; y < placement.usableRows; ++y) {
            for (int x = 0; x < placement.usableCols; ++x) {
                if (placement.regionsAt(d, x, y).empty())
                    continue;
                const auto detail = placement.coreDetail(d, x + placement.originX, y + placement.originY);
                if (!detail)
                    continue;
                const int coreIndex = int(e.m_cores.size());
                TiledCore core{d, x, y, 0, 0.0};
                for (const CoreTile& t : detail->tiles) {
                    if (!isMatrixKind(t.kind))
                        continue;
                    Matrix* m = e.find(t.kind, t.layer);
                    if (!m)
                        return makeError(ErrorCode::Unsupported, "the placement holds " + matrixName(t.kind, t.layer) +
                                                                     ", which the model's weights do not have");
                    const size_t mi = size_t(m - e.m_matrices.data());
                    if (t.rowBegin < 0 || t.rowEnd > m->rows || t.colBegin < 0 || t.colEnd > m->cols ||
                        t.rowBegin >= t.rowEnd || t.colBegin >= t.colEnd)
                        return makeError(ErrorCode::OutOfRange,
                                         "a tile of " + matrixName(t.kind, t.layer) + " on core (" + std::to_string(x) +
                                             ", " + std::to_string(y) + ") lies outside its " +
                                             std::to_string(m->rows) + " x " + std::to_string(m->cols) + " elements");
                    for (int64_t r = t.rowBegin; r < t.rowEnd; ++r)
                        for (int64_t c = t.colBegin; c < t.colEnd; ++c) {
                            uint8_t& n = covered[mi][size_t(r * m->cols + c)];
                            if (n != 0)
                                return makeError(ErrorCode::Format,
                                                 "element (" + std::to_string(r) + ", " + std::to_string(c) + ") of " +
                                                     matrixName(t.kind, t.layer) + " is placed on more than one core");
                            n = 1;
                        }
                    RowGroup& g = groups[mi][{t.rowBegin, t.rowEnd}];
                    g.rowBegin = t.rowBegin;
                    g.rowEnd = t.rowEnd;
                    g.tiles.push_back({coreIndex, t.rowBegin, t.rowEnd, t.colBegin, t.colEnd});
                    matrixCores[mi].insert(coreIndex);
                    ++core.tiles;
                }
                if (core.tiles > 0)
                    e.m_cores.push_back(core);
            }
        }
    }
    for (size_t mi = 0; mi < e.m_matrices.size(); ++mi) {
        Matrix& m = e.m_matrices[mi];
        const auto it = std::find(covered[mi].begin(), covered[mi].end(), uint8_t(0));
        if (it != covered[mi].end()) {
            const int64_t i = it - covered[mi].begin();
            return makeError(ErrorCode::Format, "element (" + std::to_string(i / m.cols) + ", " +
                                                    std::to_string(i % m.cols) + ") of " + matrixName(m.kind, m.layer) +
                                                    " is placed on no core");
        }
        for (auto& [span, g] : groups[mi]) {
            std::sort(g.tiles.begin(), g.tiles.end(),
                      [](const Tile& a, const Tile& b) { return a.colBegin < b.colBegin; });
            if (!m.groups.empty() && g.rowBegin < m.groups.back().rowEnd)
                return makeError(ErrorCode::Unsupported, "tiles of " + matrixName(m.kind, m.layer) +
                                                             " overlap in output rows without sharing their row span");
            m.groups.push_back(std::move(g));
        }
        m.cores = int(matrixCores[mi].size());
    }
    e.m_keyCache.assign(size_t(config.layerCount) * size_t(contextLength) * size_t(config.kvDim()), 0.0f);
    e.m_valueCache.assign(e.m_keyCache.size(), 0.0f);
    e.m_logits.assign(size_t(config.vocabSize), 0.0f);
    return e;
}

TiledExecutor::Matrix* TiledExecutor::find(TensorKind kind, int layer)
{
    for (Matrix& m : m_matrices)
        if (m.kind == kind && m.layer == layer)
            return &m;
    return nullptr;
}

int TiledExecutor::tileCount() const
{
    int n = 0;
    for (const TiledCore& c : m_cores)
        n += c.tiles;
    return n;
}

int TiledExecutor::matrixCores(TensorKind kind, int layer) const
{
    for (const Matrix& m : m_matrices)
        if (m.kind == kind && m.layer == layer)
            return m.cores;
    return 0;
}

void TiledExecutor::gemv(Matrix& m, const float* x, float* y)
{
    std::vector<std::vector<float>> partials;
    for (const RowGroup& g : m.groups) {
        const size_t rows = size_t(g.rowEnd - g.rowBegin);
        partials.assign(g.tiles.size(), std::vector<float>(rows, 0.0f));
        // Each core's partial product over its tile.
        for (size_t i = 0; i < g.tiles.size(); ++i) {
            const Tile& t = g.tiles[i];
            double magnitude = 0.0;
            for (int64_t r = t.rowBegin; r < t.rowEnd; ++r) {
                const float* w = m.values.data() + size_t(r * m.cols);
                float s = 0.0f;
                for (int64_t c = t.colBegin; c < t.colEnd; ++c)
                    s += w[c] * x[c];
                partials[i][size_t(r - t.rowBegin)] = s;
                magnitude += std::fabs(double(s));
            }
            m_cores[size_t(t.core)].partialMagnitude += magnitude;
        }
        // Reduction along the input axis: a binary tree over the cores in column order.
        for (size_t stride = 1; stride < partials.size(); stride *= 2)
            for (size_t i = 0; i + stride < partials.size(); i += 2 * stride)
                for (size_t r = 0; r < rows; ++r)
                    partials[i][r] += partials[i + stride][r];
        std::copy(partials[0].begin(), partials[0].end(), y + g.rowBegin);
    }
}

Status TiledExecutor::step(TokenId token, int pos)
{
    const TransformerConfig& c = m_config;
    if (token < 0 || token >= c.vocabSize)
        return makeError(ErrorCode::InvalidArgument, "token id " + std::to_string(token) +
                                                         " is outside the vocabulary (" + std::to_string(c.vocabSize) +
                                                         ")");
    if (pos < 0 || pos >= m_contextLength)
        return makeError(ErrorCode::OutOfRange, "position " + std::to_string(pos) + " exceeds the context length " +
                                                    std::to_string(m_contextLength));
    const int dim = c.dim, qDim = c.qDim(), kvDim = c.kvDim(), hd = c.headDim, hidden = c.hiddenDim;
    const auto sz = [](int n) { return static_cast<size_t>(n); };
    std::vector<float> x(sz(dim)), xb(sz(std::max(dim, qDim))), xb2(sz(dim)), q(sz(qDim)), k(sz(kvDim)), v(sz(kvDim)),
        hb(sz(hidden)), hb2(sz(hidden)), scores(sz(pos + 1));
    kernels::dequantizeRow(m_weights.tokenEmbedding.type, m_weights.tokenEmbedding.row(token), x.data(), dim);

    // RoPE angles as the dense engine's rope cache (forward.cpp).
    const int pairs = c.ropeDims / 2;
    std::vector<float> cosT(sz(pairs)), sinT(sz(pairs));
    const float thetaScale = std::pow(c.ropeTheta, -2.0f / static_cast<float>(c.ropeDims));
    float theta = static_cast<float>(pos);
    for (int i = 0; i < pairs; ++i) {
        const float ff = m_weights.ropeFreqFactors    ? m_weights.ropeFreqFactors[i]
                         : !c.ropeFreqFactors.empty() ? c.ropeFreqFactors[size_t(i)]
                                                      : 1.0f;
        const float angle = c.ropeFreqScale * (theta / ff);
        cosT[size_t(i)] = std::cos(angle);
        sinT[size_t(i)] = std::sin(angle);
        theta *= thetaScale;
    }
    auto rope = [&](float* vec, int heads) {
        for (int h = 0; h < heads; ++h) {
            float* p = vec + size_t(h) * hd;
            for (int i = 0; i < pairs; ++i) {
                const int a = c.ropeStyle == RopeStyle::Normal ? 2 * i : i;
                const int b = c.ropeStyle == RopeStyle::Normal ? 2 * i + 1 : i + pairs;
                const float x0 = p[a], x1 = p[b];
                p[a] = x0 * cosT[size_t(i)] - x1 * sinT[size_t(i)];
                p[b] = x0 * sinT[size_t(i)] + x1 * cosT[size_t(i)];
            }
        }
    };
    auto addBias = [](float* out, const float* bias, int n) {
        if (bias)
            for (int i = 0; i < n; ++i)
                out[i] += bias[i];
    };
    const float scale = c.attentionScale != 0.0f ? c.attentionScale : 1.0f / std::sqrt(static_cast<float>(hd));
    const int group = c.headCount / c.kvHeadCount;

    for (int l = 0; l < c.layerCount; ++l) {
        const LayerWeights& L = m_weights.layers[size_t(l)];
        Matrix* m = &m_matrices[size_t(m_layerMatrix[size_t(l) * kLayerMatrices])];
        kernels::rmsNormRow(x.data(), L.attnNorm, xb.data(), dim, c.rmsNormEps);
        gemv(m[0], xb.data(), q.data());
        gemv(m[1], xb.data(), k.data());
        gemv(m[2], xb.data(), v.data());
        addBias(q.data(), L.bq, qDim);
        addBias(k.data(), L.bk, kvDim);
        addBias(v.data(), L.bv, kvDim);
        if (c.qkNorm) {
            for (int h = 0; h < c.headCount; ++h)
                kernels::rmsNormRow(q.data() + size_t(h) * hd, L.qNorm, q.data() + size_t(h) * hd, hd, c.rmsNormEps);
            for (int h = 0; h < c.kvHeadCount; ++h)
                kernels::rmsNormRow(k.data() + size_t(h) * hd, L.kNorm, k.data() + size_t(h) * hd, hd, c.rmsNormEps);
        }
        rope(q.data(), c.headCount);
        rope(k.data(), c.kvHeadCount);
        float* keys = m_keyCache.data() + size_t(l) * size_t(m_contextLength) * kvDim;
        float* values = m_valueCache.data() + size_t(l) * size_t(m_contextLength) * kvDim;
        std::copy(k.begin(), k.end(), keys + size_t(pos) * kvDim);
        std::copy(v.begin(), v.end(), values + size_t(pos) * kvDim);
        // Causal softmax attention with grouped KV heads.
        for (int h = 0; h < c.headCount; ++h) {
            const float* qh = q.data() + size_t(h) * hd;
            const size_t kvOffset = size_t(h / group) * hd;
            float maxScore = -INFINITY;
            for (int p = 0; p <= pos; ++p) {
                const float* kp = keys + size_t(p) * kvDim + kvOffset;
                float s = 0.0f;
                for (int d = 0; d < hd; ++d)
                    s += qh[d] * kp[d];
                scores[size_t(p)] = s * scale;
                maxScore = std::max(maxScore, scores[size_t(p)]);
            }
            double sum = 0.0;
            for (int p = 0; p <= pos; ++p) {
                scores[size_t(p)] = std::exp(scores[size_t(p)] - maxScore);
                sum += scores[size_t(p)];
            }
            float* out = xb.data() + size_t(h) * hd;
            std::fill(out, out + hd, 0.0f);
            for (int p = 0; p <= pos; ++p) {
                const float w = static_cast<float>(scores[size_t(p)] / sum);
                const float* vp = values + size_t(p) * kvDim + kvOffset;
                for (int d = 0; d < hd; ++d)
                    out[d] += w * vp[d];
            }
        }
        gemv(m[3], xb.data(), xb2.data());
        for (int i = 0; i < dim; ++i)
            x[size_t(i)] += xb2[size_t(i)];

        kernels::rmsNormRow(x.data(), L.ffnNorm, xb.data(), dim, c.rmsNormEps);
        gemv(m[4], xb.data(), hb.data());
        gemv(m[5], xb.data(), hb2.data());
        for (int i = 0; i < hidden; ++i) {
            const float g = hb[size_t(i)];
            hb[size_t(i)] = g / (1.0f + std::exp(-g)) * hb2[size_t(i)];
        }
        gemv(m[6], hb.data(), xb2.data());
        for (int i = 0; i < dim; ++i)
            x[size_t(i)] += xb2[size_t(i)];
    }
    kernels::rmsNormRow(x.data(), m_weights.outputNorm, xb.data(), dim, c.rmsNormEps);
    gemv(m_matrices[size_t(m_outputMatrix)], xb.data(), m_logits.data());
    return Ok{};
}

} // namespace ws
