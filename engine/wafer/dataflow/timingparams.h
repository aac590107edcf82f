#pragma once
// The constants of the wafer timing model (PLMR style, after WaferLLM §3.1):
// alpha = cycles per router hop, beta = cycles per software routing stage on a
// core, the cycles a core spends per multiply-accumulate, a fixed cost per
// allreduce, and the 32-bit wavelet that carries payload one hop per cycle.
// Every field is a named parameter with a source, listed by describe() so the
// UI can show and edit them. Fitted fields come from a calibration profile
// (engine/calibration/wafercalibration.h); the defaults here are the hardware facts
// and are not a calibration.

#include "engine/hardware/hardwarespec.h"

#include <string>
#include <vector>

namespace ws {

struct TimingParams
{
    double clockHz = 1.1e9;              // core clock
    double hopCycles = 1.0;              // alpha: one router hop of one wavelet
    double routingStageCycles = 0.0;     // beta: a core receives, adds and re-sends (fitted)
    double macCycles = 1.0;              // cycles per 16-bit multiply-accumulate per core (fitted)
    double allreduceFixedCycles = 0.0;   // per allreduce: task launch, queue setup, CE-router turnarounds (fitted)
    double waveletBytes = 4.0;           // 32-bit wavelet
    double cyclesPerWavelet = 1.0;       // a link moves one wavelet per cycle
    double activationBytes = 2.0;        // 16-bit activations and partial sums
    double kvBytesPerValue = 2.0;        // 16-bit KV cache
    double interWaferLatencyS = 1.0e-6;  // wafer-to-wafer hop latency (not published: a parameter)
    double ioBandwidthBytesPerS = 150e9; // off-wafer system I/O (12 x 100 GbE)
    double powerWatts = 0.0;             // system power per wafer, 0 = unknown

    // Hardware facts of one wafer spec (clock, alpha, I/O, power); fitted fields keep their values.
    void applyHardware(const WaferSpec& wafer);

    bool operator==(const TimingParams&) const = default;
};

struct ParamInfo
{
    std::string name;  // field name, e.g. "routingStageCycles"
    std::string label; // short label, e.g. "beta"
    std::string unit;  // "cycles", "Hz", "bytes", "s", "B/s", "W"
    double value = 0;
    bool fitted = false; // true when a calibration profile sets it
    std::string source;  // citation (keys of docs/sources.md) or "fitted: <profile>"
    std::string description;
};

// One entry per field, in declaration order.
std::vector<ParamInfo> describe(const TimingParams& params, const std::string& profileName = {});

} // namespace ws
