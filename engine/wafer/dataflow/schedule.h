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
//
// A prefill (ScheduleOptions::promptTokens) is the same pass for a chunk of
// the prompt, repeated for every chunk as a pipeline through the regions:
// chunk k enters a stage (the embedding, then each layer) once it has left
// the stage before and the stage has finished chunk k - 1; the hops between
// are delays, not stages. The first chunk crosses every stage and each further
// one adds the slowest stage. Only the last chunk goes on to the LM head: its
// argmax is the first token. Phases of different chunks overlap in time.

#include "engine/model/modelconfig.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/dataflow/timingmodel.h"
#include "engine/wafer/placement/expertlayout.h"
#include "engine/wafer/placement/regioncut.h"

#include <algorithm>
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
    // Without expertRegions for a layer: its experts cut across the whole region, or in expertTiles' blocks.
    ExpertLayout experts = ExpertLayout::Blocks;
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
    // > 0: a prefill of this many prompt tokens in chunks of `tokens` (the last chunk as full as the others)
    int64_t promptTokens = 0;
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
    int chunk = 0; // a prefill's prompt chunk (0 for a decode token)
    double durationCycles() const { return endCycle - startCycle; }
};

struct TokenSchedule
{
    std::vector<Phase> phases; // sorted by startCycle
    double totalCycles = 0;
    // Cycles per second of the time shown: the wafer's clock, or that over timeStretch.
    double clockHz = 1.1e9;
    // A prefill calibrated to a measured pace (engine/scene prefillScene): its seconds are the timing model's times
    // this, so clockHz is the wafer's clock over it. 1: the timing model's own time.
    double timeStretch = 1;
    // One pass (one token, a micro-batch, a prefill's chunk) through every stage; the sums below add up to it.
    // Equal to totalCycles but for a prefill of several chunks, whose passes overlap.
    double passCycles = 0;
    // A prefill: its prompt tokens, chunks and tokens per chunk, and when the last chunk leaves the last layer
    // (the first token's final norm, LM head and argmax follow). promptTokens 0: a decode token.
    int64_t promptTokens = 0;
    int chunks = 1;
    int chunkTokens = 1;
    double promptEndCycle = 0;
    std::array<double, size_t(PhaseKind::Count)> cyclesByKind{}; // sequential time per kind, sums to passCycles
    std::array<double, size_t(PhaseKind::Count)> macsByKind{};
    double computeCycles = 0;      // sequential time spent in local compute
    double reduceCycles = 0;       // in allreduces
    double hopCycles = 0;          // in hops between regions and wafers
    double slowestLayerCycles = 0; // the longest layer (without its hop): the pipeline's stage time
    // Of passCycles, what the fitted software constants give (cycles per MAC, all-reduce fixed cycles, routing
    // stages), the part a serving stack's kernel factor scales (engine/predict/stackkernel.h): the pass is affine
    // in that factor. Negative where a phase run alongside another (an expert) ended the pass: not tracked.
    double kernelCycles = 0;
    // The pass with its fixed latencies alone, no multiply-accumulates, payload wavelets or link serialisation (the
    // wafer's floor, engine/predict/waferbounds.h waferFloor): its cycles, and of them in all-reduces and in hops.
    double fixedCycles = 0;
    double fixedReduceCycles = 0;
    double fixedHopCycles = 0;
    double seconds() const { return totalCycles / clockHz; }
    bool isPrefill() const { return promptTokens > 0; }
    double totalMacs() const;
};

TokenSchedule buildTokenSchedule(const ModelConfig& model, const ScheduleRegions& layout, const TimingModel& timing,
                                 const ScheduleOptions& options);

// The rectangles of a MoE layer's experts when the placement does not give
// them: `count` tiles of the layer region in a near-square grid.
std::vector<CoreRect> expertTiles(const CoreRect& region, int count);
// That grid: tile(i) is expertTiles' i-th tile, without building the others (a token reads its active ones).
struct ExpertGrid
{
    CoreRect region;
    int cols = 1;
    int rows = 1;
    int width = 1; // of a tile
    int height = 1;
    CoreRect tile(int i) const
    {
        return {region.x + (i % cols) * width, region.y + std::min(i / cols, rows - 1) * height, width, height};
    }
};
ExpertGrid expertGrid(const CoreRect& region, int count);

// Which experts a token activates in a layer (deterministic stand-in for the router).
std::vector<int> activeExperts(uint64_t tokenIndex, int layer, int expertCount, int perToken);

} // namespace ws
