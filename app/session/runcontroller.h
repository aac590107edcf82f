#pragma once
// The run controller owns the one worker thread of the live session. The
// worker owns the loaded SessionModel and runs chat turns on it; the GUI
// thread never calls into the model. Requests go to the worker as queued
// calls; results come back as immutable std::shared_ptr<const
// SessionSnapshot> values, at most about 30 a second. The only state both
// threads touch is an atomic stop flag and an atomic request counter: every
// start() or loadModel() takes a new request id, a running turn stops as
// soon as it sees a newer id, and snapshots of an older request that were
// already on their way are dropped on arrival (Hotspot's JobTracker, Qt's
// Mandelbrot example).

#include "engine/session/chatturn.h"
#include "engine/session/sessionmodel.h"
#include "engine/session/sessionsnapshot.h"
#include "engine/session/tokenpacer.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace ws {

struct RunRequest
{
    TurnRequest turn;
    TokenPacer pacer = TokenPacer::asFastAsPossible();
    std::vector<SystemPace> systems; // predicted speeds for the stats line
    double maxSnapshotsPerSecond = 30.0;
    // Wafer frame for token `index`; called on the worker thread, so it must
    // only read data it owns (copies or shared_ptr<const>).
    std::function<std::shared_ptr<const MeshFrame>(int index, int cacheTokens)> meshFrame;
};

class RunController : public QObject
{
    Q_OBJECT
public:
    // Runs on the worker thread; returns the model the worker will own.
    using ModelLoader = std::function<Expected<std::unique_ptr<SessionModel>>()>;

    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // Loads a model on the worker, replacing the current one only when the
    // load succeeds. Stops a running turn. Returns the request id.
    quint64 loadModel(ModelLoader loader);
    bool isLoadingModel() const { return m_loading; }
    // The loaded model's description (a copy the GUI thread owns).
    const std::optional<SessionModelInfo>& modelInfo() const { return m_modelInfo; }

    // Starts a chat turn; a turn still running is stopped and its results
    // are dropped. Returns the request id the snapshots will carry.
    quint64 start(RunRequest request);
    // Stops the running turn; its final (stopped) snapshot still arrives.
    void stop();
    bool isRunning() const { return m_running; }
    quint64 currentRequest() const { return m_current; }
    std::shared_ptr<const SessionSnapshot> latestSnapshot() const { return m_latest; }
    // Snapshots that arrived after their request was superseded (for tests).
    int droppedSnapshots() const { return m_dropped; }
    // An engine error as one translated line for the chat pane.
    static QString describeError(const Error& error);

signals:
    void snapshotReady(std::shared_ptr<const ws::SessionSnapshot> snapshot);
    // The final snapshot of a turn that ended normally or was stopped.
    void runFinished(std::shared_ptr<const ws::SessionSnapshot> snapshot);
    void runFailed(quint64 requestId, const QString& message);
    void runningChanged(bool running);
    void modelLoaded();
    void modelLoadFailed(const QString& message);

private:
    struct Worker;
    quint64 nextRequest();
    void receiveSnapshot(std::shared_ptr<const SessionSnapshot> snapshot);
    void receiveFailure(quint64 requestId, const QString& message);
    void receiveModel(quint64 requestId, std::optional<SessionModelInfo> info, const QString& error);
    void runTurn(quint64 requestId, const RunRequest& request); // on the worker thread
    bool shouldStop(quint64 requestId) const;
    void setRunning(bool running);

    QThread* m_thread;
    QObject* m_workerContext;         // lives on m_thread; queued calls run there
    std::unique_ptr<Worker> m_worker; // touched only on m_thread after construction
    std::atomic<bool> m_stop{false};
    std::atomic<quint64> m_latestRequest{0};

    // GUI-thread state.
    quint64 m_current = 0;
    bool m_running = false;
    bool m_loading = false;
    quint64 m_lastLoad = 0;
    int m_dropped = 0;
    std::shared_ptr<const SessionSnapshot> m_latest;
    std::optional<SessionModelInfo> m_modelInfo;
};

} // namespace ws
