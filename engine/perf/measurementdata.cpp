#include "engine/perf/measurementdata.h"

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"

#include <map>
#include <string>

namespace ws {

std::string_view embeddedMeasurement(std::string_view name)
{
    for (const auto& f : embeddedMeasurementFiles())
        if (f.name == name)
            return f.text;
    return {};
}

namespace {
template<typename T, typename Parse>
std::map<std::string, T, std::less<>> parseAll(std::string_view folder, Parse parse)
{
    std::map<std::string, T, std::less<>> out;
    for (const auto& f : embeddedPresetFiles()) {
        if (f.name.substr(0, folder.size()) != folder)
            continue;
        auto v = parse(f.text, std::string(f.name));
        if (v)
            out.emplace(v->id, *v);
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

const ModelConfig* shippedModel(std::string_view id)
{
    static const auto all = parseAll<ModelConfig>("models/", parseModelPreset);
    auto it = all.find(id);
    return it == all.end() ? nullptr : &it->second;
}

} // namespace ws
