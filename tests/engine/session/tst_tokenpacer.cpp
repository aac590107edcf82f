#include "engine/session/tokenpacer.h"

#include <QTest>

#include <cmath>
#include <limits>

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
    void slowMotionFactor_data()
    {
        QTest::addColumn<double>("tokensPerSecond");
        QTest::addColumn<double>("expected");
        // Reading pace is 238 words/min x 4/3 tokens/word = 5.29 tokens/s.
        QTest::newRow("below reading pace: not slowed") << 4.0 << 1.0;
        QTest::newRow("just above: 2x") << 6.0 << 2.0;
        QTest::newRow("20 tokens/s: 5x (4x would be 5.0, 2x 10)") << 20.0 << 5.0;
        QTest::newRow("727 tokens/s: 200x (100x leaves 7.3)") << 727.0 << 200.0;
        QTest::newRow("2,600 tokens/s: 500x") << 2600.0 << 500.0;
        QTest::newRow("infinite: not slowed") << std::numeric_limits<double>::infinity() << 1.0;
        QTest::newRow("unpaced") << 0.0 << 1.0;
    }
    void slowMotionFactor()
    {
        QFETCH(double, tokensPerSecond);
        QFETCH(double, expected);
        QCOMPARE(ws::TokenPacer::slowMotionFor(tokensPerSecond), expected);
    }

    void slowedPaceKeepsTheSystemsClock()
    {
        ws::SystemPace pace;
        pace.tokensPerSecondPerUser = 700;
        pace.firstTokenSeconds = 0.1;
        const ws::TokenPacer real = ws::TokenPacer::atPaceOf(pace);
        const ws::TokenPacer slowed = real.slowedBy(200);
        QCOMPARE(slowed.slowMotion(), 200.0);
        QCOMPARE(real.slowedBy(0.5).slowMotion(), 1.0);
        QCOMPARE(slowed.tokensPerSecond(), 700.0); // the rate named stays the system's
        // The first token comes at its predicted 0.1 s; token 69 is due 69/700 s after it in system time,
        // 200x that after it on the wall.
        QCOMPARE(slowed.dueSeconds(0), 0.1);
        QCOMPARE(slowed.dueSeconds(69), 0.1 + 200 * (real.dueSeconds(69) - 0.1));
        QCOMPARE(slowed.tokensOutAt(0.1 + 200 * 0.1, 1000), real.tokensOutAt(0.2, 1000));
        QCOMPARE(slowed.tokensOutAt(0.1 + 200 * 0.1, 1000), 71);
        QCOMPARE(slowed.tokensOutAt(0.05, 1000), 0);
        // Its clock and live rate are the system's: 0.2 s and 700 tokens/s after 20.1 s of wall time.
        QCOMPARE(slowed.clockAt(0.1 + 20, 1000), 0.2);
        QCOMPARE(slowed.clockAt(0.05, 1000), 0.05);
        QVERIFY(std::abs(slowed.rateAt(20.1, 1000) - real.rateAt(0.2, 1000)) < 1e-9);
        QVERIFY(std::abs(slowed.rateAt(20.1, 1000) - 700) < 10);
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
