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

std::optional<Prediction> predictScenario(const Scenario& s, const PresetLibrary& presets, Workload& workload,
                                          HardwareSpec& hardware, QString* error)
{
    auto spec = presets.hardware(s.hardwarePreset);
    auto model = presets.resolveModel(s.modelFile.isEmpty() ? s.modelPreset : s.modelFile);
    if (!spec || !model) {
        *error = QString::fromStdString((!spec ? spec.error() : model.error()).message());
        return std::nullopt;
    }
    hardware = *spec;
    workload.precision = s.precision;
    workload.concurrency = s.batch;
    workload.contextTokens = s.contextTokens;
    workload.promptTokens = s.promptTokens;
    workload.outputTokens = s.outputTokens;
    PredictOptions options;
    options.devices = s.devices;
    auto prediction = predict(*model, hardware, workload, options);
    if (!prediction) {
        *error = QString::fromStdString(prediction.error().message());
        return std::nullopt;
    }
    return *prediction;
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
    Workload workload;
    HardwareSpec hardware;
    const auto prediction = predictScenario(scenario, presets, workload, hardware, error);
    if (!prediction)
        return std::nullopt;
    DataTable table = make(*prediction, workload, hardware);
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
