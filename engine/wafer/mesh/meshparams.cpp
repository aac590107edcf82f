#include "engine/wafer/mesh/meshparams.h"

#include <algorithm>
#include <cmath>

namespace ws {

MeshParams MeshParams::fromHardware(const WaferSpec& wafer)
{
    TimingParams defaults;
    defaults.applyHardware(wafer);
    MeshParams p;
    p.clockHz = defaults.clockHz;
    p.macsPerCycle = wafer.macsPerCyclePerCore > 0 ? wafer.macsPerCyclePerCore : 1.0;
    p.sramBytesPerCycle = std::max(0.0, wafer.sramBytesPerCyclePerCore);
    p.hopCycles = defaults.hopCycles;
    p.routingStageCycles = std::max(0.0, wafer.routingStageCycles);
    p.linkBytesPerCycle = defaults.waveletBytes / defaults.cyclesPerWavelet;
    p.activationBytes = defaults.activationBytes;
    p.interWaferLatencyCycles = defaults.interWaferLatencyS * defaults.clockHz;
    p.interWaferBytesPerCycle = defaults.ioBandwidthBytesPerS > 0 ? defaults.ioBandwidthBytesPerS / p.clockHz : 0.0;
    return p;
}

double MeshParams::words(double values) const
{
    if (values <= 0)
        return 0;
    return std::ceil(values * activationBytes / linkBytesPerCycle);
}

double MeshParams::gemvCycles(double macs, double weightBytes) const
{
    const double math = macs / macsPerCycle;
    const double memory = sramBytesPerCycle > 0 ? weightBytes / sramBytesPerCycle : 0.0;
    return std::max(math, memory);
}

TimingParams MeshParams::closedForm() const
{
    TimingParams t;
    t.clockHz = clockHz;
    t.hopCycles = hopCycles;
    t.routingStageCycles = routingStageCycles;
    t.macCycles = 1.0 / macsPerCycle;
    t.allreduceFixedCycles = 0;
    t.waveletBytes = linkBytesPerCycle;
    t.cyclesPerWavelet = 1.0;
    t.activationBytes = activationBytes;
    t.interWaferLatencyS = interWaferLatencyCycles / clockHz;
    t.ioBandwidthBytesPerS = interWaferBytesPerCycle * clockHz;
    return t;
}

std::vector<MeshParamSource> describe(const MeshParams& p, const HardwareSpec& hw)
{
    auto src = [&](const char* field, const char* fallback) {
        const auto it = hw.sources.find(field);
        return it != hw.sources.end() ? it->second : std::string(fallback);
    };
    const char* timing = "TimingParams default (engine/wafer/dataflow/timingparams.cpp)";
    return {
        {"clockHz", p.clockHz, src("clockHz", timing)},
        {"macsPerCycle", p.macsPerCycle, src("macsPerCyclePerCore", "not in the preset: 1")},
        {"sramBytesPerCycle", p.sramBytesPerCycle, src("sramBytesPerCyclePerCore", "not in the preset: unlimited")},
        {"hopCycles", p.hopCycles, src("hopLatencyCycles", timing)},
        {"routingStageCycles", p.routingStageCycles, src("routingStageCycles", "not published: 0")},
        {"linkBytesPerCycle", p.linkBytesPerCycle, src("linkWidthBits", timing)},
        {"activationBytes", p.activationBytes,
         "WaferLLM decode.csl, f16 tiles [WaferLLM-repo], TimingParams::activationBytes"},
        {"interWaferLatencyCycles", p.interWaferLatencyCycles,
         src("interWaferLatencyS", "assumption: not published [WaferScope-model], TimingParams::interWaferLatencyS")},
        {"interWaferBytesPerCycle", p.interWaferBytesPerCycle, src("ioBandwidthBytesPerS", timing)},
    };
}

} // namespace ws
