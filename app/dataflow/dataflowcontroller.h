#pragma once
// Plays one token's dataflow schedule on the heatmap: a QTimer at up to 30
// frames per second advances the wafer time by the real time elapsed times
// the dilation (wafer seconds per real second), wraps at the end of the
// token, and hands out a new frame (the placement's snapshot as base, with
// the activity of the visible device only and the hops of the moment,
// engine/wafer/dataflow/meshframe.h) per frame. Seeking and stepping from
// phase boundary to phase boundary work while playing or paused. Given the
// mesh engine's playback of one layer (meshplayback.h), the schedule is the
// engine's timeline and each frame's activity comes from its events. On the
// Links and Values layers (setOverlay) the frame is the run's still picture
// instead (MeshPlayback::fillLayer): nothing plays.

#include "engine/wafer/dataflow/schedule.h"
#include "engine/wafer/mesh/meshplayback.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>
#include <vector>

namespace ws {

class DataflowController : public QObject
{
    Q_OBJECT

public:
    static constexpr int frameIntervalMs = 16;  // about 60 frames per second (issue 30)
    static constexpr double trailSeconds = 0.3; // real seconds of glow behind each event

    explicit DataflowController(QObject* parent = nullptr);

    // executed: the mesh engine's run whose timeline `schedule` is; null: the closed forms' activity.
    void setSchedule(std::shared_ptr<const TokenSchedule> schedule, std::shared_ptr<const MeshSnapshot> base,
                     std::shared_ptr<const MeshPlayback> executed = nullptr);
    std::shared_ptr<const TokenSchedule> schedule() const { return m_schedule; }
    std::shared_ptr<const MeshPlayback> executed() const { return m_executed; }
    std::shared_ptr<const MeshFrame> currentFrame() const { return m_frame; }
    void setDevice(int device);
    int device() const { return m_device; }
    // Which layer the frames are for: Dataflow plays; Links and Values show the executed run's still picture
    // (no run: a frame without data), and play() does nothing.
    void setOverlay(MeshLayer layer);
    MeshLayer overlay() const { return m_overlay; }

    double cycle() const { return m_cycle; }
    double totalCycles() const { return m_schedule ? m_schedule->totalCycles : 0.0; }
    bool isPlaying() const { return m_timer.isActive(); }
    // Frames follow each other at the frame rate: playing, or a tour stepping the token with its own pace
    // (seekFraction with a pace) since its last plain seek or step. The dock then makes their images off the
    // GUI thread; a seek, a step or a pause shows its frame at once.
    bool isAnimating() const { return isPlaying() || m_paced; }
    // Time dilation: wafer seconds shown per real second (1e-6: one microsecond per second).
    double waferSecondsPerSecond() const { return m_dilation; }
    // The phase boundaries (distinct start cycles), ascending.
    const std::vector<double>& boundaries() const { return m_boundaries; }
    // The phase running at the current cycle (the first of concurrent ones), -1 when none.
    int currentPhase() const;
    // The wafer a view showing wafer `shown` follows the token to at the current cycle: `shown` itself while a
    // phase runs there (a prefill's chunks straddle wafers: the view stays rather than flicker between them),
    // else the wafer of the phase that began first; -1 when nothing runs.
    int tokenDevice(int shown) const;
    // Wall time of the last frame computation, milliseconds.
    double lastFrameMs() const { return m_lastFrameMs; }

    // Several settings changed together (a layer, its source, a new schedule) make one frame, not one each:
    // while a batch lives, a change only marks the frame stale, and the outermost batch's end renders it. A
    // tour's layer step rendered the frame three times (the overlay, the pace, the schedule): 12 ms of the GUI
    // thread's CPU in one tick at 1920 x 1080. Batches nest.
    class FrameBatch
    {
    public:
        explicit FrameBatch(DataflowController& controller) : m_controller(controller) { ++m_controller.m_batches; }
        ~FrameBatch();
        FrameBatch(const FrameBatch&) = delete;
        FrameBatch& operator=(const FrameBatch&) = delete;

    private:
        DataflowController& m_controller;
    };
    // A batch holds back a frame: currentFrame() is not the settings' frame until the batch ends.
    bool isFramePending() const { return m_framePending; }

public slots:
    void play();
    void pause();
    void togglePlay();
    void seek(double cycle);
    void seekFraction(double fraction);
    // The same at a new pace (setWaferSecondsPerSecond), in one frame rather than two: a tour's play step.
    void seekFraction(double fraction, double waferSecondsPerSecond);
    void stepPhase(int direction); // +1: next phase boundary, -1: previous
    void setWaferSecondsPerSecond(double seconds);

signals:
    void frameReady(std::shared_ptr<const MeshFrame> frame);
    void stateChanged(); // cycle, playing, phase or dilation changed
    // While playing, the token went on to a phase on another wafer than the one the frames are for: the view
    // should follow it there (then setDevice(device)). Not on a seek or a step: the user chose where to look.
    void tokenMovedTo(int device);

private:
    void tick();
    void seekTo(double cycle); // seek, keeping whether the token is paced
    void render();

    std::shared_ptr<const TokenSchedule> m_schedule;
    std::shared_ptr<const MeshPlayback> m_executed;
    std::shared_ptr<const MeshSnapshot> m_base;
    std::shared_ptr<const MeshFrame> m_frame;
    // Frames reused, across schedules and placements too (setSchedule rebases the idle ones): one is refilled only
    // when nobody else holds it, so a frame handed out never changes, and a frame costs the activity of one device
    // without allocating it again.
    std::vector<std::shared_ptr<MeshFrame>> m_pool;
    std::vector<double> m_boundaries;
    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_device = 0;
    MeshLayer m_overlay = MeshLayer::Dataflow;
    double m_cycle = 0;
    double m_dilation = 1e-4; // 100 us of wafer time per second: a token of about 1.6 ms plays in 16 s
    double m_lastFrameMs = 0;
    bool m_paced = false;        // the last seek was a tour's paced step (isAnimating)
    int m_batches = 0;           // FrameBatch objects alive
    bool m_framePending = false; // a render asked for inside a batch
};

} // namespace ws
