#pragma once
// VideoProbe decodes a video file with FFmpeg's libraries (libavformat,
// libavcodec; GIF included) and reports what it holds: the number of frames
// that decode, their size and the codec. Tests and `record` use it to check
// that a written file reads back.

#include <QCoreApplication>
#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

namespace ws {

struct VideoProbeResult
{
    int frameCount = 0; // frames that decoded without error
    QSize frameSize;
    QString codecName;  // FFmpeg's short name: "h264", "vp9", "gif"
    QString formatName; // FFmpeg's demuxer name
    QImage firstFrame;  // the first decoded frame as RGB32 (colour matrix as the stream declares it)
    QString comment;    // the file's "comment" metadata (MP4/WebM tag, GIF comment extension), empty if none
};

class VideoProbe
{
    Q_DECLARE_TR_FUNCTIONS(ws::VideoProbe)

public:
    static std::optional<VideoProbeResult> probe(const QString& path, QString* error);
};

} // namespace ws
