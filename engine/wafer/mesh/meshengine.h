#pragma once
// The mesh engine: one decode step of a placed model executed core by core as
// discrete events on the wafer's 2-D mesh (MeshFabric), following the
// per-token schedule (engine/wafer/dataflow/schedule.h) phase by phase. Each
// core of a layer region works on its own tiles (Placement::coreDetail): a
// GEMV's partial products take the core's MACs at the preset's SIMD width or
// its weight bytes at its SRAM bandwidth, whichever is slower; the partial sums
// of the cores that share output rows are then reduced as messages along their
// line in WaferLLM's two-level tree (groups of about sqrt(n) cores chain to
// their middle core, the group roots chain to the middle group, the root
// multicasts the sum back along the line), which leaves the result, the next
// GEMV's input, on every core of the line. Attention works on each core's KV
// slice (its K|V columns, the context split over the rows), the KV shift sends
// each core's oldest slice one row up, and the hidden state hops to the next
// layer's region over parallel lanes (to another wafer over the system I/O).
// All costs come from MeshParams, i.e. from the hardware preset.
//
// The result holds per phase the engine's cycles beside the closed form's (the
// schedule built with the same unit costs, MeshParams::closedForm()), per core
// busy and waiting cycles, per link words and busy cycles, the events, and the
// critical path. Timing only: no values are computed here (meshvalues.h adds
// them for a loaded model). Dense models only.

#include "engine/core/error.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/mesh/meshfabric.h"
#include "engine/wafer/placement/placement.h"

#include <memory>
#include <string>
#include <vector>

namespace ws {

struct MeshOptions
{
    int64_t context = 1; // cached tokens this token attends over (its position + 1)
    int layer = -1;      // run only this layer's phases (and its hop onwards); -1: the whole token
};

struct MeshPhase
{
    PhaseKind kind = PhaseKind::AttnNorm;
    int layer = -1;
    double engineCycles = 0;     // from the previous phase's last event to this phase's last event
    double closedFormCycles = 0; // the schedule's duration of the phase
    double endCycle = 0;
    TrafficStats traffic;
    Phase step; // the closed-form schedule's phase this one executed: its regions and hop ends, its own times
};

struct MeshRun
{
    double totalCycles = 0; // the token (or the layer's) cycles
    double clockHz = 0;
    std::vector<MeshPhase> phases;
    std::vector<CriticalStep> criticalPath;   // from the first event to the last
    std::shared_ptr<const MeshFabric> fabric; // cores, links, events
    int64_t maxCoreBytes = 0;                 // SRAM used by the fullest core that took part
    int64_t sramBytesPerCore = 0;

    TrafficStats traffic() const; // summed over phases
    double closedFormCycles() const;
};

Expected<MeshRun> executeMeshToken(const Placement& placement, const ModelConfig& model, const MeshParams& params,
                                   const MeshOptions& options);

} // namespace ws
