#pragma once
// One entry point for every kind of hardware: predict() picks the wafer, GPU
// or LPU predictor from the hardware spec and returns one Prediction.
// Without a device count each predictor uses the fewest devices that hold the
// model (and says so in the notes); with too few it fails with OutOfRange and
// names the count needed. Each hardware preset is predicted with its serving
// stack as of a month (the latest by default, engine/predict/stackkernel.h):
// on wafers the stack's kernel factor and speculative decoding, on GPUs the
// calibration profile of a stack public by then; the prediction names it.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/predict/prediction.h"
#include "engine/predict/waferpredictor.h"
#include "engine/spec/scenariospec.h"
#include "engine/spec/workload.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <cstdint>
#include <optional>

namespace ws {
class PlacementCache;
}

namespace ws {

struct PredictOptions
{
    int devices = 0; // 0: the fewest that hold the model
    // Wafers: the KV placement, the dead cores (placed around as the scene places them), a placement cache, a
    // layout to place exactly, the hop stretch and the weight fill, as the wafer predictor takes them. Its
    // device count and kernel factor are the two fields above and below.
    WaferPredictOptions wafer;
    // The serving stacks public at this month (engine/calibration/stackprofile.h, YearMonth); none: the latest.
    std::optional<int> asOf;
    // Wafers: this kernel factor instead of the stack's (engine/predict/stackkernel.h), e.g. to ask what it takes.
    std::optional<double> kernelFactor;
};

Expected<Prediction> predict(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                             const PredictOptions& options = {});

// predict() of a scenario specification: its model, hardware and workload with what it says of the devices, the
// KV placement, the weight fill, the hop stretch, a hand layout and the dead cores (placed around only when no
// layout is given: a layout is placed exactly). `options` adds what a specification does not say: a placement
// cache, the month of the serving stacks, a kernel factor, a layout to place (with its placement) instead.
Expected<Prediction> predict(const ScenarioSpec& spec, PredictOptions options = {});
// The options predict(spec, options) runs with: `options` with what `spec` says set (the one translation of a
// specification into predict()'s options, for the entry points that take them, such as whatItTakes).
PredictOptions predictOptions(const ScenarioSpec& spec, PredictOptions options = {});

} // namespace ws
