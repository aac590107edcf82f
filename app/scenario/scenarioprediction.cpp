#include "app/scenario/scenarioprediction.h"

#include "engine/predict/predictor.h"

namespace ws {

std::optional<ScenarioPrediction> predictScenario(const Scenario& scenario, const PresetLibrary& presets,
                                                  const QString& baseDir, QString* error, bool withSchedule)
{
    auto scene = ScenarioScene::build(scenario, presets, baseDir, error, withSchedule);
    if (!scene)
        return std::nullopt;
    auto p = predict(scene->spec);
    if (!p) {
        if (error)
            *error = QString::fromStdString(p.error().message());
        return std::nullopt;
    }
    return ScenarioPrediction{std::move(*scene), std::move(*p)};
}

} // namespace ws
