#include "app/dataflow/dataflowschedule.h"

#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/perf/waferpredictor.h"
#include "engine/wafer/placement/placement.h"

#include <QCoreApplication>

namespace ws {

std::optional<DataflowSetup> buildDataflowSetup(const PlacementResult& result, KvPlacement kv, QString* error)
{
    const Placement* placement = enginePlacement(result);
    if (!placement) {
        *error = QCoreApplication::translate("ws::DataflowSetup", "the model is not placed on a wafer");
        return std::nullopt;
    }
    Workload workload;
    workload.precision = result.request.precision;
    workload.contextTokens = result.request.contextTokens;
    WaferPredictOptions options;
    options.devices = placement->deviceCount;
    options.usableCols = placement->usableCols;
    options.usableRows = placement->usableRows;
    Expected<WaferSetup> setup = prepareWafer(result.model, result.hardware, workload, options);
    if (!setup) {
        *error = QString::fromStdString(setup.error().message());
        return std::nullopt;
    }
    const ScheduleRegions layout = scheduleRegionsFromPlacement(*placement);
    ScheduleOptions scheduleOptions;
    scheduleOptions.context = result.request.contextTokens;
    scheduleOptions.kv = kv;
    auto schedule = std::make_shared<const TokenSchedule>(
        buildTokenSchedule(result.model, layout, TimingModel(setup->params), scheduleOptions));
    if (schedule->phases.empty() || !(schedule->totalCycles > 0)) {
        *error = QCoreApplication::translate("ws::DataflowSetup", "the engine gave no dataflow schedule for %1 on %2")
                     .arg(QString::fromStdString(result.model.name), QString::fromStdString(result.hardware.name));
        return std::nullopt;
    }
    DataflowSetup out;
    out.schedule = std::move(schedule);
    out.params = describe(setup->params, setup->profile);
    out.kvPlacement = kv;
    if (!layout.layers.empty()) {
        const CoreRect& r = layout.layers.front().rect;
        out.kv = kvCapacity(LayerDims::fromModel(result.model, 0), r.width, r.height,
                            kvBytesAvailablePerCore(*placement), setup->params);
    }
    return out;
}

} // namespace ws
