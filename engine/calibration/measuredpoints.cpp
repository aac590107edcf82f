#include "engine/calibration/measuredpoints.h"

#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"
#include "engine/hardware/hardwarepresetparser.h"
#include "engine/hardware/hardwarespec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ws {

std::string_view measuredOriginId(MeasuredOrigin o)
{
    switch (o) {
    case MeasuredOrigin::Calibration:
        return "calibration";
    case MeasuredOrigin::Reference:
        return "reference";
    case MeasuredOrigin::User:
        return "user";
    }
    return "reference";
}

std::string_view measuredRoleId(MeasuredRole r)
{
    switch (r) {
    case MeasuredRole::Calibration:
        return "calibration";
    case MeasuredRole::Development:
        return "development";
    case MeasuredRole::Check:
        return "check";
    }
    return "development";
}

std::optional<MeasuredRole> parseMeasuredRole(std::string_view id)
{
    for (MeasuredRole r : {MeasuredRole::Calibration, MeasuredRole::Development, MeasuredRole::Check})
        if (measuredRoleId(r) == id)
            return r;
    return std::nullopt;
}

std::string_view tristateId(Tristate t)
{
    switch (t) {
    case Tristate::No:
        return "no";
    case Tristate::Yes:
        return "yes";
    case Tristate::Unknown:
        return "unknown";
    }
    return "unknown";
}

double MeasuredPoint::tokensPerSecondPerUser() const
{
    if (metric == "tokens_per_second_per_user")
        return value;
    if (metric == "aggregate_tokens_per_second")
        return value / double(std::max(1, concurrency));
    return 0;
}

namespace {
using json = nlohmann::json;

Expected<Tristate> tristate(const json& r, const char* key, Tristate fallback, const std::string& where)
{
    if (!r.contains(key))
        return fallback;
    const json& v = r.at(key);
    if (v.is_boolean())
        return v.get<bool>() ? Tristate::Yes : Tristate::No;
    const std::string s = v.is_string() ? v.get<std::string>() : std::string();
    if (s == "yes")
        return Tristate::Yes;
    if (s == "no")
        return Tristate::No;
    if (s == "unknown")
        return Tristate::Unknown;
    return makeError(ErrorCode::Format, std::string(key) + " must be \"yes\", \"no\" or \"unknown\"", where + key);
}

// The fields every kind shares, with the file's defaults (source, date, speculative).
Expected<MeasuredPoint> readRow(const json& r, const json& file, const std::string& kind, MeasuredOrigin origin,
                                MeasuredRole fileRole, const std::string& where)
{
    if (!r.is_object())
        return makeError(ErrorCode::Format, "a row must be an object", where);
    if (Status ok = integerFieldsFit(r, where); !ok)
        return ok.error();
    MeasuredPoint p;
    p.origin = origin;
    p.set = file.value("id", std::string());
    p.label = r.value("label", std::string());
    p.source = r.value("source", file.value("source", std::string()));
    p.date = r.value("date", file.value("date", std::string()));
    p.configuration = r.value("configuration", file.value("configuration", std::string()));
    p.note = r.value("assumption", r.value("why_not_fitted", std::string()));
    p.doubt = r.value("doubt", std::string());
    p.fitted = kind != "reference" && r.value("fit", true);
    // A calibration file's rows left out of the fit were still looked at, and share the file's table.
    p.role = fileRole == MeasuredRole::Calibration && !p.fitted ? MeasuredRole::Development : fileRole;
    if (kind != "reference" && !p.fitted)
        p.shares.push_back(file.value("id", std::string()));
    if (r.contains("shares")) {
        const json& sh = r.at("shares");
        if (sh.is_string())
            p.shares.push_back(sh.get<std::string>());
        else if (sh.is_array())
            for (const json& s : sh) {
                if (!s.is_string())
                    return makeError(ErrorCode::Format, "shares names calibration files or rows", where + "shares");
                p.shares.push_back(s.get<std::string>());
            }
        else
            return makeError(ErrorCode::Format, "shares names calibration files or rows", where + "shares");
    }
    if (p.role == MeasuredRole::Check && !p.shares.empty())
        return makeError(ErrorCode::Format,
                         "a row that shares a source, run or table with calibration rows (" + p.shares.front() +
                             ") can never be a check row: put it in a development file",
                         where + "shares");
    const bool prefill = kind == "wafer-prefill";
    const bool kernel = kind == "wafer-kernel" || prefill;
    if (kernel && r.contains("grid") && r.at("grid").is_number_integer()) {
        const std::string g = std::to_string(r.at("grid").get<int>());
        p.configuration = prefill ? "prefill, one " + g + " x " + g + " region per layer"
                                  : "one " + g + " x " + g +
                                        " region per layer, timed on one layer and scaled to "
                                        "the layer count";
        p.label = r.value("model", std::string()) + ", WSE-2, " + g + " x " + g + (prefill ? ", prefill" : "");
    }
    p.decodeGrid = r.value("grid", r.value("decode_grid", 0));
    p.prefillGrid = r.value("prefill_grid", p.decodeGrid);
    if (p.decodeGrid < 0 || p.prefillGrid < 0)
        return makeError(ErrorCode::Format, "a grid side must not be negative", where + "grid");
    const std::string modelKey = kernel ? "preset" : "model";
    if (!r.contains(modelKey) || !r.at(modelKey).is_string())
        return makeError(ErrorCode::Format, "missing model preset id", where + modelKey);
    p.modelId = r.at(modelKey).get<std::string>();
    // A check row may be committed before its presets exist (frozen first, predicted once they do): it is a miss.
    const bool check = p.role == MeasuredRole::Check;
    if (!shippedModel(p.modelId)) {
        if (!check || p.modelId.empty())
            return makeError(ErrorCode::NotFound, "unknown model preset '" + p.modelId + "'", where + modelKey);
        p.presetsKnown = false;
    }
    p.hardwareId = kernel ? file.value("hardware", std::string("wse2")) : r.value("hardware", std::string());
    if (const HardwareSpec* hw = shippedHardware(p.hardwareId)) {
        p.deviceKind = hardwareKindId(hw->kind);
    } else {
        if (!check || p.hardwareId.empty())
            return makeError(ErrorCode::NotFound, "unknown hardware preset '" + p.hardwareId + "'", where + "hardware");
        p.presetsKnown = false;
        p.deviceKind = r.value("device_kind", std::string());
        if (p.deviceKind != "wafer" && p.deviceKind != "gpu" && p.deviceKind != "lpu")
            return makeError(ErrorCode::Format,
                             "a row on hardware with no preset needs device_kind \"wafer\", \"gpu\" or \"lpu\"",
                             where + "device_kind");
    }
    const char* devicesKey = kind == "gpu" ? "gpus" : kind == "lpu" ? "chips" : "devices";
    p.devices = r.value(devicesKey, 0);
    if (p.devices < 0)
        return makeError(ErrorCode::Format, "device count must not be negative", where + devicesKey);
    if (r.contains("precision")) {
        p.precision = parsePrecision(r.at("precision").is_string() ? r.at("precision").get<std::string>() : "");
        if (!p.precision)
            return makeError(ErrorCode::Format, "unknown precision", where + "precision");
    } else if (kernel) {
        p.precision = Precision::Bf16; // WaferLLM measures 16-bit
    }
    p.concurrency = r.value("concurrency", 1);
    if (p.concurrency < 1)
        return makeError(ErrorCode::Format, "concurrency must be at least 1", where + "concurrency");
    auto spec = tristate(r, "speculative", Tristate::No, where);
    if (!spec)
        return spec.error();
    auto specFile = tristate(file, "speculative", Tristate::No, "");
    p.speculative = r.contains("speculative") ? *spec : (specFile ? *specFile : Tristate::No);
    p.draftModelId = r.value("draft", std::string());
    if (!p.draftModelId.empty() && !shippedModel(p.draftModelId)) {
        if (!check)
            return makeError(ErrorCode::NotFound, "unknown draft model preset '" + p.draftModelId + "'",
                             where + "draft");
        p.presetsKnown = false;
    }
    p.draftCostFraction = r.value("draft_cost", 0.0);
    p.draftTokens = r.value("draft_tokens", 0);
    p.acceptanceRate = r.value("acceptance", 0.0);
    if (p.draftCostFraction < 0 || p.draftTokens < 0 || p.acceptanceRate < 0 || p.acceptanceRate > 1)
        return makeError(ErrorCode::Format, "draft cost, draft tokens and acceptance must be in range",
                         where + "draft");
    p.batchKnown = r.value("batch_known", file.value("batch_known", true));
    p.contextTokens = r.value("context", int64_t(0));
    p.promptTokens = r.value("prompt", int64_t(0));
    p.outputTokens = r.value("output", int64_t(0));
    if (p.contextTokens < 0 || p.promptTokens < 0 || p.outputTokens < 0)
        return makeError(ErrorCode::Format, "lengths must not be negative", where + "context");
    if (prefill && p.promptTokens < 1)
        return makeError(ErrorCode::Format, "a prefill speed needs a prompt length", where + "prompt");
    if (!prefill && p.contextTokens == 0 && p.outputTokens == 0)
        return makeError(ErrorCode::Format, "give a context (decode only) or prompt and output lengths",
                         where + "context");
    for (const char* metric :
         {"tokens_per_second_per_user", "aggregate_tokens_per_second", "end_to_end_tokens_per_second_per_user",
          "prefill_tokens_per_second", "tokens_per_second"}) {
        if (!r.contains(metric))
            continue;
        if (!r.at(metric).is_number())
            return makeError(ErrorCode::Format, "must be a number", where + metric);
        p.metric = std::string(metric) == "tokens_per_second" ? "tokens_per_second_per_user" : metric;
        p.value = r.at(metric).get<double>();
        if (!(p.value > 0) || !std::isfinite(p.value))
            return makeError(ErrorCode::Format, "speed must be positive", where + metric);
        if (p.metric == "end_to_end_tokens_per_second_per_user" && (p.promptTokens < 1 || p.outputTokens < 1))
            return makeError(ErrorCode::Format, "an end-to-end speed needs prompt and output lengths",
                             where + "output");
        return p;
    }
    return makeError(ErrorCode::Format,
                     "no speed: give tokens_per_second_per_user, aggregate_tokens_per_second or "
                     "end_to_end_tokens_per_second_per_user",
                     where + "tokens_per_second_per_user");
}
} // namespace

Expected<std::vector<MeasuredPoint>> readMeasuredPoints(const std::string& jsonText, MeasuredOrigin origin,
                                                        std::string* kindOut)
{
    if (kindOut)
        kindOut->clear();
    const json j = json::parse(jsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorCode::Format, "measurement file is not a JSON object");
    // Not j.value("kind", ...): it throws type_error 302 when the kind is not a string (fuzz_measuredpoints).
    const std::string kind = j.contains("kind") && j.at("kind").is_string() ? j.at("kind").get<std::string>() : "";
    if (kindOut)
        *kindOut = kind;
    if (kind != "reference" && kind != "gpu" && kind != "lpu" && kind != "wafer-kernel" && kind != "wafer-prefill")
        return makeError(ErrorCode::Format,
                         "kind must be \"reference\", \"gpu\", \"lpu\", \"wafer-kernel\" or \"wafer-prefill\"", "kind");
    if (!j.contains("id") || !j.at("id").is_string() || j.at("id").get<std::string>().empty())
        return makeError(ErrorCode::Format, "a measurement set needs an id", "id");
    if (!j.contains("rows") || !j["rows"].is_array() || j["rows"].empty())
        return makeError(ErrorCode::Format, "missing rows", "rows");
    const MeasuredOrigin o = kind == "reference" ? origin : MeasuredOrigin::Calibration;
    MeasuredRole role = kind == "reference" ? MeasuredRole::Development : MeasuredRole::Calibration;
    if (j.contains("role")) {
        const std::string id = j.at("role").is_string() ? j.at("role").get<std::string>() : "";
        const auto r = parseMeasuredRole(id);
        if (!r)
            return makeError(ErrorCode::Format, "role must be \"calibration\", \"development\" or \"check\"", "role");
        if (kind == "reference" && *r == MeasuredRole::Calibration)
            return makeError(ErrorCode::Format,
                             "a reference file is never fitted: its role is \"development\" or \"check\"", "role");
        if (kind != "reference" && *r != MeasuredRole::Calibration)
            return makeError(ErrorCode::Format, "a " + kind + " file is fitted: its role is \"calibration\"", "role");
        role = *r;
    } else if (kind == "reference" && origin == MeasuredOrigin::Reference) {
        return makeError(ErrorCode::Format,
                         "a shipped reference file states its role: \"development\" (looked at while modelling) or "
                         "\"check\" (frozen before the model change judged against it)",
                         "role");
    }
    std::vector<MeasuredPoint> out;
    for (size_t i = 0; i < j["rows"].size(); ++i) {
        const json& r = j["rows"][i];
        if ((kind == "wafer-kernel" || kind == "wafer-prefill") && !(r.is_object() && r.contains("preset")))
            continue; // a kernel row without a model preset is not a system configuration
        try {
            auto p = readRow(r, j, kind, o, role, "rows[" + std::to_string(i) + "].");
            if (!p)
                return p.error();
            if (p->source.empty())
                return makeError(ErrorCode::Format, "every measurement needs a source",
                                 "rows[" + std::to_string(i) + "].source");
            out.push_back(std::move(*p));
        } catch (const json::exception& e) {
            return makeError(ErrorCode::Format, std::string("wrong field type: ") + e.what(),
                             "rows[" + std::to_string(i) + "]");
        }
    }
    return out;
}

bool matchesPrediction(const MeasuredPoint& p, const PredictionKey& key, bool anyConcurrency)
{
    if (p.metric == "end_to_end_tokens_per_second_per_user" || p.metric == "prefill_tokens_per_second")
        return false;
    if (p.modelId != key.modelId || p.hardwareId != key.hardwareId)
        return false;
    if (p.devices > 0 && p.devices != key.devices)
        return false;
    if (p.precision && *p.precision != key.precision)
        return false;
    return anyConcurrency || p.concurrency == key.concurrency;
}

std::vector<MeasuredPoint> matchingPoints(const std::vector<MeasuredPoint>& points, const PredictionKey& key,
                                          bool anyConcurrency)
{
    std::vector<MeasuredPoint> out;
    for (const MeasuredPoint& p : points)
        if (matchesPrediction(p, key, anyConcurrency))
            out.push_back(p);
    return out;
}

} // namespace ws
