#pragma once
// The tensors of a transformer, with shapes, as a model file would store them:
// per layer the attention projections (q, k, v, o, their biases and q/k
// norms), the FFN (gate, up, down) or, for mixture-of-experts layers, the
// router and all experts stacked (plus shared experts), the norms; globally
// the token embedding, the final norm and the LM head (absent when tied).
//
// A matrix has `rows` outputs and `cols` inputs; `count` > 1 stacks experts.
// Quantised formats store blocks along a row (see PrecisionBlock), so a
// matrix takes rows * ceil(cols / block) * blockBytes bytes per stacked unit.
// Parameters are counted exactly; "active" parameters count top-k routed
// experts plus shared ones, as published model cards do.

#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ws {

enum class TensorKind : uint8_t
{
    TokenEmbedding,
    Output, // LM head
    AttnQ,
    AttnK,
    AttnV,
    AttnO,
    FfnGate,
    FfnUp,
    FfnDown,
    ExpertGate, // all routed experts, stacked
    ExpertUp,
    ExpertDown,
    SharedGate,
    SharedUp,
    SharedDown,
    Router,
    Norm, // RMSNorm weight vectors (incl. q/k norm)
    Bias, // biases and attention sinks
    Count
};
constexpr int kTensorKindCount = int(TensorKind::Count);

const char* tensorKindId(TensorKind kind); // "attn_q", "ffn_down_exps", "token_embd", ...

struct TensorShape
{
    TensorKind kind = TensorKind::AttnQ;
    int layer = -1;          // -1 for global tensors
    int64_t rows = 1;        // outputs (1 for vectors)
    int64_t cols = 0;        // inputs, or the vector length
    int64_t count = 1;       // stacked experts
    int64_t activeCount = 1; // of `count`, how many a token uses (top-k)
    bool isVector() const { return rows == 1 && kind != TensorKind::Output && kind != TensorKind::TokenEmbedding; }
    int64_t parameters() const { return rows * cols * count; }
    int64_t bytes(Precision p) const;
};

class ModelShape
{
public:
    explicit ModelShape(const ModelConfig& config);

    const ModelConfig& config() const { return m_config; }
    const std::vector<TensorShape>& tensors() const { return m_tensors; }
    // Tensors of one layer (indices into tensors()); layer -1 gives the global tensors.
    std::vector<const TensorShape*> layerTensors(int layer) const;

    int64_t totalParameters() const;
    int64_t activeParameters() const;    // per token, incl. embedding and LM head
    int64_t embeddingParameters() const; // the token table (once, even when tied)
    int64_t totalBytes(Precision p) const;
    int64_t layerBytes(int layer, Precision p) const;
    int64_t globalBytes(Precision p) const; // embedding, final norm, LM head
    int64_t bytesByKind(TensorKind kind, Precision p) const;
    // Weight bytes a decode step reads: every active weight once; the token
    // table contributes one row (the lookup) unless it is also the LM head.
    int64_t bytesReadPerToken(Precision p) const;

    // Parameters of the multi-token prediction modules (ModelConfig::mtpLayers), not in tensors().
    int64_t mtpParameters() const;

    // KV cache bytes for one token over all layers, every layer attending to
    // the full context (the bound the facts table quotes). With multi-head
    // latent attention a layer keeps kvLoraRank + qkRopeHeadDim values per
    // token (DeepSeek-V3: 512 + 64), not K and V per head.
    int64_t kvBytesPerToken(int bytesPerValue) const;
    // KV bytes of one layer for a context, honouring sliding windows.
    int64_t layerKvBytes(int layer, int64_t context, int bytesPerValue) const;
    int64_t kvBytes(int64_t context, int bytesPerValue) const;
    // FLOPs per decoded token of multi-head latent attention over `context` cached tokens, absorbed form:
    // every head scores its latent query against the latent and RoPE key (kvLoraRank + qkRopeHeadDim MACs per
    // cached token) and sums the latents (kvLoraRank), 2 FLOPs per MAC; sliding windows honoured. 0 for
    // ordinary attention, whose 2 x qDim MACs per cached token ride on its KV read and are not counted by the
    // GPU and LPU models (their profiles were fitted without them). MLA's are 128 heads x 1,088 MACs per cached
    // token per layer for DeepSeek-V3: about 240 FLOPs per byte of a 16-bit cache, near a GPU's ridge point.
    double mlaAttentionFlops(int64_t context) const;

private:
    ModelConfig m_config;
    std::vector<TensorShape> m_tensors;
    std::vector<int> m_layerBegin; // m_tensors index of each layer's first tensor; size layers + 1
};

} // namespace ws
