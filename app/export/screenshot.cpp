#include "app/export/screenshot.h"

#include "app/export/exporter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QWidget>

namespace ws {

namespace {
constexpr int kPollMs = 5; // how often a busy flag is checked while the event loop runs
} // namespace

bool waitForPendingWork(const std::vector<PendingWork>& pending, int timeoutMs, QString* error)
{
    for (const PendingWork& work : pending) {
        if (!work.busy())
            continue;
        QElapsedTimer clock;
        clock.start();
        QEventLoop loop;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (!work.busy())
                loop.exit(0);
            else if (clock.elapsed() >= timeoutMs)
                loop.exit(1);
        });
        poll.start(kPollMs);
        if (loop.exec() != 0) {
            *error = QStringLiteral("%1 did not finish within %2 s").arg(work.what).arg(timeoutMs / 1000.0);
            return false;
        }
    }
    return true;
}

bool saveScreenshot(QWidget* widget, const QString& path, const std::vector<PendingWork>& pending, double scale,
                    QString* error, int timeoutMs)
{
    widget->show();
    if (!waitForPendingWork(pending, timeoutMs, error))
        return false;
    QCoreApplication::processEvents(); // the last results laid out and painted
    return Exporter::savePng(widget, path, scale, error);
}

} // namespace ws
