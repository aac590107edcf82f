#include "app/record/recorder.h"

#include "app/common/threadhandoff.h"
#include "app/record/framequeue.h"
#include "app/record/videoencoder.h"

#include <QEventLoop>

namespace ws {

namespace {
constexpr size_t kQueuedFrames = 4;
enum Outcome
{
    Finished,
    Failed,
    Cancelled
};
} // namespace

Recorder::Recorder(QObject* parent) : QObject(parent)
{
    connect(&m_pumpTimer, &QTimer::timeout, this, &Recorder::pump);
}

Recorder::~Recorder()
{
    cancel();
    joinWorker();
}

void Recorder::joinWorker()
{
    if (m_worker.joinable())
        m_worker.join();
}

bool Recorder::start(const QString& path, const VideoSettings& settings, int frameCount, FrameProvider provider)
{
    if (m_running) {
        m_error = tr("a recording is already running");
        return false;
    }
    joinWorker();
    if (frameCount < 1) {
        m_error = tr("a recording needs at least one frame, got %1").arg(frameCount);
        return false;
    }
    // Open the encoder here so that bad settings or an unwritable path fail at once, not on the worker.
    auto encoder = std::make_shared<VideoEncoder>();
    if (!encoder->open(path, settings)) {
        m_error = encoder->errorString();
        return false;
    }
    m_error.clear();
    m_path = path;
    m_provider = std::move(provider);
    m_frameCount = frameCount;
    m_nextFrame = 0;
    m_cancel = false;
    m_running = true;
    m_queue = std::make_unique<FrameQueue>(kQueuedFrames);

    FrameQueue* queue = m_queue.get();
    m_worker = std::thread([this, queue, encoder, frameCount] {
        for (int i = 0; i < frameCount; ++i) {
            std::optional<QImage> frame = queue->pop();
            if (!frame || m_cancel) {
                encoder->cancel();
                QMetaObject::invokeMethod(this, handoff::queued([this] { onWorkerDone(Cancelled, {}); }),
                                          Qt::QueuedConnection);
                return;
            }
            if (!encoder->addFrame(*frame)) {
                const QString message = encoder->errorString();
                QMetaObject::invokeMethod(this, handoff::queued([this, message] { onWorkerDone(Failed, message); }),
                                          Qt::QueuedConnection);
                return;
            }
            QMetaObject::invokeMethod(this, handoff::queued([this, i] { onFrameEncoded(i + 1); }),
                                      Qt::QueuedConnection);
        }
        if (m_cancel) {
            encoder->cancel();
            QMetaObject::invokeMethod(this, handoff::queued([this] { onWorkerDone(Cancelled, {}); }),
                                      Qt::QueuedConnection);
            return;
        }
        const bool ok = encoder->finish();
        const QString message = encoder->errorString();
        QMetaObject::invokeMethod(
            this, handoff::queued([this, ok, message] { onWorkerDone(ok ? Finished : Failed, message); }),
            Qt::QueuedConnection);
    });
    m_pumpTimer.setInterval(m_pacing == Pacing::RealTime ? 1000 / settings.fps : 0);
    m_pumpTimer.start();
    return true;
}

void Recorder::pump()
{
    if (!m_running || m_cancel || m_nextFrame >= m_frameCount) {
        m_pumpTimer.stop();
        return;
    }
    if (m_pacing == Pacing::AsFastAsEncoded && !m_queue->hasRoom()) {
        m_pumpTimer.stop(); // resumed by onFrameEncoded
        return;
    }
    QImage frame = m_provider(m_nextFrame);
    if (frame.isNull()) {
        m_error = tr("frame %1 could not be drawn").arg(m_nextFrame);
        m_pumpTimer.stop();
        cancel();
        return;
    }
    ++m_nextFrame;
    m_queue->push(std::move(frame));
}

void Recorder::onFrameEncoded(int framesEncoded)
{
    if (!m_running)
        return;
    emit progressChanged(framesEncoded, m_frameCount);
    if (!m_cancel && m_nextFrame < m_frameCount && !m_pumpTimer.isActive())
        m_pumpTimer.start();
}

void Recorder::onWorkerDone(int outcome, const QString& message)
{
    joinWorker();
    m_pumpTimer.stop();
    m_running = false;
    m_queue.reset();
    m_provider = nullptr;
    if (outcome == Finished) {
        emit finished(m_path);
    } else if (outcome == Failed || !m_error.isEmpty()) {
        if (outcome == Failed)
            m_error = message;
        emit failed(m_error);
    } else {
        m_error = tr("recording cancelled");
        emit cancelled();
    }
}

void Recorder::cancel()
{
    if (!m_running)
        return;
    m_cancel = true;
    m_pumpTimer.stop();
    if (m_queue)
        m_queue->close();
}

bool Recorder::record(const QString& path, const VideoSettings& settings, int frameCount, FrameProvider provider)
{
    if (!start(path, settings, frameCount, std::move(provider)))
        return false;
    QEventLoop loop;
    bool ok = false;
    connect(this, &Recorder::finished, &loop, [&] {
        ok = true;
        loop.quit();
    });
    connect(this, &Recorder::failed, &loop, &QEventLoop::quit);
    connect(this, &Recorder::cancelled, &loop, &QEventLoop::quit);
    if (m_running)
        loop.exec();
    return ok;
}

} // namespace ws
