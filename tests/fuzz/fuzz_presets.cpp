// Preset files (hardware and model JSON) and the wafer kernel measurement set: the first byte picks the parser.
#include "engine/calibration/wafercalibration.h"
#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"

#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 3) {
    case 0:
        (void)ws::parseHardwarePreset(text, "fuzz.json");
        break;
    case 1:
        (void)ws::parseModelPreset(text, "fuzz.json");
        break;
    default:
        (void)ws::parseWaferKernelSet(std::string(text));
        break;
    }
    return 0;
}
