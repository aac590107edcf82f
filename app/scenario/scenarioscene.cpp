#include "app/scenario/scenarioscene.h"

#include "app/common/presetlibrary.h"
#include "engine/wafer/redundancy/defectlayer.h"
#include "engine/wafer/redundancy/defectmap.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placement.h"
#include "engine/wafer/redundancy/remap.h"
#include "engine/wafer/placement/placer.h"

#include <QDir>
#include <QFileInfo>

namespace ws {

namespace {

// The remap of one wafer: `rate` of its physical cores dead at random (seed + device, so wafers differ and a
// scenario always gives the same wafers) plus the scenario's explicitly killed cores on that wafer.
Expected<Remap> remapScenarioDevice(const SpareLayout& layout, const Scenario& scenario, int device)
{
    auto defects = DefectMap::random(layout, scenario.defectRate, scenario.defectSeed + uint64_t(device));
    if (!defects)
        return defects.error();
    std::vector<PhysicalCore> killed;
    for (const DeadCore& core : scenario.deadCores)
        if (core.device == device)
            killed.push_back({core.x, core.y});
    if (!killed.empty()) {
        auto explicitMap = DefectMap::fromCores(layout, killed);
        if (!explicitMap)
            return explicitMap.error();
        defects->unite(*explicitMap);
    }
    return Remap::run(layout, *defects);
}

} // namespace

std::optional<MeshLayer> ScenarioScene::layerFromId(const QString& id)
{
    if (id == QLatin1String("sram"))
        return MeshLayer::SramOccupancy;
    if (id == QLatin1String("placement"))
        return MeshLayer::WeightPlacement;
    if (id == QLatin1String("kv"))
        return MeshLayer::KvCache;
    if (id == QLatin1String("dataflow"))
        return MeshLayer::Dataflow;
    if (id == QLatin1String("defects"))
        return MeshLayer::Defects;
    return std::nullopt;
}

std::optional<ScenarioScene> ScenarioScene::build(const Scenario& scenario, const PresetLibrary& presets,
                                                  const QString& baseDir, QString* error)
{
    ScenarioScene scene;
    auto hardware = presets.hardware(scenario.hardwarePreset);
    if (!hardware) {
        *error = QString::fromStdString(hardware.error().message());
        return std::nullopt;
    }
    scene.hardware = std::move(hardware.value());
    if (scene.hardware.kind != HardwareKind::Wafer) {
        *error = tr("'%1' is not a wafer: only wafer-scale hardware has a core mesh to draw (try wse3)")
                     .arg(scenario.hardwarePreset);
        return std::nullopt;
    }

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
    scene.model = std::move(model.value());

    const auto precision = parsePrecision(scenario.precision.toStdString());
    if (!precision) {
        *error = tr("unknown precision '%1' (expected fp32, bf16, fp16, fp8, int8 or int4)").arg(scenario.precision);
        return std::nullopt;
    }
    scene.precision = *precision;

    PlacementOptions options;
    options.precision = scene.precision;
    options.contextTokens = scenario.contextTokens;
    auto placement = placeModel(scene.model, scene.hardware.wafer, options);
    if (!placement) {
        *error = QString::fromStdString(placement.error().message());
        return std::nullopt;
    }

    // Defects shrink the usable mesh; every wafer is placed on the smallest mesh any of them leaves.
    std::vector<Remap> remaps;
    const bool hasDefects = scenario.defectRate > 0 || !scenario.deadCores.isEmpty();
    if (hasDefects) {
        auto layout = SpareLayout::fromSpec(scene.hardware.wafer);
        if (!layout) {
            *error = QString::fromStdString(layout.error().message());
            return std::nullopt;
        }
        for (int round = 0; round < 4 && int(remaps.size()) < placement->deviceCount; ++round) {
            while (int(remaps.size()) < placement->deviceCount) {
                auto remap = remapScenarioDevice(*layout, scenario, int(remaps.size()));
                if (!remap) {
                    *error = QString::fromStdString(remap.error().message());
                    return std::nullopt;
                }
                remaps.push_back(std::move(remap.value()));
            }
            MeshSize usable = remaps.front().usableLogicalMesh();
            for (const Remap& r : remaps) {
                usable.cols = std::min(usable.cols, r.usableLogicalMesh().cols);
                usable.rows = std::min(usable.rows, r.usableLogicalMesh().rows);
            }
            if (usable.cols <= 0 || usable.rows <= 0) {
                *error = tr("the defects leave no usable cores on a wafer");
                return std::nullopt;
            }
            options.usableCols = usable.cols;
            options.usableRows = usable.rows;
            placement = placeModel(scene.model, scene.hardware.wafer, options);
            if (!placement) {
                *error = QString::fromStdString(placement.error().message());
                return std::nullopt;
            }
        }
    }
    scene.placement = std::make_shared<const Placement>(std::move(placement.value()));
    auto snapshot = std::make_shared<MeshSnapshot>(buildMeshSnapshot(*scene.placement));
    for (int device = 0; device < int(remaps.size()) && device < snapshot->deviceCount; ++device) {
        const Status filled = fillDefectLayer(*snapshot, device, remaps[size_t(device)]);
        if (!filled) {
            *error = QString::fromStdString(filled.error().message());
            return std::nullopt;
        }
    }
    scene.snapshot = std::move(snapshot);
    return scene;
}

} // namespace ws
