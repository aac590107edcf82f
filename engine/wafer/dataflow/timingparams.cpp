#include "engine/wafer/dataflow/timingparams.h"

namespace ws {

void TimingParams::applyHardware(const WaferSpec& wafer)
{
    if (wafer.clockHz > 0)
        clockHz = wafer.clockHz;
    if (wafer.hopLatencyCycles > 0)
        hopCycles = wafer.hopLatencyCycles;
    if (wafer.linkWidthBits > 0)
        waveletBytes = wafer.linkWidthBits / 8.0;
    if (wafer.interWaferLatencyS > 0)
        interWaferLatencyS = wafer.interWaferLatencyS;
    if (wafer.ioBandwidthBytesPerS > 0)
        ioBandwidthBytesPerS = wafer.ioBandwidthBytesPerS;
    if (wafer.powerWatts > 0)
        powerWatts = wafer.powerWatts;
}

std::vector<ParamInfo> describe(const TimingParams& p, const std::string& profileName)
{
    const std::string fitted = profileName.empty() ? std::string("fitted") : "fitted: " + profileName;
    return {
        {"clockHz", "f_clk", "Hz", p.clockHz, false,
         "WaferLLM §7 [WaferLLM] (WSE-2 up to 1.1 GHz; WSE-3 clock not published)",
         "Core clock; converts cycles to seconds."},
        {"hopCycles", "alpha", "cycles", p.hopCycles, false, "Cerebras SDK [Cerebras-SDK]; WaferLLM §7 [WaferLLM]",
         "Router forwards a 32-bit wavelet to a neighbour in one cycle on a pre-configured route."},
        {"routingStageCycles", "beta", "cycles", p.routingStageCycles, true, fitted,
         "A core on the reduction path receives, adds and re-sends (WaferLLM §3.1 [WaferLLM]: beta > alpha)."},
        {"macCycles", "c_mac", "cycles", p.macCycles, true, fitted,
         "Cycles per 16-bit multiply-accumulate (and per element-wise op) per core, including SRAM access."},
        {"allreduceFixedCycles", "c_0", "cycles", p.allreduceFixedCycles, true, fitted,
         "Fixed cost of one two-level tree allreduce: task activation, queue and color setup, CE-router turnarounds."},
        {"waveletBytes", "w", "bytes", p.waveletBytes, false, "Cerebras SDK [Cerebras-SDK] (32-bit wavelets)",
         "Payload carried per wavelet."},
        {"cyclesPerWavelet", "t_w", "cycles", p.cyclesPerWavelet, false,
         "Cerebras SDK [Cerebras-SDK]; WaferLLM §7 [WaferLLM]",
         "Cycles per wavelet on a link: long payloads stream at one wavelet per cycle."},
        {"activationBytes", "b_act", "bytes", p.activationBytes, false,
         "WaferLLM repository, decode.csl (f16 tiles) [WaferLLM-repo]",
         "Bytes per activation value and partial sum on the fabric."},
        {"kvBytesPerValue", "b_kv", "bytes", p.kvBytesPerValue, false,
         "WaferLLM repository, decode.csl (f16 KV tiles) [WaferLLM-repo]", "Bytes per stored K or V value."},
        {"interWaferLatencyS", "t_wafer", "s", p.interWaferLatencyS, false,
         "assumption: not published ([WaferScope-model] in docs/sources.md); hardware preset may override",
         "Latency of one hop between wafers (system I/O and network)."},
        {"ioBandwidthBytesPerS", "B_io", "B/s", p.ioBandwidthBytesPerS, false,
         "ALCF [ALCF-Cerebras]; vengineer blog [Vengineer-CS3] (12 x 100 GbE = 1.2 Tb/s)",
         "Off-wafer bandwidth that carries the hidden state between wafers."},
        {"powerWatts", "P_sys", "W", p.powerWatts, false,
         "hardware preset (Tom's Hardware [TomsHW-WSE3]: CS-3 same power as CS-2)",
         "System power per wafer, for energy per token; 0 when unknown."},
    };
}

} // namespace ws
