#include "app/session/modeldownloader.h"

#include "app/session/downloadresume.h"

#include "engine/gguf/gguffile.h"
#include "engine/gguf/llama2ccheckpoint.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QStandardPaths>

namespace ws {

namespace {

// SHA-256 of a file as lower-case hex; empty when it cannot be read.
QString sha256OfFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return {};
    return QString::fromLatin1(hash.result().toHex());
}

// Without a checksum, a download is only used when the engine's readers accept it as a GGUF file or a
// llama2.c checkpoint (header, metadata and tensor index inside the file): a server that sent a short
// length, garbage or an error page under 200 gives the reader's error, never a "model". Empty: accepted.
QString modelFileProblem(const QString& path)
{
    const std::string p = path.toStdString();
    auto gguf = GgufFile::open(p);
    if (gguf)
        return {};
    if (auto checkpoint = Llama2cCheckpoint::open(p); checkpoint)
        return {};
    return QString::fromStdString(gguf.error().message());
}

// First free path: name.ext, name-1.ext, name-2.ext, ...
QString freePath(const QString& wanted)
{
    if (!QFileInfo::exists(wanted))
        return wanted;
    const QFileInfo info(wanted);
    const QString suffix = info.completeSuffix().isEmpty() ? QString() : QLatin1Char('.') + info.completeSuffix();
    for (int i = 1;; ++i) {
        const QString candidate = info.dir().filePath(info.baseName() + QLatin1Char('-') + QString::number(i) + suffix);
        if (!QFileInfo::exists(candidate))
            return candidate;
    }
}

} // namespace

ModelDownloader::ModelDownloader(QObject* parent)
    : QObject(parent), m_network(new QNetworkAccessManager(this)), m_directory(defaultDirectory())
{
}

ModelDownloader::~ModelDownloader()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

QString ModelDownloader::defaultDirectory()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(QStringLiteral("models"));
}

void ModelDownloader::setDirectory(const QString& directory)
{
    m_directory = directory;
}

QString ModelDownloader::targetPath(const QUrl& url) const
{
    return QDir(m_directory).filePath(DownloadResume::fileNameFor(url));
}

QString ModelDownloader::partialPath(const QUrl& url) const
{
    return targetPath(url) + QStringLiteral(".part");
}

qint64 ModelDownloader::resumableBytes(const QUrl& url) const
{
    const QFileInfo info(partialPath(url));
    return info.exists() ? info.size() : 0;
}

bool ModelDownloader::start(const QUrl& url, const QString& expectedSha256)
{
    if (m_running)
        return false;
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        emit downloadFailed(tr("Not a download address (http or https): %1").arg(url.toDisplayString()), false);
        return false;
    }
    const QString sha = expectedSha256.trimmed().toLower();
    static const QRegularExpression hex64(QStringLiteral("^[0-9a-f]{64}$"));
    if (!sha.isEmpty() && !hex64.match(sha).hasMatch()) {
        emit downloadFailed(tr("The SHA-256 checksum must be 64 hexadecimal digits."), false);
        return false;
    }
    if (!QDir().mkpath(m_directory)) {
        emit downloadFailed(tr("Cannot create the folder %1").arg(QDir::toNativeSeparators(m_directory)), false);
        return false;
    }
    m_file.setFileName(partialPath(url));
    if (!m_file.open(QIODevice::ReadWrite | QIODevice::Append)) {
        emit downloadFailed(
            tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(m_file.fileName()), m_file.errorString()), false);
        return false;
    }
    m_url = url;
    m_expectedSha256 = sha;
    m_offset = m_file.size();
    m_totalBytes = -1;
    m_running = true;
    m_cancelling = false;
    m_headerChecked = false;
    m_progressClock.invalidate();

    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    if (m_offset > 0)
        request.setRawHeader("Range", "bytes=" + QByteArray::number(m_offset) + '-');
    m_reply = m_network->get(request);
    connect(m_reply, &QNetworkReply::readyRead, this, &ModelDownloader::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ModelDownloader::onReplyFinished);
    return true;
}

void ModelDownloader::cancel()
{
    if (!m_running || m_cancelling)
        return;
    m_cancelling = true;
    if (m_reply)
        m_reply->abort(); // finished() follows, which reports the cancel
}

// Checks the response status once, before the first body byte is written.
void ModelDownloader::onMetaData()
{
    if (m_headerChecked || !m_reply)
        return;
    m_headerChecked = true;
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 206) {
        const auto [start, total] = DownloadResume::parseContentRange(m_reply->rawHeader("Content-Range"));
        if (start != m_offset) {
            fail(tr("The server resumed at the wrong place (asked for byte %1).").arg(m_offset), true);
            return;
        }
        m_totalBytes = total;
    } else if (status == 200) {
        if (m_offset > 0) {
            // The server ignored the Range request and sends the whole file.
            m_file.resize(0);
            m_offset = 0;
        }
        const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
        m_totalBytes = length.isValid() ? length.toLongLong() : -1;
    } else if (status == 416 && m_offset > 0) {
        // Nothing left to send: the partial file may already be complete.
        const auto [start, total] = DownloadResume::parseContentRange(m_reply->rawHeader("Content-Range"));
        Q_UNUSED(start);
        m_totalBytes = total == m_offset ? total : -2;
    }
}

void ModelDownloader::onReadyRead()
{
    if (!m_reply || m_cancelling)
        return;
    onMetaData();
    if (!m_reply)
        return;
    const QByteArray bytes = m_reply->readAll();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200 && status != 206)
        return; // an error page, not the file
    if (m_file.write(bytes) != bytes.size()) {
        fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(m_file.fileName()), m_file.errorString()), true);
        return;
    }
    // QNetworkReply::downloadProgress is choked to one every 100 ms by Qt;
    // report from the bytes written instead, about 20 times a second.
    if (!m_progressClock.isValid() || m_progressClock.elapsed() >= 50) {
        m_progressClock.start();
        emit progressChanged(m_file.size(), m_totalBytes);
    }
}

void ModelDownloader::onReplyFinished()
{
    if (!m_reply)
        return;
    QNetworkReply* reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();

    if (m_cancelling) {
        m_file.close();
        reset();
        emit downloadCancelled();
        return;
    }
    if (!m_headerChecked) {
        m_reply = reply; // onMetaData() reads the headers through m_reply
        onMetaData();
        m_reply = nullptr;
        if (!m_running)
            return;
    }
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool rangeDone = status == 416 && m_totalBytes == m_offset && m_offset > 0;
    if (reply->error() != QNetworkReply::NoError && !rangeDone) {
        const bool httpError = status >= 400;
        if (status == 416)
            QFile::remove(m_file.fileName()); // the partial file does not match the server's file
        const QString reason = httpError
                                   ? tr("The server answered %1 %2.")
                                         .arg(status)
                                         .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString())
                                   : reply->errorString();
        fail(tr("Download of %1 stopped: %2").arg(m_url.toDisplayString(), reason), !httpError);
        return;
    }
    if (status == 200 || status == 206) {
        const QByteArray rest = reply->readAll();
        if (m_file.write(rest) != rest.size()) {
            fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(m_file.fileName()), m_file.errorString()),
                 true);
            return;
        }
    }
    m_file.flush();
    emit progressChanged(m_file.size(), m_totalBytes);
    if (m_totalBytes >= 0 && m_file.size() != m_totalBytes) {
        fail(tr("The connection closed after %1 of %2 bytes; start the download again to resume.")
                 .arg(m_file.size())
                 .arg(m_totalBytes),
             true);
        return;
    }
    verifyAndPublish();
}

void ModelDownloader::verifyAndPublish()
{
    m_file.close();
    const QString partial = m_file.fileName();
    const bool checkFormat = m_expectedSha256.isEmpty();
    m_verify.start(
        [partial, checkFormat] {
            return std::pair<QString, QString>(sha256OfFile(partial),
                                               checkFormat ? modelFileProblem(partial) : QString());
        },
        [this, partial](const std::pair<QString, QString>& result) {
            const auto& [sha, problem] = result;
            if (m_cancelling) {
                reset();
                emit downloadCancelled();
                return;
            }
            if (sha.isEmpty()) {
                fail(tr("Cannot read %1 to check it.").arg(QDir::toNativeSeparators(partial)), true);
                return;
            }
            if (!m_expectedSha256.isEmpty() && sha != m_expectedSha256) {
                QFile::remove(partial);
                fail(tr("Checksum mismatch: the downloaded file has SHA-256 %1, expected %2. The file was deleted.")
                         .arg(sha, m_expectedSha256),
                     false);
                return;
            }
            if (!problem.isEmpty()) {
                QFile::remove(partial);
                fail(tr("The download is not a model file (%1). The file was deleted.").arg(problem), false);
                return;
            }
            const QString target = freePath(targetPath(m_url));
            if (!QFile::rename(partial, target)) {
                fail(tr("Cannot move the download to %1").arg(QDir::toNativeSeparators(target)), true);
                return;
            }
            reset();
            emit downloadFinished(target, sha);
        });
}

void ModelDownloader::fail(const QString& message, bool keepPartial)
{
    if (m_reply) {
        QNetworkReply* reply = m_reply;
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    const QString partial = m_file.fileName();
    m_file.close();
    const qint64 kept = QFileInfo(partial).exists() ? QFileInfo(partial).size() : 0;
    if (kept == 0)
        QFile::remove(partial); // nothing worth resuming
    reset();
    emit downloadFailed(message, keepPartial && kept > 0);
}

void ModelDownloader::reset()
{
    m_running = false;
    m_cancelling = false;
    m_headerChecked = false;
}

} // namespace ws
