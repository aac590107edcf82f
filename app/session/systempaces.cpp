#include "app/session/systempaces.h"

#include "app/common/presetlibrary.h"
#include "engine/predict/predictor.h"

#include <algorithm>

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

SystemPace SystemPaces::paceOf(const Prediction& prediction, std::string id, std::string name)
{
    SystemPace pace;
    pace.id = std::move(id);
    pace.name = std::move(name);
    pace.tokensPerSecondPerUser = prediction.tokensPerSecondPerUser;
    pace.firstTokenSeconds = prediction.ttftSeconds;
    return pace;
}

SystemPaces SystemPaces::predict(const ModelConfig& model, const PresetLibrary& presets, const Workload& workload)
{
    return predict(model, presets, presets.hardwareIds(), workload);
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
                                  (p ? QStringLiteral("no speed predicted")
                                     : QString::fromStdString(p.error().message()));
            continue;
        }
        result.systems.push_back(paceOf(*p, hardware->id, hardware->name));
    }
    std::stable_sort(result.systems.begin(), result.systems.end(), [](const SystemPace& a, const SystemPace& b) {
        return a.tokensPerSecondPerUser > b.tokensPerSecondPerUser;
    });
    return result;
}

} // namespace ws
