#pragma once
// What defects cost a wafer prediction: a random defect map (a fraction of the
// physical cores dead, seeded) goes through the redundancy remap
// (engine/wafer/remap.h); the placement then sees the smaller usable mesh the
// remap leaves, and every logical hop inside a layer region costs the
// region's worst line stretch S_max (facts §6.6 option B: skipped dead cores
// and diagonal links add hops). The same map is applied to every wafer.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/perf/workload.h"
#include "engine/wafer/remap.h"

#include <cstdint>

namespace ws {

struct WaferDefectCost
{
    DefectSummary summary;
    int usableCols = 0;
    int usableRows = 0;
    double hopStretch = 1.0; // S_max over the layer regions, both axes
};

Expected<WaferDefectCost> waferDefectCost(const ModelConfig& model, const HardwareSpec& hardware,
                                          const Workload& workload, double deadFraction, uint64_t seed);

} // namespace ws
