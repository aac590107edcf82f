#include "app/session/downloaddialog.h"

#include "app/session/modeldownloader.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace ws {

DownloadDialog::DownloadDialog(ModelDownloader* downloader, QWidget* parent)
    : QDialog(parent), m_downloader(downloader), m_url(new QLineEdit), m_sha256(new QLineEdit),
      m_progress(new QProgressBar), m_status(new QLabel), m_startButton(new QPushButton(tr("Download"))),
      m_cancelButton(new QPushButton(tr("Cancel Download")))
{
    setWindowTitle(tr("Download Model"));
    m_url->setPlaceholderText(tr("https://…/model.gguf"));
    m_sha256->setPlaceholderText(tr("optional: 64 hexadecimal digits"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    auto* folder = new QLabel(tr("Saved in %1").arg(QDir::toNativeSeparators(downloader->directory())));
    folder->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Address (GGUF or llama2.c file):"), m_url);
    form->addRow(tr("SHA-256 checksum:"), m_sha256);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_startButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancelButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(folder);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());

    connect(m_startButton, &QPushButton::clicked, this, &DownloadDialog::startDownload);
    connect(m_cancelButton, &QPushButton::clicked, m_downloader, &ModelDownloader::cancel);
    connect(m_url, &QLineEdit::textChanged, this, &DownloadDialog::updateButtons);
    connect(m_downloader, &ModelDownloader::progressChanged, this, [this](qint64 received, qint64 total) {
        const QLocale locale;
        if (total > 0) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(int(1000.0 * double(received) / double(total)));
            m_status->setText(tr("%1 of %2").arg(locale.formattedDataSize(received), locale.formattedDataSize(total)));
        } else {
            m_progress->setRange(0, 0); // size unknown: busy indicator
            m_status->setText(locale.formattedDataSize(received));
        }
    });
    connect(m_downloader, &ModelDownloader::downloadFinished, this, [this](const QString& path, const QString& sha) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(1000);
        m_status->setText(tr("Done: %1\nSHA-256 %2").arg(QDir::toNativeSeparators(path), sha));
        updateButtons();
        emit modelDownloaded(path);
    });
    connect(m_downloader, &ModelDownloader::downloadFailed, this, [this](const QString& message, bool canResume) {
        m_status->setText(canResume ? tr("%1\nPress Resume to continue where it stopped.").arg(message) : message);
        m_progress->setRange(0, 1000);
        updateButtons();
    });
    connect(m_downloader, &ModelDownloader::downloadCancelled, this, [this] {
        m_status->setText(tr("Cancelled. Press Resume to continue later."));
        m_progress->setRange(0, 1000);
        updateButtons();
    });
    updateButtons();
}

void DownloadDialog::setUrl(const QString& url)
{
    m_url->setText(url);
}

void DownloadDialog::setExpectedSha256(const QString& sha256)
{
    m_sha256->setText(sha256);
}

void DownloadDialog::startDownload()
{
    m_status->clear();
    if (m_downloader->start(QUrl::fromUserInput(m_url->text().trimmed()), m_sha256->text()))
        m_status->setText(tr("Connecting…"));
    updateButtons();
}

void DownloadDialog::updateButtons()
{
    const bool running = m_downloader->isRunning();
    const QUrl url = QUrl::fromUserInput(m_url->text().trimmed());
    m_startButton->setText(m_downloader->resumableBytes(url) > 0 ? tr("Resume") : tr("Download"));
    m_startButton->setEnabled(!running && !m_url->text().trimmed().isEmpty());
    m_cancelButton->setEnabled(running);
    m_url->setReadOnly(running);
    m_sha256->setReadOnly(running);
}

} // namespace ws
