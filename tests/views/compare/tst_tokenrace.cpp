// TokenRace, the one race view: lanes revealed at each system's pace (the
// pacing formula itself is tested in tst_tokenpacer), the reader marker, a
// live stream, the timer; and the session's times (formerly RacePane): rows
// from a session snapshot (CPU measured, systems predicted), sorted shortest
// first, log-scale bars, painting offscreen.
#include "views/compare/racelane.h"
#include "views/compare/tokenrace.h"

#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

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
    void publishedFiguresAreMarkedOnTheirLane()
    {
        // A published 1,000 tokens/s for the fast system: its diamond moves at that pace after the same first
        // token (0.05 s): 1 + (t - 0.05) x 1,000 tokens of 200; the lane names the figure and its source.
        std::vector<RaceSystem> systems = threeSystems();
        systems[0].marks.push_back({1000, QStringLiteral("Measured: 1,000 tokens/s — Source: a vendor's blog")});
        TokenRace race;
        race.resize(1200, 500);
        race.setRace(numbered(200), systems, QStringLiteral("test text"));
        race.advanceTo(0.08);
        QCOMPARE(race.lane(0)->revealed(), 61);
        QCOMPARE(race.lane(0)->markFractions().size(), size_t(1));
        QCOMPARE(race.lane(0)->markFractions()[0], 31 / 200.0);
        QVERIFY(race.lane(0)->headerText().contains(QStringLiteral("published 1,000")));
        QVERIFY(race.lane(0)->trackToolTip().contains(QStringLiteral("Source: a vendor's blog")));
        QVERIFY(race.lane(1)->markFractions().empty());
        QVERIFY(!race.lane(1)->headerText().contains(QStringLiteral("published")));
        race.advanceTo(1.0);
        QCOMPARE(race.lane(0)->markFractions()[0], 1.0); // 951 tokens' worth: the whole text
        // A new race without figures clears them.
        race.setRace(numbered(200), threeSystems(), QStringLiteral("test text"));
        race.advanceTo(0.08);
        QVERIFY(race.lane(0)->markFractions().empty());
        QVERIFY(!race.lane(0)->headerText().contains(QStringLiteral("published")));
    }

    void eachLaneShowsItsFirstToken()
    {
        // Issue 29: the wafer's time to first token beside the GPU's and the LPU's, each lane's predicted one.
        std::vector<RaceSystem> systems = threeSystems();
        systems[2].pace.firstTokenSeconds = 2.5;
        TokenRace race;
        race.resize(1200, 500);
        race.setRace(numbered(20), systems, QStringLiteral("test text"));
        QVERIFY2(race.lane(0)->headerText().contains(QStringLiteral("first token 50.0 ms")),
                 qPrintable(race.lane(0)->headerText()));
        QVERIFY(race.lane(1)->headerText().contains(QStringLiteral("first token 100 ms")));
        QVERIFY(race.lane(2)->headerText().contains(QStringLiteral("first token 2.50 s")));
        QVERIFY(race.lane(0)->headerToolTip().contains(QStringLiteral("WaferLLM")));
        // Without a predicted first token, none is shown.
        systems[1].pace.firstTokenSeconds = 0;
        race.setRace(numbered(20), systems, QStringLiteral("test text"));
        QVERIFY(!race.lane(1)->headerText().contains(QStringLiteral("first token")));
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

    // Hidden in a shown window (another mode), the race runs on but its lanes' texts wait: shown again, they show
    // where the race is.
    void hiddenLanesCatchUpWhenShown()
    {
        QWidget window;
        auto* race = new TokenRace(&window);
        race->setRace(numbered(1000), {{pace(250, 0.2), QStringLiteral("one"), Qt::red, {}}}, {});
        race->advanceTo(0.6); // 1 + 0.4 x 250 = 101 tokens, the window not shown yet: at once
        QCOMPARE(race->lane(0)->revealed(), 101);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        race->hide();
        race->advanceTo(1.2);
        QCOMPARE(race->elapsedSeconds(), 1.2);
        QCOMPARE(race->lane(0)->revealed(), 101); // not laid out while hidden
        race->show();
        QCOMPARE(race->lane(0)->revealed(), 251);
    }

    void counterShowsLiveRate()
    {
        TokenRace race;
        race.setRace(numbered(1000), {{pace(250, 0.2), QStringLiteral("one"), Qt::red, {}}}, {});
        race.advanceTo(1.2); // 1 + 1.0 x 250 = 251 tokens, 250 decode steps in 1.0 s
        QCOMPARE(race.lane(0)->revealed(), 251);
        // Non-breaking spaces inside each group: a narrow lane wraps between groups, never before a unit.
        const QString nbsp(QChar(0x00A0));
        const QString counter = race.lane(0)->counterText();
        QVERIFY2(counter.contains(QStringLiteral("250") + nbsp + QStringLiteral("tokens/s")), qPrintable(counter));
        QVERIFY(counter.contains(QStringLiteral("251") + nbsp + QLatin1Char('/') + nbsp + QStringLiteral("1000")));
        QVERIFY(counter.contains(nbsp + QLatin1Char('s')) && !counter.contains(QStringLiteral(" s")));
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
        race.appendPieces({QStringLiteral("Hello")});
        race.appendPieces({QStringLiteral(" world")});
        QCOMPARE(race.lane(0)->revealed(), 2);
        QCOMPARE(race.lane(0)->text(), QStringLiteral("Hello world"));
        QCOMPARE(race.lane(2)->revealed(), 2); // slow: 1 + 0.5 x 40 = 21 due, 2 exist
        // Going back in time (a restart) shows less again.
        race.advanceTo(0.0);
        QCOMPARE(race.lane(0)->revealed(), 0);
        QCOMPARE(race.lane(0)->text(), QString());
        // Several pieces at once (a snapshot may carry several tokens), each one a token.
        race.appendPieces({QStringLiteral("!"), QStringLiteral(" Bye")});
        race.advanceTo(1.0);
        QCOMPARE(race.lane(0)->revealed(), 4);
        QCOMPARE(race.lane(0)->text(), QStringLiteral("Hello world! Bye"));
    }

    void timerRunsTheRaceToTheEnd()
    {
        TokenRace race;
        race.setRace(
            numbered(20),
            {{pace(1000, 0.0), QStringLiteral("a"), Qt::red, {}}, {pace(400, 0.01), QStringLiteral("b"), Qt::blue, {}}},
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

    void sessionRowsFromSnapshot()
    {
        SessionSnapshot s;
        s.generatedTokens = 64;
        s.firstTokenSeconds = 0.002;
        s.decodeSeconds = 0.010;
        s.elapsedSeconds = 5.0; // pacing waits are not the CPU's time
        s.systems = {{"h100", "H100", 100.0, 0.05}, {"wse3", "WSE-3", 2000.0, 0.1}, {"x", "No prediction", 0.0, 0.0}};
        const auto rows = TokenRace::rowsFor(s);
        QCOMPARE(rows.size(), size_t(3));
        QVERIFY(rows[0].measured);
        QCOMPARE(rows[0].seconds, 0.012);
        QCOMPARE(rows[1].name, QStringLiteral("H100"));
        QCOMPARE(rows[1].seconds, 0.05 + 63 / 100.0);
        QCOMPARE(rows[2].seconds, 0.1 + 63 / 2000.0);

        TokenRace race;
        QVERIFY(race.chart()->isHidden()); // no session yet
        race.showSessionTimes(s);
        QVERIFY(!race.chart()->isHidden());
        const auto& sorted = race.chart()->rows();
        QCOMPARE(sorted.size(), size_t(3));
        QCOMPARE(sorted[0].name, rows[0].name);       // 12 ms
        QCOMPARE(sorted[1].seconds, rows[2].seconds); // 131.5 ms
        QCOMPARE(sorted[2].seconds, rows[1].seconds); // 680 ms
        QCOMPARE(race.chart()->barFraction(sorted[2].seconds), 1.0);
        const double a = race.chart()->barFraction(sorted[0].seconds);
        const double b = race.chart()->barFraction(sorted[1].seconds);
        QVERIFY(a > 0 && a < b && b < 1);
        race.resize(600, 200);
        QVERIFY(!race.grab().isNull());
    }

    void demoPaceBringsTheSlowestLaneToTheReader()
    {
        // The slowest system predicts 40 tokens/s; a reader reads 10: the round factor that brings 40 down to 10 or
        // below is 5 (TokenPacer::slowMotionFor: 2 leaves 20), so race time runs at 1/5 of wall time.
        TokenRace race;
        race.setRace(numbered(200), threeSystems(), {});
        QVERIFY(race.isDemoPace());
        QCOMPARE(race.timeScale(), 1.0); // no reader yet: real time
        QCOMPARE(race.paceText(), QStringLiteral("real time"));
        race.setReadingSpeed(10, QStringLiteral("seed"));
        QCOMPARE(race.timeScale(), 0.2);
        QCOMPARE(race.paceText(), QStringLiteral("slowed 5×"));
        // A reader faster than every system: real time (the race never runs faster than the systems).
        race.setReadingSpeed(50, QStringLiteral("seed"));
        QCOMPARE(race.timeScale(), 1.0);
        // A chosen factor wins until the demo pace is chosen again.
        race.setReadingSpeed(10, QStringLiteral("seed"));
        race.setTimeScale(0.1);
        QVERIFY(!race.isDemoPace());
        QCOMPARE(race.paceText(), QStringLiteral("slowed 10×"));
        race.setDemoPace();
        QCOMPARE(race.timeScale(), 0.2);
        QCOMPARE(TokenRace::demoTimeScale({}, 10), 1.0);
    }

    void slowMotionKeepsTheFirstTokenOnTime()
    {
        // Slowed 5x (the demo pace above), as the chat's wafer is (TokenPacer::slowedBy): the fast lane's first
        // token comes at its predicted 0.05 s of wall time (race time 0.05 x 0.2 = 0.01 s), not 5 x later; its
        // next tokens come at 2,000 / 5 = 400 tokens/s of wall time: 1 + (0.55 - 0.05) x 400 = 201 -> all 200
        // at 0.55 s. The slow lane's first token at 0.5 s wall, then 8 tokens/s: 1 + 0.05 x 8 = 1 at 0.55 s.
        TokenRace race;
        race.setRace(numbered(200), threeSystems(), {});
        race.setReadingSpeed(10, QStringLiteral("seed"));
        QCOMPARE(race.timeScale(), 0.2);
        race.advanceTo(0.049 * 0.2);
        QCOMPARE(race.lane(0)->revealed(), 0);
        race.advanceTo(0.051 * 0.2);
        QCOMPARE(race.lane(0)->revealed(), 1);
        race.advanceTo(0.3 * 0.2); // 1 + 0.25 x 400 = 101 tokens of the fast lane; the slow lane still waits
        QCOMPARE(race.lane(0)->revealed(), 101);
        QCOMPARE(race.lane(2)->revealed(), 0);
        race.advanceTo(0.55 * 0.2);
        QCOMPARE(race.lane(0)->revealed(), 200);
        QCOMPARE(race.lane(2)->revealed(), 1);
    }

    void externalClockKeepsTheTimerOff()
    {
        // A tour drives the race: showing it does not start the timer; Start hands the clock back.
        TokenRace race;
        race.setExternalClock(true);
        race.setRace(numbered(20), threeSystems(), {});
        race.show();
        QVERIFY(QTest::qWaitForWindowExposed(&race));
        QVERIFY(!race.isRunning());
        race.start();
        QVERIFY(race.isRunning());
        // Without an external clock, a race that is shown runs by itself.
        TokenRace shown;
        shown.setRace(numbered(20), threeSystems(), {});
        shown.show();
        QVERIFY(QTest::qWaitForWindowExposed(&shown));
        QVERIFY(shown.isRunning());
    }

    void fourLanesFitA1280By720FrameAndBreakBetweenWords()
    {
        // Four systems as the comparison names them, one with published figures, a story's worth of tokens split
        // inside words as a tokenizer does (" g", "ir", "l").
        std::vector<RaceSystem> systems = {
            {pace(500.205, 0.19), QStringLiteral("4 × WSE-3"), QColor(0xe6, 0x7e, 0x22), {}},
            {pace(125.526, 0.041), QStringLiteral("8 × H100"), QColor(0x76, 0xb9, 0x00), {}},
            {pace(234.327, 0.024), QStringLiteral("8 × B200"), QColor(0x1f, 0x6f, 0x8b), {}},
            {pace(273.890, 0.048), QStringLiteral("689 × Groq LPU"), QColor(0xc0, 0x39, 0x2b), {}}};
        systems[0].marks.push_back({969, QStringLiteral("a published figure")});
        systems[0].marks.push_back({2100, QStringLiteral("another")});
        QStringList pieces;
        for (int i = 0; i < 12; ++i)
            pieces << QStringList{QStringLiteral(" Once"),   QStringLiteral(" upon"), QStringLiteral(" a"),
                                  QStringLiteral(" time"),   QStringLiteral(","),     QStringLiteral(" a"),
                                  QStringLiteral(" little"), QStringLiteral(" g"),    QStringLiteral("ir"),
                                  QStringLiteral("l"),       QStringLiteral(" lo"),   QStringLiteral("ved"),
                                  QStringLiteral(" to"),     QStringLiteral(" play"), QStringLiteral(" "),
                                  QStringLiteral("out"),     QStringLiteral("side"),  QStringLiteral(".")};
        TokenRace race;
        race.setExternalClock(true);
        race.setRace(pieces, systems, QStringLiteral("a story, token by token"));
        race.setReadingSpeed(12.1, QStringLiteral("seed"));
        QVERIFY2(race.minimumSizeHint().width() <= 1280, qPrintable(QString::number(race.minimumSizeHint().width())));
        race.resize(1280, 540); // the race dock in a 1280 x 720 recording
        race.show();
        QVERIFY(QTest::qWaitForWindowExposed(&race));
        race.advanceTo(10.0);
        QVERIFY(race.isFinished());
        QCoreApplication::processEvents();
        for (int i = 0; i < race.laneCount(); ++i) {
            const RaceLane* lane = race.lane(i);
            const QRect inRace(lane->mapTo(&race, QPoint(0, 0)), lane->size());
            QVERIFY2(race.rect().contains(inRace), qPrintable(QStringLiteral("lane %1 at %2,%3 %4x%5")
                                                                  .arg(i)
                                                                  .arg(inRace.x())
                                                                  .arg(inRace.y())
                                                                  .arg(inRace.width())
                                                                  .arg(inRace.height())));
            // Every line but a paragraph's last ends with the space before the next word.
            const QTextDocument* document = lane->textView()->document();
            int lines = 0;
            for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
                const QTextLayout* layout = block.layout();
                for (int l = 0; l + 1 < layout->lineCount(); ++l) {
                    const QTextLine line = layout->lineAt(l);
                    const QString text = block.text().mid(line.textStart(), line.textLength());
                    QVERIFY2(text.endsWith(QLatin1Char(' ')),
                             qPrintable(QStringLiteral("lane %1: '%2'").arg(i).arg(text)));
                    ++lines;
                }
            }
            QVERIFY2(lines > 0, "the text wraps"); // else the check above checked nothing
        }
    }

    void noTokensNoRows()
    {
        SessionSnapshot s;
        s.systems = {{"wse3", "WSE-3", 2000.0, 0.1}};
        QVERIFY(TokenRace::rowsFor(s).empty());
    }
};

QTEST_MAIN(TestTokenRace)
#include "tst_tokenrace.moc"
