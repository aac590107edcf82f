#pragma once
// Decode on wafers: the per-token schedule on the layer regions, timed with
// the calibrated PLMR constants. Layer regions are pipeline stages: up to one
// request per stage decodes at full speed; beyond that each stage processes
// a micro-batch of ceil(requests / stages) tokens per visit (more work per
// core, the same allreduce latencies). Time to first token pipelines prompt
// chunks through the layer regions. The range spans the calibration's worst
// residual and two model forms for a newer core (the kernel's measured cycles
// per MAC as on WSE-2, or scaled by the SIMD width).

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/dataflow/timingparams.h"
#include "engine/wafer/placement/draftplacement.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws {

struct WaferPredictOptions
{
    int devices = 0; // 0: the fewest wafers that hold the model
    KvPlacement kv = KvPlacement::Shift;
    // Dead cores on each wafer (a random fraction seeded per wafer, cores given by hand, the spare scheme);
    // the placement, device count, usable mesh and hop stretch then come from placeWithDefects
    // (engine/wafer/redundancy/defectplacement.h), as in the scene, `waferscope-cli place` and the Defects dock.
    DefectRequest defects;
    double hopStretch = 1.0; // a further factor on each logical hop's cost (>= 1)
    int usableCols = 0;      // usable mesh without defects (0: the spec's)
    int usableRows = 0;
    double weightFill = 0.8;                     // phi_w, an assumption ([WaferScope-model] in docs/sources.md)
    ExpertLayout experts = ExpertLayout::Blocks; // MoE layers' experts on a layer's region
    // A serving stack's factor on the fitted software constants (engine/predict/stackkernel.h); 1: as fitted.
    double kernelFactor = 1.0;
    // The clock instead of the hardware preset's (0: the preset's), e.g. to fit a stack's factor at a clock end.
    double clockHz = 0;
    // Where kernelFactor was fitted on measured rows of this hardware (a stack's fit_rows), the factor the same fit
    // finds at another clock: the rows fix seconds, not the clock, so the clock range driver times each clock end
    // with its own fit instead of counting the unpublished clock a second time. Empty: the factor is not fitted.
    std::function<std::optional<double>(double clockHz)> kernelFactorAtClock;
    const ScheduleRegions* layout = nullptr; // regions to time instead of the placement's (e.g. a scenario's)
    PlacementCache* placements = nullptr; // placements to reuse (engine/predict/placementcache.h); null: place afresh
    // Place exactly this layout (engine/wafer/placement/layout.h): its precisions, context and fill place the
    // model, the workload's context times it. Not with defects; predictWafer refuses one over a core's SRAM.
    const Layout* placedLayout = nullptr;
    // With placedLayout: its placement when the caller already has it (the placer's own, whose layoutOf is
    // placedLayout), so it is not placed again; over-capacity is still checked on it.
    SharedPlacement placedLayoutPlacement;
    // Speculative decoding with a draft model: place the draft at this home instead of chooseDraftHome's
    // (engine/predict/speculative.h); the chooser's candidates and the range's other fills use it.
    const DraftHome* draftHome = nullptr;
    // Only the point (seconds per token, devices, notes): no breakdown, TTFT, curve or range (nor predict()'s stack
    // and speculative drivers).
    bool pointOnly = false;
    // The point, breakdown, TTFT and curve without the range and its drivers or the ceiling (predict() then adds no
    // stack or speculative driver either): a sweep's points, which show none of them.
    bool noRange = false;
};

// A home the chooser weighed, with the speculative seconds per output token predicted there (0: not timed,
// e.g. on more wafers than the fewest + 1).
struct DraftHomeCandidate
{
    DraftHome home;
    double secondsPerToken = 0;
};

// Where the draft decodes (speculative.h chooseDraftHome): the home, every candidate weighed and plain
// decoding's seconds per token and wafers (0 when nothing was weighed: a given layout keeps the narrowest strip).
struct DraftHomeChoice
{
    DraftHome home;
    double secondsPerToken = 0;
    std::vector<DraftHomeCandidate> candidates;
    double plainSecondsPerToken = 0;
    int plainDevices = 0;
};

struct WaferSetup
{
    ScheduleRegions layout;
    TimingParams params;
    std::string profile;
    double calibrationResidual = 0; // worst relative residual of the profile's fit
    int devicesNeeded = 0;
    int64_t kvBytesPerCore = 0;    // SRAM per core for KV on the fullest layer region
    int64_t sramHeadroomBytes = 0; // SRAM of the placed devices left free (0 without a placement)
    WaferDefects defects;          // with a defect rate: what the dead cores cost
    std::vector<std::string> layoutNotes;
    std::vector<RegionOverflow> overCapacity; // with a placed layout: regions over a core's SRAM
    std::optional<DraftHomeChoice> draftHome; // speculative decoding with a draft model: where it decodes
    ScheduleRegions draftLayout;              // and the draft's regions there (fabric coordinates of its wafer)
};

// The placer's options for a workload and predict options (precision, context, fill, usable mesh).
PlacementOptions waferPlacementOptions(const Workload& workload, const WaferPredictOptions& options);

// Regions (from the placement) and constants for a model on a wafer preset,
// shared by predict and the animation.
Expected<WaferSetup> prepareWafer(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                  const WaferPredictOptions& options);

Expected<Prediction> predictWafer(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                  const WaferPredictOptions& options = {});

// predictWafer, and its point's tokens per second per user at other kernel factors on the same placement: at each
// factor what predictWafer with pointOnly gives there (predict()'s stack_kernel_factor driver ends). Plain decoding
// is affine in the factor (TokenSchedule::kernelCycles) while no factor takes the cycles per MAC to the SIMD limit:
// the ends then come from the point's own schedule, within 1e-12 of those predictions (fromPoint); otherwise they
// are those predictions.
struct WaferPredictionAt
{
    Prediction prediction;
    std::vector<std::optional<double>> tokensPerSecondAt; // one per factor asked; none where it fails
    bool fromPoint = false;
};
Expected<WaferPredictionAt> predictWaferAt(const ModelConfig& model, const HardwareSpec& hardware,
                                           const Workload& workload, const WaferPredictOptions& options,
                                           const std::vector<double>& kernelFactors);

} // namespace ws
