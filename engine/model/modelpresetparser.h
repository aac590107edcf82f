#pragma once
// Turns a model preset (JSON text, schema in engine/core/presetreader.h) into
// a validated ModelConfig: required shape fields, positive sizes, heads that
// divide the hidden size when no headDim is given, a known precision and
// architecture. Sources are kept in ModelConfig::sources. `fileName` only
// names the file in errors.

#include "engine/core/error.h"
#include "engine/model/modelconfig.h"

#include <string>
#include <string_view>

namespace ws {

Expected<ModelConfig> parseModelPreset(std::string_view jsonText, const std::string& fileName);

} // namespace ws
