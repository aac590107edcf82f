// JobTracker: results of stale jobs are dropped whatever order the jobs finish in,
// cancel() drops running jobs, results arrive on the context's thread, busy
// goes up with the first job and down after the last delivery, and a destroyed
// context gets nothing (and a result it never got is destroyed without a race).
#include "app/common/jobtracker.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>

#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

using ws::JobTracker;

namespace {
// A job that waits until the test releases it, then returns `value`.
auto gated(std::shared_ptr<QSemaphore> gate, int value)
{
    return [gate, value] {
        gate->acquire();
        return value;
    };
}
} // namespace

class TestJobTracker : public QObject
{
    Q_OBJECT
private slots:
    void olderJobFinishingLastIsDropped()
    {
        QObject context;
        JobTracker jobs(&context);
        auto firstGate = std::make_shared<QSemaphore>();
        auto secondGate = std::make_shared<QSemaphore>();
        std::vector<int> delivered, dropped;
        const auto first = jobs.start(
            gated(firstGate, 1), [&](int v) { delivered.push_back(v); }, [&](int v) { dropped.push_back(v); });
        const auto second = jobs.start(
            gated(secondGate, 2), [&](int v) { delivered.push_back(v); }, [&](int v) { dropped.push_back(v); });
        QVERIFY(second > first);
        QVERIFY(!jobs.isCurrent(first));
        QVERIFY(jobs.isCurrent(second));
        QCOMPARE(jobs.running(), 2);
        secondGate->release(); // the newer job finishes first ...
        QTRY_COMPARE(delivered, std::vector<int>{2});
        firstGate->release(); // ... the older one after it: dropped
        QTRY_COMPARE(dropped, std::vector<int>{1});
        QCOMPARE(delivered, std::vector<int>{2});
        QCOMPARE(jobs.running(), 0);
    }

    void olderJobFinishingFirstIsDropped()
    {
        QObject context;
        JobTracker jobs(&context);
        auto firstGate = std::make_shared<QSemaphore>();
        auto secondGate = std::make_shared<QSemaphore>();
        std::vector<int> delivered, dropped;
        jobs.start(
            gated(firstGate, 1), [&](int v) { delivered.push_back(v); }, [&](int v) { dropped.push_back(v); });
        jobs.start(
            gated(secondGate, 2), [&](int v) { delivered.push_back(v); }, [&](int v) { dropped.push_back(v); });
        firstGate->release();
        QTRY_COMPARE(dropped, std::vector<int>{1});
        QVERIFY(delivered.empty()); // the stale result never reaches the current callback
        QVERIFY(jobs.isBusy());
        secondGate->release();
        QTRY_COMPARE(delivered, std::vector<int>{2});
        QVERIFY(!jobs.isBusy());
    }

    void manyJobsOnlyTheLatestIsDelivered()
    {
        QObject context;
        JobTracker jobs(&context);
        std::vector<int> delivered;
        int droppedCount = 0;
        for (int i = 1; i <= 20; ++i)
            jobs.start([i] { return i * 10; }, [&](int v) { delivered.push_back(v); }, [&](int) { ++droppedCount; });
        QTRY_VERIFY(!jobs.isBusy());
        QCOMPARE(delivered, std::vector<int>{200});
        QCOMPARE(droppedCount, 19);
    }

    void workMayTakeItsJobId()
    {
        QObject context;
        JobTracker jobs(&context);
        JobTracker::JobId seen = 0;
        const auto id = jobs.start([](JobTracker::JobId job) { return job; }, [&](JobTracker::JobId v) { seen = v; });
        QTRY_VERIFY(seen != 0);
        QCOMPARE(seen, id);
    }

    void cancelDropsTheRunningJob()
    {
        QObject context;
        JobTracker jobs(&context);
        auto gate = std::make_shared<QSemaphore>();
        bool delivered = false;
        bool dropped = false;
        const auto id = jobs.start(
            gated(gate, 7), [&](int) { delivered = true; }, [&](int) { dropped = true; });
        jobs.cancel();
        QVERIFY(!jobs.isCurrent(id));
        QVERIFY(jobs.latestId() > id);
        gate->release();
        QTRY_VERIFY(dropped);
        QVERIFY(!delivered);
    }

    void deliversOnTheContextThreadWithBusyAroundIt()
    {
        QObject context;
        JobTracker jobs(&context);
        std::vector<bool> busy;
        jobs.onBusyChanged([&](bool b) { busy.push_back(b); });
        QThread* workThread = nullptr;
        QThread* doneThread = nullptr;
        bool busyWhileDelivering = true;
        jobs.start(
            [&workThread] {
                workThread = QThread::currentThread();
                return std::make_unique<int>(5); // move-only results travel too
            },
            [&](std::unique_ptr<int> v) {
                doneThread = QThread::currentThread();
                busyWhileDelivering = jobs.isBusy();
                QCOMPARE(*v, 5);
            });
        QCOMPARE(busy, std::vector<bool>{true});
        QTRY_VERIFY(doneThread != nullptr);
        QCOMPARE(doneThread, context.thread());
        QVERIFY(workThread != context.thread());
        QVERIFY(!busyWhileDelivering);
        QCOMPARE(busy, (std::vector<bool>{true, false}));
    }

    // Work that throws: nothing is delivered, the error reaches onFailed (or the reporter), busy ends,
    // and the next job runs and delivers as usual.
    void throwingWorkReportsAndTrackerStaysUsable()
    {
        QObject context;
        JobTracker jobs(&context);
        std::vector<bool> busy;
        jobs.onBusyChanged([&](bool b) { busy.push_back(b); });
        QStringList errors;
        jobs.onFailed([&](const QString& e) { errors << e; });
        bool delivered = false;
        jobs.start([]() -> int { throw std::runtime_error("placement blew up"); }, [&](int) { delivered = true; });
        QTRY_COMPARE(errors, QStringList{QStringLiteral("placement blew up")});
        QVERIFY(!delivered);
        QCOMPARE(busy, (std::vector<bool>{true, false}));
        int value = 0;
        jobs.start([] { return 42; }, [&](int v) { value = v; });
        QTRY_COMPARE(value, 42);
    }

    void throwingWorkWithoutOnFailedGoesToTheReporter()
    {
        QStringList reported;
        JobTracker::setFailureReporter([&](const QString& e) { reported << e; });
        QObject context;
        JobTracker jobs(&context);
        jobs.start([]() -> int { throw 7; }, [](int) {});
        QTRY_COMPARE(reported, QStringList{QStringLiteral("unknown exception")});
        JobTracker::setFailureReporter({});
    }

    void destroyedContextGetsNothing()
    {
        auto gate = std::make_shared<QSemaphore>();
        bool delivered = false;
        {
            QObject context;
            JobTracker jobs(&context);
            jobs.start(gated(gate, 1), [&](int) { delivered = true; });
        }
        gate->release();
        QTest::qWait(100);
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }

    // The context goes away after the job has finished but before its result was delivered: the result,
    // built on the pooled thread, is destroyed on this one. Under ThreadSanitizer (the tsan leg) that is
    // reported as a race unless the hand-over is one TSan can see (it was, through Qt's result store).
    // The app's own pool, not Qt's global one: the raster engine splits a large paint over the global pool's
    // threads while the GUI thread waits, and there the pieces queued behind the app's jobs (backgroundpool.h).
    void jobsRunOnTheAppsOwnPool()
    {
        QObject context;
        JobTracker jobs(&context);
        bool ours = false;
        bool global = true;
        jobs.start(
            [] {
                return std::pair(ws::backgroundPool()->contains(QThread::currentThread()),
                                 QThreadPool::globalInstance()->contains(QThread::currentThread()));
            },
            [&](std::pair<bool, bool> where) { std::tie(ours, global) = where; });
        QTRY_VERIFY(!jobs.isBusy());
        QVERIFY(ours);
        QVERIFY(!global);
    }

    // The pool's threads give way to the GUI thread: on Linux the batch policy at niceness 10, set on the pool's
    // thread by its first job (backgroundpool.h); the test's own thread is left as it was.
    void jobsRunBelowTheGuiThread()
    {
#ifdef __linux__
        QObject context;
        JobTracker jobs(&context);
        std::pair<int, int> seen{-1, -1};
        jobs.start([] { return std::pair(sched_getscheduler(0), getpriority(PRIO_PROCESS, gettid())); },
                   [&](std::pair<int, int> s) { seen = s; });
        QTRY_VERIFY(!jobs.isBusy());
        QCOMPARE(seen.first, SCHED_BATCH);
        QCOMPARE(seen.second, 10);
        QCOMPARE(sched_getscheduler(0), SCHED_OTHER);
        QCOMPARE(getpriority(PRIO_PROCESS, gettid()), 0);
        ws::runBelowTheGui(); // not a pool thread: nothing changes
        QCOMPARE(sched_getscheduler(0), SCHED_OTHER);
#endif
    }

    // Below the GUI thread, never starved: while every core is kept busy by threads of ordinary priority (a build
    // beside the app), a job of 50 ms of CPU still runs and is delivered, at about a tenth of a core (niceness
    // 10). Under the idle policy tried before (e4a5aa8) it got about 0.3 % of one (the idle policy's weight 3
    // against 1,024) and waited for the builders: the Dataflow dock's frames stopped coming (tst_windowlayout).
    void jobsRunBesideABusyMachine()
    {
#ifdef __linux__
        std::atomic<bool> stop{false};
        std::atomic<int> hogging{0};
        std::vector<std::thread> hogs;
        for (int i = 0; i < std::max(2, QThread::idealThreadCount()); ++i)
            hogs.emplace_back([&] {
                ++hogging;
                volatile unsigned spin = 0;
                while (!stop.load(std::memory_order_relaxed))
                    spin = spin + 1;
            });
        QTRY_COMPARE(hogging.load(), int(hogs.size()));
        QObject context;
        JobTracker jobs(&context);
        bool delivered = false;
        jobs.start(
            [] {
                auto cpuSeconds = [] {
                    timespec t{};
                    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
                    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
                };
                const double start = cpuSeconds();
                volatile unsigned spin = 0;
                while (cpuSeconds() - start < 0.05)
                    spin = spin + 1;
                return 1;
            },
            [&](int) { delivered = true; });
        // The builders run until the job is delivered or 10 s pass (at a tenth of a core it needs about 0.5 s).
        QTRY_VERIFY_WITH_TIMEOUT(delivered, 10000);
        stop = true;
        for (std::thread& t : hogs)
            t.join();
#endif
    }

    void resultUndeliveredIsDestroyedSafely()
    {
        bool delivered = false;
        {
            QObject context;
            JobTracker jobs(&context);
            jobs.start([] { return std::make_pair(std::make_shared<std::vector<int>>(1000, 7), QString(200, 'x')); },
                       [&](auto) { delivered = true; });
            QThread::msleep(300); // long enough for the job to end; no synchronisation TSan could see
        }
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
