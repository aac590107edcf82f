#include "app/explore/explorestate.h"

#include "engine/predict/predictor.h"
#include "engine/wafer/placement/layoutedit.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"

#include <utility>

namespace ws {

namespace {
void predict(ExploreState& s)
{
    const PlacementResult& r = *s.result;
    // Through predict(), as the CLI, the comparison and the sweep predict (the same serving stack: kernels and
    // speculation), with the scenario's workload (batch, prompt, draft) at this layout's precision and context.
    ScenarioSpec spec = r.spec();
    spec.workload.precision = s.choice.layout.precisions.attention;
    spec.workload.contextTokens = s.choice.layout.contextTokens;
    spec.devices = s.choice.wafers;
    spec.kv = s.choice.kv;
    spec.weightFill = s.choice.layout.weightFill;
    spec.experts = s.choice.layout.experts;
    spec.hopStretch = 1.0;
    PredictOptions o;
    o.wafer.placedLayout = &s.choice.layout; // without copying the layout into the spec
    auto p = ws::predict(spec, o);
    s.predicted = bool(p);
    if (p)
        s.prediction = std::move(*p);
    else
        s.predictionError = p.error().text;
}

// The window's result for a scene built from `scene` with a new placement and snapshot.
std::shared_ptr<const PlacementResult> resultOf(const PlacementResult& like, WaferScene scene)
{
    auto result = std::make_shared<PlacementResult>(like);
    const Placement& p = *scene.placement;
    result->snapshot = scene.snapshot;
    result->devices = p.deviceCount;
    result->layersPerDevice = p.layersPerDevice;
    result->sramUsedBytes = p.sramUsedBytes();
    result->sramTotalBytes = p.sramTotalBytes();
    result->notes = p.notes;
    result->scene = std::make_shared<const WaferScene>(std::move(scene));
    return result;
}
} // namespace

LayoutSettings settingsOf(const LayoutChoice& c)
{
    return {c.layout.strategy,      c.layout.experts,   c.layout.weightFill, c.wafers, c.layout.order, c.kv,
            c.layout.contextTokens, c.layout.precisions};
}

Expected<ExploreState> exploreSettings(const ScenarioSpec& base, const LayoutSettings& settings)
{
    const ModelConfig& model = base.model;
    const HardwareSpec& hardware = base.hardware;
    ScenarioSpec spec = base;
    spec.strategy = settings.strategy;
    spec.experts = settings.experts;
    spec.weightFill = settings.weightFill;
    spec.order = settings.order;
    spec.workload.contextTokens = settings.contextTokens;
    spec.workload.precision = settings.precisions.attention;
    spec.workload.speculative = {}; // a hand layout covers the whole mesh: no draft strip beside it
    PlacementOptions o = placementOptions(spec);
    o.groups = settings.precisions;
    auto placed = placeModel(model, hardware.wafer, o);
    if (!placed)
        return placed.error();
    ExploreState s;
    s.choice.layout = layoutOf(*placed, model.id, hardware.id);
    s.choice.kv = settings.kv;
    s.choice.wafers = settings.wafers;
    spec.layout = s.choice.layout;
    spec.weightFill = s.choice.layout.weightFill;
    auto result = computePlacement(spec);
    if (!result)
        return result.error();
    if (std::string why = conservationError(*result->scene->placement, model); !why.empty())
        return makeError(ErrorCode::OutOfRange, "conservation broken: " + why, "layout");
    s.overCapacity = overCapacity(*result->scene->placement);
    s.result = std::make_shared<const PlacementResult>(std::move(*result));
    predict(s);
    return s;
}

ExploreState exploreResult(std::shared_ptr<const PlacementResult> result, const LayoutChoice& choice)
{
    ExploreState s;
    s.choice = choice;
    s.overCapacity = overCapacity(*result->scene->placement);
    s.result = std::move(result);
    predict(s);
    return s;
}

Expected<ExploreState> exploreChoice(const ExploreState& previous, const LayoutChoice& choice,
                                     std::shared_ptr<MeshSnapshot> spare)
{
    const PlacementResult& was = *previous.result;
    if (was.spec().defects.any())
        return makeError(ErrorCode::Unsupported,
                         "hand edits place a layout on defect-free wafers; this scenario has "
                         "dead cores",
                         "layout");
    auto applied = applyLayout(was.model(), was.hardware(), choice.layout);
    if (!applied)
        return applied.error();
    WaferScene scene = *was.scene;
    scene.spec.layout = choice.layout;
    scene.spec.weightFill = choice.layout.weightFill;
    scene.spec.kv = choice.kv;
    scene.spec.workload.contextTokens = choice.layout.contextTokens;
    scene.spec.workload.precision = choice.layout.precisions.attention;
    scene.timing.reset();
    if (!spare || spare == was.snapshot)
        spare = std::make_shared<MeshSnapshot>();
    updateMeshSnapshotInto(*spare, *was.snapshot, previous.placement(), *applied->placement);
    scene.snapshot = std::move(spare);
    scene.placement = applied->placement;
    ExploreState s;
    s.choice = choice;
    s.overCapacity = std::move(applied->overCapacity);
    s.result = resultOf(was, std::move(scene));
    predict(s);
    return s;
}

} // namespace ws
