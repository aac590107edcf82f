#include "engine/scene/scene.h"

#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"
#include "engine/predict/waferpredictor.h"
#include "engine/predict/waferprefill.h"
#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/redundancy/defectlayer.h"

namespace ws {

const Remap* WaferScene::remap(int device) const
{
    if (remaps.empty() || device < 0)
        return nullptr;
    if (!spec.defects.any())
        return &remaps.front();
    return size_t(device) < remaps.size() ? &remaps[size_t(device)] : nullptr;
}

const ModelConfig* WaferScene::draftModel() const
{
    return draftPlacement && spec.workload.speculative.draftModel ? &*spec.workload.speculative.draftModel : nullptr;
}

int WaferScene::draftDevice() const
{
    return draftPlacement && draftHome ? draftHome->draftDevice() : -1;
}

bool WaferScene::isDraftCore(int device, int x, int y) const
{
    if (device < 0 || device != draftDevice())
        return false;
    const Placement& d = *draftPlacement;
    return x >= d.originX && x < d.originX + d.usableCols && y >= d.originY && y < d.originY + d.usableRows;
}

namespace {
bool wantsDraft(const ScenarioSpec& r)
{
    return r.workload.speculative.enabled && r.workload.speculative.draftModel.has_value();
}

// The draft at the home the prediction uses (engine/predict/speculative.h chooseDraftHome) and the target beside
// it (a given layout: exactly it, its mesh deciding the home: the whole, or the rest beside a strip).
Status placeDrafted(const ScenarioSpec& request, const PlacementOptions& options, WaferScene& scene)
{
    const ModelConfig& draft = *request.workload.speculative.draftModel;
    const WaferSpec& wafer = request.hardware.wafer;
    PlacementCache cache(32); // the chooser's placements, reused below
    WaferPredictOptions predictOptions;
    predictOptions.weightFill = request.weightFill;
    predictOptions.kv = request.kv;
    predictOptions.placements = &cache;
    if (request.layout)
        predictOptions.placedLayout = &*request.layout;
    auto choice = chooseDraftHome(request.model, request.hardware, request.workload, predictOptions);
    if (!choice)
        return choice.error();
    DraftHome home = choice->home;
    auto place = [&](const ModelConfig& m, const PlacementOptions& o) -> Expected<Placement> {
        return *placeThrough(&cache, m, wafer, o);
    };
    Placement target;
    if (request.layout) { // the layout's mesh decides the home (chooseDraftHome): the whole, or the rest of a strip
        const DraftShare& share = home.share;
        if (!home.ownWafer() &&
            (request.layout->usableCols != share.targetColumns() || request.layout->usableRows != share.usableRows))
            return makeError(ErrorCode::InvalidArgument,
                             "the layout is for " + std::to_string(request.layout->usableCols) + " x " +
                                 std::to_string(request.layout->usableRows) + " usable cores but beside the draft " +
                                 draft.id + " the target has " + std::to_string(share.targetColumns()) + " x " +
                                 std::to_string(share.usableRows),
                             "layout");
        auto placed = placeLayout(request.model, request.hardware, *request.layout);
        if (!placed)
            return placed.error();
        auto placedDraft = place(draft, draftHomeOptions(options, home));
        if (!placedDraft)
            return placedDraft.error();
        home.targetDevices = placed->deviceCount;
        target = home.ownWafer() ? std::move(*placed) : besideDraft(std::move(*placed), share);
        scene.draftPlacement = std::make_shared<const Placement>(std::move(*placedDraft));
    } else {
        auto both = placeWithDraft(request.model, draft, wafer, options, options, home, place);
        if (!both)
            return both.error();
        home = both->home;
        target = std::move(both->target);
        scene.draftPlacement = std::make_shared<const Placement>(std::move(both->draft));
    }
    scene.draftHome = home;
    scene.placement = std::make_shared<const Placement>(std::move(target));
    return Ok{};
}
} // namespace

Expected<WaferScene> buildWaferScene(const ScenarioSpec& request, SceneOptions sceneOptions)
{
    const HardwareSpec& hardware = request.hardware;
    if (hardware.kind != HardwareKind::Wafer)
        return makeError(ErrorCode::Unsupported, "the heatmap needs wafer-scale hardware", "hardware");
    WaferScene scene;
    scene.spec = request;
    const PlacementOptions options = placementOptions(request);
    if (request.layout && request.defects.any())
        return makeError(ErrorCode::Unsupported, "a given layout cannot be placed around defects", "layout");
    if (wantsDraft(request) && request.defects.any())
        return makeError(ErrorCode::Unsupported, "a draft model is not placed around defects", "draft");
    if (wantsDraft(request)) {
        if (Status placed = placeDrafted(request, options, scene); !placed)
            return placed.error();
        if (auto layout = SpareLayout::fromSpec(hardware.wafer)) {
            if (auto remap = Remap::run(*layout, DefectMap::forLayout(*layout)))
                scene.remaps.push_back(std::move(*remap));
        }
    } else if (request.defects.any()) {
        auto placed = placeWithDefects(request.model, hardware.wafer, options, request.defects);
        if (!placed)
            return placed.error();
        scene.placement = std::make_shared<const Placement>(std::move(placed->placement));
        scene.remaps = std::move(placed->remaps);
        scene.defectsPerDevice = std::move(placed->devices);
        scene.defectTotals = placed->totals;
        scene.hopStretch = AxisStretch{placed->hopStretchX, placed->hopStretchY};
    } else {
        auto placed = request.layout ? placeLayout(request.model, hardware, *request.layout)
                                     : placeModel(request.model, hardware.wafer, options);
        if (!placed)
            return placed.error();
        scene.placement = std::make_shared<const Placement>(std::move(*placed));
        if (auto layout = SpareLayout::fromSpec(hardware.wafer)) {
            if (auto remap = Remap::run(*layout, DefectMap::forLayout(*layout)))
                scene.remaps.push_back(std::move(*remap));
        }
    }
    auto snapshot = std::make_shared<MeshSnapshot>(buildMeshSnapshot(*scene.placement));
    if (scene.draftPlacement)
        addDraftToSnapshot(*snapshot, *scene.draftPlacement, *scene.draftHome);
    if (request.defects.any()) {
        for (int device = 0; device < int(scene.remaps.size()) && device < snapshot->deviceCount; ++device)
            if (Status filled = fillDefectLayer(*snapshot, device, scene.remaps[size_t(device)]); !filled)
                return filled.error();
    }
    scene.snapshot = std::move(snapshot);
    if (sceneOptions.withSchedule) {
        auto timing = scheduleScene(scene, request.kv);
        if (!timing)
            return timing.error();
        scene.timing = std::move(*timing);
    }
    return scene;
}

namespace {
// The constants the predictor times the scene's wafer with (kernelFactor: a serving stack's on the fitted ones).
Expected<WaferSetup> sceneSetup(const WaferScene& scene, double kernelFactor = 1.0)
{
    if (!scene.placement)
        return makeError(ErrorCode::InvalidArgument, "the model is not placed on a wafer", "placement");
    const Placement& placement = *scene.placement;
    const ScenarioSpec& r = scene.spec;
    // The predictor supplies the calibrated constants for the same wafer, device count and usable mesh.
    WaferPredictOptions options;
    options.devices = placement.deviceCount;
    options.usableCols = placement.usableCols;
    options.usableRows = placement.usableRows;
    options.weightFill = r.weightFill;
    options.kernelFactor = kernelFactor;
    if (r.layout)
        options.placedLayout = &*r.layout;
    // The target's own token on its own cores (its usable mesh is already the rest beside a draft).
    Workload targetWork = r.workload;
    targetWork.speculative.enabled = false;
    return prepareWafer(r.model, r.hardware, targetWork, options);
}
} // namespace

Expected<SceneSchedule> scheduleScene(const WaferScene& scene, KvPlacement kv)
{
    Expected<WaferSetup> setup = sceneSetup(scene);
    if (!setup)
        return setup.error();
    const ScenarioSpec& r = scene.spec;
    SceneSchedule out;
    out.regions = scheduleRegionsFromPlacement(*scene.placement);
    ScheduleOptions scheduleOptions;
    scheduleOptions.context = r.workload.contextTokens;
    scheduleOptions.kv = kv;
    auto schedule = std::make_shared<const TokenSchedule>(
        buildTokenSchedule(r.model, out.regions, TimingModel(setup->params), scheduleOptions));
    if (schedule->phases.empty() || !(schedule->totalCycles > 0))
        return makeError(ErrorCode::Unsupported,
                         "the engine gave no dataflow schedule for " + r.model.name + " on " + r.hardware.name,
                         "schedule");
    out.schedule = std::move(schedule);
    out.options = scheduleOptions;
    out.params = setup->params;
    out.profile = setup->profile;
    return out;
}

Expected<SceneSchedule> sceneSchedule(const WaferScene& scene, KvPlacement kv)
{
    if (scene.timing && kv == scene.spec.kv)
        return *scene.timing;
    return scheduleScene(scene, kv);
}

Expected<ScenePrefill> prefillScene(const WaferScene& scene, KvPlacement kv)
{
    const ScenarioSpec& r = scene.spec;
    ScenePrefill out;
    // As predict() times the wafer: the latest serving stack's factor on the fitted kernel constants.
    if (const StackProfile* stack = stackFor(r.hardware.id, std::nullopt)) {
        const auto& kernel = stackKernel(*stack);
        if (!kernel)
            return kernel.error();
        out.kernelFactor = kernel->factor;
        out.stack = stack->name;
    }
    Expected<WaferSetup> setup = sceneSetup(scene, out.kernelFactor);
    if (!setup)
        return setup.error();
    const int64_t prompt = std::max<int64_t>(1, r.workload.promptTokens);
    SceneSchedule& t = out.timing;
    t.regions = scheduleRegionsFromPlacement(*scene.placement);
    t.params = setup->params;
    t.profile = setup->profile;
    // The predictor's time to first token on these regions: its chunking, its calibration.
    const WaferTtft& ttft = out.ttft =
        waferTtft(r.model, t.regions, t.params, prompt, kv, waferSimdRatio(r.hardware), setup->calibrationResidual);
    t.options = prefillOptions(prompt, ttft.chunkTokens, kv, false);
    auto schedule = buildTokenSchedule(r.model, t.regions, TimingModel(t.params), t.options);
    if (schedule.phases.empty() || !(schedule.totalCycles > 0) || !(ttft.seconds > 0))
        return makeError(ErrorCode::Unsupported,
                         "the engine gave no prefill schedule for " + r.model.name + " on " + r.hardware.name,
                         "schedule");
    // Stretched so it ends at the predictor's time: the timing model's prompt runs faster than WaferLLM measures.
    schedule.timeStretch = ttft.seconds * t.params.clockHz / schedule.totalCycles;
    schedule.clockHz = t.params.clockHz / schedule.timeStretch;
    t.schedule = std::make_shared<const TokenSchedule>(std::move(schedule));
    return out;
}

std::shared_ptr<const TokenSchedule> SceneSchedule::forRouting(const ModelConfig& model,
                                                               const ExpertRouting& routing) const
{
    if (routing.empty())
        return schedule;
    ScheduleOptions routed = options;
    routed.routedExperts.clear();
    for (int l = 0; l < routing.layers; ++l) {
        const auto experts = routing.layer(l);
        routed.routedExperts.emplace_back(experts.begin(), experts.end());
    }
    return std::make_shared<const TokenSchedule>(buildTokenSchedule(model, regions, TimingModel(params), routed));
}

} // namespace ws
