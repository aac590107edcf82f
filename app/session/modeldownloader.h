#pragma once
// Downloads a model file over HTTP(S) into the user data directory
// (<AppLocalDataLocation>/models). Bytes go to "<name>.part" first; an
// interrupted or cancelled download keeps that file and the next start() of
// the same URL resumes it with an HTTP Range request. When the download is
// complete the file's SHA-256 is computed off the GUI thread and, if an
// expected hash was given, compared; only a verified file is renamed to its
// final name. A hash mismatch deletes the partial file (its bytes cannot be
// trusted for a resume) and never touches an existing file of that name.
// Without an expected hash, the finished file must also open as a GGUF file
// or a llama2.c checkpoint (the engine's readers), so a short length,
// garbage or an error page sent as the file is deleted, never used.

#include "app/common/jobtracker.h"

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace ws {

class ModelDownloader : public QObject
{
    Q_OBJECT
public:
    explicit ModelDownloader(QObject* parent = nullptr);
    ~ModelDownloader() override;

    static QString defaultDirectory();
    void setDirectory(const QString& directory);
    QString directory() const { return m_directory; }

    // Where `url` is stored once complete, and while it downloads.
    QString targetPath(const QUrl& url) const;
    QString partialPath(const QUrl& url) const;

    // Starts or resumes a download. expectedSha256: 64 hex digits, or empty
    // for no check. Ignored (returns false) while another download runs.
    bool start(const QUrl& url, const QString& expectedSha256 = {});
    // Aborts the running download; the partial file stays for a resume.
    void cancel();
    bool isRunning() const { return m_running; }
    // Bytes already on disk for `url` from an earlier, unfinished try.
    qint64 resumableBytes(const QUrl& url) const;

signals:
    // totalBytes is -1 while the size is unknown.
    void progressChanged(qint64 receivedBytes, qint64 totalBytes);
    void downloadFinished(const QString& filePath, const QString& sha256Hex);
    // canResume: the partial file was kept and start() will continue it.
    void downloadFailed(const QString& message, bool canResume);
    void downloadCancelled();

private:
    void onMetaData();
    void onReadyRead();
    void onReplyFinished();
    void verifyAndPublish();
    void fail(const QString& message, bool keepPartial);
    void reset();

    QNetworkAccessManager* m_network;
    QString m_directory;
    QPointer<QNetworkReply> m_reply;
    QFile m_file;
    QUrl m_url;
    QString m_expectedSha256;
    qint64 m_offset = 0;      // bytes on disk when this request started
    qint64 m_totalBytes = -1; // whole file size, when known
    bool m_running = false;
    bool m_cancelling = false;
    bool m_headerChecked = false;
    QElapsedTimer m_progressClock; // throttles progressChanged
    JobTracker m_verify{this};     // the SHA-256 of the finished file, off the GUI thread
};

} // namespace ws
