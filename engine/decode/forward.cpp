#include "engine/decode/forward.h"

#include "engine/decode/blocks.h"
#include "engine/decode/moeblock.h"

#include <string>

namespace ws {

namespace {

// The stored matrices, in their own types (matmul.h).
class DenseProjection final : public Projection
{
public:
    void project(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState& state,
                 ThreadPool& pool) override
    {
        matmulShared(jobs, jobCount, x, tokens, state, pool);
    }
};

} // namespace

Status forward(const TransformerConfig& c, const TransformerWeights& w, RunState& s, ThreadPool& pool,
               std::span<const TokenId> tokens, int startPos, const std::atomic<bool>* stop)
{
    DenseProjection dense;
    return forward(c, w, s, pool, tokens, startPos, dense, stop);
}

Status forward(const TransformerConfig& c, const TransformerWeights& w, RunState& s, ThreadPool& pool,
               std::span<const TokenId> tokens, int startPos, Projection& projection, const std::atomic<bool>* stop)
{
    const int n = static_cast<int>(tokens.size());
    if (n == 0)
        return makeError(ErrorCode::InvalidArgument, "no tokens to process");
    if (n > s.maxBatch)
        return makeError(ErrorCode::InvalidArgument,
                         "batch of " + std::to_string(n) + " tokens exceeds " + std::to_string(s.maxBatch));
    if (startPos < 0 || startPos + n > s.contextLength)
        return makeError(ErrorCode::OutOfRange, "position " + std::to_string(startPos + n) +
                                                    " exceeds the context length " + std::to_string(s.contextLength));
    for (TokenId t : tokens)
        if (t < 0 || t >= c.vocabSize)
            return makeError(ErrorCode::InvalidArgument, "token id " + std::to_string(t) +
                                                             " is outside the vocabulary (" +
                                                             std::to_string(c.vocabSize) + ")");
    const int dim = c.dim, qDim = c.qDim(), kvDim = c.kvDim(), hd = c.headDim, hidden = c.hiddenDim;
    const float eps = c.rmsNormEps;
    const size_t residual = size_t(n) * dim;
    s.batchTokens = n;
    blocks::embed(w, tokens, s.x.data(), dim);
    if (c.embeddingScale != 0.0f)
        blocks::scale(s.x.data(), residual, c.embeddingScale);
    blocks::ropeTables(c, w.ropeFreqFactors, n, startPos, s.ropeCos.data(), s.ropeSin.data());
    if (c.slidingRopeTheta > 0.0f)
        blocks::ropeTables(c, w.ropeFreqFactors, n, startPos, s.slidingRopeCos.data(), s.slidingRopeSin.data(), true);

    // The row-wise steps between the matmuls, over the pool: a 512-token prompt's norms and activations on one of
    // two threads took about 4 % of its time while the other waited. Each row is computed as alone (same bits).
    constexpr int kTokenGrain = 16;
    auto rowNorm = [&](const float* x, const float* weight, float* out, int width, int rows) {
        const int grain = kTokenGrain * std::max(1, rows / n); // a token's rows together
        pool.forRanges(rows, grain, [&](int r0, int r1) {
            blocks::rmsNorm(x + size_t(r0) * width, weight, out + size_t(r0) * width, width, r1 - r0, eps);
        });
    };
    auto addResidual = [&] {
        pool.forRanges(n, kTokenGrain, [&](int t0, int t1) {
            blocks::addResidual(s.x.data() + size_t(t0) * dim, s.xb2.data() + size_t(t0) * dim, size_t(t1 - t0) * dim);
        });
    };
    for (int layer = 0; layer < c.layerCount; ++layer) {
        if (stop && stop->load(std::memory_order_relaxed))
            return makeError(ErrorCode::Cancelled, "stopped");
        const LayerWeights& L = w.layers[size_t(layer)];
        rowNorm(s.x.data(), L.attnNorm, s.xb.data(), dim, n);
        const MatmulJob qkv[3] = {{&L.wq, s.q.data()}, {&L.wk, s.k.data()}, {&L.wv, s.v.data()}};
        projection.project(qkv, 3, s.xb.data(), n, s, pool);
        blocks::addBias(s.q.data(), L.bq, qDim, n);
        blocks::addBias(s.k.data(), L.bk, kvDim, n);
        blocks::addBias(s.v.data(), L.bv, kvDim, n);
        if (c.qkNorm) { // per head: (tokens, heads) rows of headDim
            rowNorm(s.q.data(), L.qNorm, s.q.data(), hd, n * c.headCount);
            rowNorm(s.k.data(), L.kNorm, s.k.data(), hd, n * c.kvHeadCount);
        }
        const bool slidingRope = c.slidingRope(layer);
        const float* cosT = slidingRope ? s.slidingRopeCos.data() : s.ropeCos.data();
        const float* sinT = slidingRope ? s.slidingRopeSin.data() : s.ropeSin.data();
        blocks::rope(c, s.q.data(), n, c.headCount, cosT, sinT);
        blocks::rope(c, s.k.data(), n, c.kvHeadCount, cosT, sinT);
        if (c.queryScale != 0.0f)
            blocks::scale(s.q.data(), size_t(n) * qDim, c.queryScale);
        blocks::storeKv(c, s, layer, n, startPos);
        blocks::attention(c, s, pool, layer, n, startPos, L.sinks);
        const MatmulJob wo{&L.wo, s.xb2.data()};
        projection.project(&wo, 1, s.xb.data(), n, s, pool);
        blocks::addBias(s.xb2.data(), L.bo, dim, n);
        if (c.postNorms)
            rowNorm(s.xb2.data(), L.attnPostNorm, s.xb2.data(), dim, n);
        addResidual();

        rowNorm(s.x.data(), L.ffnNorm, s.xb.data(), dim, n);
        if (c.isMoe()) {
            blocks::moeFfn(c, L, s, pool, layer, n, projection);
        } else {
            const MatmulJob gateUp[2] = {{&L.gate, s.hb.data()}, {&L.up, s.hb2.data()}};
            projection.project(gateUp, 2, s.xb.data(), n, s, pool);
            pool.forRanges(n, kTokenGrain, [&](int t0, int t1) {
                const size_t at = size_t(t0) * hidden;
                blocks::gatedActivation(c, s.hb.data() + at, s.hb2.data() + at, hidden, t1 - t0);
            });
            const MatmulJob down{&L.down, s.xb2.data()};
            projection.project(&down, 1, s.hb.data(), n, s, pool);
        }
        if (c.postNorms)
            rowNorm(s.xb2.data(), L.ffnPostNorm, s.xb2.data(), dim, n);
        addResidual();
    }
    blocks::rmsNorm(s.x.data() + size_t(n - 1) * dim, w.outputNorm, s.xb.data(), dim, 1, eps);
    const MatmulJob output{&w.output, s.logits.data()};
    projection.project(&output, 1, s.xb.data(), 1, s, pool);
    if (c.finalLogitSoftcap != 0.0f)
        blocks::softcap(s.logits.data(), c.vocabSize, c.finalLogitSoftcap);
    return Ok{};
}

} // namespace ws
