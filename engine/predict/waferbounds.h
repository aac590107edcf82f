#pragma once
// The wafer prediction's range drivers and ceiling. Drivers, one at a time:
// the clock where the preset gives a range (WSE-3's is not published), the
// kernel's cycles per MAC (WaferLLM's research kernel as measured on WSE-2's
// 4-wide SIMD, or a production kernel using the newer core's full width), the
// wafer-to-wafer latency when the model spans wafers, the placement policy
// (the weight fill the placer aims for, and every layer resident against
// WaferLLM's one 420 x 420 region per layer) unless a layout is given, and the
// calibration's worst residual. The ceiling: one token's layers run on one
// layer region at a time, so its MACs cannot go faster than the largest
// region's SIMD lanes, its weights not faster than that region's SRAM ports,
// and every layer needs at least two reductions across its region's shorter
// side at one cycle per hop.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/predict/waferpredictor.h"
#include "engine/spec/workload.h"

#include <functional>

namespace ws {

struct WaferBoundsInput
{
    const WaferSetup* setup = nullptr;
    int tokensPerVisit = 1;  // the micro-batch per stage visit at the predicted concurrency
    double specFactor = 1.0; // seconds per token / one plain step's seconds (speculative decoding)
    // The step's schedule on the setup's layout and constants (the point's), whose fixed latencies give the floor.
    const TokenSchedule* step = nullptr;
    // Cycles of one step of `tokensPerVisit` tokens on a layout with some constants.
    std::function<double(const ScheduleRegions&, const TimingParams&, int)> cycles;
    // Speculative decoding with a draft model: seconds per output token of the hand-off between draft and
    // target at some constants (null: none), added to the scaled cycles.
    std::function<double(const TimingParams&)> handoffSeconds;
};

// The wafer's floor (Prediction::Floor): the step's schedule `so` on the setup's layout with nothing that scales
// with the model's weights (no multiply-accumulates, no payload wavelets, no link serialisation): the fixed cycles
// of every all-reduce (c_0, fitted), its routing stages (beta, fitted) and hops (alpha), the hops between layer
// regions and the wafer-to-wafer latency. A speculative step pays them once for the tokens it yields.
// `step`, that schedule as timed with the setup's constants, gives them without another schedule
// (TokenSchedule::fixedCycles), within 1e-12 of the schedule's own.
Floor waferFloor(const ModelConfig& model, const HardwareSpec& hw, const Workload& w, const WaferSetup& s,
                 const ScheduleOptions& so, const TokenSchedule* step = nullptr);

// Settles p's floor (waferFloor at the step's micro-batch), adds the drivers and the ceiling to p (whose point,
// concurrency and devices are set) and finishes its range.
void addWaferRangeAndCeiling(Prediction& p, const ModelConfig& model, const HardwareSpec& hw, const Workload& w,
                             const WaferPredictOptions& o, const WaferBoundsInput& in);

} // namespace ws
