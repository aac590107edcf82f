#include "app/scenario/autosave.h"

#include "app/scenario/scenarioformat.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>

namespace ws {

namespace {
constexpr auto kDefaultInterval = std::chrono::seconds(5);
const char* const kAutosaveName = "autosave.waferscope";
const char* const kLockName = "session.lock";
const char* const kClosedByName = "autosave.closed-by";
} // namespace

Autosave::Autosave(QObject* parent)
    : QObject(parent), m_directory(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
{
    m_timer.setInterval(kDefaultInterval);
    connect(&m_timer, &QTimer::timeout, this, [this] { saveNow(); });
}

Autosave::~Autosave() = default;

void Autosave::setDirectory(const QString& directory)
{
    m_directory = directory;
}

QString Autosave::autosavePath() const
{
    return QDir(m_directory).filePath(QLatin1String(kAutosaveName));
}

void Autosave::setInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
}

bool Autosave::beginSession()
{
    if (m_active)
        return true;
    if (m_directory.isEmpty() || !QDir().mkpath(m_directory)) {
        emit autosaveFailed(tr("cannot create the autosave folder %1").arg(m_directory));
        return false;
    }
    m_lock = std::make_unique<QLockFile>(QDir(m_directory).filePath(QLatin1String(kLockName)));
    m_lock->setStaleLockTime(0); // only a dead owner makes the lock stale, never its age
    if (!m_lock->tryLock(0)) {
        m_lock.reset();
        emit autosaveFailed(tr("another WaferScope is running; this window is not autosaved"));
        return false;
    }
    m_recoveryAvailable = QFile::exists(autosavePath());
    m_closedBy.clear();
    if (QFile marker(QDir(m_directory).filePath(QLatin1String(kClosedByName)));
        m_recoveryAvailable && marker.open(QIODevice::ReadOnly))
        m_closedBy = QString::fromUtf8(marker.read(64)).trimmed();
    QFile::remove(QDir(m_directory).filePath(QLatin1String(kClosedByName)));
    m_active = true;
    m_lastWritten.clear();
    m_timer.start();
    return true;
}

std::optional<Scenario> Autosave::takeRecovery(QString* error)
{
    m_recoveryAvailable = false;
    return ScenarioFormat::load(autosavePath(), error);
}

void Autosave::discardRecovery()
{
    m_recoveryAvailable = false;
    if (m_active)
        QFile::remove(autosavePath());
}

bool Autosave::saveNow()
{
    if (!m_active || !m_provider)
        return true;
    // Until the user has decided about a recovery, the old autosave is kept.
    if (m_recoveryAvailable)
        return true;
    const QByteArray bytes = ScenarioFormat::toJson(m_provider());
    if (bytes == m_lastWritten)
        return true;
    QSaveFile file(autosavePath());
    // Qt 6.4's QSaveFile::commit() misses a failed flush of its buffer (a full disk) and replaces the old
    // file with a short one: flush first, so a failed write cancels instead.
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.flush() || !file.commit()) {
        emit autosaveFailed(tr("cannot autosave to %1: %2").arg(autosavePath(), file.errorString()));
        return false;
    }
    m_lastWritten = bytes;
    emit autosaved(autosavePath());
    return true;
}

bool Autosave::endSessionKeeping(const QString& reason)
{
    if (!m_active)
        return true;
    const bool pending = m_recoveryAvailable; // an undecided recovery stays as it was found
    const bool written = pending || saveNow();
    if (written && !pending && QFile::exists(autosavePath())) {
        QSaveFile marker(QDir(m_directory).filePath(QLatin1String(kClosedByName)));
        if (!marker.open(QIODevice::WriteOnly) || marker.write(reason.toUtf8()) < 0 || !marker.commit())
            emit autosaveFailed(tr("cannot mark the autosave as closed by %1: %2").arg(reason, marker.errorString()));
    }
    m_timer.stop();
    m_lock->unlock();
    m_lock.reset();
    m_active = false;
    m_recoveryAvailable = false;
    return written;
}

void Autosave::endSession()
{
    if (!m_active)
        return;
    m_timer.stop();
    QFile::remove(autosavePath());
    m_lock->unlock();
    m_lock.reset();
    m_active = false;
    m_recoveryAvailable = false;
}

} // namespace ws
