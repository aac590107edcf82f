#include "engine/wafer/tiledexecutor.h"

#include "engine/core/sumof.h"
#include "engine/decode/kernels.h"
#include "engine/decode/matmul.h"

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

// The running sums of one output row in the dense F32 kernel's order (kernels.h), fed column by column
// in ascending order. Lane order: 8 FMA lanes (column c in lane c % 8) reduced as hsum8. ggml order:
// 32 FMA lanes (c % 32) up to the last whole step of 32, reduced as GGML_F32x8_REDUCE, then the rest
// added one rounded product at a time, the last cols % 4 fused. (This file is built with
// -ffp-contract=off, so every rounding is the one written.)
class DenseOrderSum
{
public:
    DenseOrderSum(int cols, bool lanes)
        : m_lanes(lanes), m_vectorEnd(cols & ~31), m_roundedEnd(m_vectorEnd + (cols - m_vectorEnd) / 4 * 4)
    {
    }

    void add(int c, float w, float x)
    {
        if (m_lanes) {
            m_acc[c & 7] = std::fma(w, x, m_acc[c & 7]);
        } else if (c < m_vectorEnd) {
            m_acc[c & 31] = std::fma(w, x, m_acc[c & 31]);
        } else {
            if (!m_reduced)
                reduce32();
            const float p = w * x;
            m_sum = c < m_roundedEnd ? m_sum + p : std::fma(w, x, m_sum);
        }
    }

    float result()
    {
        if (m_lanes) {
            const float* l = m_acc;
            return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]));
        }
        if (!m_reduced)
            reduce32();
        return m_sum;
    }

private:
    void reduce32()
    {
        float v[8];
        for (int l = 0; l < 8; ++l)
            v[l] = (m_acc[l] + m_acc[16 + l]) + (m_acc[8 + l] + m_acc[24 + l]);
        m_sum = ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
        m_reduced = true;
    }

    bool m_lanes;
    int m_vectorEnd, m_roundedEnd;
    float m_acc[32] = {};
    float m_sum = 0.0f;
    bool m_reduced = false;
};

// The activation as the dense kernel multiplies it: llama.cpp's CPU backend first converts x to the weight's
// dot-product type (decode/matmul.h: F16 for F16, BF16 for BF16, Q8_0, Q8_1 or Q8_K blocks for quantised
// weights). Converting and expanding it back gives the values the dense products see, so the tiles' float
// products differ from the dense integer block sums by float roundings only (the quantised types' sums
// are not in the dense kernel's order, so they agree to about 1e-7 of the row's magnitude, not bit for bit).
void denseInput(GgmlType type, const float* x, int n, std::vector<float>& out)
{
    out.assign(x, x + n);
    switch (type) {
    case GgmlType::F32:
        return;
    case GgmlType::F16:
    case GgmlType::BF16: {
        std::vector<uint16_t> h(static_cast<size_t>(n));
        if (type == GgmlType::F16) {
            kernels::convertRowF16(x, h.data(), n);
            kernels::dequantizeRowF16(h.data(), out.data(), n);
        } else {
            kernels::convertRowBf16(x, h.data(), n);
            kernels::dequantizeRowBf16(h.data(), out.data(), n);
        }
        return;
    }
    case GgmlType::Q8_0:
    case GgmlType::Q4_0:
    case GgmlType::Q5_0:
    case GgmlType::IQ4_NL:
    case GgmlType::MXFP4: {
        std::vector<BlockQ8_0> q(static_cast<size_t>(n / 32));
        kernels::quantizeRowQ8_0(x, q.data(), n);
        kernels::dequantizeRowQ8_0(q.data(), out.data(), n);
        return;
    }
    case GgmlType::Q4_1:
    case GgmlType::Q5_1: {
        std::vector<BlockQ8_1> q(static_cast<size_t>(n / 32));
        kernels::quantizeRowQ8_1(x, q.data(), n);
        for (int i = 0; i < n; ++i)
            out[size_t(i)] = f16ToF32(q[size_t(i / 32)].d) * float(q[size_t(i / 32)].qs[i % 32]);
        return;
    }
    default: { // the K-quants and IQ4_XS
        std::vector<BlockQ8_K> q(static_cast<size_t>(n / 256));
        kernels::quantizeRowQ8_K(x, q.data(), n);
        for (int i = 0; i < n; ++i)
            out[size_t(i)] = q[size_t(i / 256)].d * float(q[size_t(i / 256)].qs[i % 256]);
        return;
    }
    }
}

} // namespace

Expected<TiledExecutor> TiledExecutor::create(const Placement& placement, const TransformerConfig& config,
                                              const TransformerWeights& weights, int contextLength)
{
    if (contextLength <= 0)
        return makeError(ErrorCode::InvalidArgument, "context length must be positive");
    if (config.isMoe())
        return makeError(ErrorCode::Unsupported, "the tiled executor runs dense models only (this one has experts)");
    if (int(weights.layers.size()) != config.layerCount)
        return makeError(ErrorCode::InvalidArgument, "the weights have " + std::to_string(weights.layers.size()) +
                                                         " layers, the configuration " +
                                                         std::to_string(config.layerCount));
    TiledExecutor e;
    e.m_config = config;
    e.m_weights = weights;

    auto addMatrix = [&](TensorKind kind, int layer, const WeightMatrix& w) {
        Matrix m;
        m.kind = kind;
        m.layer = layer;
        m.rows = w.rows;
        m.cols = w.cols;
        m.values.resize(size_t(w.rows) * size_t(w.cols));
        for (int r = 0; r < w.rows; ++r)
            dequantizeMatrixRow(w, r, m.values.data() + size_t(r) * size_t(w.cols));
        e.m_matrixOf[w.data] = e.m_matrices.size();
        e.m_matrices.push_back(std::move(m));
    };
    const TensorKind layerKinds[kLayerMatrices] = {TensorKind::AttnQ,  TensorKind::AttnK,   TensorKind::AttnV,
                                                   TensorKind::AttnO,  TensorKind::FfnGate, TensorKind::FfnUp,
                                                   TensorKind::FfnDown};
    for (int l = 0; l < config.layerCount; ++l) {
        const LayerWeights& L = weights.layers[size_t(l)];
        const WeightMatrix* ms[kLayerMatrices] = {&L.wq, &L.wk, &L.wv, &L.wo, &L.gate, &L.up, &L.down};
        for (int i = 0; i < kLayerMatrices; ++i)
            addMatrix(layerKinds[i], l, *ms[i]);
    }
    addMatrix(TensorKind::TokenEmbedding, -1, weights.tokenEmbedding);
    if (!weights.tiedOutput) // tied: the output is the embedding's matrix
        addMatrix(TensorKind::Output, -1, weights.output);

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
    e.m_state = std::make_unique<RunState>(config, contextLength, 1, 1);
    e.m_pool = std::make_unique<ThreadPool>(1);
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
    return sumOf(m_cores, &TiledCore::tiles);
}

int TiledExecutor::matrixCores(TensorKind kind, int layer) const
{
    for (const Matrix& m : m_matrices)
        if (m.kind == kind && m.layer == layer)
            return m.cores;
    return 0;
}

void TiledExecutor::gemv(Matrix& m, const float* x, float* y, bool laneOrder)
{
    for (const RowGroup& g : m.groups) {
        for (int64_t r = g.rowBegin; r < g.rowEnd; ++r) {
            const float* w = m.values.data() + size_t(r * m.cols);
            DenseOrderSum sum(int(m.cols), laneOrder);
            for (const Tile& t : g.tiles) { // column order: each core continues its neighbour's running sums
                double own = 0.0;
                for (int64_t c = t.colBegin; c < t.colEnd; ++c) {
                    sum.add(int(c), w[c], x[c]);
                    own += double(w[c]) * double(x[c]);
                }
                TiledCore& core = m_cores[size_t(t.core)];
                core.partialMagnitude += std::fabs(own);
                core.partialSum += own;
            }
            y[r] = sum.result();
        }
    }
}

void TiledExecutor::project(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState&, ThreadPool&)
{
    for (int j = 0; j < jobCount; ++j) {
        Matrix& m = m_matrices[m_matrixOf.at(jobs[j].w->data)];
        const bool lanes = usesLaneOrder(*jobs[j].w, tokens);
        for (int t = 0; t < tokens; ++t) {
            denseInput(jobs[j].w->type, x + size_t(t) * size_t(m.cols), int(m.cols), m_input);
            gemv(m, m_input.data(), jobs[j].out + size_t(t) * size_t(m.rows), lanes);
        }
    }
}

Status TiledExecutor::step(TokenId token, int pos)
{
    return forward(m_config, m_weights, *m_state, *m_pool, {&token, 1}, pos, *this);
}

} // namespace ws
