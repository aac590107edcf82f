#pragma once
// Model > Download from URL: asks for an address and an optional SHA-256,
// shows progress with Cancel, offers Resume after an interruption, and
// reports the stored file (in the user data directory) when it is verified.

#include <QDialog>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace ws {

class ModelDownloader;

class DownloadDialog : public QDialog
{
    Q_OBJECT
public:
    DownloadDialog(ModelDownloader* downloader, QWidget* parent = nullptr);

    void setUrl(const QString& url);
    void setExpectedSha256(const QString& sha256);

signals:
    void modelDownloaded(const QString& path);

private:
    void startDownload();
    void updateButtons();

    ModelDownloader* m_downloader;
    QLineEdit* m_url;
    QLineEdit* m_sha256;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPushButton* m_startButton;
    QPushButton* m_cancelButton;
};

} // namespace ws
