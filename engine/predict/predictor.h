#pragma once
// One entry point for every kind of hardware: predict() picks the wafer, GPU
// or LPU predictor from the hardware spec and returns one Prediction.
// Without a device count each predictor uses the fewest devices that hold the
// model (and says so in the notes); with too few it fails with OutOfRange and
// names the count needed.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/placement/layout.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <cstdint>

namespace ws {
class PlacementCache;
}

namespace ws {

struct PredictOptions
{
    int devices = 0; // 0: the fewest that hold the model
    // Wafers: the dead cores on each wafer (engine/wafer/redundancy/defectplacement.h), placed around as the scene
    // places them.
    DefectRequest waferDefects;
    KvPlacement kv = KvPlacement::Shift;       // wafers
    PlacementCache* waferPlacements = nullptr; // wafers: placements to reuse (a sweep's); null: place afresh
    const Layout* waferLayout = nullptr;       // wafers: place exactly this layout (engine/wafer/placement/layout.h)
};

Expected<Prediction> predict(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                             const PredictOptions& options = {});

} // namespace ws
