#include "engine/session/tokenpacer.h"

#include <QTest>

class TestTokenPacer : public QObject
{
    Q_OBJECT
private slots:
    void dueSeconds_data()
    {
        QTest::addColumn<double>("tokensPerSecond");
        QTest::addColumn<double>("firstTokenSeconds");
        QTest::addColumn<int>("index");
        QTest::addColumn<double>("expected");
        QTest::newRow("first token waits for ttft") << 100.0 << 0.25 << 0 << 0.25;
        QTest::newRow("tenth token") << 100.0 << 0.25 << 10 << 0.35;
        QTest::newRow("no ttft") << 2000.0 << 0.0 << 1000 << 0.5;
        QTest::newRow("negative ttft is clamped") << 10.0 << -1.0 << 5 << 0.5;
    }
    void dueSeconds()
    {
        QFETCH(double, tokensPerSecond);
        QFETCH(double, firstTokenSeconds);
        QFETCH(int, index);
        QFETCH(double, expected);
        ws::SystemPace pace;
        pace.tokensPerSecondPerUser = tokensPerSecond;
        pace.firstTokenSeconds = firstTokenSeconds;
        const ws::TokenPacer pacer = ws::TokenPacer::atPaceOf(pace);
        QVERIFY(pacer.isPaced());
        QCOMPARE(pacer.dueSeconds(index), expected);
    }
    void unpaced_data()
    {
        QTest::addColumn<double>("tokensPerSecond");
        QTest::newRow("as fast as possible") << -1.0;
        QTest::newRow("system without a prediction") << 0.0;
    }
    void unpaced()
    {
        QFETCH(double, tokensPerSecond);
        ws::TokenPacer pacer = ws::TokenPacer::asFastAsPossible();
        if (tokensPerSecond >= 0) {
            ws::SystemPace pace;
            pace.tokensPerSecondPerUser = tokensPerSecond;
            pace.firstTokenSeconds = 3;
            pacer = ws::TokenPacer::atPaceOf(pace);
        }
        QVERIFY(!pacer.isPaced());
        QCOMPARE(pacer.dueSeconds(0), 0.0);
        QCOMPARE(pacer.dueSeconds(500), 0.0);
    }
    void systemPaceSecondsForTokens_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<double>("expected");
        QTest::newRow("none") << 0 << 0.0;
        QTest::newRow("one is the ttft") << 1 << 0.5;
        QTest::newRow("eleven") << 11 << 0.5 + 10 / 40.0;
    }
    void systemPaceSecondsForTokens()
    {
        QFETCH(int, tokens);
        QFETCH(double, expected);
        ws::SystemPace pace;
        pace.tokensPerSecondPerUser = 40;
        pace.firstTokenSeconds = 0.5;
        QCOMPARE(pace.secondsForTokens(tokens), expected);
        if (tokens > 0)
            QCOMPARE(pace.tokensAfter(pace.secondsForTokens(tokens)), double(tokens));
    }
};

QTEST_GUILESS_MAIN(TestTokenPacer)
#include "tst_tokenpacer.moc"
