#include "app/dataflow/dataflowcontroller.h"

#include "engine/wafer/dataflow/activity.h"
#include "engine/wafer/dataflow/meshframe.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ws {

DataflowController::DataflowController(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(frameIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &DataflowController::tick);
}

void DataflowController::setSchedule(std::shared_ptr<const TokenSchedule> schedule,
                                     std::shared_ptr<const MeshSnapshot> base,
                                     std::shared_ptr<const MeshPlayback> executed)
{
    m_schedule = std::move(schedule);
    m_executed = std::move(executed);
    m_base = std::move(base);
    // The pool's frames are refilled for the new schedule (render): those nobody holds take the new base at once,
    // so that none keeps another placement's snapshot; one still held elsewhere with another base goes.
    std::erase_if(m_pool, [this](const std::shared_ptr<MeshFrame>& f) {
        if (f.use_count() == 1)
            f->base = m_base;
        return f->base != m_base;
    });
    m_frame.reset();
    m_boundaries.clear();
    if (m_schedule) {
        for (const Phase& p : m_schedule->phases)
            m_boundaries.push_back(p.startCycle);
        std::sort(m_boundaries.begin(), m_boundaries.end());
        m_boundaries.erase(std::unique(m_boundaries.begin(), m_boundaries.end()), m_boundaries.end());
    }
    if (!m_schedule || !(m_schedule->totalCycles > 0))
        pause();
    m_cycle = std::clamp(m_cycle, 0.0, std::max(0.0, totalCycles()));
    render();
}

void DataflowController::setDevice(int device)
{
    if (device == m_device)
        return;
    m_device = device;
    render();
}

void DataflowController::setOverlay(MeshLayer layer)
{
    const MeshLayer overlay = layer == MeshLayer::Links || layer == MeshLayer::Values ? layer : MeshLayer::Dataflow;
    if (overlay == m_overlay)
        return;
    m_overlay = overlay; // the pool's frames are the Dataflow overlay's: kept for when it comes back
    if (m_overlay != MeshLayer::Dataflow)
        pause();
    render();
}

int DataflowController::currentPhase() const
{
    if (!m_schedule)
        return -1;
    const std::vector<size_t> active = activePhases(*m_schedule, m_cycle);
    return active.empty() ? -1 : int(*std::min_element(active.begin(), active.end()));
}

int DataflowController::tokenDevice(int shown) const
{
    if (!m_schedule)
        return -1;
    const std::vector<size_t> active = activePhases(*m_schedule, m_cycle);
    if (active.empty())
        return -1;
    for (size_t i : active)
        if (m_schedule->phases[i].device == shown)
            return shown;
    return m_schedule->phases[*std::min_element(active.begin(), active.end())].device;
}

void DataflowController::play()
{
    if (!m_schedule || !(m_schedule->totalCycles > 0) || m_timer.isActive() || m_overlay != MeshLayer::Dataflow)
        return;
    m_clock.start();
    m_timer.start();
    emit stateChanged();
}

void DataflowController::pause()
{
    if (!m_timer.isActive())
        return;
    m_timer.stop();
    emit stateChanged();
}

void DataflowController::togglePlay()
{
    isPlaying() ? pause() : play();
}

void DataflowController::seek(double cycle)
{
    m_paced = false;
    seekTo(cycle);
}

void DataflowController::seekTo(double cycle)
{
    const double total = totalCycles();
    m_cycle = total > 0 && std::isfinite(cycle) ? std::clamp(cycle, 0.0, total) : 0.0;
    render();
    // Playing: the wafer time runs on from the moment the seek's frame is out, not from the tick before
    // it nor from before that frame was drawn.
    if (m_timer.isActive())
        m_clock.start();
}

void DataflowController::seekFraction(double fraction)
{
    seek(fraction * totalCycles());
}

void DataflowController::seekFraction(double fraction, double waferSecondsPerSecond)
{
    if (waferSecondsPerSecond > 0 && std::isfinite(waferSecondsPerSecond))
        m_dilation = waferSecondsPerSecond; // the frame below shows it (the trail's length)
    m_paced = true;
    seekTo(fraction * totalCycles());
}

void DataflowController::stepPhase(int direction)
{
    if (m_boundaries.empty())
        return;
    // A boundary within a hundredth of a cycle counts as the current position.
    const double eps = 1e-2;
    if (direction > 0) {
        auto it = std::upper_bound(m_boundaries.begin(), m_boundaries.end(), m_cycle + eps);
        seek(it == m_boundaries.end() ? m_boundaries.back() : *it);
    } else if (direction < 0) {
        auto it = std::lower_bound(m_boundaries.begin(), m_boundaries.end(), m_cycle - eps);
        seek(it == m_boundaries.begin() ? m_boundaries.front() : *(it - 1));
    }
}

void DataflowController::setWaferSecondsPerSecond(double seconds)
{
    if (!(seconds > 0) || !std::isfinite(seconds) || seconds == m_dilation)
        return;
    m_dilation = seconds;
    render();
}

void DataflowController::tick()
{
    const double total = totalCycles();
    if (!(total > 0)) {
        pause();
        return;
    }
    const double elapsedS = m_clock.nsecsElapsed() * 1e-9;
    m_clock.start();
    m_cycle = std::fmod(m_cycle + elapsedS * m_dilation * m_schedule->clockHz, total);
    if (const int device = tokenDevice(m_device); device >= 0 && device != m_device) {
        emit tokenMovedTo(device);
        if (m_device == device || !m_timer.isActive())
            return; // a receiver followed it (setDevice rendered that wafer's frame) or paused
    }
    render();
}

DataflowController::FrameBatch::~FrameBatch()
{
    if (--m_controller.m_batches == 0 && std::exchange(m_controller.m_framePending, false))
        m_controller.render();
}

void DataflowController::render()
{
    if (m_batches > 0) {
        m_framePending = true;
        return;
    }
    if (m_overlay != MeshLayer::Dataflow && m_base) {
        auto frame = std::make_shared<MeshFrame>();
        frame->base = m_base;
        if (m_executed)
            m_executed->fillLayer(*frame, m_overlay, std::clamp(m_device, 0, std::max(0, m_base->deviceCount - 1)));
        m_frame = std::move(frame);
        emit frameReady(m_frame);
        emit stateChanged();
        return;
    }
    if (!m_schedule || !m_base) {
        m_frame = dataflowFrame(m_base, nullptr, {});
        emit frameReady(m_frame);
        emit stateChanged();
        return;
    }
    QElapsedTimer timer;
    timer.start();
    DataflowFrameOptions options;
    options.device = std::clamp(m_device, 0, std::max(0, m_base->deviceCount - 1));
    options.cycle = m_cycle;
    options.trailCycles = std::min(trailSeconds * m_dilation * m_schedule->clockHz, totalCycles() / 4);
    // A pooled frame of another schedule is refilled all the same (fillDataflowFrame rewrites all but the base,
    // which setSchedule set): a new schedule or placement (a tour's layer or open step) costs no fresh wafer of
    // zeroed pages (2.5-3 ms) nor the unmapping of the old frames.
    std::shared_ptr<MeshFrame> target = reusableFrame(m_pool, 3);
    if (!target->base)
        target->base = m_base; // a new frame
    if (m_executed)
        m_executed->fillFrame(*target, options);
    else
        fillDataflowFrame(*target, *m_schedule, options);
    m_frame = std::move(target);
    m_lastFrameMs = timer.nsecsElapsed() * 1e-6;
    emit frameReady(m_frame);
    emit stateChanged();
}

} // namespace ws
