// Measurement files added in the comparison panel (Add measurements...; the shipped reference files in
// resources/measurements/ are of the same format): readMeasuredPoints reads one as a user's points or gives an
// error; each point read names its model, hardware and origin.
#include "engine/calibration/measuredpoints.h"

#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto points =
        ws::readMeasuredPoints(std::string(reinterpret_cast<const char*>(data), size), ws::MeasuredOrigin::User);
    if (!points)
        return 0;
    for (const ws::MeasuredPoint& p : *points)
        (void)ws::measuredOriginId(p.origin);
    return 0;
}
