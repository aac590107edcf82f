#pragma once
// One Prediction for every kind of hardware (wafer, GPU, LPU): decode speed
// per user, time to first token, aggregate throughput against concurrency,
// the devices used, power and energy where the facts allow, the time for an
// agent workflow and for a Chinese answer, a per-phase breakdown of one
// token's time, a speed range built from named uncertain inputs (range
// drivers), and the hard ceiling the configuration cannot exceed. Statistics are plain values so the
// app can compare systems side by side.

#include "engine/hardware/hardwarespec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

struct PhaseTime
{
    std::string id;     // "qkv_gemv", "hbm_weights", "allreduce", ...
    double seconds = 0; // per output token
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

// One input a predictor does not know for sure: the value the point uses, a
// low and a high value with their source, and the speed per user with the
// input at each end (every other input at its assumed value).
struct RangeDriver
{
    std::string input; // "clock_hz", "hbm_efficiency", ...
    std::string unit;
    double assumed = 0;
    double low = 0;
    double high = 0;
    std::string source;
    double tokensPerSecondAtLow = 0;
    double tokensPerSecondAtHigh = 0;
    double effect = 1; // spread it alone causes: max / min of {point, at low, at high}
    double share = 0;  // its share of the combined range (squared log effects, sums to 1)
    // Devices an end runs on when not the prediction's (0: the same), so a range's cost pays for the hardware
    // its speed needs (TokenCost's range: completeCost).
    int devicesAtLow = 0;
    int devicesAtHigh = 0;
};

// The per-token costs that do not shrink with the model, each with its source (a hardware preset field or a
// fitted profile constant, citing docs/sources.md): GPU kernel launches, host work per step and the
// all-reduce latency; the LPU's chip-to-chip transfers; the wafer's fixed latency per all-reduce, its
// reduction hops and the wafer-to-wafer links. How they combine is a property of the hardware and its
// software (`formula`); no prediction's time per token is below `seconds`.
//
// GPU (CUDA graphs, the serving default): the device runs the step's kernels back to back, each after a
// launch gap, so device = roofline at peak + kernels x gap + all-reduce latencies; the host's work per step
// overlaps the device's at best (an overlap scheduler), so step >= max(device, host). Without graphs the
// CPU submits every kernel as well: step >= max(device, kernels x eager launch + host).
// LPU: roofline at peak + chip-to-chip transfers (payload over the chip's links).
// Wafer: the fewest reduction hops + fixed cycles per all-reduce x all-reduces + wafer-to-wafer links.
// The point is max(the model's own time, the floor); `binds` says the floor set it. The floor is the modelled
// serving stack's (vLLM's and SGLang's kernel count and host work), not the hardware's: the ceiling below
// stays the hardware's roofs, which no software passes, and a speed range's high end may pass the floor (a
// stack that fuses its kernels launches fewer).
struct FloorComponent
{
    std::string id;     // "kernel_launch", "host_per_step", "allreduce_latency", "chip_to_chip", ...
    double seconds = 0; // per output token
    std::string source;
};

struct Floor
{
    std::vector<FloorComponent> components;
    double seconds = 0;              // per output token: the components combined by `formula`
    double withoutGraphsSeconds = 0; // GPUs: the same floor if the stack launched kernels one by one (0: n/a)
    double modelSeconds = 0;         // the model's own time per output token, before the floor
    bool binds = false;              // the floor set the point (modelSeconds < seconds)
    std::string formula;             // how the components combine, in words
};

// The hard bound for the configuration: a decode step cannot move its bytes
// faster than the memory roof, do its FLOPs faster than the compute roof, or
// (wafers) cross its layer regions in fewer hops than the reductions need.
// The roofs are those one token's layers run on (all GPUs of a tensor-parallel
// group; one layer region of a wafer, one layer's chips on an LPU).
// A ceiling further above the point than this says why (Ceiling::gap).
inline constexpr double kCeilingGapExplained = 20.0;

struct Ceiling
{
    double peakFlopsPerS = 0;
    double peakBytesPerS = 0;
    double flopsPerStep = 0; // one decode step of one user's token at the chosen batch
    double bytesPerStep = 0;
    double fabricSeconds = 0;          // wafers: the fewest hop cycles the reductions need, in seconds
    double tokensPerStep = 1;          // per user per step (speculative decoding: expected accepted tokens)
    double tokensPerSecondPerUser = 0; // the ceiling itself
    std::string bound;                 // "memory", "compute" or "fabric"
    bool clamped = false;              // the model's figure exceeded the ceiling and was cut to it
    // When the point sits more than kCeilingGapExplained times below the ceiling: what each token spends its time
    // on that the roof does not count (the point's largest breakdown phases), so a far ceiling says why.
    std::string gap;

    double arithmeticIntensity() const { return bytesPerStep > 0 ? flopsPerStep / bytesPerStep : 0; }
};

// Dead cores on wafers (--defect-rate): totals over the devices the placement
// uses, each wafer with its own seeded map and remap (engine/wafer/redundancy/defectplacement.h).
struct WaferDefects
{
    bool applied = false;  // false: no defects asked for (or not a wafer)
    double defectRate = 0; // fraction of physical cores dead
    uint64_t seed = 0;     // device d draws with seed + d
    int64_t deadCores = 0;
    int64_t sparesUsed = 0;
    int64_t unrepairableSegments = 0;
    int64_t usableCores = 0; // devices x the usable mesh the placement used
    int usableCols = 0;      // that mesh
    int usableRows = 0;
    double hopStretch = 1.0; // S_max over every placed region of every wafer, both axes
};

// Dollars per million output tokens at the predicted concurrency: the devices'
// hourly cost over the tokens they produce in an hour (aggregate rate x 3600).
// The range pairs the cheap hour with the fast end of the speed range and the
// dear hour with the slow end.
struct TokenCost
{
    bool known = false;   // false: the hardware preset has no hourly cost
    double hourlyUsd = 0; // all devices
    Range hourlyUsdRange;
    double usdPerMillionTokens = 0;
    Range usdPerMillionTokensRange;
    // The devices the range pays for: the prediction's, up to what a range driver's end needs (the LPU's extra
    // chips, a wafer policy's extra wafers).
    Range devicesRange;
    std::string source; // the hourly cost's citation (hardware preset)
};

// The KV cache the prediction reads: what one token adds over all layers at the predictor's KV width (GPU and
// LPU: 1 byte per value for 8-bit and narrower weights, else 2; wafer: the placement's width). With multi-head
// latent attention ("mla") a layer keeps kvLoraRank + qkRopeHeadDim values per token, not K and V per head.
struct KvCacheFacts
{
    std::string attention = "mha"; // "mha" (every head its K and V), "gqa", "mqa" or "mla"
    int64_t valuesPerTokenPerLayer = 0;
    double bytesPerValue = 0;
    double bytesPerToken = 0; // all layers, one token of context
};

struct Prediction
{
    std::string modelId;
    std::string hardwareId;
    HardwareKind kind = HardwareKind::Wafer;
    std::string profile; // calibration profile used
    // The serving stack predicted with (engine/calibration/stackprofile.h): its id, name and the month it became
    // public; empty where no stack names the hardware.
    std::string stack;
    std::string stackName;
    std::string stackPublic;    // "2024-10"
    int devices = 0;            // wafers, GPUs or chips
    bool devicesChosen = false; // true: the fewest that hold the model, picked by the predictor
    int devicesNeeded = 0;      // the fewest that hold the model
    int concurrency = 1;
    int maxConcurrency = 1; // requests that fit (KV memory, pipeline stages)

    double secondsPerToken = 0; // per user, steady state (speculative decoding included)
    double tokensPerSecondPerUser = 0;
    Range tokensPerSecondPerUserRange;
    std::vector<RangeDriver> rangeDrivers; // what the speed range is made of, largest effect first
    Ceiling ceiling;
    Floor floor;            // the per-token costs no prediction goes below
    double ttftSeconds = 0; // prompt processing and first token
    Range ttftRange;
    double aggregateTokensPerSecond = 0;
    std::vector<ConcurrencyPoint> concurrencyCurve;
    std::vector<PhaseTime> breakdown; // one token at the requested concurrency; sums to the token time
    KvCacheFacts kvCache;

    TokenCost cost;
    double powerWatts = 0;     // all devices; 0 = unknown
    double joulesPerToken = 0; // at the aggregate rate; 0 = unknown

    double agentWorkflowSeconds = 0; // steps x (TTFT + tokens per step / speed)
    double answerSeconds = 0;        // TTFT + characters x tokens per character / speed (midpoint)
    Range answerSecondsRange;        // over the tokens-per-character range and the speed range

    WaferDefects defects;          // wafers with dead cores
    int64_t kvCapacityTokens = 0;  // wafers: KV tokens a layer region holds beside its weights
    int64_t sramHeadroomBytes = 0; // wafers: SRAM of the devices used that the placement leaves free
    // Wafers with a draft model (speculative decoding): the cores of the draft's own strip (its placement's
    // usable mesh), the usable cores of one wafer the target and the draft share, and the draft's k tokens
    // of one step.
    int64_t draftCores = 0;
    int64_t usableCoresPerDevice = 0;
    double draftSecondsPerStep = 0;
    std::string draftHome; // "strip" (beside the target on wafer 0) or "own_wafer" (the last device)
    int draftColumns = 0;  // the draft's width in columns (its own wafer: the whole usable mesh)

    std::vector<std::string> notes; // assumptions and choices, English
};

} // namespace ws
