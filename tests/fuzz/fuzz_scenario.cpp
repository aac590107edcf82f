// Scenario (.waferscope) files: JSON in, a scenario or an error out; an accepted one saves back to JSON.
#include "app/scenario/scenarioformat.h"

#include <QByteArray>
#include <QString>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char*>(data), qsizetype(size));
    QString error;
    if (auto scenario = ws::ScenarioFormat::fromJson(json, QStringLiteral("fuzz.waferscope"), &error))
        (void)ws::ScenarioFormat::toJson(*scenario);
    return 0;
}
