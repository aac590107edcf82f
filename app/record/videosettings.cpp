#include "app/record/videosettings.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace ws {

std::optional<VideoFormat> videoFormatFromPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("mp4"))
        return VideoFormat::Mp4;
    if (suffix == QLatin1String("webm"))
        return VideoFormat::WebM;
    if (suffix == QLatin1String("gif"))
        return VideoFormat::Gif;
    return std::nullopt;
}

QString videoFormatName(VideoFormat format)
{
    switch (format) {
    case VideoFormat::Mp4:
        return QCoreApplication::translate("ws::VideoSettings", "MP4 (H.264)");
    case VideoFormat::WebM:
        return QCoreApplication::translate("ws::VideoSettings", "WebM (VP9)");
    case VideoFormat::Gif:
        return QCoreApplication::translate("ws::VideoSettings", "GIF");
    }
    return {};
}

QSize encodedFrameSize(const VideoSettings& settings)
{
    if (settings.format == VideoFormat::Gif)
        return settings.frameSize;
    return {settings.frameSize.width() & ~1, settings.frameSize.height() & ~1};
}

} // namespace ws
