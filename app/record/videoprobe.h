#pragma once
// VideoProbe decodes a video file with FFmpeg's libraries (libavformat,
// libavcodec; GIF included) and reports what it holds: the number of frames
// that decode, their size and the codec. Tests and `record` use it to check
// that a written file reads back.

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QMap>
#include <QSize>
#include <QString>

#include <optional>

namespace ws {

struct VideoProbeResult
{
    int frameCount = 0; // frames that decoded without error
    QSize frameSize;
    QString codecName;        // FFmpeg's short name: "h264", "vp9", "gif"
    QString formatName;       // FFmpeg's demuxer name
    QImage firstFrame;        // the first decoded frame as RGB32 (colour matrix as the stream declares it)
    QMap<int, QImage> frames; // the frames asked for (0-based decode order), as RGB32 like firstFrame
    QString comment;          // the file's "comment" metadata (MP4/WebM tag, GIF comment extension), empty if none
};

class VideoProbe
{
    Q_DECLARE_TR_FUNCTIONS(ws::VideoProbe)

public:
    // keepFrames: the indices of frames to keep as images (tests look at a moment of a recording).
    static std::optional<VideoProbeResult> probe(const QString& path, QString* error,
                                                 const QList<int>& keepFrames = {});
};

} // namespace ws
