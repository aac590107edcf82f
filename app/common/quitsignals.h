#pragma once
// QuitSignals turns the signals that ask a process to end (SIGTERM from a
// logout, `kill` or a service manager; SIGINT from a terminal; SIGHUP when
// the terminal goes) into a Qt signal delivered in the event loop, so the
// window can save and leave through its normal exit path instead of dying
// mid-write. The handler only writes the signal's number to a socket pair
// (the one thing a signal handler may safely do); a QSocketNotifier reads
// it on the main thread. One instance per process; the handlers are put
// back to the default when it is destroyed, so a second signal during a
// hung shutdown still ends the process.

#include <QObject>

class QSocketNotifier;

namespace ws {

class QuitSignals : public QObject
{
    Q_OBJECT

public:
    explicit QuitSignals(QObject* parent = nullptr);
    ~QuitSignals() override;

    bool isInstalled() const { return m_notifier != nullptr; }
    // "SIGTERM", "SIGINT", "SIGHUP".
    static QString name(int signalNumber);

signals:
    void quitRequested(int signalNumber);

private:
    QSocketNotifier* m_notifier = nullptr;
};

} // namespace ws
