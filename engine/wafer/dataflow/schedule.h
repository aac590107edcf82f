#pragma once
// The per-token dataflow schedule of decode on a placement: for one token
// (or a micro-batch of tokens processed together), the ordered phases of every
// layer on its region of cores (WaferLLM's decode_struct order: RMSNorm, QKV
// GEMV + allreduce along y, RoPE, scores + allreduce along x, softmax, scores.V,
// output projection, RMSNorm, FFN gate/up, down, residual), the hops between
// layer regions and between wafers, the LM head, argmax and the token fed back
// to the embedding. Each phase has start and end cycles, the rectangle of cores
// it uses, its reduction axis, and whether its cores compute or only forward.
// Times come from TimingModel's closed forms; phases are sorted by start.

#include "engine/model/modelconfig.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/dataflow/timingmodel.h"
#include "engine/wafer/placement/regioncut.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ws {

inline double centreX(const CoreRect& r)
{
    return r.x + r.width / 2.0;
}
inline double centreY(const CoreRect& r)
{
    return r.y + r.height / 2.0;
}

struct RegionRef
{
    int device = 0;
    CoreRect rect;
};

// Where things sit, from the placement: one region per transformer layer, and
// the embedding and LM head regions (the same region for tied embeddings).
// Rectangles are in mesh (fabric) coordinates, the indices of MeshSnapshot.
struct ScheduleRegions
{
    int meshCols = 0;
    int meshRows = 0;
    int deviceCount = 1;
    RegionRef embedding;
    std::vector<RegionRef> layers;
    std::vector<std::vector<RegionRef>> expertRegions; // per layer, per expert (empty: tiles of the layer region)
    RegionRef lmHead;
    int64_t lmHeadVocabRows = 0; // vocabulary rows the LM head region computes (0: the whole vocabulary)
};

struct ScheduleOptions
{
    int tokens = 1;         // tokens processed together per region visit (micro-batch, speculative verify)
    int64_t context = 4096; // cached tokens each token attends over
    KvPlacement kv = KvPlacement::Shift;
    uint64_t tokenIndex = 0; // picks the active experts of MoE layers (deterministic)
    // The experts the token really routed to, per layer (the decoder's router, ExpertRouting); a layer
    // without a valid entry uses activeExperts(tokenIndex, ...).
    std::vector<std::vector<int>> routedExperts;
    bool layersOnly = false; // WaferLLM's kernel measurement: layers only, no hops, no embedding or LM head
    bool timingOnly = false; // totals only: no phase list, identical layers timed once (predictions, sweeps)
};

struct Phase
{
    PhaseKind kind = PhaseKind::AttnNorm;
    int layer = -1; // -1: embedding, LM head, feedback
    int device = 0;
    CoreRect rect; // cores that compute (or, for hops, the band they forward through)
    ReduceAxis axis = ReduceAxis::None;
    bool computes = true;    // false: the cores only forward (router busy, compute idle)
    bool concurrent = false; // runs alongside the previous phase (another active expert)
    double startCycle = 0;
    double computeEndCycle = 0; // end of the local multiply-accumulate / element-wise part
    double endCycle = 0;
    double macsPerCore = 0;
    double totalMacs = 0;
    int reductions = 0;
    AllreduceTiming reduce; // one allreduce (there are `reductions` in sequence)
    int toDevice = 0;       // hops: destination
    CoreRect toRect;
    double durationCycles() const { return endCycle - startCycle; }
};

struct TokenSchedule
{
    std::vector<Phase> phases; // sorted by startCycle
    double totalCycles = 0;
    double clockHz = 1.1e9;
    std::array<double, size_t(PhaseKind::Count)> cyclesByKind{}; // sequential time per kind, sums to totalCycles
    std::array<double, size_t(PhaseKind::Count)> macsByKind{};
    double computeCycles = 0;      // sequential time spent in local compute
    double reduceCycles = 0;       // in allreduces
    double hopCycles = 0;          // in hops between regions and wafers
    double slowestLayerCycles = 0; // the longest layer (without its hop): the pipeline's stage time
    double seconds() const { return totalCycles / clockHz; }
    double totalMacs() const;
};

TokenSchedule buildTokenSchedule(const ModelConfig& model, const ScheduleRegions& layout, const TimingModel& timing,
                                 const ScheduleOptions& options);

// The rectangles of a MoE layer's experts when the placement does not give
// them: `count` tiles of the layer region in a near-square grid.
std::vector<CoreRect> expertTiles(const CoreRect& region, int count);

// Which experts a token activates in a layer (deterministic stand-in for the router).
std::vector<int> activeExperts(uint64_t tokenIndex, int layer, int expertCount, int perToken);

} // namespace ws
