#include "app/common/backgroundpool.h"

#include <QThread>
#include <QThreadPool>

namespace ws {

namespace {
struct BackgroundPool : QThreadPool
{
    BackgroundPool() { setThreadPriority(QThread::IdlePriority); }
};
} // namespace

Q_GLOBAL_STATIC(BackgroundPool, theBackgroundPool)

QThreadPool* backgroundPool()
{
    return theBackgroundPool();
}

} // namespace ws
