#pragma once
// Autosave keeps the last state of a session on disk so that a crash loses at
// most a few seconds. Every interval it asks the provider for the current
// scenario and, when that differs from what it last wrote, writes it
// atomically to <dir>/autosave.waferscope. A clean exit (endSession) removes
// the file, so finding it at the next start means the last session ended
// abnormally and its scenario can be recovered. A lock file (QLockFile,
// stale when its process is gone) keeps two running instances from sharing
// one autosave. A session asked to end by the system (SIGTERM) with unsaved
// changes writes them and leaves the autosave marked with what closed it
// (<dir>/autosave.closed-by): the next start restores it without asking.
// The directory defaults to QStandardPaths::AppDataLocation.

#include "app/scenario/scenario.h"

#include <QLockFile>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace ws {

class Autosave : public QObject
{
    Q_OBJECT

public:
    using Provider = std::function<Scenario()>;

    explicit Autosave(QObject* parent = nullptr);
    ~Autosave() override; // leaves the autosave file in place (only endSession removes it)

    void setDirectory(const QString& directory);
    QString directory() const { return m_directory; }
    QString autosavePath() const;
    void setInterval(std::chrono::milliseconds interval);
    void setProvider(Provider provider) { m_provider = std::move(provider); }

    // Claims the session and notes whether a previous session left an autosave. Returns false (and
    // autosaves nothing) when another running instance holds the session or the directory is unusable.
    bool beginSession();
    bool isActive() const { return m_active; }
    // A previous session ended without endSession() and left this file.
    bool hasRecovery() const { return m_recoveryAvailable; }
    // What ended that session when it was asked to ("SIGTERM"); empty after a crash.
    QString recoveryClosedBy() const { return m_closedBy; }
    // Reads the left-over autosave; from then on it is overwritten by this session's autosaves.
    std::optional<Scenario> takeRecovery(QString* error);
    // Deletes the left-over autosave.
    void discardRecovery();

    // Writes now if the provider's scenario differs from the last autosave; false on a write error.
    bool saveNow();
    // Clean exit: removes the autosave and releases the session.
    void endSession();
    // Exit asked for by `reason` (a signal's name) with unsaved changes: writes them now, keeps the autosave
    // marked with the reason and releases the session. False when the write failed (the last autosave stays).
    bool endSessionKeeping(const QString& reason);

signals:
    void autosaved(const QString& path);
    void autosaveFailed(const QString& message);

private:
    QString m_directory;
    std::unique_ptr<QLockFile> m_lock;
    QTimer m_timer;
    Provider m_provider;
    QByteArray m_lastWritten;
    bool m_active = false;
    bool m_recoveryAvailable = false;
    QString m_closedBy;
};

} // namespace ws
