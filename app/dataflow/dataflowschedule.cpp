#include "app/dataflow/dataflowschedule.h"

#include "engine/wafer/dataflow/scheduleregions.h"

#include <QCoreApplication>

#include <algorithm>

namespace ws {

std::optional<DataflowSetup> buildDataflowSetup(const PlacementResult& result, KvPlacement kv, QString* error)
{
    if (!result.scene) {
        *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
        return std::nullopt;
    }
    auto timing = scheduleScene(*result.scene, kv);
    if (!timing) {
        *error = sceneErrorText(timing.error(), result.scene->spec);
        return std::nullopt;
    }
    DataflowSetup out;
    out.schedule = timing->schedule;
    out.params = describe(timing->params, timing->profile);
    out.kvPlacement = kv;
    for (const Phase& p : out.schedule->phases)
        if (p.kind == PhaseKind::WaferHop)
            out.waferLinks.push_back({p.device, p.toDevice,
                                      double(result.model().hiddenSize) * timing->params.activationBytes,
                                      p.durationCycles()});
    if (!timing->regions.layers.empty()) {
        const CoreRect& r = timing->regions.layers.front().rect;
        out.kv = kvCapacity(LayerDims::fromModel(result.model(), 0), r.width, r.height,
                            kvBytesAvailablePerCore(*result.scene->placement), timing->params);
    }
    return out;
}

std::optional<DataflowSetup> buildExecutedSetup(const PlacementResult& result, int layer, QString* error)
{
    if (!result.scene || !result.scene->placement || result.hardware().kind != HardwareKind::Wafer) {
        *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
        return std::nullopt;
    }
    const MeshParams params = MeshParams::fromHardware(result.hardware().wafer);
    MeshOptions options;
    options.context = std::max<int64_t>(1, result.spec().workload.contextTokens);
    options.layer = layer;
    auto run = executeMeshToken(*result.scene->placement, result.model(), params, options);
    if (!run) {
        *error = QCoreApplication::translate("ws::DataflowDock", "The mesh engine cannot run this layer: %1")
                     .arg(QString::fromStdString(run.error().message()));
        return std::nullopt;
    }
    DataflowSetup out;
    out.executedLayer = layer;
    out.closedFormCycles = run->closedFormCycles();
    out.executed = std::make_shared<const MeshPlayback>(std::make_shared<const MeshRun>(std::move(*run)));
    out.schedule = out.executed->sharedSchedule(out.executed);
    for (const MeshParamSource& p : describe(params, result.hardware())) {
        ParamInfo info;
        info.name = info.label = p.name;
        info.value = p.value;
        info.source = p.source;
        out.params.push_back(std::move(info));
    }
    return out;
}

} // namespace ws
