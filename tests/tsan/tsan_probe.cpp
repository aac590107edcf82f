// ThreadSanitizer probe for tst_tsan_detects. With no argument a JobTracker job (on the app's background pool)
// and the main thread both increment one plain counter of ours, unordered: TSan must report the race and fail
// the run, whatever tests/tsan.supp suppresses and app/common/threadhandoff.h annotates, although the job's
// stack runs through Qt's (uninstrumented) thread pool. With --clean the same two increments are ordered by a
// QMutex and the job's result reaches the main thread in the event loop, as every JobTracker delivers it: the
// run must pass, so that what Qt does between threads is covered, and our increments stay checked.
#include "app/common/jobtracker.h"

#include <QCoreApplication>
#include <QMutex>
#include <QMutexLocker>

#include <cstdio>
#include <cstring>

namespace {
int g_counter = 0; // the shared state of ours
QMutex g_lock;

[[gnu::noinline]] void incrementTheCounterOfOurs(bool locked)
{
    if (locked) {
        QMutexLocker guard(&g_lock);
        ++g_counter;
    } else {
        ++g_counter;
    }
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const bool clean = argc > 1 && std::strcmp(argv[1], "--clean") == 0;
    ws::JobTracker jobs(&app);
    int delivered = -1;
    jobs.start(
        [clean] {
            incrementTheCounterOfOurs(clean);
            return 42;
        },
        [&](int result) {
            delivered = result;
            app.quit();
        });
    incrementTheCounterOfOurs(clean);
    app.exec();
    std::printf("counter %d, delivered %d\n", g_counter, delivered);
    return delivered == 42 && g_counter == 2 ? 0 : 1;
}
