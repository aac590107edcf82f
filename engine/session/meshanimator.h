#pragma once
// Per-token wafer frames for the live session: the placement's mesh snapshot
// with the dataflow activity (which cores compute, which only forward) at
// one moment of a token's schedule. Each new token is shown at the next
// sample point, a golden-ratio step through the token's cycles, so a stream
// of tokens sweeps through every phase (norms, GEMVs, allreduce waves, hops,
// LM head) instead of freezing on one. The animator is immutable and shares
// its inputs read-only, so the session's worker thread may call frame()
// while the GUI keeps the same base snapshot.

#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/dataflow/schedule.h"

#include <memory>

namespace ws {

class MeshAnimator
{
public:
    MeshAnimator(std::shared_ptr<const MeshSnapshot> base, std::shared_ptr<const TokenSchedule> schedule);

    // The cycle into the token shown for token `index` (0 <= cycle < totalCycles).
    double sampleCycle(int index) const;
    // The base snapshot with MeshSnapshot::activity filled for token `index`.
    std::shared_ptr<const MeshSnapshot> frame(int index) const;

private:
    std::shared_ptr<const MeshSnapshot> m_base;
    std::shared_ptr<const TokenSchedule> m_schedule;
};

} // namespace ws
