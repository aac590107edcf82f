#include "app/common/buildinfo.h"

#include "app/common/buildrevision.h" // generated: WAFERSCOPE_VERSION, WAFERSCOPE_REVISION

#include <QtGlobal>

#include <Eigen/Core>
#include <gif_lib.h>
#include <nlohmann/json_fwd.hpp>
#include <spdlog/version.h>

#include <fmt/core.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswscale/swscale.h>
}

namespace ws {

namespace {

QString dotted(int major, int minor, int patch)
{
    return QStringLiteral("%1.%2.%3").arg(major).arg(minor).arg(patch);
}

QString avVersion(unsigned packed)
{
    return dotted(int(AV_VERSION_MAJOR(packed)), int(AV_VERSION_MINOR(packed)), int(AV_VERSION_MICRO(packed)));
}

} // namespace

QString BuildInfo::version()
{
    return QStringLiteral(WAFERSCOPE_VERSION);
}

QString BuildInfo::revision()
{
    return QStringLiteral(WAFERSCOPE_REVISION);
}

QString BuildInfo::versionText()
{
    return QStringLiteral("%1 (git %2)").arg(version(), revision());
}

QString BuildInfo::generator()
{
    return QStringLiteral("WaferScope ") + versionText();
}

QString BuildInfo::licence()
{
    return QStringLiteral("GPL-3.0-or-later");
}

QList<LibraryInfo> BuildInfo::libraries()
{
    // FFmpeg reports its own licence: a distribution's build with --enable-gpl says GPL.
    const QString ffmpeg =
        QStringLiteral("%1 (libavcodec %2, libavformat %3, libavutil %4, libswscale %5)")
            .arg(QString::fromUtf8(av_version_info()), avVersion(avcodec_version()), avVersion(avformat_version()),
                 avVersion(avutil_version()), avVersion(swscale_version()));
    return {
        {QStringLiteral("Qt"), QString::fromLatin1(qVersion()),
         QStringLiteral("LGPL-3.0-only OR GPL-2.0-only OR GPL-3.0-only"), QStringLiteral("https://www.qt.io/")},
        // Qt Charts is offered under the GPL only (no LGPL): one reason WaferScope is GPL-3.0-or-later.
        {QStringLiteral("Qt Charts"), QString::fromLatin1(qVersion()), QStringLiteral("GPL-3.0-only"),
         QStringLiteral("https://doc.qt.io/qt-6/qtcharts-index.html")},
        {QStringLiteral("Eigen"), dotted(EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION),
         QStringLiteral("MPL-2.0"), QStringLiteral("https://eigen.tuxfamily.org/")},
        {QStringLiteral("spdlog"), dotted(SPDLOG_VER_MAJOR, SPDLOG_VER_MINOR, SPDLOG_VER_PATCH), QStringLiteral("MIT"),
         QStringLiteral("https://github.com/gabime/spdlog")},
        {QStringLiteral("{fmt}"), dotted(FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100),
         QStringLiteral("MIT"), QStringLiteral("https://fmt.dev/")},
        {QStringLiteral("FFmpeg"), ffmpeg, QString::fromUtf8(avcodec_license()), QStringLiteral("https://ffmpeg.org/")},
        {QStringLiteral("giflib"), dotted(GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE), QStringLiteral("MIT"),
         QStringLiteral("https://giflib.sourceforge.net/")},
        {QStringLiteral("JSON for Modern C++"),
         dotted(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH),
         QStringLiteral("MIT"), QStringLiteral("https://github.com/nlohmann/json")},
    };
}

} // namespace ws
