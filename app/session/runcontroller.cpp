#include "app/session/runcontroller.h"

#include "app/common/threadhandoff.h"
#include "engine/session/decodesession.h"

#include <QThread>

#include <atomic>
#include <exception>
#include <new>

namespace ws {

namespace {

// Runs `work` on the worker; what it throws becomes a translated message (empty: nothing thrown), so a
// throwing model or stream ends its request with an error instead of the process.
template <typename F> QString catchingThrows(F&& work)
{
    try {
        work();
        return {};
    } catch (const std::bad_alloc&) {
        return RunController::tr("The generator failed: out of memory.");
    } catch (const std::exception& e) {
        return RunController::tr("The generator failed: %1").arg(QString::fromLocal8Bit(e.what()));
    } catch (...) {
        return RunController::tr("The generator failed: unknown exception.");
    }
}

} // namespace

// Worker-thread state: touched only by code queued to m_workerContext.
struct RunController::Worker
{
    std::unique_ptr<SessionModel> model;
};

RunController::RunController(QObject* parent)
    : QObject(parent), m_thread(new QThread(this)), m_workerContext(new QObject), m_worker(std::make_unique<Worker>())
{
    qRegisterMetaType<std::shared_ptr<const ws::SessionSnapshot>>();
    m_thread->setObjectName(QStringLiteral("session-worker"));
    m_workerContext->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_workerContext, &QObject::deleteLater);
    // The worker's last act, on its thread: the destructor takes its state after QThread::wait() (see there).
    connect(
        m_thread, &QThread::finished, m_thread, [worker = m_worker.get()] { handoff::release(worker); },
        Qt::DirectConnection);
    m_thread->start();
}

RunController::~RunController()
{
    m_stop = true;
    ++m_latestRequest; // whatever runs sees a newer request and returns
    m_thread->quit();
    m_thread->wait();
    handoff::acquire(m_worker.get()); // Qt's wait() orders the worker's end before this (tsan preset only)
    m_worker.reset();                 // the thread is gone: nothing else can touch it
}

QString RunController::describeError(const Error& error)
{
    const QString detail = QString::fromStdString(error.message());
    switch (error.code) {
    case ErrorCode::NotFound:
        return tr("Not found: %1").arg(detail);
    case ErrorCode::Io:
        return tr("Cannot read the model: %1").arg(detail);
    case ErrorCode::Format:
        return tr("The file is damaged or not a model: %1").arg(detail);
    case ErrorCode::Unsupported:
        return tr("Not supported yet: %1").arg(detail);
    case ErrorCode::OutOfRange:
        return tr("Out of range: %1").arg(detail);
    case ErrorCode::Cancelled:
        return tr("Stopped.");
    case ErrorCode::InvalidArgument:
        break;
    }
    return tr("Invalid input: %1").arg(detail);
}

quint64 RunController::nextRequest()
{
    const quint64 id = ++m_latestRequest;
    m_stop = false;
    m_current = id;
    m_latest.reset();
    setRunning(false); // results of the previous request will be dropped
    return id;
}

bool RunController::shouldStop(quint64 requestId) const
{
    return m_stop.load() || m_latestRequest.load() != requestId;
}

void RunController::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    emit runningChanged(running);
}

quint64 RunController::loadModel(ModelLoader loader)
{
    const quint64 id = nextRequest();
    m_lastLoad = id;
    m_loading = true;
    QMetaObject::invokeMethod(
        m_workerContext, handoff::queued([this, id, loader = std::move(loader)] {
            auto failed = [this, id](const QString& message) {
                QMetaObject::invokeMethod(
                    this, handoff::queued([this, id, message] { receiveModel(id, std::nullopt, message); }),
                    Qt::QueuedConnection);
            };
            const QString thrown = catchingThrows([&] {
                Expected<std::unique_ptr<SessionModel>> loaded = loader();
                if (!loaded) {
                    failed(describeError(loaded.error()));
                    return;
                }
                m_worker->model = std::move(*loaded); // the old model is freed here, on the worker
                SessionModelInfo info = m_worker->model->info();
                QMetaObject::invokeMethod(this, handoff::queued([this, id, info] { receiveModel(id, info, {}); }),
                                          Qt::QueuedConnection);
            });
            if (!thrown.isEmpty())
                failed(thrown); // the worker stays up, the old model (if any) stays loaded
        }),
        Qt::QueuedConnection);
    return id;
}

void RunController::receiveModel(quint64 requestId, std::optional<SessionModelInfo> info, const QString& error)
{
    // Loads finish in the order they were asked for, so every result
    // mirrors what the worker now holds.
    if (requestId == m_lastLoad)
        m_loading = false;
    if (info) {
        m_modelInfo = std::move(info);
        emit modelLoaded();
    } else {
        emit modelLoadFailed(error);
    }
}

quint64 RunController::start(RunRequest request)
{
    const quint64 id = nextRequest();
    setRunning(true);
    QMetaObject::invokeMethod(m_workerContext, handoff::queued([this, id, request = std::move(request)] {
                                  const QString thrown = catchingThrows([&] { runTurn(id, request); });
                                  if (!thrown.isEmpty())
                                      QMetaObject::invokeMethod(
                                          this, handoff::queued([this, id, thrown] { receiveFailure(id, thrown); }),
                                          Qt::QueuedConnection);
                              }),
                              Qt::QueuedConnection);
    return id;
}

void RunController::stop()
{
    m_stop = true;
}

void RunController::runTurn(quint64 requestId, const RunRequest& request)
{
    // Snapshots posted to the GUI thread and not yet received: at most two wait there, each with its
    // wafer frame, however slow the GUI thread is (a long run on a loaded machine stays flat).
    auto inFlight = std::make_shared<std::atomic<int>>(0);
    auto post = [this, inFlight](std::shared_ptr<const SessionSnapshot> snapshot) {
        ++*inFlight;
        QMetaObject::invokeMethod(this, handoff::queued([this, snapshot, inFlight] {
                                      --*inFlight;
                                      receiveSnapshot(snapshot);
                                  }),
                                  Qt::QueuedConnection);
    };
    auto fail = [this, requestId](const QString& message) {
        QMetaObject::invokeMethod(this,
                                  handoff::queued([this, requestId, message] { receiveFailure(requestId, message); }),
                                  Qt::QueuedConnection);
    };
    if (m_latestRequest.load() != requestId)
        return; // superseded while queued: nobody waits for it
    if (!m_worker->model) {
        fail(tr("No model is loaded. Open a GGUF or llama2.c file (Model > Open) or download one "
                "(Model > Download from URL)."));
        return;
    }
    Expected<std::unique_ptr<TokenStream>> stream = m_worker->model->startTurn(request.turn);
    if (!stream) {
        fail(describeError(stream.error()));
        return;
    }
    DecodeOptions options;
    options.requestId = requestId;
    options.pacer = request.pacer;
    options.maxSnapshotsPerSecond = request.maxSnapshotsPerSecond;
    options.systems = request.systems;
    options.meshFrame = request.meshFrame;
    options.consumerReady = [inFlight] { return inFlight->load() < 2; };
    DecodeSession session(std::move(options));
    session.run(
        **stream, [this, requestId] { return shouldStop(requestId); }, post);
}

void RunController::receiveSnapshot(std::shared_ptr<const SessionSnapshot> snapshot)
{
    if (!snapshot || snapshot->requestId != m_current) {
        ++m_dropped; // a cancelled request's result, already on its way
        return;
    }
    m_latest = snapshot;
    emit snapshotReady(snapshot);
    if (!snapshot->isFinal())
        return;
    setRunning(false);
    if (snapshot->state == TurnState::Failed)
        emit runFailed(snapshot->requestId,
                       snapshot->error ? describeError(*snapshot->error) : tr("Generation failed."));
    else
        emit runFinished(snapshot);
}

void RunController::receiveFailure(quint64 requestId, const QString& message)
{
    if (requestId != m_current) {
        ++m_dropped;
        return;
    }
    setRunning(false);
    emit runFailed(requestId, message);
}

} // namespace ws
