#include "app/record/meshanimation.h"

#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/perf/waferpredictor.h"
#include "engine/wafer/placement/placement.h"
#include "engine/wafer/dataflow/activity.h"

#include <QStringList>

#include <algorithm>

namespace ws {

std::optional<MeshAnimation> MeshAnimation::create(const ScenarioScene& scene, const Scenario& scenario,
                                                   QString* error)
{
    Workload workload;
    workload.precision = scene.precision;
    workload.concurrency = scenario.batch;
    workload.contextTokens = scenario.contextTokens;
    workload.promptTokens = scenario.promptTokens;
    workload.outputTokens = scenario.outputTokens;
    // The schedule runs over the scene's own placement, so activity lands where the heatmap shows each layer;
    // the predictor supplies the calibrated timing constants for the same wafer and usable mesh.
    const ScheduleRegions layout = scheduleRegionsFromPlacement(*scene.placement);
    WaferPredictOptions options;
    options.devices = scene.placement->deviceCount;
    options.usableCols = scene.placement->usableCols;
    options.usableRows = scene.placement->usableRows;
    auto setup = prepareWafer(scene.model, scene.hardware, workload, options);
    if (!setup) {
        *error = QString::fromStdString(setup.error().message());
        return std::nullopt;
    }
    ScheduleOptions scheduleOptions;
    scheduleOptions.context = scenario.contextTokens;
    MeshAnimation animation;
    animation.m_base = scene.snapshot;
    animation.m_schedule =
        buildTokenSchedule(scene.model, layout, TimingModel(setup->params), scheduleOptions);
    if (animation.m_schedule.phases.empty() || !(animation.m_schedule.totalCycles > 0)) {
        *error = tr("the engine gave no dataflow schedule for %1 on %2")
                     .arg(QString::fromStdString(scene.model.name), QString::fromStdString(scene.hardware.name));
        return std::nullopt;
    }
    return animation;
}

std::shared_ptr<const MeshSnapshot> MeshAnimation::frame(double fraction, int device) const
{
    auto snapshot = std::make_shared<MeshSnapshot>(*m_base);
    const double t = std::clamp(fraction, 0.0, 1.0) * m_schedule.totalCycles;
    std::vector<CoreActivity> activity;
    fillActivity(m_schedule, device, snapshot->meshCols, snapshot->meshRows, t, activity);
    snapshot->activity.resize(size_t(std::max(snapshot->deviceCount, device + 1)));
    activityToFraction(activity, snapshot->activity[size_t(device)]);
    return snapshot;
}

QString MeshAnimation::activePhases(double fraction) const
{
    QStringList ids;
    for (size_t index : ws::activePhases(m_schedule, std::clamp(fraction, 0.0, 1.0) * m_schedule.totalCycles)) {
        const QString id = QString::fromLatin1(phaseKindId(m_schedule.phases[index].kind));
        if (!ids.contains(id))
            ids << id;
    }
    return ids.join(QStringLiteral(", "));
}

} // namespace ws
