// The downloader's resume state (app/session/downloadresume.h): the first line is the address typed in the
// download dialog (QUrl::fromUserInput, as the dialog reads it), the second the server's Content-Range answer to
// a resumed request. The file name stays in the download folder; the range is a byte offset and a total, or
// refused.
#include "app/session/downloadresume.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QString>
#include <QUrl>

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char*>(data), qsizetype(size));
    const qsizetype newline = input.indexOf('\n');
    const QByteArray address = newline < 0 ? input : input.left(newline);
    const QByteArray range = newline < 0 ? QByteArray() : input.mid(newline + 1);

    const QString name = ws::DownloadResume::fileNameFor(QUrl::fromUserInput(QString::fromUtf8(address).trimmed()));
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_-][A-Za-z0-9._-]*$"));
    if (!safe.match(name).hasMatch()) {
        std::fprintf(stderr, "unsafe file name: %s\n", name.toUtf8().constData());
        std::abort();
    }
    const auto [start, total] = ws::DownloadResume::parseContentRange(range);
    if (start < -2 || total < -1 || (start == -2 && total != -1)) {
        std::fprintf(stderr, "bad range %lld/%lld\n", static_cast<long long>(start), static_cast<long long>(total));
        std::abort();
    }
    return 0;
}
