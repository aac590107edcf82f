#pragma once
// Closed-form cycle counts for decode on a wafer, in the PLMR style of
// WaferLLM (§3.1, §6): a local multiply-accumulate on each core, then a
// two-level (K = 2) tree allreduce along one mesh axis. A line of n cores is
// cut into groups of g ~ sqrt(n) cores (WaferLLM's group_num table gives
// n/g ~ sqrt(n)). Phase 1 reduces each group as two chains towards its middle
// core (g/2 hops, each a routing stage); phase 2 reduces the group roots
// towards the middle group (G/2 stages of g pass-through hops); a broadcast
// sends the result back over n/2 hops; the payload streams one wavelet per
// cycle. The same constants time the hops between layer regions and wafers.

#include "engine/wafer/dataflow/timingparams.h"

#include <cstdint>

namespace ws {

struct AllreduceTiming
{
    int lineCores = 0;  // n: cores along the reduction line
    int groupSize = 0;  // g
    int groupCount = 0; // G = ceil(n / g)
    int payloadWavelets = 0;
    double phase1Cycles = 0;    // chains to each group's middle
    double phase2Cycles = 0;    // group roots to the global root
    double broadcastCycles = 0; // global root back to every core
    double payloadCycles = 0;   // streaming the vector
    double fixedCycles = 0;
    double hopCycles = 0;   // alpha used
    double stageCycles = 0; // beta used
    double hops = 0;        // hops on the critical path
    double stages = 0;      // routing stages on the critical path
    double totalCycles() const { return fixedCycles + phase1Cycles + phase2Cycles + broadcastCycles + payloadCycles; }
};

class TimingModel
{
public:
    explicit TimingModel(TimingParams params = {}) : m_params(params) {}

    const TimingParams& params() const { return m_params; }

    static int groupSizeFor(int lineCores);
    int wavelets(double values) const; // values of activationBytes each, rounded up to whole wavelets

    AllreduceTiming allreduce(int lineCores, int payloadWavelets) const;
    double macCycles(double macsPerCore) const { return m_params.macCycles * macsPerCore; }
    // A vector of payloadWavelets per link moved `distance` hops over parallel links, received by one routing stage.
    double hopCycles(double distance, int payloadWavelets) const;
    // Between wafers: on-wafer travel to the edge and from the edge, plus the link.
    double interWaferSeconds(double onWaferHops, double payloadBytes) const;
    double seconds(double cycles) const { return cycles / m_params.clockHz; }

private:
    TimingParams m_params;
};

} // namespace ws
