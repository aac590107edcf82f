#pragma once
// Cost per million output tokens over concurrency, and the providers'
// published API prices to show beside it. The cost curve takes the
// prediction's devices, hourly cost (engine/predict/predictionutil.h
// completeCost: the hardware preset's, or a user's figure in its place) and
// concurrency curve: at each concurrency, dollars per million output tokens =
// hourly cost / (aggregate tokens/s x 3600) x 1e6, against the tokens/s each
// user sees (the batching trade-off: more users make each token cheaper and
// each user slower). The range is the prediction's cost range (completeCost:
// the cheap hour at the fast end of the speed range and the dear hour at the
// slow end, each end on the devices it needs), taken as the same fraction of
// the cost at every concurrency.
//
// API prices are the "api-price" rows of resources/measurements/api-prices.json:
// provider, model and hardware presets, dollars per million output (and input)
// tokens, whether the endpoint uses speculative decoding, source and date.

#include "engine/core/error.h"
#include "engine/predict/prediction.h"

#include <functional>
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
    int devices = 0; // costAtScale: the devices at this concurrency (0: the prediction's own)
};

// Dollars per million output tokens for an hourly cost and an aggregate rate.
double usdPerMillionTokens(double hourlyUsd, double aggregateTokensPerSecond);

// The prediction's cost at every concurrency of its curve that fits (maxConcurrency); empty when its
// hourly cost is not known.
std::vector<CostPoint> costCurve(const Prediction& prediction);

// Where a cost curve meets a published price (a price carries the provider's margin and batching; the curve is
// the devices' hourly cost over the tokens they make): the fewest users decoding at once whose cost, with the
// devices busy every hour, is at or below the price (log-log interpolation between the curve's concurrencies), and
// at the curve's cheapest point the share of hours the devices must be busy for the cost to equal the price
// (utilisation above 1: the price is below the cost at any use).
struct PriceMeet
{
    bool meets = false;                // some concurrency that fits reaches the price at full use
    double concurrency = 0;            // meets: users decoding at once
    double tokensPerSecondPerUser = 0; // meets: each user's speed there
    int cheapestConcurrency = 0;       // the curve's cheapest point (0: empty curve)
    double cheapestUsdPerMillionTokens = 0;
    double utilisation = 0; // cheapest cost / price
};
PriceMeet meetPrice(const std::vector<CostPoint>& curve, double usdPerMillionTokens);

// The cost of serving 1, 2, 4, ... users at once, each concurrency predicted afresh by `predictAt` (on the fewest
// devices that hold the model and those users' KV caches, where the predictor adds devices for users), up to
// maxConcurrency or until the predictor caps the users (what fits no longer grows) or fails.
std::vector<CostPoint> costAtScale(const std::function<Expected<Prediction>(int concurrency)>& predictAt,
                                   int maxConcurrency = 4096);

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
