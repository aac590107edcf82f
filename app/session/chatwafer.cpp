#include "app/session/chatwafer.h"

#include "engine/wafer/dataflow/meshframe.h"

#include <QCoreApplication>

namespace ws {

std::optional<ChatWafer> ChatWafer::build(const ScenarioScene& scene, QString* error)
{
    if (!scene.placement || !scene.snapshot || !scene.timing) {
        *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
        return std::nullopt;
    }
    ChatWafer wafer;
    wafer.snapshot = scene.snapshot;
    wafer.schedule = scene.timing->schedule;
    return wafer;
}

std::shared_ptr<const MeshFrame> ChatWafer::frame(int index) const
{
    DataflowFrameOptions options;
    options.device = DataflowFrameOptions::allDevices;
    options.hops = false; // the live wafer shows activity only
    if (schedule)
        options.cycle = goldenRatioCycle(*schedule, index);
    return dataflowFrame(snapshot, schedule.get(), options);
}

std::function<std::shared_ptr<const MeshFrame>(int index)> ChatWafer::frameSource() const
{
    return [wafer = *this](int index) { return wafer.frame(index); };
}

} // namespace ws
