#pragma once
// What a scenario looks like on the wafer: its hardware and model resolved
// from the presets (or its model file), then the engine's wafer scene
// (engine/scene/scene.h) for the scenario's precision, workload and defects:
// the placement on the wafers with the defects remapped away, the mesh
// snapshot the heatmap draws and, when asked, the token schedule. The CLI's
// render and record, the chat's live wafer and the data exports build one;
// the main window places the same spec (scenarioSpec: the one translation
// of a scenario's ids, file and workload into the engine's request).

#include "app/scenario/scenario.h"
#include "engine/scene/scene.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace ws {

class PresetLibrary;

// The engine's request for `scenario`: hardware and model resolved from the presets (or the model file, relative
// to `baseDir`; or `knownModel`, the architecture the caller already read), the workload, defects, hand layout
// and draft model. The presets' own error when an id or file does not resolve.
Expected<ScenarioSpec> scenarioSpec(const Scenario& scenario, const PresetLibrary& presets, const QString& baseDir = {},
                                    const ModelConfig* knownModel = nullptr);

struct ScenarioScene : WaferScene
{
    Q_DECLARE_TR_FUNCTIONS(ws::ScenarioScene)

public:
    // `baseDir` resolves a relative Scenario::modelFile (the scenario file's folder). `knownModel`, when given,
    // is the model's architecture as the caller already read it (the chat's loaded model): no file is read again.
    // `fitSubMesh`: a one-wafer model on the smallest sub-mesh that holds it (ScenarioSpec::fitSubMesh).
    static std::optional<ScenarioScene> build(const Scenario& scenario, const PresetLibrary& presets,
                                              const QString& baseDir, QString* error, bool withSchedule = false,
                                              const ModelConfig* knownModel = nullptr, bool fitSubMesh = false);
};

} // namespace ws
