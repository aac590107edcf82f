#pragma once
// One Prediction for every kind of hardware (wafer, GPU, LPU): decode speed
// per user, time to first token, aggregate throughput against concurrency,
// the devices used, power and energy where the facts allow, the time for an
// agent workflow and for a Chinese answer, a per-phase breakdown of one
// token's time, and an uncertainty range over plausible model forms,
// placements and calibration profiles. Statistics are plain values so the
// app can compare systems side by side.

#include "engine/hardware/hardwarespec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

struct PhaseTime
{
    std::string id;      // "qkv_gemv", "hbm_weights", "allreduce", ...
    double seconds = 0;  // per output token
};

struct ConcurrencyPoint
{
    int concurrency = 1;
    double tokensPerSecondPerUser = 0;
    double aggregateTokensPerSecond = 0;
};

struct Range
{
    double low = 0;
    double high = 0;
};

// Dead cores on wafers (--defect-rate): totals over the devices the placement
// uses, each wafer with its own seeded map and remap (engine/wafer/redundancy/defectplacement.h).
struct WaferDefects
{
    bool applied = false;             // false: no defects asked for (or not a wafer)
    double defectRate = 0;            // fraction of physical cores dead
    uint64_t seed = 0;                // device d draws with seed + d
    int64_t deadCores = 0;
    int64_t sparesUsed = 0;
    int64_t unrepairableSegments = 0;
    int64_t usableCores = 0;          // devices x the usable mesh the placement used
    int usableCols = 0;               // that mesh
    int usableRows = 0;
    double hopStretch = 1.0;          // S_max over every placed region of every wafer, both axes
};

struct Prediction
{
    std::string modelId;
    std::string hardwareId;
    HardwareKind kind = HardwareKind::Wafer;
    std::string profile;      // calibration profile used
    int devices = 0;          // wafers, GPUs or chips
    bool devicesChosen = false; // true: the fewest that hold the model, picked by the predictor
    int devicesNeeded = 0;    // the fewest that hold the model
    int concurrency = 1;
    int maxConcurrency = 1;   // requests that fit (KV memory, pipeline stages)

    double secondsPerToken = 0;        // per user, steady state (speculative decoding included)
    double tokensPerSecondPerUser = 0;
    Range tokensPerSecondPerUserRange;
    double ttftSeconds = 0;            // prompt processing and first token
    Range ttftRange;
    double aggregateTokensPerSecond = 0;
    std::vector<ConcurrencyPoint> concurrencyCurve;
    std::vector<PhaseTime> breakdown;  // one token at the requested concurrency; sums to the token time

    double powerWatts = 0;            // all devices; 0 = unknown
    double joulesPerToken = 0;        // at the aggregate rate; 0 = unknown

    double agentWorkflowSeconds = 0;  // steps x (TTFT + tokens per step / speed)
    double answerSeconds = 0;         // TTFT + characters x tokens per character / speed (midpoint)
    Range answerSecondsRange;         // over the tokens-per-character range and the speed range

    WaferDefects defects;             // wafers with dead cores
    int64_t kvCapacityTokens = 0;     // wafers: KV tokens a layer region holds beside its weights
    int64_t sramHeadroomBytes = 0;    // wafers: SRAM of the devices used that the placement leaves free

    std::vector<std::string> notes;   // assumptions and choices, English
};

} // namespace ws
