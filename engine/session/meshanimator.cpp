#include "engine/session/meshanimator.h"

#include "engine/wafer/dataflow/activity.h"

#include <cmath>

namespace ws {

namespace {
constexpr double kGoldenStep = 0.6180339887498949; // fractional part of the golden ratio
}

MeshAnimator::MeshAnimator(std::shared_ptr<const MeshSnapshot> base, std::shared_ptr<const TokenSchedule> schedule)
    : m_base(std::move(base)), m_schedule(std::move(schedule))
{
}

double MeshAnimator::sampleCycle(int index) const
{
    if (!m_schedule || m_schedule->totalCycles <= 0 || index < 0)
        return 0;
    const double fraction = std::fmod(double(index) * kGoldenStep, 1.0);
    return fraction * m_schedule->totalCycles;
}

std::shared_ptr<const MeshSnapshot> MeshAnimator::frame(int index) const
{
    if (!m_base)
        return nullptr;
    if (!m_schedule || m_base->meshCols <= 0 || m_base->meshRows <= 0)
        return m_base;
    auto frame = std::make_shared<MeshSnapshot>(*m_base);
    const double cycle = sampleCycle(index);
    std::vector<CoreActivity> cores;
    frame->activity.assign(size_t(frame->deviceCount), {});
    for (int device = 0; device < frame->deviceCount; ++device) {
        fillActivity(*m_schedule, device, frame->meshCols, frame->meshRows, cycle, cores);
        activityToFraction(cores, frame->activity[size_t(device)]);
    }
    return frame;
}

} // namespace ws
