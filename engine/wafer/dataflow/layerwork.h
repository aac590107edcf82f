#pragma once
// What one transformer layer does per decoded token on a rectangle of cores,
// following the WaferLLM decode kernel (decode.csl): the hidden dimension is
// split along y and replicated along x; every GEMV is a local multiply-
// accumulate on a 2-D weight tile followed by an allreduce whose axis
// alternates (7 along y, 3 along x), so no transpose is ever needed. The KV
// cache tile holds a slice of the KV width along x and of the sequence along y.
// This file counts, per phase, the multiply-accumulates and element-wise ops
// on the busiest core, the exact total over the region, and the allreduce
// payload. Timing is applied by the schedule (schedule.h).

#include "engine/model/modelconfig.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ws {

enum class PhaseKind : uint8_t
{
    Embedding,     // token id -> embedding row, sent into layer 0's region
    AttnNorm,      // RMSNorm before attention (sum of squares, allreduce of one value)
    QkvGemv,       // Q, K and V projections, one fused allreduce
    Rope,          // rotary embedding, element-wise
    AttnScores,    // q . K-cache
    Softmax,       // max and sum allreduces, exp
    AttnValues,    // scores . V-cache
    OutProj,       // output projection
    FfnNorm,       // residual add and RMSNorm before the FFN
    MoeRouter,     // router GEMV and top-k
    MoeDispatch,   // hidden state to the active experts' regions
    FfnGateUp,     // gate and up projections, fused allreduce
    FfnDown,       // down projection
    MoeCombine,    // expert outputs back to the layer region
    Residual,      // residual add
    KvShift,       // shift-based KV cache: rows pass their oldest slice up
    LayerHop,      // hidden state to the next layer's region
    WaferHop,      // hidden state to the next wafer
    FinalNorm,     // RMSNorm after the last layer
    LmHead,        // vocabulary GEMV
    Argmax,        // (value, index) reduction to the winning token
    TokenFeedback, // the token id back to the embedding region
    Count
};

enum class ReduceAxis : uint8_t
{
    None,
    X,
    Y
}; // X: the reduction line runs along a row; Y: along a column

std::string_view phaseKindId(PhaseKind kind); // "qkv_gemv", ...

enum class KvPlacement
{
    Shift,
    Concat
};

// Per-layer dimensions, from a ModelConfig or from a benchmark kernel config.
struct LayerDims
{
    int hidden = 0;
    int qDim = 0;  // query heads x head dim
    int kvDim = 0; // KV heads x head dim
    int headCount = 1;
    int headDim = 0;
    int ffn = 0; // dense FFN width
    // MoE (expertCount == 0: dense layer)
    int expertCount = 0;
    int expertsPerToken = 0;
    int sharedExperts = 0;
    int expertFfn = 0;
    // Multi-head latent attention (kvLatent > 0), decoded in the absorbed form: the query is projected into
    // the latent space per head (W_UK folded in), every head attends over the cached latent and RoPE key
    // (MQA-like, one KV "head" of kvLatent + ropeDim values), and W_UV folds into the output.
    int kvLatent = 0; // kv_lora_rank
    int ropeDim = 0;  // qk_rope_head_dim: the shared RoPE key width
    int qLora = 0;    // q_lora_rank (0: one full-rank query projection)
    int nopeDim = 0;  // qk_nope_head_dim
    int vDim = 0;     // v_head_dim

    bool isMoe() const { return expertCount > 0; }
    bool isMla() const { return kvLatent > 0; }
    // Values one token adds to the layer's KV cache: K and V (2 x kvDim) or MLA's latent and RoPE key.
    int kvCacheWidth() const { return isMla() ? kvLatent + ropeDim : 2 * kvDim; }
    static LayerDims fromModel(const ModelConfig& model, int layerIndex);
};

struct PhaseWork
{
    PhaseKind kind = PhaseKind::AttnNorm;
    ReduceAxis axis = ReduceAxis::None; // allreduce axis; None: no reduction
    double macsPerCore = 0;             // busiest core
    double elementOpsPerCore = 0;       // element-wise ops on the busiest core
    double totalMacs = 0;               // exact, over the whole region
    double payloadValues = 0;           // values per core in each allreduce
    bool onExperts = false;             // runs on the active experts' rectangles
    int reductions = 1;                 // allreduces in this phase (softmax: max, then sum)
};

// Work per phase for `tokens` tokens processed together (a micro-batch or a
// speculative verify step), each attending over `context` cached tokens.
// cols x rows is the layer's region; for MoE FFN phases it is one expert's rectangle.
std::vector<PhaseWork> attentionWork(const LayerDims& dims, int cols, int rows, int tokens, int64_t context,
                                     KvPlacement kv);
std::vector<PhaseWork> ffnWork(const LayerDims& dims, int cols, int rows, int tokens, int expertCols, int expertRows);
// A MoE layer's FFN with every expert cut across the whole cols x rows region (ExpertLayout::Sliced): the router,
// the top-k's picks all-reduced along x so that every core knows them, then the active experts (routed and shared)
// as one FFN of their summed width on every core; the gate weights scale each expert's partial sums before the down
// projection's all-reduce, which so combines the experts. No dispatch or combine hop.
std::vector<PhaseWork> slicedExpertWork(const LayerDims& dims, int cols, int rows, int tokens);

// Exact multiply-accumulates of one layer for one token: weight GEMVs plus attention.
double layerMacsPerToken(const LayerDims& dims, int64_t context);

} // namespace ws
