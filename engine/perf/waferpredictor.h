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
#include "engine/perf/prediction.h"
#include "engine/perf/workload.h"
#include "engine/wafer/schedule.h"
#include "engine/wafer/timingparams.h"

#include <string>

namespace ws {

struct WaferPredictOptions
{
    int devices = 0;                       // 0: the fewest wafers that hold the model
    KvPlacement kv = KvPlacement::Shift;
    double hopStretch = 1.0;               // defects: each logical hop costs this many hops (remap S_max)
    const ScheduleLayout* layout = nullptr; // from the placement; null: the predictor's own layer regions
};

struct WaferSetup
{
    ScheduleLayout layout;
    TimingParams params;
    std::string profile;
    double calibrationResidual = 0; // worst relative residual of the profile's fit
    int devicesNeeded = 0;
    int64_t freeBytesPerCore = 0;
    std::string layoutNote;
};

// Regions and constants for a model on a wafer preset (shared by predict and the animation).
Expected<WaferSetup> prepareWafer(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                  const WaferPredictOptions& options);

Expected<Prediction> predictWafer(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                  const WaferPredictOptions& options = {});

} // namespace ws
