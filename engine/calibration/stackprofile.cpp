#include "engine/calibration/stackprofile.h"

#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace ws {

namespace {
bool digit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
} // namespace

std::optional<YearMonth> parseYearMonth(std::string_view t)
{
    for (size_t i = 0; i + 4 <= t.size(); ++i) {
        if ((i > 0 && (digit(t[i - 1]) || t[i - 1] == '.')) || !digit(t[i]) || !digit(t[i + 1]) || !digit(t[i + 2]) ||
            !digit(t[i + 3]) || (i + 4 < t.size() && digit(t[i + 4])))
            continue;
        const int year = std::stoi(std::string(t.substr(i, 4)));
        if (year < 1990 || year > 2100)
            continue;
        int month = 12; // a year alone: its last month
        if (i + 7 <= t.size() && t[i + 4] == '-' && digit(t[i + 5]) && digit(t[i + 6]) &&
            (i + 7 == t.size() || !digit(t[i + 7]))) {
            const int m = std::stoi(std::string(t.substr(i + 5, 2)));
            if (m >= 1 && m <= 12)
                month = m;
        }
        return year * 12 + month - 1;
    }
    return std::nullopt;
}

std::string yearMonthText(YearMonth m)
{
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d", m / 12, m % 12 + 1);
    return text;
}

bool StackProfile::runsOn(std::string_view hardwareId) const
{
    return std::find(hardware.begin(), hardware.end(), hardwareId) != hardware.end();
}

static Expected<std::vector<StackProfile>> readUnguarded(const std::string& jsonText)
{
    const nlohmann::json j = nlohmann::json::parse(jsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("kind", std::string()) != "stack-profiles")
        return makeError(ErrorCode::Format, "not a \"stack-profiles\" file", "kind");
    if (!j.contains("profiles") || !j.at("profiles").is_array() || j.at("profiles").empty())
        return makeError(ErrorCode::Format, "no profiles", "profiles");
    std::vector<StackProfile> out;
    int i = 0;
    for (const auto& r : j.at("profiles")) {
        const std::string where = "profiles[" + std::to_string(i++) + "].";
        StackProfile p;
        p.id = r.value("id", std::string());
        p.name = r.value("name", std::string());
        p.deviceKind = r.value("device_kind", std::string());
        p.hardware = r.value("hardware", std::vector<std::string>());
        p.dateSource = r.value("date_source", std::string());
        p.known = r.value("known", std::string());
        p.assumed = r.value("assumed", std::string());
        p.source = r.value("source", std::string());
        p.gpuProfile = r.value("gpu_profile", std::string());
        p.fitRows = r.value("fit_rows", std::vector<std::string>());
        const auto month = parseYearMonth(r.value("public", std::string()));
        if (p.id.empty() || p.hardware.empty() || p.source.empty() || p.known.empty() || p.assumed.empty())
            return makeError(ErrorCode::Format, "a profile needs id, hardware, known, assumed and source", where);
        if (p.deviceKind != "wafer" && p.deviceKind != "gpu" && p.deviceKind != "lpu")
            return makeError(ErrorCode::Format, "device_kind must be wafer, gpu or lpu", where + "device_kind");
        if (!month)
            return makeError(ErrorCode::Format, "public must be a month (YYYY-MM)", where + "public");
        p.publicMonth = *month;
        const std::string spec = r.value("speculative", std::string("no"));
        if (spec != "yes" && spec != "no")
            return makeError(ErrorCode::Format, "speculative must be yes or no", where + "speculative");
        p.speculative = spec == "yes";
        const std::string draft = r.value("draft", std::string("preset"));
        if (draft != "preset" && draft != "one-layer")
            return makeError(ErrorCode::Format, "draft must be preset or one-layer", where + "draft");
        p.oneLayerDraft = draft == "one-layer";
        if (r.contains("kernel_factor")) {
            const auto& k = r.at("kernel_factor");
            if (k.is_string() && k.get<std::string>() == "fit") {
                p.fitKernel = true;
                if (p.fitRows.empty())
                    return makeError(ErrorCode::Format, "a fitted kernel factor needs fit_rows", where + "fit_rows");
            } else if (k.is_number() && k.get<double>() > 0 && k.get<double>() <= 1) {
                p.kernelFactor = k.get<double>();
            } else {
                return makeError(ErrorCode::Format, "kernel_factor must be \"fit\" or in (0, 1]",
                                 where + "kernel_factor");
            }
        }
        out.push_back(std::move(p));
    }
    return out;
}

Expected<std::vector<StackProfile>> readStackProfiles(const std::string& jsonText)
{
    return guardedRead([&] { return readUnguarded(jsonText); });
}

const Expected<std::vector<StackProfile>>& shippedStackProfiles()
{
    static const Expected<std::vector<StackProfile>> all = []() -> Expected<std::vector<StackProfile>> {
        const std::string_view text = embeddedMeasurement("stacks.json");
        if (text.empty())
            return makeError(ErrorCode::NotFound, "shipped stack profiles missing", "stacks.json");
        auto read = readStackProfiles(std::string(text));
        if (!read) {
            Error e = read.error();
            e.file = "stacks.json";
            return e;
        }
        return read;
    }();
    return all;
}

const StackProfile* stackFor(std::string_view hardwareId, std::optional<YearMonth> asOf)
{
    const auto& all = shippedStackProfiles();
    if (!all)
        return nullptr;
    const StackProfile* best = nullptr;  // the latest public by asOf
    const StackProfile* first = nullptr; // the earliest, before any was public
    for (const StackProfile& p : *all) {
        if (!p.runsOn(hardwareId) || (p.deviceKind == "gpu"))
            continue;
        if (!first || p.publicMonth < first->publicMonth)
            first = &p;
        if ((!asOf || p.publicMonth <= *asOf) && (!best || p.publicMonth >= best->publicMonth))
            best = &p;
    }
    return best ? best : first;
}

const StackProfile* stackOfGpuProfile(std::string_view gpuProfileId)
{
    const auto& all = shippedStackProfiles();
    if (!all || gpuProfileId.empty())
        return nullptr;
    for (const StackProfile& p : *all)
        if (p.gpuProfile == gpuProfileId)
            return &p;
    return nullptr;
}

bool gpuProfileAfter(std::string_view gpuProfileId, YearMonth asOf)
{
    const auto& all = shippedStackProfiles();
    if (!all)
        return false;
    for (const StackProfile& p : *all)
        if (p.gpuProfile == gpuProfileId && p.publicMonth > asOf)
            return true;
    return false;
}

} // namespace ws
