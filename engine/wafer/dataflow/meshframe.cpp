#include "engine/wafer/dataflow/meshframe.h"

#include "engine/wafer/dataflow/activity.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
constexpr double kGoldenStep = 0.6180339887498949; // fractional part of the golden ratio
}

double trailWeight(int sample)
{
    static constexpr double weights[DataflowFrameOptions::trailSamples] = {1.0, 0.62, 0.38, 0.2};
    return weights[std::clamp(sample, 0, DataflowFrameOptions::trailSamples - 1)];
}

void fillDataflowGlow(const TokenSchedule& schedule, int meshCols, int meshRows, const DataflowFrameOptions& o,
                      std::vector<float>& out)
{
    const size_t cores = size_t(std::max(0, meshCols)) * size_t(std::max(0, meshRows));
    out.assign(cores, 0.0f);
    if (cores == 0 || !(schedule.totalCycles > 0))
        return;
    // Kept between calls (a wafer's worth of bytes, per thread), all idle between them: each sample clears
    // only the rectangle it painted, so a frame touches the active regions, not the whole wafer four times.
    thread_local std::vector<CoreActivity> activity;
    if (activity.size() != cores)
        activity.assign(cores, CoreActivity::Idle);
    const int samples = o.trailCycles > 0 ? DataflowFrameOptions::trailSamples : 1;
    // Oldest first: a newer event overwrites an older one on the same core.
    for (int k = samples - 1; k >= 0; --k) {
        const double lag = samples > 1 ? o.trailCycles * k / (samples - 1) : 0.0;
        const CoreRect box = paintActivity(schedule, o.device, meshCols, meshRows, o.cycle - lag, activity);
        const float w = float(trailWeight(k));
        const float compute = 0.5f + 0.5f * w;
        const float forward = 0.5f * w;
        for (int y = box.y; y < box.y + box.height; ++y) {
            const size_t row = size_t(y) * size_t(meshCols);
            CoreActivity* a = activity.data() + row;
            float* v = out.data() + row;
            for (int x = box.x; x < box.x + box.width; ++x) {
                if (a[x] == CoreActivity::Compute)
                    v[x] = compute;
                else if (a[x] == CoreActivity::Forward)
                    v[x] = forward;
                a[x] = CoreActivity::Idle;
            }
        }
    }
}

std::vector<MeshHop> activeHops(const TokenSchedule& schedule, double cycle)
{
    std::vector<MeshHop> hops;
    for (size_t i : activePhases(schedule, cycle)) {
        const Phase& p = schedule.phases[i];
        const bool hop = p.kind == PhaseKind::LayerHop || p.kind == PhaseKind::WaferHop ||
                         p.kind == PhaseKind::TokenFeedback || p.kind == PhaseKind::MoeDispatch ||
                         p.kind == PhaseKind::MoeCombine;
        if (!hop || p.toRect.width <= 0 || p.toRect.height <= 0)
            continue;
        // The source is the region that computed last before the hop (the hop's own rect is the band it crosses):
        // the same layer's, of the same prompt chunk (a prefill's chunks overlap).
        const Phase* from = &p;
        for (size_t j = i; j-- > 0;)
            if (schedule.phases[j].computes && schedule.phases[j].layer == p.layer &&
                schedule.phases[j].chunk == p.chunk) {
                from = &schedule.phases[j];
                break;
            }
        MeshHop h;
        h.fromDevice = from->device;
        h.fromX = centreX(from->rect);
        h.fromY = centreY(from->rect);
        h.toDevice = p.toDevice;
        h.toX = centreX(p.toRect);
        h.toY = centreY(p.toRect);
        h.progress = p.durationCycles() > 0 ? std::clamp((cycle - p.startCycle) / p.durationCycles(), 0.0, 1.0) : 1.0;
        hops.push_back(h);
    }
    return hops;
}

void fillDataflowFrame(MeshFrame& frame, const TokenSchedule& schedule, const DataflowFrameOptions& o)
{
    fillDataflowFrame(frame, schedule, o,
                      [&schedule](int cols, int rows, const DataflowFrameOptions& one, std::vector<float>& out) {
                          fillDataflowGlow(schedule, cols, rows, one, out);
                      });
}

void fillDataflowFrame(MeshFrame& frame, const TokenSchedule& schedule, const DataflowFrameOptions& o,
                       const DataflowGlow& glow)
{
    frame.hops.clear();
    frame.links.clear();
    frame.overlayTop = 0;
    if (!frame.base) {
        frame.activity.clear();
        return;
    }
    const MeshSnapshot& base = *frame.base;
    const bool all = o.device == DataflowFrameOptions::allDevices;
    const size_t device = size_t(std::max(0, o.device));
    frame.activity.resize(std::max(size_t(std::max(0, base.deviceCount)), all ? 0 : device + 1));
    DataflowFrameOptions one = o;
    for (size_t d = 0; d < frame.activity.size(); ++d) {
        if (!all && d != device) {
            frame.activity[d].clear();
            continue;
        }
        one.device = int(d);
        glow(base.meshCols, base.meshRows, one, frame.activity[d]);
    }
    if (!o.hops)
        return;
    double t = schedule.totalCycles > 0 ? std::fmod(o.cycle, schedule.totalCycles) : 0.0;
    if (t < 0)
        t += schedule.totalCycles;
    frame.hops = activeHops(schedule, t);
}

std::shared_ptr<MeshFrame> reusableFrame(std::vector<std::shared_ptr<MeshFrame>>& pool, size_t keep)
{
    for (const auto& frame : pool)
        if (frame.use_count() == 1)
            return frame;
    auto frame = std::make_shared<MeshFrame>();
    if (pool.size() < keep)
        pool.push_back(frame);
    return frame;
}

std::shared_ptr<const MeshFrame> dataflowFrame(std::shared_ptr<const MeshSnapshot> base, const TokenSchedule* schedule,
                                               const DataflowFrameOptions& o)
{
    if (!base)
        return nullptr;
    auto frame = std::make_shared<MeshFrame>();
    frame->base = std::move(base);
    if (schedule && schedule->totalCycles > 0 && frame->base->meshCols > 0 && frame->base->meshRows > 0)
        fillDataflowFrame(*frame, *schedule, o);
    return frame;
}

double goldenRatioCycle(const TokenSchedule& schedule, int index)
{
    if (!(schedule.totalCycles > 0) || index < 0)
        return 0;
    return std::fmod(double(index) * kGoldenStep, 1.0) * schedule.totalCycles;
}

} // namespace ws
