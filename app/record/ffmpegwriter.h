#pragma once
// FfmpegWriter encodes RGB32 frames with FFmpeg's libraries: H.264 (libx264)
// in MP4 or VP9 (libvpx) in WebM, 4:2:0 with BT.709 colour, through a custom
// AVIO context that writes to a QIODevice (a QSaveFile, so writes are atomic).

#include "app/record/videosettings.h"

#include <QCoreApplication>
#include <QImage>

#include <memory>

class QIODevice;

namespace ws {

class FfmpegWriter
{
    Q_DECLARE_TR_FUNCTIONS(ws::FfmpegWriter)

public:
    FfmpegWriter();
    ~FfmpegWriter();
    FfmpegWriter(const FfmpegWriter&) = delete;
    FfmpegWriter& operator=(const FfmpegWriter&) = delete;

    // settings.frameSize must be even (see encodedFrameSize); device must be open for writing and seekable.
    bool open(QIODevice* device, const VideoSettings& settings, QString* error);
    bool addFrame(const QImage& rgb32, QString* error); // frameSize, Format_RGB32
    bool finish(QString* error);

private:
    struct State;
    bool encode(bool flush, QString* error);
    std::unique_ptr<State> m_state;
};

} // namespace ws
