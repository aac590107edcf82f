#pragma once
// Recorder writes an animation to a video file without blocking the GUI.
// The frame provider runs on the Recorder's own thread (the GUI thread, where
// widgets may be painted), one frame per event-loop turn, into a small
// bounded queue; a worker thread encodes the queue with VideoEncoder. Memory
// stays bounded (a few frames) and the GUI stays responsive. cancel() sets an
// atomic flag that the worker checks between frames; a cancelled or failed
// recording leaves nothing at the target path (QSaveFile).

#include "app/record/videosettings.h"

#include <QImage>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

namespace ws {

class FrameQueue;

class Recorder : public QObject
{
    Q_OBJECT

public:
    using FrameProvider = std::function<QImage(int frameIndex)>;
    // AsFastAsEncoded: frame i is drawn when the encoder has room (a scripted animation: the provider draws
    // time i / fps). RealTime: a frame is taken every 1/fps seconds (capturing a live view as it plays).
    enum class Pacing
    {
        AsFastAsEncoded,
        RealTime
    };

    explicit Recorder(QObject* parent = nullptr);
    ~Recorder() override; // cancels and waits for the worker

    // Returns false (see errorString()) when the settings are invalid or a recording is running.
    bool start(const QString& path, const VideoSettings& settings, int frameCount, FrameProvider provider);
    void cancel();
    void setPacing(Pacing pacing) { m_pacing = pacing; }
    bool isRunning() const { return m_running; }
    QString errorString() const { return m_error; }

    // Runs start() and an event loop until the recording ends; for the CLI and tests. True when the file was written.
    bool record(const QString& path, const VideoSettings& settings, int frameCount, FrameProvider provider);

signals:
    void progressChanged(int framesEncoded, int frameCount);
    void finished(const QString& path);
    void failed(const QString& message);
    void cancelled();

private:
    void pump();
    void onFrameEncoded(int framesEncoded);
    void onWorkerDone(int outcome, const QString& message);
    void joinWorker();

    std::unique_ptr<FrameQueue> m_queue;
    std::thread m_worker;
    std::atomic_bool m_cancel{false};
    QTimer m_pumpTimer;
    FrameProvider m_provider;
    QString m_path;
    Pacing m_pacing = Pacing::AsFastAsEncoded;
    int m_frameCount = 0;
    int m_nextFrame = 0;
    bool m_running = false;
    QString m_error;
};

} // namespace ws
