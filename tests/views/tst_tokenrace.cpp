#include "views/racelane.h"
#include "views/tokenrace.h"

#include <QSignalSpy>
#include <QTest>

using namespace ws;
using namespace ws::views;

namespace {

SystemPace pace(double tokensPerSecond, double firstTokenSeconds)
{
    SystemPace p;
    p.tokensPerSecondPerUser = tokensPerSecond;
    p.firstTokenSeconds = firstTokenSeconds;
    return p;
}

QStringList numbered(int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << QStringLiteral("t%1 ").arg(i);
    return out;
}

std::vector<RaceSystem> threeSystems()
{
    // A wafer-like, a Groq-like and a GPU-like pace (tokens/s, time to first token).
    return {{pace(2000, 0.05), QStringLiteral("fast"), Qt::red, {}},
            {pace(300, 0.1), QStringLiteral("middle"), Qt::green, {}},
            {pace(40, 0.5), QStringLiteral("slow"), Qt::blue, {}}};
}

} // namespace

class TestTokenRace : public QObject
{
    Q_OBJECT
private slots:
    void tokensAt_data()
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

    void tokensAt()
    {
        QFETCH(double, tokensPerSecond);
        QFETCH(double, firstTokenSeconds);
        QFETCH(double, seconds);
        QFETCH(int, available);
        QFETCH(int, expected);
        QCOMPARE(TokenRace::tokensAt(pace(tokensPerSecond, firstTokenSeconds), seconds, available), expected);
    }

    void lanesRevealAtTheirPace_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<int>("fast");
        QTest::addColumn<int>("middle");
        QTest::addColumn<int>("slow");
        // 200 pieces. fast: 1 + (t - 0.05) x 2000; middle: 1 + (t - 0.1) x 300; slow: 1 + (t - 0.5) x 40.
        QTest::newRow("start") << 0.0 << 0 << 0 << 0;
        QTest::newRow("0.08 s") << 0.08 << 61 << 0 << 0;
        QTest::newRow("0.5 s") << 0.5 << 200 << 121 << 1;
        QTest::newRow("2 s") << 2.0 << 200 << 200 << 61;
        QTest::newRow("10 s") << 10.0 << 200 << 200 << 200;
    }

    void lanesRevealAtTheirPace()
    {
        QFETCH(double, seconds);
        QFETCH(int, fast);
        QFETCH(int, middle);
        QFETCH(int, slow);
        TokenRace race;
        race.resize(1200, 500);
        const QStringList pieces = numbered(200);
        race.setRace(pieces, threeSystems(), QStringLiteral("test text"));
        QCOMPARE(race.laneCount(), 3);
        race.advanceTo(seconds);
        const int expected[] = {fast, middle, slow};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(race.lane(i)->revealed(), expected[i]);
            QCOMPARE(race.lane(i)->text(), QStringList(pieces.mid(0, expected[i])).join(QString()));
            QCOMPARE(race.lane(i)->progress(), expected[i] / 200.0);
        }
        QCOMPARE(race.isFinished(), slow == 200);
    }

    void counterShowsLiveRate()
    {
        TokenRace race;
        race.setRace(numbered(1000), {{pace(250, 0.2), QStringLiteral("one"), Qt::red, {}}}, {});
        race.advanceTo(1.2); // 1 + 1.0 x 250 = 251 tokens, 250 decode steps in 1.0 s
        QCOMPARE(race.lane(0)->revealed(), 251);
        QVERIFY2(race.lane(0)->counterText().contains(QStringLiteral("250 tokens/s")),
                 qPrintable(race.lane(0)->counterText()));
        QVERIFY(race.lane(0)->counterText().contains(QStringLiteral("251 / 1000")));
    }

    void readerMarker()
    {
        TokenRace race;
        race.setRace(numbered(100), threeSystems(), {});
        QCOMPARE(race.lane(0)->readerFraction(), -1.0);
        race.setReadingSpeed(10, QStringLiteral("seed"));
        race.advanceTo(2.0); // a reader at 10 tokens/s has read 20 of 100 tokens
        QCOMPARE(race.lane(2)->readerFraction(), 0.2);
        race.advanceTo(60.0);
        QCOMPARE(race.lane(0)->readerFraction(), 1.0);
    }

    void liveStreamNeverRunsAhead()
    {
        TokenRace race;
        race.setRace({}, threeSystems(), {});
        race.advanceTo(1.0);
        QCOMPARE(race.lane(0)->revealed(), 0);
        race.appendPiece(QStringLiteral("Hello"));
        race.appendPiece(QStringLiteral(" world"));
        QCOMPARE(race.lane(0)->revealed(), 2);
        QCOMPARE(race.lane(0)->text(), QStringLiteral("Hello world"));
        QCOMPARE(race.lane(2)->revealed(), 2); // slow: 1 + 0.5 x 40 = 21 due, 2 exist
        // Going back in time (a restart) shows less again.
        race.advanceTo(0.0);
        QCOMPARE(race.lane(0)->revealed(), 0);
        QCOMPARE(race.lane(0)->text(), QString());
    }

    void timerRunsTheRaceToTheEnd()
    {
        TokenRace race;
        race.setRace(numbered(20), {{pace(1000, 0.0), QStringLiteral("a"), Qt::red, {}},
                                    {pace(400, 0.01), QStringLiteral("b"), Qt::blue, {}}},
                     {});
        QSignalSpy finished(&race, &TokenRace::finished);
        race.start();
        QVERIFY(race.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 5000);
        QVERIFY(!race.isRunning());
        QCOMPARE(race.lane(1)->revealed(), 20);
        // Starting a finished race starts it over.
        race.start();
        QVERIFY(race.lane(1)->revealed() < 20);
        race.pause();
        QVERIFY(!race.isRunning());
    }
};

QTEST_MAIN(TestTokenRace)
#include "tst_tokenrace.moc"
