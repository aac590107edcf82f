#pragma once
// Cost per million output tokens over concurrency, and the providers'
// published API prices to show beside it. The cost curve takes the
// prediction's devices, hourly cost (engine/predict/predictionutil.h
// completeCost: the hardware preset's, or a user's figure in its place) and
// concurrency curve: at each concurrency, dollars per million output tokens =
// hourly cost / (aggregate tokens/s x 3600) x 1e6, against the tokens/s each
// user sees (the batching trade-off: more users make each token cheaper and
// each user slower). The range pairs the cheap hour with the fast end of the
// prediction's speed range and the dear hour with the slow end, the speed
// range taken as the same fraction of the speed at every concurrency.
//
// API prices are the "api-price" rows of resources/measurements/api-prices.json:
// provider, model and hardware presets, dollars per million output (and input)
// tokens, whether the endpoint uses speculative decoding, source and date.

#include "engine/core/error.h"
#include "engine/predict/prediction.h"

#include <string>
#include <vector>

namespace ws {

struct CostPoint
{
    int concurrency = 1;
    double tokensPerSecondPerUser = 0;
    double aggregateTokensPerSecond = 0;
    double usdPerMillionTokens = 0;
    Range usdPerMillionTokensRange;
};

// Dollars per million output tokens for an hourly cost and an aggregate rate.
double usdPerMillionTokens(double hourlyUsd, double aggregateTokensPerSecond);

// The prediction's cost at every concurrency of its curve that fits (maxConcurrency); empty when its
// hourly cost is not known.
std::vector<CostPoint> costCurve(const Prediction& prediction);

struct ApiPrice
{
    std::string label;
    std::string provider;
    std::string modelId;    // model preset
    std::string hardwareId; // hardware preset the provider serves it on
    double usdPerMillionOutputTokens = 0;
    double usdPerMillionInputTokens = 0; // 0: not stated
    std::string speculative;             // "yes", "no" or "unknown"
    std::string configuration;
    std::string source;
    std::string date;
};

// Reads an "api-price" file; errors name the row and field.
Expected<std::vector<ApiPrice>> readApiPrices(const std::string& jsonText);
// The shipped prices (every "api-price" file of resources/measurements), read once.
const std::vector<ApiPrice>& shippedApiPrices();
std::vector<ApiPrice> apiPricesFor(const std::string& modelId, const std::string& hardwareId);

} // namespace ws
