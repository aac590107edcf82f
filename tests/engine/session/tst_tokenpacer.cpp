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
    // The race's reveal (moved here from tst_tokenrace with TokenRace::tokensAt).
    void tokensOutAt_data()
    {
        QTest::addColumn<double>("tokensPerSecond");
        QTest::addColumn<double>("firstTokenSeconds");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<int>("available");
        QTest::addColumn<int>("expected");
        QTest::newRow("before the first token") << 100.0 << 0.2 << 0.1 << 50 << 0;
        QTest::newRow("the first token's moment") << 100.0 << 0.2 << 0.2 << 50 << 1;
        // 0.05 s after the first token at 100 tokens/s: 5 more tokens.
        QTest::newRow("mid decode") << 100.0 << 0.2 << 0.25 << 50 << 6;
        QTest::newRow("just before the next token") << 100.0 << 0.2 << 0.2599 << 50 << 6;
        QTest::newRow("capped at the tokens that exist") << 100.0 << 0.2 << 10.0 << 50 << 50;
        QTest::newRow("no text yet") << 100.0 << 0.0 << 1.0 << 0 << 0;
        QTest::newRow("unknown speed shows nothing") << 0.0 << 0.0 << 5.0 << 50 << 0;
    }
    void tokensOutAt()
    {
        QFETCH(double, tokensPerSecond);
        QFETCH(double, firstTokenSeconds);
        QFETCH(double, seconds);
        QFETCH(int, available);
        QFETCH(int, expected);
        ws::SystemPace pace;
        pace.tokensPerSecondPerUser = tokensPerSecond;
        pace.firstTokenSeconds = firstTokenSeconds;
        QCOMPARE(ws::TokenPacer::atPaceOf(pace).tokensOutAt(seconds, available), expected);
    }
    // One formula: token i is due exactly when the race shows i + 1 tokens.
    void dueSecondsAndTokensOutAgree()
    {
        ws::SystemPace pace;
        pace.tokensPerSecondPerUser = 300;
        pace.firstTokenSeconds = 0.1;
        const ws::TokenPacer pacer = ws::TokenPacer::atPaceOf(pace);
        for (int i = 0; i < 500; i += 7) {
            QCOMPARE(pacer.tokensOutAt(pacer.dueSeconds(i), 1000), i + 1);
            QCOMPARE(pacer.dueSeconds(i), pace.secondsForTokens(i + 1));
        }
    }
    void clockAndRate()
    {
        ws::SystemPace pace;
        pace.tokensPerSecondPerUser = 250;
        pace.firstTokenSeconds = 0.2;
        const ws::TokenPacer pacer = ws::TokenPacer::atPaceOf(pace);
        // 1.2 s: 251 tokens, 250 decode steps in 1.0 s.
        QCOMPARE(pacer.tokensOutAt(1.2, 1000), 251);
        QCOMPARE(pacer.clockAt(1.2, 1000), 1.2);
        QCOMPARE(pacer.rateAt(1.2, 1000), 250.0);
        // Ten tokens only: the clock stops when the tenth is out.
        QCOMPARE(pacer.clockAt(5.0, 10), pace.secondsForTokens(10));
        QCOMPARE(pacer.rateAt(5.0, 10), 250.0);
        QCOMPARE(pacer.rateAt(0.1, 10), 0.0); // before the first token
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
