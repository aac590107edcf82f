#include "engine/predict/tokencost.h"

#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

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
    // The prediction's cost range (completeCost: each end on the devices it needs) as the same fraction of the
    // cost at every concurrency.
    const double lowShare = c.usdPerMillionTokens > 0 ? c.usdPerMillionTokensRange.low / c.usdPerMillionTokens : 1.0;
    const double highShare = c.usdPerMillionTokens > 0 ? c.usdPerMillionTokensRange.high / c.usdPerMillionTokens : 1.0;
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
        q.usdPerMillionTokensRange = {q.usdPerMillionTokens * lowShare, q.usdPerMillionTokens * highShare};
        out.push_back(q);
    }
    return out;
}

PriceMeet meetPrice(const std::vector<CostPoint>& curve, double price)
{
    PriceMeet m;
    if (curve.empty() || !(price > 0))
        return m;
    const auto cheapest = std::min_element(curve.begin(), curve.end(), [](const CostPoint& a, const CostPoint& b) {
        return a.usdPerMillionTokens < b.usdPerMillionTokens;
    });
    m.cheapestConcurrency = cheapest->concurrency;
    m.cheapestUsdPerMillionTokens = cheapest->usdPerMillionTokens;
    m.utilisation = cheapest->usdPerMillionTokens / price;
    for (size_t i = 0; i < curve.size(); ++i) {
        const CostPoint& b = curve[i];
        if (!(b.usdPerMillionTokens <= price))
            continue;
        m.meets = true;
        m.concurrency = b.concurrency;
        m.tokensPerSecondPerUser = b.tokensPerSecondPerUser;
        if (i > 0 && curve[i - 1].usdPerMillionTokens > price && b.usdPerMillionTokens < price) {
            // Between two concurrencies the cost falls about as a power of the users: interpolate in log-log.
            const CostPoint& a = curve[i - 1];
            const double t =
                std::log(a.usdPerMillionTokens / price) / std::log(a.usdPerMillionTokens / b.usdPerMillionTokens);
            m.concurrency = std::exp(std::log(a.concurrency) + t * std::log(double(b.concurrency) / a.concurrency));
            m.tokensPerSecondPerUser = std::exp(std::log(a.tokensPerSecondPerUser) +
                                                t * std::log(b.tokensPerSecondPerUser / a.tokensPerSecondPerUser));
        }
        break;
    }
    return m;
}

std::vector<CostPoint> costAtScale(const std::function<Expected<Prediction>(int concurrency)>& predictAt,
                                   int maxConcurrency)
{
    std::vector<CostPoint> out;
    for (int users = 1; users <= maxConcurrency; users *= 2) {
        const Expected<Prediction> p = predictAt(users);
        if (!p || !p->cost.known || !(p->aggregateTokensPerSecond > 0))
            break;
        CostPoint q;
        q.concurrency = p->concurrency;
        q.tokensPerSecondPerUser = p->tokensPerSecondPerUser;
        q.aggregateTokensPerSecond = p->aggregateTokensPerSecond;
        q.usdPerMillionTokens = usdPerMillionTokens(p->cost.hourlyUsd, p->aggregateTokensPerSecond);
        q.usdPerMillionTokensRange = p->cost.usdPerMillionTokensRange;
        q.devices = p->devices;
        out.push_back(q);
        if (p->concurrency < users)
            break; // capped: more users do not fit these devices
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
