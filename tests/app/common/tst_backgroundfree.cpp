// makeSharedFreedInBackground (app/common/backgroundfree.h): the object is
// built in place with its arguments, lives while any holder has it, and when
// the last holder on the GUI thread lets go it is destroyed on a pooled
// thread, not on the GUI thread; every copy's destructor runs once.
#include "app/common/backgroundfree.h"

#include <QAtomicInt>
#include <QTest>
#include <QThread>

#include <atomic>

namespace {
std::atomic<QThread*> g_destroyedOn{nullptr};
QAtomicInt g_destroyed{0};

struct Probe
{
    Probe(int a, int b) : sum(a + b) {}
    ~Probe()
    {
        g_destroyedOn = QThread::currentThread();
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
        QThreadPool::globalInstance()->waitForDone();
        QCOMPARE(g_destroyed.loadAcquire(), 0); // a holder is left
        second.reset();                         // the last one, on this (the GUI) thread
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
        QTRY_COMPARE(g_destroyed.loadAcquire(), 1);
        QVERIFY(g_destroyedOn.load() != nullptr);
        QVERIFY(g_destroyedOn.load() != QThread::currentThread());
    }
};

QTEST_GUILESS_MAIN(TestBackgroundFree)
#include "tst_backgroundfree.moc"
