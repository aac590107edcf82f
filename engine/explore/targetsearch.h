#pragma once
// "What would it take": for a model on a hardware preset and a target speed
// per user, which combination of the levers a serving stack has reaches it,
// predicted by predict() (engine/predict/predictor.h) for each: on wafers the
// kernel factor (1: WaferLLM's measured kernels; the latest stack's fitted
// factor; the SIMD limit, engine/predict/stackkernel.h), speculative decoding
// (k = 4 or 8 draft tokens, acceptance 0.5, 0.7 or 0.9: the sourced range; a
// draft of one decoder layer reusing the target's LM head, EAGLE, at
// 1 / layers of a target token), for a mixture-of-experts model on wafers
// where its experts sit (the options' layout first, then the other,
// engine/wafer/placement/expertlayout.h) and, on GPUs and LPUs, twice the fewest
// devices. Every prediction stays under its own ceiling (the point is cut to
// it), so a target no combination reaches is physically out of reach as
// modelled; the answer says which ceiling binds.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/predictor.h"
#include "engine/spec/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace ws {

struct TargetOption
{
    double kernelFactor = 1; // wafers; 1 elsewhere
    std::string kernel;      // "measured (WaferLLM)", "stack <id>", "SIMD limit"; empty off wafers
    std::string experts;     // a MoE model on wafers: "blocks" or "sliced"; empty otherwise
    bool speculative = false;
    int draftTokens = 0;
    double acceptance = 0;
    double draftCostFraction = 0; // one decoder layer: 1 / layers
    int devices = 0;
    double tokensPerSecond = 0;
    double ceilingTokensPerSecond = 0;
    std::string ceilingBound; // "memory", "compute", "fabric"
    bool reaches = false;
};

struct TargetAnswer
{
    double target = 0;
    std::vector<TargetOption> tried; // in order of effort: the least change first
    std::optional<size_t> least;     // the first that reaches the target
    size_t fastest = 0;
    bool reachable = false;
    std::string verdict; // in words: what it takes, or why it is out of reach
};

Expected<TargetAnswer> whatItTakes(const ModelConfig& model, const HardwareSpec& hardware, const Workload& workload,
                                   const PredictOptions& options, double targetTokensPerSecond);

} // namespace ws
