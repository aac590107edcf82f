#pragma once
// Turns a hardware preset (JSON text, schema in engine/core/presetreader.h)
// into a HardwareSpec. The "type" selects which spec is filled (wafer, gpu,
// lpu); every number is validated (present when required, the right type,
// positive where a zero would be nonsense) and its `source` is kept in
// HardwareSpec::sources. `fileName` only names the file in errors.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"

#include <string>
#include <string_view>

namespace ws {

Expected<HardwareSpec> parseHardwarePreset(std::string_view jsonText, const std::string& fileName);

const char* hardwareKindId(HardwareKind kind); // "wafer", "gpu", "lpu"

} // namespace ws
