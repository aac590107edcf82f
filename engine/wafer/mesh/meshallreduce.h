#pragma once
// The allreduce of the mesh engine, WaferLLM's two-level tree along a line of
// cores (engine/wafer/dataflow/timingmodel.h describes the same tree in
// closed form): the line is cut into groups of about sqrt(n) cores; each
// group's ends pass their running sums core by core to the group's middle core
// (each core adds what streams in and passes it on once the head is in, after
// the routing stage); the group roots pass theirs to the middle group's root
// (pass-through hops on the routers between); the root multicasts the sum back
// along the line both ways, every core keeping a copy as the head passes.
// All the lines of one phase run together, their messages issued in time order
// from one event queue, so lines that share links (folded tiles) contend.

#include "engine/wafer/mesh/meshfabric.h"

#include <vector>

namespace ws {

struct ReduceLine
{
    std::vector<int> cores; // fabric core indices, in line order
    double words = 0;       // payload per message
};

// `ready` (indexed by fabric core) holds when each core's partial is ready; on return, when its copy of the sum is.
void allreduceLines(MeshFabric& fabric, std::vector<Ready>& ready, const std::vector<ReduceLine>& lines);

} // namespace ws
