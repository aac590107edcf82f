#include "engine/model/modelshape.h"

#include "engine/core/sumof.h"

#include <algorithm>

namespace ws {

const char* tensorKindId(TensorKind kind)
{
    switch (kind) {
    case TensorKind::TokenEmbedding:
        return "token_embd";
    case TensorKind::Output:
        return "output";
    case TensorKind::AttnQ:
        return "attn_q";
    case TensorKind::AttnK:
        return "attn_k";
    case TensorKind::AttnV:
        return "attn_v";
    case TensorKind::AttnO:
        return "attn_output";
    case TensorKind::FfnGate:
        return "ffn_gate";
    case TensorKind::FfnUp:
        return "ffn_up";
    case TensorKind::FfnDown:
        return "ffn_down";
    case TensorKind::ExpertGate:
        return "ffn_gate_exps";
    case TensorKind::ExpertUp:
        return "ffn_up_exps";
    case TensorKind::ExpertDown:
        return "ffn_down_exps";
    case TensorKind::SharedGate:
        return "ffn_gate_shexp";
    case TensorKind::SharedUp:
        return "ffn_up_shexp";
    case TensorKind::SharedDown:
        return "ffn_down_shexp";
    case TensorKind::Router:
        return "ffn_gate_inp";
    case TensorKind::Norm:
        return "norm";
    case TensorKind::Bias:
        return "bias";
    case TensorKind::Count:
        break;
    }
    return "?";
}

int64_t TensorShape::bytes(Precision p) const
{
    if (isVector())
        return cols * count * vectorBytesPerValue(p);
    const PrecisionBlock b = precisionBlock(p);
    const int64_t blocksPerRow = (cols + b.values - 1) / b.values;
    return rows * blocksPerRow * b.bytes * count;
}

ModelShape::ModelShape(const ModelConfig& config) : m_config(config)
{
    const ModelConfig& c = m_config;
    const int64_t d = c.hiddenSize;
    auto add = [this](TensorKind kind, int layer, int64_t rows, int64_t cols, int64_t count = 1, int64_t active = -1) {
        TensorShape t;
        t.kind = kind;
        t.layer = layer;
        t.rows = rows;
        t.cols = cols;
        t.count = count;
        t.activeCount = active < 0 ? count : active;
        m_tensors.push_back(t);
    };
    auto vec = [&](TensorKind kind, int layer, int64_t length, int64_t count = 1, int64_t active = -1) {
        add(kind, layer, 1, length, count, active);
    };

    add(TensorKind::TokenEmbedding, -1, c.vocabSize, d);
    for (int l = 0; l < c.layers; ++l) {
        m_layerBegin.push_back(int(m_tensors.size()));
        vec(TensorKind::Norm, l, d * c.normsPerLayer);
        if (c.isMla()) {
            // Multi-head latent attention as released (DeepSeek-V3 config.json, modeling_deepseek.py): q_a_proj
            // and q_b_proj (or one q_proj), kv_a_proj_with_mqa (latent + shared RoPE key) as attn_k, kv_b_proj
            // (every head's K-nope and V up-projection from the latent) as attn_v, o_proj; q_a and kv_a norms.
            if (c.qLoraRank > 0) {
                add(TensorKind::AttnQ, l, c.qLoraRank, d);
                add(TensorKind::AttnQ, l, c.qDim(), c.qLoraRank);
            } else {
                add(TensorKind::AttnQ, l, c.qDim(), d);
            }
            add(TensorKind::AttnK, l, int64_t(c.kvLoraRank) + c.qkRopeHeadDim, d);
            add(TensorKind::AttnV, l, int64_t(c.headCount) * (c.qkNopeHeadDim + c.vHeadDim), c.kvLoraRank);
            vec(TensorKind::Norm, l, int64_t(c.qLoraRank) + c.kvLoraRank);
            add(TensorKind::AttnO, l, d, c.mlaValueDim());
        } else {
            add(TensorKind::AttnQ, l, c.qDim(), d);
            add(TensorKind::AttnK, l, c.kvDim(), d);
            add(TensorKind::AttnV, l, c.kvDim(), d);
            if (c.attentionBias)
                vec(TensorKind::Bias, l, c.qDim() + 2 * c.kvDim());
            if (c.qkNorm)
                vec(TensorKind::Norm, l, 2 * int64_t(c.headDim));
            add(TensorKind::AttnO, l, d, c.qDim());
        }
        if (c.attentionOutputBias)
            vec(TensorKind::Bias, l, d);
        if (c.attentionSinks)
            vec(TensorKind::Bias, l, c.headCount);
        if (c.isMoeLayer(l)) {
            const int64_t e = c.expertCount;
            const int64_t k = c.expertsPerToken;
            const int64_t f = c.expertFfnSize;
            add(TensorKind::Router, l, e, d);
            if (c.routerBias)
                vec(TensorKind::Bias, l, e);
            add(TensorKind::ExpertGate, l, f, d, e, k);
            add(TensorKind::ExpertUp, l, f, d, e, k);
            add(TensorKind::ExpertDown, l, d, f, e, k);
            if (c.expertBias)
                vec(TensorKind::Bias, l, 2 * f + d, e, k);
            if (c.sharedExpertCount > 0) {
                const int64_t sf = int64_t(c.sharedFfn()) * c.sharedExpertCount;
                add(TensorKind::SharedGate, l, sf, d);
                add(TensorKind::SharedUp, l, sf, d);
                add(TensorKind::SharedDown, l, d, sf);
            }
        } else {
            add(TensorKind::FfnGate, l, c.ffnSize, d);
            add(TensorKind::FfnUp, l, c.ffnSize, d);
            add(TensorKind::FfnDown, l, d, c.ffnSize);
        }
    }
    m_layerBegin.push_back(int(m_tensors.size()));
    vec(TensorKind::Norm, -1, d); // final norm
    if (!c.tiedEmbeddings)
        add(TensorKind::Output, -1, c.vocabSize, d);
}

std::vector<const TensorShape*> ModelShape::layerTensors(int layer) const
{
    std::vector<const TensorShape*> out;
    if (layer < 0) {
        for (const auto& t : m_tensors)
            if (t.layer < 0)
                out.push_back(&t);
        return out;
    }
    if (layer >= m_config.layers)
        return out;
    for (int i = m_layerBegin[size_t(layer)]; i < m_layerBegin[size_t(layer) + 1]; ++i)
        out.push_back(&m_tensors[size_t(i)]);
    return out;
}

int64_t ModelShape::totalParameters() const
{
    return sumOf(m_tensors, &TensorShape::parameters);
}

int64_t ModelShape::activeParameters() const
{
    int64_t n = 0;
    for (const auto& t : m_tensors)
        n += t.rows * t.cols * t.activeCount;
    return n;
}

int64_t ModelShape::embeddingParameters() const
{
    return int64_t(m_config.vocabSize) * m_config.hiddenSize;
}

int64_t ModelShape::totalBytes(Precision p) const
{
    int64_t n = 0;
    for (const auto& t : m_tensors)
        n += t.bytes(p);
    return n;
}

int64_t ModelShape::layerBytes(int layer, Precision p) const
{
    int64_t n = 0;
    for (const TensorShape* t : layerTensors(layer))
        n += t->bytes(p);
    return n;
}

int64_t ModelShape::globalBytes(Precision p) const
{
    return layerBytes(-1, p);
}

int64_t ModelShape::bytesByKind(TensorKind kind, Precision p) const
{
    int64_t n = 0;
    for (const auto& t : m_tensors)
        if (t.kind == kind)
            n += t.bytes(p);
    return n;
}

int64_t ModelShape::bytesReadPerToken(Precision p) const
{
    int64_t n = 0;
    for (const auto& t : m_tensors) {
        if (t.kind == TensorKind::TokenEmbedding) {
            // Tied: the table is read whole as the LM head; untied: one row is looked up.
            n += m_config.tiedEmbeddings ? t.bytes(p) : t.bytes(p) / t.rows;
            continue;
        }
        n += t.bytes(p) / t.count * t.activeCount;
    }
    return n;
}

int64_t ModelShape::mtpParameters() const
{
    if (m_config.mtpLayers <= 0 || m_config.layers <= 0)
        return 0;
    // One more decoder layer shaped like the last, eh_proj (2d -> d) and its norms (enorm, hnorm, the head's
    // norm); the embedding and the LM head are shared with the model.
    int64_t layer = 0;
    for (const TensorShape* t : layerTensors(m_config.layers - 1))
        layer += t->parameters();
    const int64_t d = m_config.hiddenSize;
    return m_config.mtpLayers * (layer + 2 * d * d + 3 * d);
}

int64_t ModelShape::kvBytesPerToken(int bytesPerValue) const
{
    return int64_t(m_config.layers) * m_config.kvValuesPerTokenPerLayer() * bytesPerValue;
}

int64_t ModelShape::layerKvBytes(int layer, int64_t context, int bytesPerValue) const
{
    return m_config.kvTokens(layer, context) * m_config.kvValuesPerTokenPerLayer() * bytesPerValue;
}

int64_t ModelShape::kvBytes(int64_t context, int bytesPerValue) const
{
    int64_t n = 0;
    for (int l = 0; l < m_config.layers; ++l)
        n += layerKvBytes(l, context, bytesPerValue);
    return n;
}

double ModelShape::mlaAttentionFlops(int64_t context) const
{
    const ModelConfig& c = m_config;
    if (!c.isMla())
        return 0;
    const double perCached = double(c.headCount) * (2.0 * c.kvLoraRank + c.qkRopeHeadDim); // scores + values
    double tokens = 0;
    for (int l = 0; l < c.layers; ++l)
        tokens += double(c.kvTokens(l, std::max<int64_t>(1, context)));
    return 2.0 * perCached * tokens;
}

} // namespace ws
