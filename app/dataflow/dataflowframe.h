#pragma once
// One frame of the dataflow animation: the engine's closed-form activity
// (engine/wafer/dataflow/activity.h) sampled at the current cycle and a few earlier
// ones, so a core keeps glowing for a while after its last event. The value
// per core is what MeshSnapshot::activity holds: compute 0.5..1 and forward
// 0..0.5, scaled by how recent the event was (1 = now), 0 = idle. A frame
// is a function of the time alone, so scrubbing back and forth is exact.

#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/dataflow/schedule.h"

#include <memory>
#include <vector>

namespace ws {

struct DataflowFrameOptions
{
    int device = 0;
    double cycle = 0;        // into the token
    double trailCycles = 0;  // how far back the glow reaches (0: no trail)
    static constexpr int trailSamples = 4; // samples at cycle, cycle - trail/3, ... cycle - trail
};

// Per-core values (meshCols x meshRows, row-major) for one device.
void fillDataflowGlow(const TokenSchedule& schedule, int meshCols, int meshRows, const DataflowFrameOptions& options,
                      std::vector<float>& out);

// The weight of trail sample k (0 = now).
double trailWeight(int sample);

// The hops (layer to layer, wafer to wafer) running at `cycle`, as arrows for the heatmap.
std::vector<MeshHop> activeHops(const TokenSchedule& schedule, double cycle);

// Writes the dataflow of options.device into `frame` in place (activity of the other devices emptied, hops).
void fillDataflowFrame(MeshSnapshot& frame, const TokenSchedule& schedule, const DataflowFrameOptions& options);

// `base` with the dataflow of `device` at `cycle` (activity for that device, hops of the moment).
std::shared_ptr<const MeshSnapshot> dataflowFrame(const MeshSnapshot& base, const TokenSchedule& schedule,
                                                  const DataflowFrameOptions& options);

} // namespace ws
