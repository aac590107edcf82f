#pragma once
// What a scenario looks like on the wafer: its hardware and model resolved
// from the presets, the model placed on the wafers (with the scenario's
// defects remapped away) and the mesh snapshot the heatmap draws. The CLI's
// render and record build one; the app builds the same from its own state.

#include "app/scenario/scenario.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QCoreApplication>
#include <QString>

#include <memory>
#include <optional>

namespace ws {

class PresetLibrary;
class Placement;

struct ScenarioScene
{
    Q_DECLARE_TR_FUNCTIONS(ws::ScenarioScene)

public:
    HardwareSpec hardware;
    ModelConfig model;
    Precision precision = Precision::Bf16;
    std::shared_ptr<const Placement> placement;
    std::shared_ptr<const MeshSnapshot> snapshot;

    // `baseDir` resolves a relative Scenario::modelFile (the scenario file's folder).
    static std::optional<ScenarioScene> build(const Scenario& scenario, const PresetLibrary& presets,
                                              const QString& baseDir, QString* error);
    static std::optional<MeshLayer> layerFromId(const QString& id); // "sram", "placement", "kv", ...
};

} // namespace ws
