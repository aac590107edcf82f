#pragma once
// VideoEncoder writes a sequence of QImage frames to an MP4 (H.264), WebM (VP9)
// or GIF file. The file is written through QSaveFile: until finish() succeeds
// nothing appears at the target path, and cancel() or any error leaves an
// existing file there untouched. Not thread-safe; one encoder is used by one
// thread at a time (Recorder runs it on a worker thread).

#include "app/record/videosettings.h"

#include <QCoreApplication>
#include <QImage>
#include <QString>

#include <memory>

class QSaveFile;

namespace ws {

class FfmpegWriter;
class GifWriter;

class VideoEncoder
{
    Q_DECLARE_TR_FUNCTIONS(ws::VideoEncoder)

public:
    VideoEncoder();
    ~VideoEncoder(); // cancels an unfinished file
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    bool open(const QString& path, const VideoSettings& settings);
    // Any QImage format and size; it is converted to RGB32 and scaled to the encoded size.
    bool addFrame(const QImage& frame);
    // Flushes the encoder and commits the file. Fails (and writes nothing) when no frame was added.
    bool finish();
    void cancel();

    bool isOpen() const { return m_file != nullptr; }
    int framesWritten() const { return m_frames; }
    QSize frameSize() const { return m_size; }
    QString errorString() const { return m_error; }

private:
    bool fail(const QString& message);

    std::unique_ptr<QSaveFile> m_file;
    std::unique_ptr<FfmpegWriter> m_ffmpeg;
    std::unique_ptr<GifWriter> m_gif;
    QString m_path;
    QSize m_size;
    int m_frames = 0;
    QString m_error;
};

} // namespace ws
