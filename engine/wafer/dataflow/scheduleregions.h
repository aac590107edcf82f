#pragma once
// From a Placement (engine/wafer/placement/placement.h) to what the timing model needs:
// the layer regions in mesh coordinates, where the embedding and LM head
// slices sit, and the SRAM a core has left for KV beyond the placement's own
// reservation.

#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/placement/placement.h"

#include <cstdint>

namespace ws {

ScheduleRegions scheduleRegionsFromPlacement(const Placement& placement);

// On the fullest layer region: SRAM per core for KV (free bytes plus the KV the placement already holds).
int64_t kvBytesAvailablePerCore(const Placement& placement);

} // namespace ws
