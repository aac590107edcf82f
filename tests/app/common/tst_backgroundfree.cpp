// makeSharedFreedInBackground (app/common/backgroundfree.h): the object is
// built in place with its arguments, lives while any holder has it, and when
// the last holder on the GUI thread lets go it is destroyed on a pooled
// thread, not on the GUI thread; every copy's destructor runs once.
#include "app/common/backgroundfree.h"

#include "app/common/backgroundpool.h"

#include <QAtomicInt>
#include <QTest>
#include <QThread>

#include <atomic>

namespace {
std::atomic<QThread*> g_destroyedOn{nullptr};
std::atomic<bool> g_onTheAppsPool{false}; // destroyed on a thread of ws::backgroundPool()
std::atomic<bool> g_onQtsPool{false};     // on one of Qt's global pool
QAtomicInt g_destroyed{0};

struct Probe
{
    Probe(int a, int b) : sum(a + b) {}
    ~Probe()
    {
        g_destroyedOn = QThread::currentThread();
        g_onTheAppsPool = ws::backgroundPool()->contains(QThread::currentThread());
        g_onQtsPool = QThreadPool::globalInstance()->contains(QThread::currentThread());
        g_destroyed.fetchAndAddOrdered(1);
    }
    int sum;
};
} // namespace

class TestBackgroundFree : public QObject
{
    Q_OBJECT

private slots:
    void lastHolderFreesOnThePool()
    {
        auto first = ws::makeSharedFreedInBackground<Probe>(2, 3);
        QCOMPARE(first->sum, 5);
        auto second = first;
        first.reset();
        ws::backgroundPool()->waitForDone();
        QCOMPARE(g_destroyed.loadAcquire(), 0); // a holder is left
        second.reset();                         // the last one, on this (the GUI) thread
        QVERIFY(ws::backgroundPool()->waitForDone(10000));
        QTRY_COMPARE(g_destroyed.loadAcquire(), 1);
        QVERIFY(g_destroyedOn.load() != nullptr);
        QVERIFY(g_destroyedOn.load() != QThread::currentThread());
        QVERIFY(g_onTheAppsPool.load()); // not on Qt's global pool (backgroundpool.h)
        QVERIFY(!g_onQtsPool.load());
    }
};

QTEST_GUILESS_MAIN(TestBackgroundFree)
#include "tst_backgroundfree.moc"
