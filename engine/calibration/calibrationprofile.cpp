#include "engine/calibration/calibrationprofile.h"

#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/lpumodel.h"
#include "engine/calibration/measurementjson.h"
#include "engine/calibration/wafercalibration.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ws {

namespace {
CalibrationProfile waferProfile(const WaferCalibration& c, const std::string& description)
{
    CalibrationProfile p;
    p.id = c.profile;
    p.kind = "wafer";
    p.description = description;
    p.source = c.source;
    p.constants = describe(c.params, c.profile);
    for (size_t i = 0; i < c.rows.size(); ++i) {
        CalibrationRow r;
        r.label = c.rows[i].model + ", " + std::to_string(c.rows[i].grid) + " x " + std::to_string(c.rows[i].grid);
        r.metric = "tokens_per_second_per_user";
        r.observed = c.rows[i].tokensPerSecond;
        r.predicted = c.predictedTokensPerSecond[i];
        r.relativeResidual = (r.predicted - r.observed) / r.observed;
        p.rows.push_back(r);
    }
    p.rmsRelativeResidual = c.fit.rmsRelativeResidual;
    p.maxAbsRelativeResidual = c.fit.maxAbsRelativeResidual;
    return p;
}
} // namespace

const std::vector<CalibrationProfile>& shippedProfiles()
{
    static const std::vector<CalibrationProfile> all = [] {
        std::vector<CalibrationProfile> out;
        if (const auto& w = shippedWaferCalibration(); w)
            out.push_back(waferProfile(*w, "WaferLLM decode kernel on WSE-2: per-layer cycles of a P x P region."));
        for (const auto& g : shippedGpuCalibrations())
            out.push_back(g.profile);
        if (const auto& l = shippedLpuCalibration(); l)
            out.push_back(l->profile);
        return out;
    }();
    return all;
}

static Expected<CalibrationProfile> fitProfileUnguarded(const std::string& jsonText)
{
    const nlohmann::json j = nlohmann::json::parse(jsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::Format, "measurement file is not a JSON object");
    const std::string kind = j.value("kind", std::string());
    if (kind == "wafer-kernel") {
        auto set = parseWaferKernelSet(jsonText);
        if (!set)
            return set.error();
        auto c = fitWaferTiming(*set);
        if (!c)
            return c.error();
        return waferProfile(*c, j.value("description", std::string()));
    }
    if (kind == "gpu") {
        auto c = fitGpuProfile(jsonText);
        if (!c)
            return c.error();
        return c->profile;
    }
    if (kind == "lpu") {
        auto c = fitLpuProfile(jsonText);
        if (!c)
            return c.error();
        return c->profile;
    }
    return makeError(ErrorCode::Format, "kind must be \"wafer-kernel\", \"gpu\" or \"lpu\"", "kind");
}

Expected<CalibrationProfile> fitProfile(const std::string& jsonText)
{
    return guardedRead([&] { return fitProfileUnguarded(jsonText); });
}

} // namespace ws
