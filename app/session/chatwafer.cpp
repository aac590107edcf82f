#include "app/session/chatwafer.h"

#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/perf/waferpredictor.h"
#include "engine/wafer/placement/placement.h"
#include "engine/wafer/dataflow/schedule.h"

#include <QCoreApplication>

namespace ws {

std::optional<ChatWafer> ChatWafer::build(const ScenarioScene& scene, int64_t contextTokens, QString* error)
{
    if (!scene.placement || !scene.snapshot) {
        *error = QCoreApplication::translate("ws::ChatWafer", "the model is not placed on a wafer");
        return std::nullopt;
    }
    Workload workload;
    workload.precision = scene.precision;
    workload.contextTokens = contextTokens;
    WaferPredictOptions options;
    options.devices = scene.placement->deviceCount;
    options.usableCols = scene.placement->usableCols;
    options.usableRows = scene.placement->usableRows;
    Expected<WaferSetup> setup = prepareWafer(scene.model, scene.hardware, workload, options);
    if (!setup) {
        *error = QString::fromStdString(setup.error().message());
        return std::nullopt;
    }
    ScheduleOptions scheduleOptions;
    scheduleOptions.context = contextTokens;
    auto schedule = std::make_shared<TokenSchedule>(buildTokenSchedule(
        scene.model, scheduleRegionsFromPlacement(*scene.placement), TimingModel(setup->params), scheduleOptions));
    if (schedule->phases.empty() || !(schedule->totalCycles > 0)) {
        *error = QCoreApplication::translate("ws::ChatWafer", "the engine gave no dataflow schedule for %1 on %2")
                     .arg(QString::fromStdString(scene.model.name), QString::fromStdString(scene.hardware.name));
        return std::nullopt;
    }
    ChatWafer wafer;
    wafer.snapshot = scene.snapshot;
    wafer.animator = std::make_shared<const MeshAnimator>(scene.snapshot, std::move(schedule));
    return wafer;
}

std::function<std::shared_ptr<const MeshSnapshot>(int index)> ChatWafer::frameSource() const
{
    return [animator = animator](int index) { return animator->frame(index); };
}

} // namespace ws
