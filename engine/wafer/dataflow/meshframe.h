#pragma once
// One frame of the dataflow animation: which cores compute or forward at one
// cycle of a token's schedule (the engine's closed-form activity, activity.h),
// sampled at that cycle and, for a trail, a few earlier ones so that a core
// keeps glowing for a while after its last event, plus the hops (layer to
// layer, wafer to wafer) running at that moment. A frame refers to its shared,
// immutable base snapshot (MeshFrame, meshsnapshot.h) and holds only this
// overlay, so a frame costs the activity of the devices it shows, not a copy
// of the wafers. A frame is a function of the cycle alone: scrubbing is
// exact, and every animation (the Dataflow dock, the chat's live wafer, a
// recording) only chooses the cycle.
//
// Activity values per core: compute 0.5..1 and forward 0..0.5, scaled by how
// recent the event was (1 = now), 0 = idle. Without a trail: compute 1,
// forward 0.5, idle 0.

#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <functional>
#include <memory>
#include <vector>

namespace ws {

struct DataflowFrameOptions
{
    int device = 0;         // the device whose activity is computed; allDevices: every device
    double cycle = 0;       // into the token (taken modulo the token time)
    double trailCycles = 0; // how far back the glow reaches (0: no trail)
    bool hops = true;       // the arrows of the hops running at `cycle`
    static constexpr int allDevices = -1;
    static constexpr int trailSamples = 4; // samples at cycle, cycle - trail/3, ... cycle - trail
};

// Per-core values (meshCols x meshRows, row-major) for options.device.
void fillDataflowGlow(const TokenSchedule& schedule, int meshCols, int meshRows, const DataflowFrameOptions& options,
                      std::vector<float>& out);

// The weight of trail sample k (0 = now).
double trailWeight(int sample);

// The hops (layer to layer, wafer to wafer) running at `cycle`, as arrows for the heatmap.
std::vector<MeshHop> activeHops(const TokenSchedule& schedule, double cycle);

// Rewrites the overlay of `frame` (its base stays): activity of the chosen device(s), the other devices' emptied,
// and the hops of the moment. For reusing a frame nobody else holds.
void fillDataflowFrame(MeshFrame& frame, const TokenSchedule& schedule, const DataflowFrameOptions& options);

// The same with another source of per-core activity (the mesh engine's events, meshplayback.h): `glow` fills one
// device's values (options.device is that device) as fillDataflowGlow does; the hops come from `schedule`.
using DataflowGlow =
    std::function<void(int meshCols, int meshRows, const DataflowFrameOptions& options, std::vector<float>& out)>;
void fillDataflowFrame(MeshFrame& frame, const TokenSchedule& schedule, const DataflowFrameOptions& options,
                       const DataflowGlow& glow);

// A frame of `pool` nobody else holds any more (to refill with fillDataflowFrame), else a new one, kept in the
// pool while it has fewer than `keep`. So a frame handed out never changes, and animating allocates no frames.
std::shared_ptr<MeshFrame> reusableFrame(std::vector<std::shared_ptr<MeshFrame>>& pool, size_t keep);

// The frame of `base` at options.cycle. Null when base is null; the base alone (no overlay) when the
// schedule is null or empty, or the mesh has no cores.
std::shared_ptr<const MeshFrame> dataflowFrame(std::shared_ptr<const MeshSnapshot> base, const TokenSchedule* schedule,
                                               const DataflowFrameOptions& options);

// The live session's cycle choice: token `index` is shown a golden-ratio step through the token after the
// previous one, so a stream of tokens sweeps through every phase instead of freezing on one.
// 0 <= result < totalCycles (0 for a negative index or an empty schedule).
double goldenRatioCycle(const TokenSchedule& schedule, int index);

} // namespace ws
