#pragma once
// Values mode of the mesh engine: a loaded model's decode steps computed with
// the real weights and activations and timed on the mesh. The numbers come
// from the tiled executor (engine/wafer/tiledexecutor.h): every GEMV as the
// placement's per-core tiles, the partial sums reduced core by core, and
// everything between the GEMVs the decoder's own blocks (norm, RoPE,
// attention over the KV cache, SwiGLU). The time comes from the mesh engine
// (meshengine.h) over the same placement, with the step's real context (its
// position + 1). The dense decoder runs alongside on its own run state, so
// each step reports how far the engine's logits are from the dense ones and
// both greedy ids. Meant for models the CPU can run (the test models, small
// Qwen3 and Llama files); dense models only.

#include "engine/core/error.h"
#include "engine/decode/decodemodel.h"
#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/wafer/mesh/meshengine.h"
#include "engine/wafer/tiledexecutor.h"

#include <functional>
#include <memory>
#include <vector>

namespace ws {

struct MeshValuesStep
{
    TokenId token = 0;
    int position = 0;
    MeshRun run;
    float maxLogitDifference = 0;     // max |engine - dense| over the vocabulary
    float maxAbsLogit = 0;            // max |dense logit|
    TokenId engineId = 0;             // greedy pick from the engine's logits
    TokenId denseId = 0;              // greedy pick from the dense decoder's
    std::vector<MeshCoreValue> cores; // every core that holds a weight tile, for this token only
};

class MeshValues
{
public:
    // `model` must outlive this object.
    static Expected<MeshValues> create(const Placement& placement, const DecodeModel& model, const MeshParams& params,
                                       int contextLength);

    // One decode step: `token` at `position` (positions fed in order from 0).
    Expected<MeshValuesStep> step(TokenId token, int position);
    // Decodes from position 0: the prompt's tokens, then the engine's own greedy picks, `generate` of them
    // (at least one step per prompt token). onStep sees each step in turn; returns the last one.
    Expected<MeshValuesStep> decode(const std::vector<TokenId>& prompt, int generate,
                                    const std::function<void(const MeshValuesStep&)>& onStep = {});
    // Time only this layer's phases on the mesh (-1: the whole token); the values are always the whole step's.
    void setTimedLayer(int layer) { m_layer = layer; }
    const std::vector<float>& logits() const { return m_tiled->logits(); }
    const std::vector<float>& denseLogits() const { return m_dense->logits; }
    const TiledExecutor& tiled() const { return *m_tiled; }

private:
    MeshValues() = default;

    const Placement* m_placement = nullptr;
    const DecodeModel* m_model = nullptr;
    MeshParams m_params;
    int m_layer = -1;
    std::unique_ptr<TiledExecutor> m_tiled;
    std::unique_ptr<RunState> m_dense;
    std::unique_ptr<ThreadPool> m_pool;
};

// Greedy id (first maximum) of a logit vector.
TokenId greedyId(const std::vector<float>& logits);

} // namespace ws
