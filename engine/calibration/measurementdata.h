#pragma once
// The measurement files shipped in resources/measurements/*.json, compiled
// into the engine at build time (CMake embeds their text), so the shipped
// calibration profiles are fitted from the same cited data the app shows;
// the shipped presets come along, so the fits know the measured hardware and
// models. This is the presets' only embedded copy: the app's PresetLibrary
// reads its built-in presets from embeddedPresetFiles() too.

#include "engine/core/error.h"

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
// resources/presets/{hardware,models}/*.json, named "hardware/h100.json", "models/llama-2-70b.json".
const std::vector<EmbeddedMeasurementFile>& embeddedPresetFiles();
// The text of a shipped file by name; empty when absent.
std::string_view embeddedMeasurement(std::string_view name);

struct HardwareSpec;
struct ModelConfig;
// Shipped presets by id, parsed once; null when absent or invalid.
const HardwareSpec* shippedHardware(std::string_view id);
const ModelConfig* shippedModel(std::string_view id);
// Every shipped model preset, by id.
const std::vector<ModelConfig>& shippedModels();
// The shipped presets that failed to parse (empty when all parse), each naming its file: an error to report,
// not a preset silently missing.
const std::vector<Error>& shippedPresetErrors();

} // namespace ws
