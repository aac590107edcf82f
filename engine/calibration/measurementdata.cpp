#include "engine/calibration/measurementdata.h"

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"

#include <map>
#include <string>
#include <vector>

namespace ws {

std::string_view embeddedMeasurement(std::string_view name)
{
    for (const auto& f : embeddedMeasurementFiles())
        if (f.name == name)
            return f.text;
    return {};
}

namespace {
std::vector<Error>& presetErrors()
{
    static std::vector<Error> errors;
    return errors;
}

// A shipped preset that fails to parse is left out of the lookups (shippedHardware / shippedModel answer null, as
// for an unknown id) and its error is kept for shippedPresetErrors: never a silent gap.
template <typename T, typename Parse>
std::map<std::string, T, std::less<>> parseAll(std::string_view folder, Parse parse)
{
    std::map<std::string, T, std::less<>> out;
    for (const auto& f : embeddedPresetFiles()) {
        if (f.name.substr(0, folder.size()) != folder)
            continue;
        auto v = parse(f.text, std::string(f.name));
        if (v) {
            out.emplace(v->id, *v);
        } else {
            Error e = v.error();
            if (e.file.empty())
                e.file = std::string(f.name);
            presetErrors().push_back(std::move(e));
        }
    }
    return out;
}
} // namespace

const HardwareSpec* shippedHardware(std::string_view id)
{
    static const auto all = parseAll<HardwareSpec>("hardware/", parseHardwarePreset);
    auto it = all.find(id);
    return it == all.end() ? nullptr : &it->second;
}

namespace {
const std::map<std::string, ModelConfig, std::less<>>& modelPresets()
{
    static const auto all = parseAll<ModelConfig>("models/", parseModelPreset);
    return all;
}
} // namespace

const ModelConfig* shippedModel(std::string_view id)
{
    auto it = modelPresets().find(id);
    return it == modelPresets().end() ? nullptr : &it->second;
}

const std::vector<Error>& shippedPresetErrors()
{
    // Both folders parsed (once), so every failure is in the list.
    (void)shippedHardware("");
    (void)shippedModel("");
    return presetErrors();
}

const std::vector<ModelConfig>& shippedModels()
{
    static const std::vector<ModelConfig> all = [] {
        std::vector<ModelConfig> out;
        for (const auto& [id, m] : modelPresets())
            out.push_back(m);
        return out;
    }();
    return all;
}

} // namespace ws
