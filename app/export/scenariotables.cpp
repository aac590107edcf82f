#include "app/export/scenariotables.h"

#include "app/common/presetlibrary.h"
#include "app/export/predictiontables.h"
#include "app/export/snapshottables.h"
#include "app/scenario/scenarioscene.h"
#include "engine/model/precision.h"
#include "engine/predict/predictor.h"

#include <QJsonArray>

namespace ws {

namespace {

void addInputs(DataTable& table, const Scenario& scenario)
{
    const QJsonObject inputs = ScenarioTables::scenarioInputs(scenario);
    for (auto it = inputs.begin(); it != inputs.end(); ++it)
        table.inputs.insert(it.key(), it.value());
}

} // namespace

QJsonObject ScenarioTables::scenarioInputs(const Scenario& s)
{
    QJsonArray dead;
    for (const DeadPhysicalCore& core : s.defects.cores)
        dead.append(QJsonArray{core.device, core.core.x, core.core.y});
    return QJsonObject{{"model", s.modelPreset},
                       {"model_file", s.modelFile},
                       {"hardware", s.hardwarePreset},
                       {"devices_requested", s.devices},
                       {"precision", QString::fromLatin1(precisionId(s.precision).data())},
                       {"batch", s.batch},
                       {"context_tokens", double(s.contextTokens)},
                       {"prompt_tokens", double(s.promptTokens)},
                       {"output_tokens", double(s.outputTokens)},
                       {"defect_rate", s.defects.rate},
                       {"defect_seed", double(s.defects.seed)},
                       {"dead_cores", dead}};
}

std::optional<DataTable> ScenarioTables::sramMap(const Scenario& scenario, const PresetLibrary& presets, QString* error)
{
    const auto scene = ScenarioScene::build(scenario, presets, {}, error);
    if (!scene)
        return std::nullopt;
    DataTable table = SnapshotTables::sramMap(scene->snapshot);
    addInputs(table, scenario);
    return table;
}

std::optional<DataTable> ScenarioTables::schedule(const Scenario& scenario, const PresetLibrary& presets,
                                                  QString* error)
{
    const auto scene = ScenarioScene::build(scenario, presets, {}, error, true);
    if (!scene)
        return std::nullopt;
    DataTable table = PredictionTables::schedule(*scene->timing->schedule);
    addInputs(table, scenario);
    return table;
}

namespace {

// The scenario's prediction made into a table by `make`, with the scenario's inputs added.
template <class Make>
std::optional<DataTable> predictionTable(const Scenario& scenario, const PresetLibrary& presets, QString* error,
                                         Make make)
{
    // The window's prediction of the scenario (its devices, defects, hand layout and draft model too).
    auto spec = scenarioSpec(scenario, presets);
    if (!spec) {
        *error = QString::fromStdString(spec.error().message());
        return std::nullopt;
    }
    const auto prediction = predict(*spec);
    if (!prediction) {
        *error = QString::fromStdString(prediction.error().message());
        return std::nullopt;
    }
    DataTable table = make(*prediction, spec->workload, spec->hardware);
    addInputs(table, scenario);
    return table;
}

} // namespace

std::optional<DataTable> ScenarioTables::prediction(const Scenario& scenario, const PresetLibrary& presets,
                                                    QString* error)
{
    return predictionTable(scenario, presets, error, [](const Prediction& p, const Workload& w, const HardwareSpec& h) {
        return PredictionTables::predictions({p}, w, {h});
    });
}

std::optional<DataTable> ScenarioTables::breakdown(const Scenario& scenario, const PresetLibrary& presets,
                                                   QString* error)
{
    return predictionTable(scenario, presets, error, [](const Prediction& p, const Workload&, const HardwareSpec&) {
        return PredictionTables::breakdown(p);
    });
}

} // namespace ws
