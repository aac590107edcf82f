#include "engine/wafer/dataflow/timingmodel.h"

#include <algorithm>
#include <cmath>

namespace ws {

int TimingModel::groupSizeFor(int lineCores)
{
    if (lineCores <= 1)
        return 1;
    return std::max(1, int(std::lround(std::sqrt(double(lineCores)))));
}

int TimingModel::wavelets(double values) const
{
    if (values <= 0)
        return 0;
    return int(std::ceil(values * m_params.activationBytes / m_params.waveletBytes));
}

AllreduceTiming TimingModel::allreduce(int lineCores, int payloadWavelets) const
{
    AllreduceTiming t;
    t.lineCores = std::max(1, lineCores);
    t.payloadWavelets = std::max(0, payloadWavelets);
    t.fixedCycles = m_params.allreduceFixedCycles;
    t.payloadCycles = double(t.payloadWavelets) * m_params.cyclesPerWavelet;
    t.hopCycles = m_params.hopCycles;
    t.stageCycles = m_params.routingStageCycles;
    if (t.lineCores == 1) {
        t.groupSize = 1;
        t.groupCount = 1;
        return t;
    }
    const double a = m_params.hopCycles;
    const double b = m_params.routingStageCycles;
    t.groupSize = groupSizeFor(t.lineCores);
    t.groupCount = (t.lineCores + t.groupSize - 1) / t.groupSize;
    const int chain = t.groupSize / 2;      // cores from a group end to its middle
    const int rootChain = t.groupCount / 2; // group roots from the far end to the middle group
    t.phase1Cycles = chain * (a + b);
    t.phase2Cycles = rootChain * (a * t.groupSize + b);
    const int broadcastHops = t.lineCores / 2;
    t.broadcastCycles = broadcastHops * a;
    t.hops = chain + double(rootChain) * t.groupSize + broadcastHops;
    t.stages = chain + rootChain;
    return t;
}

double TimingModel::hopCycles(double distance, int payloadWavelets) const
{
    return std::max(0.0, distance) * m_params.hopCycles + payloadWavelets * m_params.cyclesPerWavelet +
           m_params.routingStageCycles;
}

double TimingModel::interWaferSeconds(double onWaferHops, double payloadBytes) const
{
    const double link = m_params.ioBandwidthBytesPerS > 0 ? payloadBytes / m_params.ioBandwidthBytesPerS : 0.0;
    return seconds(std::max(0.0, onWaferHops) * m_params.hopCycles) + m_params.interWaferLatencyS + link;
}

} // namespace ws
