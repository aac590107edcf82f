#pragma once
// A wafer scene is what the heatmap and its animations show for one model on
// wafer hardware, built from one request: the placement (on the usable mesh
// the defects leave, through placeWithDefects, defectplacement.h), each
// wafer's redundancy remap, the mesh snapshot (its Defects layer filled when
// there are defects) and, when asked, the per-token dataflow schedule over the
// placement's own regions, timed with the wafer's calibrated constants
// (engine/predict, the same setup predict uses), so activity lands where the
// heatmap shows each layer. The main window, the chat's live wafer, scenarios
// and the CLI's render and record all build their scene here, so the same
// request shows the same wafers everywhere.
//
// With speculative decoding on and a draft model in the workload, the draft
// gets its own cores (draftplacement.h) at the home the predictor chooses
// (engine/predict/speculative.h chooseDraftHome): a strip beside the target or a
// wafer of its own. The scene then holds both placements, the snapshot shows
// the draft's cores as the draft's (its own wafer as one more device), and
// the schedule times the target on its own cores.

#include "engine/core/error.h"
#include "engine/decode/expertrouting.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/waferprefill.h"
#include "engine/spec/scenariospec.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/dataflow/timingparams.h"
#include "engine/wafer/placement/draftplacement.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/placement/placement.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

// What buildWaferScene makes beside the placement, remap and snapshot.
struct SceneOptions
{
    bool withSchedule = false; // also build the token schedule (scheduleScene)
};

// The token schedule of a scene and the constants it was timed with.
struct SceneSchedule
{
    std::shared_ptr<const TokenSchedule> schedule; // never null, has phases and time
    TimingParams params;
    std::string profile;     // the calibration profile the constants come from
    ScheduleRegions regions; // the placement's regions the schedule runs over
    ScheduleOptions options; // what it was built with (a token's own schedule reuses them)

    // The schedule of one token of `model` that routed to `routing` (the experts the decoder chose in each
    // layer): these options with the routing, over the same regions and timed with the same constants. The
    // shared schedule when the routing is empty.
    std::shared_ptr<const TokenSchedule> forRouting(const ModelConfig& model, const ExpertRouting& routing) const;
};

struct WaferScene
{
    ScenarioSpec spec;                          // the request the scene was built from
    std::shared_ptr<const Placement> placement; // the target's (right of the draft's strip when there is one)
    // With a draft model (spec.workload.speculative): its placement and its home (chooseDraftHome's, as
    // the prediction's): a strip beside the target on wafer 0, or a wafer of its own after the target's, which
    // the snapshot then shows as its last device.
    std::shared_ptr<const Placement> draftPlacement;
    std::optional<DraftHome> draftHome;
    // Per device with defects; without, one defect-free remap (logical fabric to physical grid) shared by every
    // device. Empty when the spec has no spare layout.
    std::vector<Remap> remaps;
    std::vector<DefectSummary> defectsPerDevice; // with defects: per placed device
    DefectSummary defectTotals;                  // with defects: summed (DefectPlacement::totals)
    AxisStretch hopStretch;                      // with defects: S_max over the placed regions
    std::shared_ptr<const MeshSnapshot> snapshot;
    std::optional<SceneSchedule> timing; // with SceneOptions::withSchedule

    const ModelConfig& model() const { return spec.model; }
    const HardwareSpec& hardware() const { return spec.hardware; }
    // The draft model placed beside the target (null without one).
    const ModelConfig* draftModel() const;
    // The device the draft decodes on (-1 without one) and whether a core of the snapshot is the draft's.
    int draftDevice() const;
    bool isDraftCore(int device, int x, int y) const;
    // The remap of `device` (null when there is none).
    const Remap* remap(int device) const;
};

// The scene of a specification on wafer hardware: with a hand layout, that layout placed exactly (not with
// defects); with defects, the model placed on the usable mesh they leave; with a draft model, both placed.
Expected<WaferScene> buildWaferScene(const ScenarioSpec& spec, SceneOptions options = {});

// The token schedule over a built scene's placement with KV placement `kv`. An error with field "schedule" when
// the engine gives no schedule (no phases or no time).
Expected<SceneSchedule> scheduleScene(const WaferScene& scene, KvPlacement kv);
// The same, taken from the scene where it carries it (WaferScene::timing, made with it for spec.kv) and `kv` is
// that KV placement: a worker that built the scene spares its reader the timing.
Expected<SceneSchedule> sceneSchedule(const WaferScene& scene, KvPlacement kv);

// The wafer's prefill on a built scene: the prompt (spec.workload.promptTokens) in the predictor's chunks,
// pipelined through the placement's layer regions, then the first token (schedule.h), timed as the predictor
// times the time to first token (predict(): the latest serving stack's kernel factor on the constants, and
// waferTtft, engine/predict/waferprefill.h, fitted on WaferLLM's measured prefill): the schedule's clock is
// stretched (TokenSchedule::timeStretch) so that it ends at that time.
struct ScenePrefill
{
    SceneSchedule timing; // schedule: the prefill; the constants, regions and options it was built with
    // The predictor's time to first token (timing.schedule->seconds()), its range, calibration note and source,
    // chunking, and the timing model's cycles before the calibration (the schedule's cycles).
    WaferTtft ttft;
    std::string stack;       // the serving stack whose kernel factor the constants carry, as predict()'s
    double kernelFactor = 1; // (engine/predict/stackkernel.h); none: 1
};
Expected<ScenePrefill> prefillScene(const WaferScene& scene, KvPlacement kv);

} // namespace ws
