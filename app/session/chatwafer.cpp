#include "app/session/chatwafer.h"

#include "engine/session/kvoccupancy.h"
#include "engine/wafer/dataflow/meshframe.h"

#include <QCoreApplication>

#include <vector>

namespace ws {

std::optional<ChatWafer> ChatWafer::build(const WaferScene& scene, QString* error,
                                          std::shared_ptr<const TokenSchedule> schedule)
{
    if (!schedule && scene.timing)
        schedule = scene.timing->schedule;
    if (!scene.placement || !scene.snapshot || !schedule) {
        *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
        return std::nullopt;
    }
    ChatWafer wafer;
    wafer.snapshot = scene.snapshot;
    wafer.schedule = std::move(schedule);
    wafer.placement = scene.placement;
    return wafer;
}

namespace {

// What one source keeps between its calls (all on the worker thread).
struct FrameState
{
    ChatWafer wafer;
    std::shared_ptr<const std::atomic<int>> device;
    int64_t kvStep = 1;
    int64_t kvTokens = -1; // the tokens kvBase holds
    std::shared_ptr<const MeshSnapshot> kvBase;
    std::vector<std::shared_ptr<MeshFrame>> pool;

    std::shared_ptr<const MeshFrame> frame(int index, int cacheTokens)
    {
        const int64_t tokens = int64_t(cacheTokens) / kvStep * kvStep; // a new base only when the KV layer moves
        if (tokens != kvTokens) {
            kvBase = withKvOccupancy(wafer.snapshot, *wafer.placement, tokens);
            kvTokens = tokens;
        }
        std::shared_ptr<MeshFrame> out;
        for (const auto& f : pool)
            if (f.use_count() == 1) {
                out = f;
                break;
            }
        if (!out) {
            out = std::make_shared<MeshFrame>();
            if (pool.size() < 8)
                pool.push_back(out);
        }
        out->base = kvBase;
        DataflowFrameOptions options;
        options.device = device ? device->load() : 0;
        options.hops = false; // activity only: the arrows would flicker at token rate
        options.cycle = goldenRatioCycle(*wafer.schedule, index);
        fillDataflowFrame(*out, *wafer.schedule, options);
        return out;
    }
};

} // namespace

ChatWafer::Source ChatWafer::frameSource(std::shared_ptr<const std::atomic<int>> device) const
{
    auto state = std::make_shared<FrameState>();
    state->wafer = *this;
    state->device = std::move(device);
    state->kvStep = placement ? kvOccupancyStep(*placement) : 1;
    return [state](int index, int cacheTokens) { return state->frame(index, cacheTokens); };
}

} // namespace ws
