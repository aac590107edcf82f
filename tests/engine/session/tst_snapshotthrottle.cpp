#include "engine/session/snapshotthrottle.h"

#include <QTest>

class TestSnapshotThrottle : public QObject
{
    Q_OBJECT
private slots:
    void admit_data()
    {
        QTest::addColumn<double>("maxPerSecond");
        QTest::addColumn<double>("stepSeconds");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("expectedAdmitted");
        // 5000 tokens/s for one second, 30 snapshots/s allowed: the first call
        // plus one every 1/30 s.
        QTest::newRow("fast generator is thinned to 30 per second") << 30.0 << 0.0002 << 5000 << 30;
        QTest::newRow("slow generator passes every token") << 30.0 << 0.05 << 20 << 20;
        QTest::newRow("zero limit admits everything") << 0.0 << 0.0001 << 100 << 100;
    }
    void admit()
    {
        QFETCH(double, maxPerSecond);
        QFETCH(double, stepSeconds);
        QFETCH(int, steps);
        QFETCH(int, expectedAdmitted);
        ws::SnapshotThrottle throttle(maxPerSecond);
        int admitted = 0;
        for (int i = 0; i < steps; ++i)
            admitted += throttle.admit(i * stepSeconds) ? 1 : 0;
        QCOMPARE(admitted, expectedAdmitted);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotThrottle)
#include "tst_snapshotthrottle.moc"
