#include "engine/perf/measurementdata.h"

namespace ws {

std::string_view embeddedMeasurement(std::string_view name)
{
    for (const auto& f : embeddedMeasurementFiles())
        if (f.name == name)
            return f.text;
    return {};
}

} // namespace ws
