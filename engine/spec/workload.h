#pragma once
// A workload says what the hardware is asked to do: how many requests run at
// once, how long their contexts are, the prompt and answer lengths, and
// speculative decoding. Predictors turn (model, hardware, workload) into a
// Prediction. Defaults (docs/sources.md): one user and a 4K context (the
// WaferLLM setting [WaferLLM-T4]), an example agent workflow of 5 steps x 500
// tokens, and 0.56-0.67 tokens per Chinese character, Qwen's tokenizer
// [Tokens-per-Chinese-character].

#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"

#include <cstdint>
#include <optional>

namespace ws {

struct SpeculativeDecoding
{
    bool enabled = false;
    int tokensPerStep = 4;                 // k: draft tokens proposed per step
    double acceptanceRate = 0.7;           // probability that each draft token is accepted
    std::optional<ModelConfig> draftModel; // when absent, the draft costs draftCostFraction of a target token
    double draftCostFraction = 0.1;

    // Expected tokens produced per verify step: (1 - a^(k+1)) / (1 - a).
    double expectedTokensPerStep() const;
    bool operator==(const SpeculativeDecoding&) const = default;
};

struct Workload
{
    Precision precision = Precision::Bf16;
    int concurrency = 1; // requests in flight (users)
    // true: the concurrency is known to be the batch the hardware runs (a benchmark that states it); false: a
    // service may batch other users' requests beside these, a range driver on GPUs (provider_batch).
    bool batchKnown = false;
    int64_t contextTokens = 4096; // tokens already in the KV cache while decoding
    int64_t promptTokens = 512;
    int64_t outputTokens = 256;
    SpeculativeDecoding speculative;
    // With speculative decoding off: true when whether it was on is not known (a service whose source does not
    // say). Where the system's vendor is known to use it (speculativeDefaults), the speed range then spans off
    // to on with the sourced defaults, a named range driver ("speculative_decoding").
    bool speculativeUnknown = false;
    // Scenario sizes shown with the prediction.
    int agentSteps = 5; // an example agent workflow: 5 rounds of 500 tokens
    int64_t agentTokensPerStep = 500;
    int64_t answerCharacters = 1000; // a Chinese answer of N characters: a 1,000-character article
    // [Tokens-per-Chinese-character]: one Qwen token is 1.5-1.8 Chinese characters, so 1 / 1.8 to 1 / 1.5 tokens per
    // character, to two places.
    double tokensPerCharacterLow = 0.56;
    double tokensPerCharacterHigh = 0.67;

    bool operator==(const Workload&) const = default;
};

} // namespace ws
