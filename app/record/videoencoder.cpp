#include "app/record/videoencoder.h"

#include "app/record/ffmpegwriter.h"
#include "app/record/gifwriter.h"

#include <QSaveFile>

namespace ws {

VideoEncoder::VideoEncoder() = default;

VideoEncoder::~VideoEncoder()
{
    cancel();
}

bool VideoEncoder::fail(const QString& message)
{
    m_error = message;
    cancel();
    return false;
}

bool VideoEncoder::open(const QString& path, const VideoSettings& settings)
{
    cancel();
    m_error.clear();
    m_frames = 0;
    m_path = path;
    if (settings.fps < kMinVideoFps || settings.fps > kMaxVideoFps)
        return fail(tr("frame rate must be from %1 to %2 frames per second, got %3")
                        .arg(kMinVideoFps)
                        .arg(kMaxVideoFps)
                        .arg(settings.fps));
    if (settings.format == VideoFormat::Gif && settings.fps > kMaxGifFps)
        return fail(tr("a GIF plays at most %1 frames per second (its frame delays are in hundredths of a second, and "
                       "players slow shorter ones down), got %2")
                        .arg(kMaxGifFps)
                        .arg(settings.fps));
    m_size = encodedFrameSize(settings);
    if (m_size.width() < kMinVideoSide || m_size.height() < kMinVideoSide || m_size.width() > kMaxVideoSide ||
        m_size.height() > kMaxVideoSide)
        return fail(tr("frame size must be from %1 to %2 pixels per side, got %3x%4")
                        .arg(kMinVideoSide)
                        .arg(kMaxVideoSide)
                        .arg(settings.frameSize.width())
                        .arg(settings.frameSize.height()));

    m_file = std::make_unique<QSaveFile>(path);
    m_file->moveToThread(nullptr); // used and deleted by whichever thread encodes; it needs no events
    if (!m_file->open(QIODevice::WriteOnly))
        return fail(tr("cannot write %1: %2").arg(path, m_file->errorString()));

    QString error;
    VideoSettings effective = settings;
    effective.frameSize = m_size;
    if (settings.format == VideoFormat::Gif) {
        m_gif = std::make_unique<GifWriter>();
        if (!m_gif->open(m_file.get(), effective, &error))
            return fail(error);
    } else {
        m_ffmpeg = std::make_unique<FfmpegWriter>();
        if (!m_ffmpeg->open(m_file.get(), effective, &error))
            return fail(error);
    }
    return true;
}

bool VideoEncoder::addFrame(const QImage& frame)
{
    if (!m_file)
        return fail(tr("no video file is open"));
    if (frame.isNull())
        return fail(tr("frame %1 is empty").arg(m_frames));
    QImage image = frame;
    if (image.size() != m_size)
        image = image.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (image.format() != QImage::Format_RGB32)
        image = image.convertToFormat(QImage::Format_RGB32);
    QString error;
    const bool ok = m_gif ? m_gif->addFrame(image, &error) : m_ffmpeg->addFrame(image, &error);
    if (!ok)
        return fail(error);
    ++m_frames;
    return true;
}

bool VideoEncoder::finish()
{
    if (!m_file)
        return fail(tr("no video file is open"));
    if (m_frames == 0)
        return fail(tr("no frames to write to %1").arg(m_path));
    QString error;
    const bool ok = m_gif ? m_gif->finish(&error) : m_ffmpeg->finish(&error);
    m_gif.reset();
    m_ffmpeg.reset();
    if (!ok)
        return fail(error);
    // Qt 6.4's QSaveFile::commit() misses a failed flush of its buffer (a full disk) and replaces the old
    // file with a short one: flush first, so a failed write cancels instead.
    if (!m_file->flush() || !m_file->commit())
        return fail(tr("cannot write %1: %2").arg(m_path, m_file->errorString()));
    m_file.reset();
    return true;
}

void VideoEncoder::cancel()
{
    m_gif.reset();
    m_ffmpeg.reset();
    if (m_file) {
        m_file->cancelWriting();
        m_file.reset(); // QSaveFile removes its temporary file
    }
}

} // namespace ws
