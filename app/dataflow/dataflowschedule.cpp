#include "app/dataflow/dataflowschedule.h"

#include "engine/wafer/dataflow/scheduleregions.h"

#include <QCoreApplication>

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
    if (!timing->regions.layers.empty()) {
        const CoreRect& r = timing->regions.layers.front().rect;
        out.kv = kvCapacity(LayerDims::fromModel(result.model(), 0), r.width, r.height,
                            kvBytesAvailablePerCore(*result.scene->placement), timing->params);
    }
    return out;
}

} // namespace ws
