#include "app/common/backgroundpool.h"

#include <QThread>
#include <QThreadPool>

#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace ws {

Q_GLOBAL_STATIC(QThreadPool, theBackgroundPool)

QThreadPool* backgroundPool()
{
    return theBackgroundPool();
}

void runBelowTheGui()
{
#ifdef __linux__
    static thread_local const bool lowered = [] {
        if (!theBackgroundPool.exists() || !theBackgroundPool()->contains(QThread::currentThread()))
            return false;
        const sched_param none{};
        const bool batch = sched_setscheduler(0, SCHED_BATCH, &none) == 0; // this thread: Linux schedules threads
        const bool nice = setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10) == 0;
        return batch && nice;
    }();
    (void)lowered;
#endif
}

} // namespace ws
