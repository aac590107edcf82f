#pragma once
// Which cores are busy at a moment of a token's schedule, for the dataflow
// animation. Closed-form wavefronts (WaferScope's model [WaferScope-model], docs/sources.md), no event queue: during a
// local GEMV every core of the region computes; in an allreduce's phase 1 a
// wave runs from both ends of each group towards its middle core; in phase 2
// the group roots fire from the far groups inwards while the cores between
// them only forward; the broadcast spreads out from the global root; hops
// between regions and wafers light the band they cross as forwarding. With
// several requests in flight, their tokens are spread evenly over the token
// time. One pass costs a clear of the device plus one write per active core
// (paintActivity: only the writes).

#include "engine/wafer/dataflow/schedule.h"

#include <cstdint>
#include <vector>

namespace ws {

enum class CoreActivity : uint8_t
{
    Idle = 0,
    Compute = 1,
    Forward = 2
};

// Fills `out` (meshCols x meshRows, row-major, index y * meshCols + x) for
// `device` at `tCycles` into the token (taken modulo the token time).
void fillActivity(const TokenSchedule& schedule, int device, int meshCols, int meshRows, double tCycles,
                  std::vector<CoreActivity>& out, int requestsInFlight = 1);

// Paints the phases of `device` running at `tCycles` (modulo the token time) over `out`, already sized
// meshCols x meshRows, and returns the smallest rectangle holding every core it painted (empty: none). For a
// caller that clears only what it painted (fillDataflowGlow: a layer's region, not the whole wafer).
CoreRect paintActivity(const TokenSchedule& schedule, int device, int meshCols, int meshRows, double tCycles,
                       std::vector<CoreActivity>& out);

// The phases running at `tCycles` (indices into schedule.phases).
std::vector<size_t> activePhases(const TokenSchedule& schedule, double tCycles);

// For MeshSnapshot::activity: compute 1, forward 0.5, idle 0.
void activityToFraction(const std::vector<CoreActivity>& in, std::vector<float>& out);

} // namespace ws
