#pragma once
// One placement of a model on wafer hardware, as the main window shows it:
// the request (what the pickers say, and the scenario's defects), the
// engine's wafer scene (engine/scene/scene.h: placement, remaps, mesh
// snapshot) with its totals, and the per-core details the inspector asks for
// on click. computePlacement() takes plain values and touches no Qt widget or
// shared state, so the window can run it on a worker thread and drop stale
// results.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"
#include "engine/scene/scene.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

struct PlacementRequest
{
    QString modelId;
    QString hardwareId;
    Precision precision = Precision::Bf16;
    int64_t contextTokens = 8192;
    DefectRequest defects; // dead cores on the wafers (a scenario's); none by default
    // Speculative decoding's draft model (a preset id; empty: none): placed on its own cores beside the model.
    QString draftModelId;
};

struct PlacementResult
{
    PlacementRequest request;
    HardwareSpec hardware;
    ModelConfig model;
    std::shared_ptr<const MeshSnapshot> snapshot;
    int devices = 0;
    std::vector<int> layersPerDevice;
    int64_t sramUsedBytes = 0;               // over all devices
    int64_t sramTotalBytes = 0;              // over all devices
    std::vector<std::string> notes;          // how the engine chose the device count and table placement
    std::shared_ptr<const WaferScene> scene; // the engine's placement and remaps, for coreInfo() and schedules
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

// `layout`, when given, is placed exactly (its fill, context and precisions); else the placer chooses. `draft`
// (request.draftModelId's config) gets its own cores beside the model (engine/wafer/placement/draftplacement.h).
Expected<PlacementResult> computePlacement(const PlacementRequest& request, const HardwareSpec& hardware,
                                           const ModelConfig& model, const std::optional<Layout>& layout = {},
                                           const std::optional<ModelConfig>& draft = {});
// The result for a scene already built (its model and hardware are the scene's).
PlacementResult placementResultOf(const PlacementRequest& request, std::shared_ptr<const WaferScene> scene);

// The engine's placement behind a result (for schedules); null when the result has none.
const Placement* enginePlacement(const PlacementResult& result);

// Details of core (x, y) on `device`; an error for coordinates off the mesh.
Expected<CoreInfo> coreInfo(const PlacementResult& result, int device, int x, int y);

// An engine error from building or timing a scene, translated where the app knows the message.
QString sceneErrorText(const Error& error, const ScenarioSpec& request);

} // namespace ws
