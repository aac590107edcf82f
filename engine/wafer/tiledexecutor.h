#pragma once
// Runs a decode step the way a placement lays it out on the wafer: every
// weight-matrix GEMV is computed per core over the core's tile (its output
// rows x input columns, as Placement::coreDetail() reports them), and the
// partial sums of the cores that share output rows are reduced along the input
// axis core by core in column order: each core continues the running sums it
// receives from its neighbour, in the dense F32 kernel's own accumulation
// order (8 or 32 FMA lanes, kernels.h), so the reduced sums are bit-identical
// to the dense product for F32 weights. (A binary tree of per-core float sums
// differed from the dense logits by up to 5.7e-6, double sums by 4.8e-6, on
// stories260K.) Everything between the GEMVs is the decode engine's own
// forward pass (decode/forward.h: its blocks for RMSNorm, RoPE, attention over
// the KV cache, SwiGLU and residuals, and its run state); only the matrix
// products differ.
//
// Building the executor checks that the placement covers every element of
// every weight matrix exactly once (and nothing outside it) and that tiles
// sharing output rows share the same row span; otherwise it is an error. So
// matching logits with the dense forward pass shows that the placement places
// every weight once and that every partial sum is reduced. For quantised, F16
// and BF16 weights the activation is first rounded through the dense kernel's
// dot-product type, as the dense kernel converts it, and the tiles' sums agree
// with the dense ones to float rounding (not bit for bit). The matrices are
// dequantised to fp32 once, so this is meant for models small enough to run
// on the CPU (the test models).

#include "engine/core/error.h"
#include "engine/decode/forward.h"
#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/decode/transformerconfig.h"
#include "engine/decode/weights.h"
#include "engine/model/modelshape.h"
#include "engine/tokenizer/tokenid.h"
#include "engine/wafer/placement/placement.h"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ws {

// A core that holds at least one weight tile, with the magnitude of its
// partial products over the steps run so far (sum of |partial|) and their
// signed sum.
struct TiledCore
{
    int device = 0;
    int usableX = 0;
    int usableY = 0;
    int tiles = 0;
    double partialMagnitude = 0.0;
    double partialSum = 0.0;
};

class TiledExecutor : private Projection
{
public:
    // Fails when the placement and the weights disagree (shapes, a missing
    // matrix, an element covered twice or not at all).
    static Expected<TiledExecutor> create(const Placement& placement, const TransformerConfig& config,
                                          const TransformerWeights& weights, int contextLength);

    // One decode step: `token` at position `pos` (positions fed in order from 0).
    Status step(TokenId token, int pos);
    const std::vector<float>& logits() const { return m_state->logits; }

    const std::vector<TiledCore>& cores() const { return m_cores; }
    int tileCount() const;
    // Cores holding tiles of one matrix (layer -1: the tables); 0 when the model has no such matrix.
    int matrixCores(TensorKind kind, int layer) const;

private:
    struct Tile
    {
        int core = 0; // index into m_cores
        int64_t rowBegin = 0, rowEnd = 0, colBegin = 0, colEnd = 0;
    };
    struct RowGroup
    {
        int64_t rowBegin = 0, rowEnd = 0;
        std::vector<Tile> tiles; // sorted by colBegin: the reduction order
    };
    struct Matrix
    {
        TensorKind kind = TensorKind::AttnQ;
        int layer = -1;
        int64_t rows = 0, cols = 0;
        std::vector<float> values; // rows x cols, fp32
        std::vector<RowGroup> groups;
        int cores = 0;
    };

    TiledExecutor() = default;
    Matrix* find(TensorKind kind, int layer);
    void gemv(Matrix& m, const float* x, float* y, bool laneOrder); // laneOrder: decode/matmul.h
    // The forward pass's matrix products, as tiles.
    void project(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState& state,
                 ThreadPool& pool) override;

    TransformerConfig m_config;
    TransformerWeights m_weights;
    std::vector<Matrix> m_matrices;
    std::map<const uint8_t*, size_t> m_matrixOf; // a weight matrix's stored rows -> its index in m_matrices
    std::vector<TiledCore> m_cores;
    std::vector<float> m_input;        // one activation row as the dense kernel sees it (converted to its dot type)
    std::unique_ptr<RunState> m_state; // the decoder's KV cache and activations, one token per step
    std::unique_ptr<ThreadPool> m_pool;
};

} // namespace ws
