#include "app/session/downloadresume.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace ws::DownloadResume {

QString fileNameFor(const QUrl& url)
{
    QString name = QFileInfo(url.path()).fileName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    if (name.isEmpty() || name.startsWith(QLatin1Char('.')))
        name = QStringLiteral("model.bin");
    return name;
}

std::pair<qint64, qint64> parseContentRange(const QByteArray& value)
{
    static const QRegularExpression re(QStringLiteral("^bytes\\s+(\\d+|\\*)(?:-\\d+)?/(\\d+|\\*)$"));
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(value.trimmed()));
    if (!m.hasMatch())
        return {-2, -1};
    bool startOk = true;
    bool totalOk = true;
    const qint64 start = m.captured(1) == QLatin1String("*") ? -1 : m.captured(1).toLongLong(&startOk);
    const qint64 total = m.captured(2) == QLatin1String("*") ? -1 : m.captured(2).toLongLong(&totalOk);
    if (!startOk || !totalOk)
        return {-2, -1}; // past qint64: toLongLong gave 0, which would have read as "resume from byte 0"
    return {start, total};
}

} // namespace ws::DownloadResume
