#include "app/session/tokenframes.h"

#include "engine/session/kvoccupancy.h"
#include "engine/wafer/dataflow/meshframe.h"
#include "engine/wafer/dataflow/timingmodel.h"

#include <QCoreApplication>

#include <mutex>
#include <vector>

namespace ws {

std::optional<TokenFrames> TokenFrames::build(const WaferScene& scene, QString* error,
                                              std::shared_ptr<const TokenSchedule> schedule)
{
    if (!schedule && scene.timing)
        schedule = scene.timing->schedule;
    if (!scene.placement || !scene.snapshot || !schedule) {
        *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
        return std::nullopt;
    }
    TokenFrames wafer;
    wafer.snapshot = scene.snapshot;
    wafer.schedule = std::move(schedule);
    wafer.placement = scene.placement;
    return wafer;
}

void TokenFrames::followRouting(const WaferScene& scene)
{
    if (scene.timing && scene.model().isMoe())
        routed = std::make_shared<const Routed>(Routed{scene.model(), *scene.timing});
}

std::shared_ptr<const TokenSchedule> TokenFrames::scheduleFor(const ExpertRouting* routing) const
{
    if (!routed || !routing || routing->empty())
        return schedule;
    return routed->timing.forRouting(routed->model, *routing); // the engine's schedule code
}

namespace {

// What one source keeps between its calls.
struct FrameState
{
    TokenFrames wafer;
    std::shared_ptr<const TokenFrames::Shown> shown;
    int64_t kvStep = 1;
    int64_t kvTokens = -1; // the tokens kvBase holds
    std::shared_ptr<const MeshSnapshot> kvBase;
    std::vector<std::shared_ptr<MeshFrame>> pool;
    std::shared_ptr<const ExpertRouting> routing; // of `routedSchedule`
    std::shared_ptr<const TokenSchedule> routedSchedule;

    std::mutex mutex;

    std::shared_ptr<const MeshFrame> frame(int index, int cacheTokens, std::shared_ptr<const ExpertRouting> routed)
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (routed != routing || !routedSchedule) {
            routing = std::move(routed);
            routedSchedule = wafer.scheduleFor(routing.get());
        }
        const TokenSchedule& schedule = *routedSchedule;
        // A new base only when the KV layer is drawn and has moved.
        const int64_t tokens = shown->kvLayer.load() ? int64_t(cacheTokens) / kvStep * kvStep : -1;
        if (tokens != kvTokens || !kvBase) {
            kvBase = tokens < 0 ? wafer.snapshot : withKvOccupancy(wafer.snapshot, *wafer.placement, tokens);
            kvTokens = tokens;
        }
        const std::shared_ptr<MeshFrame> out = reusableFrame(pool, 8);
        out->base = kvBase;
        if (index < 0) { // idle: no activity, no hops
            out->activity.clear();
            out->hops.clear();
            return out;
        }
        DataflowFrameOptions options;
        options.device = shown->device.load();
        options.hops = false; // activity only: the arrows would flicker at token rate
        options.cycle = goldenRatioCycle(schedule, index);
        options.trailCycles = TokenFrames::trailFraction * schedule.totalCycles;
        fillDataflowFrame(*out, schedule, options);
        return out;
    }
};

} // namespace

TokenFrames::Source TokenFrames::frameSource(std::shared_ptr<const Shown> shown) const
{
    auto state = std::make_shared<FrameState>();
    state->wafer = *this;
    state->shown = shown ? std::move(shown) : std::make_shared<const Shown>();
    state->kvStep = placement ? kvOccupancyStep(*placement) : 1;
    return [state](int index, int cacheTokens, std::shared_ptr<const ExpertRouting> routing) {
        return state->frame(index, cacheTokens, std::move(routing));
    };
}

} // namespace ws
