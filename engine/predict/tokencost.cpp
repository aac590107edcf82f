#include "engine/predict/tokencost.h"

#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ws {

double usdPerMillionTokens(double hourlyUsd, double aggregateTokensPerSecond)
{
    return aggregateTokensPerSecond > 0 ? hourlyUsd / (aggregateTokensPerSecond * 3600.0) * 1e6 : 0;
}

std::vector<CostPoint> costCurve(const Prediction& p)
{
    std::vector<CostPoint> out;
    const TokenCost& c = p.cost;
    if (!c.known || !(p.tokensPerSecondPerUser > 0))
        return out;
    const Range& speed = p.tokensPerSecondPerUserRange;
    const double fast = speed.high > 0 ? speed.high / p.tokensPerSecondPerUser : 1.0;
    const double slow = speed.low > 0 ? speed.low / p.tokensPerSecondPerUser : 1.0;
    for (const ConcurrencyPoint& cp : p.concurrencyCurve) {
        if (p.maxConcurrency > 0 && cp.concurrency > p.maxConcurrency)
            continue; // beyond what fits the curve repeats the capped value
        if (!(cp.aggregateTokensPerSecond > 0))
            continue;
        CostPoint q;
        q.concurrency = cp.concurrency;
        q.tokensPerSecondPerUser = cp.tokensPerSecondPerUser;
        q.aggregateTokensPerSecond = cp.aggregateTokensPerSecond;
        q.usdPerMillionTokens = usdPerMillionTokens(c.hourlyUsd, cp.aggregateTokensPerSecond);
        q.usdPerMillionTokensRange = {usdPerMillionTokens(c.hourlyUsdRange.low, cp.aggregateTokensPerSecond * fast),
                                      usdPerMillionTokens(c.hourlyUsdRange.high, cp.aggregateTokensPerSecond * slow)};
        out.push_back(q);
    }
    return out;
}

Expected<std::vector<ApiPrice>> readApiPrices(const std::string& jsonText)
{
    return guardedRead([&]() -> Expected<std::vector<ApiPrice>> {
        const auto j = nlohmann::json::parse(jsonText, nullptr, false);
        // The prices carry their sources row by row.
        if (const auto header = readMeasurementHeader(
                j, "api-price", {.idRequired = false, .sourceRequired = false, .emptyRowsAllowed = true});
            !header)
            return header.error();
        std::vector<ApiPrice> out;
        for (size_t i = 0; i < j["rows"].size(); ++i) {
            const auto& r = j["rows"][i];
            const std::string at = "rows[" + std::to_string(i) + "].";
            ApiPrice p;
            p.label = r.value("label", std::string());
            p.provider = r.value("provider", std::string());
            p.modelId = r.value("model", std::string());
            p.hardwareId = r.value("hardware", std::string());
            p.usdPerMillionOutputTokens = r.value("usd_per_million_output_tokens", 0.0);
            p.usdPerMillionInputTokens = r.value("usd_per_million_input_tokens", 0.0);
            p.speculative = r.value("speculative", std::string("unknown"));
            p.configuration = r.value("configuration", std::string());
            p.source = r.value("source", std::string());
            p.date = r.value("date", std::string());
            if (p.modelId.empty())
                return makeError(ErrorCode::Format, "no model preset", at + "model");
            if (p.hardwareId.empty())
                return makeError(ErrorCode::Format, "no hardware preset", at + "hardware");
            if (!(p.usdPerMillionOutputTokens > 0))
                return makeError(ErrorCode::Format, "the output price must be above 0",
                                 at + "usd_per_million_output_tokens");
            if (p.source.empty())
                return makeError(ErrorCode::Format, "every price needs its source", at + "source");
            out.push_back(std::move(p));
        }
        return out;
    });
}

const std::vector<ApiPrice>& shippedApiPrices()
{
    static const std::vector<ApiPrice> all = [] {
        std::vector<ApiPrice> out;
        for (const EmbeddedMeasurementFile& f : embeddedMeasurementFiles()) {
            if (f.text.find("\"api-price\"") == std::string_view::npos)
                continue;
            auto prices = readApiPrices(std::string(f.text));
            if (prices)
                out.insert(out.end(), prices->begin(), prices->end());
        }
        return out;
    }();
    return all;
}

std::vector<ApiPrice> apiPricesFor(const std::string& modelId, const std::string& hardwareId)
{
    std::vector<ApiPrice> out;
    for (const ApiPrice& p : shippedApiPrices())
        if (p.modelId == modelId && p.hardwareId == hardwareId)
            out.push_back(p);
    return out;
}

} // namespace ws
