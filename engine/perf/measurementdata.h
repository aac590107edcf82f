#pragma once
// The measurement files shipped in resources/measurements/*.json, compiled
// into the engine at build time (CMake embeds their text), so the shipped
// calibration profiles are fitted from the same cited data the app shows.

#include <string>
#include <string_view>
#include <vector>

namespace ws {

struct EmbeddedMeasurementFile
{
    std::string_view name; // file name, e.g. "waferllm-wse2-decode.json"
    std::string_view text; // JSON text
};

const std::vector<EmbeddedMeasurementFile>& embeddedMeasurementFiles();
// The text of a shipped file by name; empty when absent.
std::string_view embeddedMeasurement(std::string_view name);

} // namespace ws
