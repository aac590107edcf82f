#include "app/session/modelmenu.h"

#include "app/session/downloaddialog.h"
#include "app/session/modeldownloader.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace ws {

namespace {
const char* kRecentKey = "session/recentModels";
const char* kLastDirKey = "session/lastModelDirectory";
} // namespace

ModelMenu::ModelMenu(QWidget* window, ModelDownloader* downloader)
    : QObject(window), m_window(window), m_downloader(downloader), m_menu(new QMenu(window)),
      m_recentMenu(new QMenu(window))
{
    m_openAction = m_menu->addAction(QString(), this, &ModelMenu::chooseModelFile);
    m_menu->addMenu(m_recentMenu);
    m_downloadAction = m_menu->addAction(QString(), this, &ModelMenu::showDownloadDialog);
    m_menu->setObjectName(QStringLiteral("modelMenu"));
    m_recentMenu->setObjectName(QStringLiteral("recentModelsMenu"));
    m_openAction->setObjectName(QStringLiteral("openModelAction"));
    m_downloadAction->setObjectName(QStringLiteral("downloadModelAction"));
    retranslate();
}

void ModelMenu::addDockActions(const QList<QAction*>& actions)
{
    m_menu->addSeparator();
    m_menu->addActions(actions);
}

void ModelMenu::retranslate()
{
    m_menu->setTitle(tr("&Model"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_openAction->setText(tr("&Open Model…"));
    m_downloadAction->setText(tr("&Download from URL…"));
    rebuildRecentMenu();
}

void ModelMenu::chooseModelFile()
{
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kLastDirKey), ModelDownloader::defaultDirectory()).toString();
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open Model"), dir, tr("Models (*.gguf *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QLatin1String(kLastDirKey), QFileInfo(path).absolutePath());
    emit openRequested(path);
}

void ModelMenu::showDownloadDialog()
{
    if (!m_downloadDialog) {
        m_downloadDialog = new DownloadDialog(m_downloader, m_window);
        connect(m_downloadDialog, &DownloadDialog::modelDownloaded, this, &ModelMenu::openRequested);
    }
    m_downloadDialog->show();
    m_downloadDialog->raise();
    m_downloadDialog->activateWindow();
}

QStringList ModelMenu::recentModels() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void ModelMenu::addRecent(const QString& path)
{
    QStringList recent = recentModels();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentModels)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    rebuildRecentMenu();
}

void ModelMenu::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentModels();
    for (const QString& path : recent) {
        QAction* action =
            m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openRequested(path); });
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setEnabled(QFileInfo::exists(path));
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

} // namespace ws
