#include "engine/wafer/dataflow/layerwork.h"

#include <array>
#include <cmath>

namespace ws {

namespace {
constexpr std::array<std::string_view, size_t(PhaseKind::Count)> kPhaseIds{
    "embedding", "attn_norm",  "qkv_gemv",     "rope",        "attn_scores", "softmax",       "attn_values", "out_proj",
    "ffn_norm",  "moe_router", "moe_dispatch", "ffn_gate_up", "ffn_down",    "moe_combine",   "residual",    "kv_shift",
    "layer_hop", "wafer_hop",  "final_norm",   "lm_head",     "argmax",      "token_feedback"};

double ceilDiv(double a, int b)
{
    return b > 0 ? std::ceil(a / b) : a;
}
} // namespace

std::string_view phaseKindId(PhaseKind kind)
{
    const auto i = size_t(kind);
    return i < kPhaseIds.size() ? kPhaseIds[i] : std::string_view("unknown");
}

LayerDims LayerDims::fromModel(const ModelConfig& m, int layerIndex)
{
    LayerDims d;
    d.hidden = m.hiddenSize;
    d.headCount = std::max(1, m.headCount);
    d.headDim = m.headDim > 0 ? m.headDim : (m.headCount > 0 ? m.hiddenSize / m.headCount : m.hiddenSize);
    d.qDim = d.headCount * d.headDim;
    d.kvDim = std::max(1, m.kvHeadCount > 0 ? m.kvHeadCount : m.headCount) * d.headDim;
    d.ffn = m.ffnSize;
    if (m.isMla()) {
        d.kvLatent = m.kvLoraRank;
        d.ropeDim = m.qkRopeHeadDim;
        d.qLora = m.qLoraRank;
        d.nopeDim = m.qkNopeHeadDim;
        d.vDim = m.vHeadDim;
    }
    if (m.isMoeLayer(layerIndex)) {
        d.expertCount = m.expertCount;
        d.expertsPerToken = std::max(1, m.expertsPerToken);
        d.sharedExperts = m.sharedExpertCount;
        d.expertFfn = m.expertFfnSize > 0 ? m.expertFfnSize : m.ffnSize;
    }
    return d;
}

namespace {
// Multiply-accumulates of MLA's projections per token in the absorbed form: q_a and kv_a from the hidden state
// (or one full-rank q), q_b into every head's nope and RoPE query, the nope query through W_UK into the latent
// (H x nope x latent); after attention W_UV (H x latent x v) and o_proj.
double mlaInMacs(const LayerDims& d)
{
    const double h = d.hidden;
    const double heads = d.headCount;
    const double q = d.qLora > 0 ? h * d.qLora + double(d.qLora) * heads * (d.nopeDim + d.ropeDim)
                                 : h * heads * (d.nopeDim + d.ropeDim);
    return q + h * (d.kvLatent + d.ropeDim) + heads * d.nopeDim * d.kvLatent;
}
double mlaOutMacs(const LayerDims& d)
{
    return double(d.headCount) * d.kvLatent * d.vDim + double(d.headCount) * d.vDim * d.hidden;
}

// The absorbed MLA decode on a region: the latent cache is one KV "head" of kvLatent + ropeDim values per token,
// split along x (like K's width) with the sequence along y; every head's latent query meets every slice, so each
// core computes scores for all heads over its slice and tokens, reduced along x per head.
std::vector<PhaseWork> mlaAttentionWork(const LayerDims& d, int cols, int rows, double t, double ctx, KvPlacement kv)
{
    const double cores = double(std::max(1, cols)) * std::max(1, rows);
    const double heads = d.headCount;
    const double dY = ceilDiv(d.hidden, rows);
    const double ctxY = kv == KvPlacement::Shift ? ceilDiv(ctx, rows) : ctx;
    const double cacheX = ceilDiv(d.kvCacheWidth(), cols);
    const double latentX = ceilDiv(d.kvLatent, cols);
    const double qIn = d.qLora > 0 ? d.qLora : d.hidden;
    // Three chained GEMVs, each closed by an allreduce: [q_a | kv_a], q_b, W_UK absorption.
    const double aX = ceilDiv(double(d.qLora) + d.kvLatent + d.ropeDim, cols);
    const double bX = ceilDiv(heads * (d.nopeDim + d.ropeDim), cols);
    const double ukX = ceilDiv(heads * d.kvLatent, cols);
    const double inPerCore = dY * aX + ceilDiv(qIn, rows) * bX + std::ceil(heads * d.nopeDim * d.kvLatent / cores);
    const double outPerCore = std::ceil(heads * d.kvLatent * d.vDim / cores) + ceilDiv(heads * d.vDim, cols) * dY;

    std::vector<PhaseWork> w;
    w.push_back({PhaseKind::AttnNorm, ReduceAxis::Y, 0, t * dY, 0, t * 1, false});
    w.push_back(
        {PhaseKind::QkvGemv, ReduceAxis::Y, t * inPerCore, 0, t * mlaInMacs(d), t * std::max({aX, bX, ukX}), false, 3});
    w.push_back({PhaseKind::Rope, ReduceAxis::None, 0,
                 t * (ceilDiv(heads * d.ropeDim, cols) + ceilDiv(d.ropeDim, cols)), 0, 0, false});
    w.push_back({PhaseKind::AttnScores, ReduceAxis::X, t * heads * cacheX * ctxY, 0,
                 t * heads * double(d.kvCacheWidth()) * ctx, t * ctxY * heads, false});
    w.push_back({PhaseKind::Softmax, ReduceAxis::Y, 0, t * 2 * ctxY * heads, 0, t * heads, false, 2});
    w.push_back({PhaseKind::AttnValues, ReduceAxis::Y, t * heads * latentX * ctxY, 0,
                 t * heads * double(d.kvLatent) * ctx, t * heads * latentX, false});
    w.push_back({PhaseKind::OutProj, ReduceAxis::X, t * outPerCore, 0, t * mlaOutMacs(d),
                 t * std::max(dY, ceilDiv(heads * d.vDim, cols)), false, 2});
    w.push_back({PhaseKind::FfnNorm, ReduceAxis::Y, 0, t * 2 * dY, 0, t * 1, false});
    if (kv == KvPlacement::Shift)
        w.push_back({PhaseKind::KvShift, ReduceAxis::None, 0, 0, 0, t * cacheX, false});
    return w;
}
} // namespace

std::vector<PhaseWork> attentionWork(const LayerDims& d, int cols, int rows, int tokens, int64_t context,
                                     KvPlacement kv)
{
    if (d.isMla())
        return mlaAttentionWork(d, cols, rows, std::max(1, tokens), double(std::max<int64_t>(1, context)), kv);
    const double t = std::max(1, tokens);
    const double ctx = double(std::max<int64_t>(1, context));
    const double dY = ceilDiv(d.hidden, rows);
    const double qX = ceilDiv(d.qDim, cols);
    const double kvX = ceilDiv(d.kvDim, cols);
    // Shift spreads the sequence over every row; concat keeps it in the last row.
    const double ctxY = kv == KvPlacement::Shift ? ceilDiv(ctx, rows) : ctx;
    // Heads whose dims touch one core along x: scores are reduced per head.
    const double headsPerCore = std::max(1.0, qX / std::max(1, d.headDim));

    std::vector<PhaseWork> w;
    w.push_back({PhaseKind::AttnNorm, ReduceAxis::Y, 0, t * dY, 0, t * 1, false});
    w.push_back({PhaseKind::QkvGemv, ReduceAxis::Y, t * dY * (qX + 2 * kvX), 0,
                 t * double(d.hidden) * (d.qDim + 2.0 * d.kvDim), t * (qX + 2 * kvX), false});
    w.push_back({PhaseKind::Rope, ReduceAxis::None, 0, t * (qX + kvX), 0, 0, false});
    w.push_back({PhaseKind::AttnScores, ReduceAxis::X, t * qX * ctxY, 0, t * double(d.qDim) * ctx,
                 t * ctxY * headsPerCore, false});
    w.push_back({PhaseKind::Softmax, ReduceAxis::Y, 0, t * 2 * ctxY * headsPerCore, 0, t * headsPerCore, false, 2});
    w.push_back({PhaseKind::AttnValues, ReduceAxis::Y, t * qX * ctxY, 0, t * double(d.qDim) * ctx, t * qX, false});
    w.push_back({PhaseKind::OutProj, ReduceAxis::X, t * qX * dY, 0, t * double(d.qDim) * d.hidden, t * dY, false});
    w.push_back({PhaseKind::FfnNorm, ReduceAxis::Y, 0, t * 2 * dY, 0, t * 1, false});
    if (kv == KvPlacement::Shift)
        w.push_back({PhaseKind::KvShift, ReduceAxis::None, 0, 0, 0, t * 2 * kvX, false});
    return w;
}

std::vector<PhaseWork> ffnWork(const LayerDims& d, int cols, int rows, int tokens, int expertCols, int expertRows)
{
    const double t = std::max(1, tokens);
    const double dY = ceilDiv(d.hidden, rows);
    std::vector<PhaseWork> w;
    if (!d.isMoe()) {
        const double fX = ceilDiv(d.ffn, cols);
        w.push_back(
            {PhaseKind::FfnGateUp, ReduceAxis::Y, t * 2 * dY * fX, 0, t * 2.0 * d.hidden * d.ffn, t * 2 * fX, false});
        w.push_back(
            {PhaseKind::FfnDown, ReduceAxis::X, t * fX * dY, t * fX, t * double(d.ffn) * d.hidden, t * dY, false});
        w.push_back({PhaseKind::Residual, ReduceAxis::None, 0, t * dY, 0, 0, false});
        return w;
    }
    const double eX = ceilDiv(d.expertCount, cols);
    const int active = d.expertsPerToken + d.sharedExperts;
    w.push_back({PhaseKind::MoeRouter, ReduceAxis::Y, t * dY * eX, t * d.expertCount,
                 t * double(d.hidden) * d.expertCount, t * eX, false});
    w.push_back({PhaseKind::MoeDispatch, ReduceAxis::None, 0, 0, 0, t * dY, false});
    // Each active expert runs on its own rectangle, all in parallel; a token's
    // tokens may pick different experts, so with t tokens an expert sees up to t.
    const double edY = ceilDiv(d.hidden, expertRows);
    const double fX = ceilDiv(d.expertFfn, expertCols);
    w.push_back({PhaseKind::FfnGateUp, ReduceAxis::Y, t * 2 * edY * fX, 0, t * active * 2.0 * d.hidden * d.expertFfn,
                 t * 2 * fX, true});
    w.push_back({PhaseKind::FfnDown, ReduceAxis::X, t * fX * edY, t * fX, t * active * double(d.expertFfn) * d.hidden,
                 t * edY, true});
    w.push_back({PhaseKind::MoeCombine, ReduceAxis::None, 0, t * active * dY, 0, t * dY, false});
    w.push_back({PhaseKind::Residual, ReduceAxis::None, 0, t * dY, 0, 0, false});
    return w;
}

std::vector<PhaseWork> slicedExpertWork(const LayerDims& d, int cols, int rows, int tokens)
{
    const double t = std::max(1, tokens);
    const double dY = ceilDiv(d.hidden, rows);
    const double eX = ceilDiv(d.expertCount, cols);
    const int active = d.expertsPerToken + d.sharedExperts;
    // Rows of one expert's FFN on a core; a token's active experts each add theirs.
    const double fX = ceilDiv(d.expertFfn, cols);
    std::vector<PhaseWork> w;
    w.push_back({PhaseKind::MoeRouter, ReduceAxis::Y, t * dY * eX, t * d.expertCount,
                 t * double(d.hidden) * d.expertCount, t * eX, false});
    // Each column keeps its best experts; a (score, index) all-reduce along x leaves the token's top k on every core.
    w.push_back(
        {PhaseKind::MoeDispatch, ReduceAxis::X, 0, t * eX * d.expertsPerToken, 0, t * 2.0 * d.expertsPerToken, false});
    w.push_back({PhaseKind::FfnGateUp, ReduceAxis::Y, t * active * 2 * dY * fX, 0,
                 t * active * 2.0 * d.hidden * d.expertFfn, t * active * 2 * fX, false});
    // SiLU(gate) x up and the gate weight on each expert's rows, then the down projection summed over experts.
    w.push_back({PhaseKind::FfnDown, ReduceAxis::X, t * active * fX * dY, t * active * 2 * fX,
                 t * active * double(d.expertFfn) * d.hidden, t * dY, false});
    w.push_back({PhaseKind::Residual, ReduceAxis::None, 0, t * dY, 0, 0, false});
    return w;
}

double layerMacsPerToken(const LayerDims& d, int64_t context)
{
    const double h = d.hidden;
    const double ctx = double(std::max<int64_t>(1, context));
    double macs =
        d.isMla() ? mlaInMacs(d) + mlaOutMacs(d) + double(d.headCount) * (double(d.kvCacheWidth()) + d.kvLatent) * ctx
                  : h * (d.qDim + 2.0 * d.kvDim) + double(d.qDim) * h + 2.0 * d.qDim * ctx;
    if (d.isMoe())
        macs += h * d.expertCount + 3.0 * h * d.expertFfn * (d.expertsPerToken + d.sharedExperts);
    else
        macs += 3.0 * h * d.ffn;
    return macs;
}

} // namespace ws
