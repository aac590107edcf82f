#pragma once
// The Model menu of the live session: Open Model…, Open Recent (the last
// files opened, kept in QSettings) and Download from URL… (the download
// dialog over the session's ModelDownloader). It only asks for a file:
// openRequested(path) says which one, and ChatController loads it.

#include <QObject>
#include <QPointer>
#include <QStringList>

class QAction;
class QMenu;
class QWidget;

namespace ws {

class DownloadDialog;
class ModelDownloader;

class ModelMenu : public QObject
{
    Q_OBJECT
public:
    // `window` parents the menu and the dialogs; `downloader` serves Download from URL.
    ModelMenu(QWidget* window, ModelDownloader* downloader);

    QMenu* menu() const { return m_menu; }
    // Dock toggles (the chat pane) below a separator.
    void addDockActions(const QList<QAction*>& actions);

    QStringList recentModels() const;
    // Puts `path` first in Open Recent (at most kMaxRecentModels, newest first).
    void addRecent(const QString& path);
    static constexpr int kMaxRecentModels = 8;

    void retranslate();

public slots:
    void chooseModelFile();
    void showDownloadDialog();

signals:
    void openRequested(const QString& path);

private:
    void rebuildRecentMenu();

    QWidget* m_window;
    ModelDownloader* m_downloader;
    QPointer<DownloadDialog> m_downloadDialog;
    QMenu* m_menu;
    QMenu* m_recentMenu;
    QAction* m_openAction = nullptr;
    QAction* m_downloadAction = nullptr;
};

} // namespace ws
