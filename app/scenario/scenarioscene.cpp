#include "app/scenario/scenarioscene.h"

#include "app/common/placementresult.h"
#include "app/common/presetlibrary.h"

#include <QDir>
#include <QFileInfo>

namespace ws {

Expected<ScenarioSpec> scenarioSpec(const Scenario& scenario, const PresetLibrary& presets, const QString& baseDir,
                                    const ModelConfig* knownModel)
{
    ScenarioSpec spec;
    auto hardware = presets.hardware(scenario.hardwarePreset);
    if (!hardware)
        return hardware.error();
    spec.hardware = std::move(*hardware);
    spec.devices = scenario.devices;
    if (knownModel) {
        spec.model = *knownModel;
    } else {
        QString modelSource = scenario.modelPreset;
        if (!scenario.modelFile.isEmpty())
            modelSource = QFileInfo(scenario.modelFile).isAbsolute() || baseDir.isEmpty()
                              ? scenario.modelFile
                              : QDir(baseDir).filePath(scenario.modelFile);
        auto model = presets.resolveModel(modelSource);
        if (!model)
            return model.error();
        spec.model = std::move(*model);
    }
    spec.workload.precision = scenario.precision;
    spec.workload.concurrency = scenario.batch;
    spec.workload.contextTokens = scenario.contextTokens;
    spec.workload.promptTokens = scenario.promptTokens;
    spec.workload.outputTokens = scenario.outputTokens;
    spec.defects = scenario.defects;
    spec.layout = scenario.layout;
    if (scenario.layout)
        spec.weightFill = scenario.layout->weightFill;
    if (!scenario.draftModel.isEmpty()) {
        auto draft = presets.model(scenario.draftModel);
        if (!draft)
            return draft.error();
        spec.workload.speculative.enabled = true;
        spec.workload.speculative.draftModel = std::move(*draft);
    }
    return spec;
}

std::optional<ScenarioScene> ScenarioScene::build(const Scenario& scenario, const PresetLibrary& presets,
                                                  const QString& baseDir, QString* error, bool withSchedule,
                                                  const ModelConfig* knownModel, bool fitSubMesh)
{
    if (auto hardware = presets.hardware(scenario.hardwarePreset); hardware && hardware->kind != HardwareKind::Wafer) {
        *error = tr("'%1' is not a wafer: only wafer-scale hardware has a core mesh to draw (try wse3)")
                     .arg(scenario.hardwarePreset);
        return std::nullopt;
    }
    auto spec = scenarioSpec(scenario, presets, baseDir, knownModel);
    if (!spec) {
        *error = QString::fromStdString(spec.error().message());
        return std::nullopt;
    }
    ScenarioSpec& request = *spec;
    request.fitSubMesh = fitSubMesh;

    auto built = buildWaferScene(request, {.withSchedule = withSchedule});
    if (!built) {
        *error = sceneErrorText(built.error(), request);
        return std::nullopt;
    }
    ScenarioScene scene;
    static_cast<WaferScene&>(scene) = std::move(*built);
    return scene;
}

} // namespace ws
