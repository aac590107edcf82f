// Layout files: `place --layout` and `predict --layout` read them through readLayoutFile (a scenario's v2 layout
// goes through the same layoutFromJson, fuzz_scenario). JSON in, a layout or a one-line error naming the file
// out. An accepted layout writes back canonically (export, import, export: the same bytes) and, when its model
// and hardware are shipped presets, is placed as `place --layout` places it.
#include "app/cli/layoutfile.h"
#include "engine/calibration/measurementdata.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/wafer/placement/layoutjson.h"
#include "tests/fuzz/fuzzinput.h"

#include <QString>

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const wsfuzz::InputFile input(data, size);
    if (!input.ok())
        return 0;
    const QString path = QString::fromStdString(input.path());
    QString error;
    const auto layout = ws::cli::readLayoutFile(path, &error);
    if (!layout) {
        if (error.isEmpty() || error.contains(QLatin1Char('\n')) || !error.startsWith(path)) {
            std::fprintf(stderr, "not a one-line refusal naming the file: %s\n", error.toUtf8().constData());
            std::abort();
        }
        return 0;
    }
    const std::string once = ws::layoutToJson(*layout);
    const auto again = ws::layoutFromJson(once);
    if (!again || ws::layoutToJson(*again) != once) {
        std::fprintf(stderr, "a layout written does not read back the same:\n%s\n", once.c_str());
        std::abort();
    }
    const ws::ModelConfig* model = ws::shippedModel(layout->modelId);
    const ws::HardwareSpec* hardware = ws::shippedHardware(layout->hardwareId);
    if (model && hardware && hardware->kind == ws::HardwareKind::Wafer)
        (void)ws::placeLayout(*model, *hardware, *layout);
    return 0;
}
