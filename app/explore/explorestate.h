#pragma once
// What the Layout dock and the hand edits compute, off the GUI thread: a
// layout's placement, its heatmap snapshot and its prediction. A dock change
// lets the engine's placer choose a layout for the settings (strategy, fill,
// layer order, context, precision per tensor group, where a MoE model's
// experts sit); a hand edit places the
// edited layout exactly (layoutedit.h applyLayout: conservation checked) and
// patches the previous snapshot (updateMeshSnapshot: only the edited regions'
// cores), so an edit of a 4-wafer layout stays interactive. Both end in the
// same ExploreState the window shows. Plain values in, plain values out.

#include "app/common/placementresult.h"
#include "engine/predict/prediction.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/placement/layout.h"

#include <memory>
#include <string>
#include <vector>

namespace ws {

// What decides a placement besides the layout's regions, and what the prediction is asked for.
struct LayoutChoice
{
    Layout layout;
    KvPlacement kv = KvPlacement::Shift;
    int wafers = 0; // wafers the prediction uses; 0: the fewest that hold the model
    bool operator==(const LayoutChoice&) const = default;
};

// The Layout dock's settings (what the placer chooses a layout from).
struct LayoutSettings
{
    PlacementStrategy strategy = PlacementStrategy::Pipelined;
    ExpertLayout experts = ExpertLayout::Blocks; // MoE models
    double weightFill = 0.8;
    int wafers = 0;
    LayerOrder order = LayerOrder::Snake;
    KvPlacement kv = KvPlacement::Shift;
    int64_t contextTokens = 8192;
    GroupPrecisions precisions;
    bool operator==(const LayoutSettings&) const = default;
};

LayoutSettings settingsOf(const LayoutChoice& choice);

struct ExploreState
{
    LayoutChoice choice;
    std::shared_ptr<const PlacementResult> result; // what the window shows (snapshot, scene, totals)
    std::vector<RegionOverflow> overCapacity;      // regions over a core's SRAM (drawn in the warning colour)
    bool predicted = false;
    Prediction prediction;       // when predicted
    std::string predictionError; // else why not (e.g. a region over SRAM)
    const Placement& placement() const { return *result->scene->placement; }
};

// The placer's layout for `settings` (model, hardware and defects from `base`), placed, snapshotted and
// predicted.
Expected<ExploreState> exploreSettings(const ScenarioSpec& base, const LayoutSettings& settings);
// The window's own placement (`result`, whose layout `choice` holds) with its over-capacity regions and prediction.
ExploreState exploreResult(std::shared_ptr<const PlacementResult> result, const LayoutChoice& choice);
// `choice` placed exactly, its snapshot patched from `previous`'s (into `spare`'s buffers when given: a snapshot
// of the same mesh that nothing shows any more), and predicted.
Expected<ExploreState> exploreChoice(const ExploreState& previous, const LayoutChoice& choice,
                                     std::shared_ptr<MeshSnapshot> spare = nullptr);

} // namespace ws
