// RacePane: rows from a session snapshot (CPU measured, systems predicted),
// sorted shortest first, log-scale bars, painting offscreen.
#include "views/racepane.h"

#include <QTest>

class TestRacePane : public QObject
{
    Q_OBJECT
private slots:
    void rowsFromSnapshot()
    {
        ws::SessionSnapshot s;
        s.generatedTokens = 64;
        s.firstTokenSeconds = 0.002;
        s.decodeSeconds = 0.010;
        s.elapsedSeconds = 5.0; // pacing waits are not the CPU's time
        s.systems = {{"h100", "H100", 100.0, 0.05}, {"wse3", "WSE-3", 2000.0, 0.1}, {"x", "No prediction", 0.0, 0.0}};
        const auto rows = ws::views::RacePane::rowsFor(s);
        QCOMPARE(rows.size(), size_t(3));
        QVERIFY(rows[0].measured);
        QCOMPARE(rows[0].seconds, 0.012);
        QCOMPARE(rows[1].name, QStringLiteral("H100"));
        QCOMPARE(rows[1].seconds, 0.05 + 63 / 100.0);
        QCOMPARE(rows[2].seconds, 0.1 + 63 / 2000.0);

        ws::views::RacePane pane;
        pane.setSnapshot(std::make_shared<const ws::SessionSnapshot>(s));
        const auto& sorted = pane.chart()->rows();
        QCOMPARE(sorted.size(), size_t(3));
        QCOMPARE(sorted[0].name, rows[0].name); // 12 ms
        QCOMPARE(sorted[1].seconds, rows[2].seconds); // 131.5 ms
        QCOMPARE(sorted[2].seconds, rows[1].seconds); // 680 ms
        QCOMPARE(pane.chart()->barFraction(sorted[2].seconds), 1.0);
        const double a = pane.chart()->barFraction(sorted[0].seconds);
        const double b = pane.chart()->barFraction(sorted[1].seconds);
        QVERIFY(a > 0 && a < b && b < 1);
        pane.resize(600, 200);
        QVERIFY(!pane.grab().isNull());
    }

    void noTokensNoRows()
    {
        ws::SessionSnapshot s;
        s.systems = {{"wse3", "WSE-3", 2000.0, 0.1}};
        QVERIFY(ws::views::RacePane::rowsFor(s).empty());
    }
};

QTEST_MAIN(TestRacePane)
#include "tst_racepane.moc"
