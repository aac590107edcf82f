#include "app/scenario/scenarioscene.h"

#include "app/common/placementresult.h"
#include "app/common/presetlibrary.h"

#include <QDir>
#include <QFileInfo>

namespace ws {

std::optional<ScenarioScene> ScenarioScene::build(const Scenario& scenario, const PresetLibrary& presets,
                                                  const QString& baseDir, QString* error, bool withSchedule,
                                                  const ModelConfig* knownModel, bool fitSubMesh)
{
    ScenarioSpec request;
    auto hardware = presets.hardware(scenario.hardwarePreset);
    if (!hardware) {
        *error = QString::fromStdString(hardware.error().message());
        return std::nullopt;
    }
    request.hardware = std::move(hardware.value());
    if (request.hardware.kind != HardwareKind::Wafer) {
        *error = tr("'%1' is not a wafer: only wafer-scale hardware has a core mesh to draw (try wse3)")
                     .arg(scenario.hardwarePreset);
        return std::nullopt;
    }

    if (knownModel) {
        request.model = *knownModel;
    } else {
        QString modelSource = scenario.modelPreset;
        if (!scenario.modelFile.isEmpty())
            modelSource = QFileInfo(scenario.modelFile).isAbsolute() || baseDir.isEmpty()
                              ? scenario.modelFile
                              : QDir(baseDir).filePath(scenario.modelFile);
        auto model = presets.resolveModel(modelSource);
        if (!model) {
            *error = QString::fromStdString(model.error().message());
            return std::nullopt;
        }
        request.model = std::move(model.value());
    }

    request.workload.precision = scenario.precision;
    request.workload.concurrency = scenario.batch;
    request.workload.contextTokens = scenario.contextTokens;
    request.workload.promptTokens = scenario.promptTokens;
    request.workload.outputTokens = scenario.outputTokens;
    request.defects = scenario.defects;
    request.fitSubMesh = fitSubMesh;
    request.layout = scenario.layout;
    if (!scenario.draftModel.isEmpty()) {
        auto draft = presets.model(scenario.draftModel);
        if (!draft) {
            *error = QString::fromStdString(draft.error().message());
            return std::nullopt;
        }
        request.workload.speculative.enabled = true;
        request.workload.speculative.draftModel = std::move(*draft);
    }

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
