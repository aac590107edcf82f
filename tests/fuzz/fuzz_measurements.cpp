// Measurement files (resources/measurements/*.json, or a user's own file of that format, any kind:
// wafer, gpu, lpu): fitProfile reads and fits them, as the calibration dialog does with a chosen file.
#include "engine/calibration/calibrationprofile.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)ws::fitProfile(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
