#pragma once
// What a recording is written as: container/codec (chosen by the file suffix),
// frame size in pixels and frame rate. H.264 and VP9 are written as 4:2:0, so
// the encoded size is rounded down to even numbers (encodedFrameSize()).

#include <QSize>
#include <QString>

#include <optional>

namespace ws {

enum class VideoFormat
{
    Mp4,
    WebM,
    Gif
};

struct VideoSettings
{
    VideoFormat format = VideoFormat::Mp4;
    QSize frameSize{1280, 720}; // requested output size; frames of another size are scaled to it
    int fps = 30;
    // Written into the file's metadata (MP4/WebM "comment" tag, GIF comment extension): the version and
    // scenario that made it (ExportStamp::text()). Empty: nothing is written.
    QString comment;
};

// .mp4 -> Mp4 (H.264), .webm -> WebM (VP9), .gif -> Gif; nullopt for anything else.
std::optional<VideoFormat> videoFormatFromPath(const QString& path);
QString videoFormatName(VideoFormat format); // "MP4 (H.264)", ...

// The size frames are encoded at: the requested size, made even for the 4:2:0 video codecs.
QSize encodedFrameSize(const VideoSettings& settings);

constexpr int kMinVideoFps = 1;
constexpr int kMaxVideoFps = 120;
constexpr int kMaxGifFps = 50; // GIF delays are whole hundredths of a second; below 2 players use 10
constexpr int kMinVideoSide = 16;
constexpr int kMaxVideoSide = 7680;

} // namespace ws
