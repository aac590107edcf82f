#pragma once
// One placement of a model on wafer hardware, as the main window shows it:
// the engine's wafer scene (engine/scene/scene.h: placement, remaps, mesh
// snapshot, and the ScenarioSpec it was built from, the one request) with
// its totals, and the per-core details the inspector asks for on click.
// computePlacement() takes the spec and touches no Qt widget or shared
// state, so the window can run it on a worker thread and drop stale results.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"
#include "engine/scene/scene.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

struct PlacementResult
{
    std::shared_ptr<const MeshSnapshot> snapshot;
    int devices = 0;
    std::vector<int> layersPerDevice;
    int64_t sramUsedBytes = 0;               // over all devices
    int64_t sramTotalBytes = 0;              // over all devices
    std::vector<std::string> notes;          // how the engine chose the device count and table placement
    std::shared_ptr<const WaferScene> scene; // the engine's placement and remaps, for coreInfo() and schedules

    // What was placed: the scene's request (model, hardware, workload, defects); the defaults when there is no
    // scene.
    const ScenarioSpec& spec() const;
    const ModelConfig& model() const { return spec().model; }
    const HardwareSpec& hardware() const { return spec().hardware; }
    // The layout this result places (engine/wafer/placement/layout.h: layoutOf); nullopt without a placement.
    std::optional<Layout> layout() const;
};

// What the inspector shows for one core. Fields the engine could not provide stay empty.
struct CoreInfo
{
    int device = 0;
    int x = 0; // logical fabric coordinates (the heatmap's)
    int y = 0;
    std::optional<int> usableX; // placement coordinates inside the application rectangle
    std::optional<int> usableY;
    std::optional<int> physicalX; // on the silicon, spare cores included (redundancy remap)
    std::optional<int> physicalY;
    int layerIndex = -1;
    std::string tensorKind;         // "" when nothing is placed
    std::string draftModel;         // the draft model's name on a core of its own strip (speculative decoding), else ""
    std::vector<std::string> tiles; // e.g. "L12 attn_q rows [0, 40) x inputs [256, 384)"
    std::string kvRange;            // KV tokens and columns held, when any
    std::vector<std::pair<std::string, int64_t>> bytesByKind; // kind -> bytes on this core
    int64_t usedBytes = 0;
    int64_t sramBytes = 0;
};

// The scene for `spec` (buildWaferScene) as the window shows it. The spec's layout, when given, is placed
// exactly; a draft model (spec.workload.speculative) gets its own cores beside the model. withTiming: also the
// token schedule for the spec's KV placement (WaferScene::timing) where the engine gives one (a scene without it is
// still a result): made with the placement on its worker, not when the Dataflow dock asks for it on the GUI thread.
Expected<PlacementResult> computePlacement(const ScenarioSpec& spec, bool withTiming = false);
// The result for a scene already built.
PlacementResult placementResultOf(std::shared_ptr<const WaferScene> scene);

// The engine's placement behind a result (for schedules); null when the result has none.
const Placement* enginePlacement(const PlacementResult& result);

// Details of core (x, y) on `device`; an error for coordinates off the mesh.
Expected<CoreInfo> coreInfo(const PlacementResult& result, int device, int x, int y);

// An engine error from building or timing a scene, translated where the app knows the message.
QString sceneErrorText(const Error& error, const ScenarioSpec& request);

} // namespace ws
