#include "app/session/systempaces.h"

#include "app/common/presetlibrary.h"
#include "engine/perf/predictor.h"

namespace ws {

Workload SystemPaces::chatWorkload(int64_t promptTokens, int64_t outputTokens)
{
    Workload w;
    w.precision = Precision::Bf16;
    w.concurrency = 1;
    w.promptTokens = std::max<int64_t>(1, promptTokens);
    w.outputTokens = std::max<int64_t>(1, outputTokens);
    w.contextTokens = w.promptTokens + w.outputTokens;
    return w;
}

SystemPaces SystemPaces::predict(const ModelConfig& model, const PresetLibrary& presets, const QStringList& hardwareIds,
                                 const Workload& workload)
{
    SystemPaces result;
    for (const QString& id : hardwareIds) {
        Expected<HardwareSpec> hardware = presets.hardware(id);
        if (!hardware) {
            result.skipped << id + QStringLiteral(": ") + QString::fromStdString(hardware.error().message());
            continue;
        }
        Expected<Prediction> p = ws::predict(model, *hardware, workload);
        if (!p || !(p->tokensPerSecondPerUser > 0)) {
            result.skipped << id + QStringLiteral(": ") +
                                  (p ? QStringLiteral("no speed predicted") : QString::fromStdString(p.error().message()));
            continue;
        }
        SystemPace pace;
        pace.id = hardware->id;
        pace.name = hardware->name;
        pace.tokensPerSecondPerUser = p->tokensPerSecondPerUser;
        pace.firstTokenSeconds = p->ttftSeconds;
        result.systems.push_back(std::move(pace));
    }
    return result;
}

} // namespace ws
