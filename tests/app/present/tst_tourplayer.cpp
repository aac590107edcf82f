// TourPlayer on a fake stage: what each step asks of the stage, step lengths in tour time, time standing still
// while the stage is busy, pause, next and back, captions filled with the stage's values, and errors.
#include "app/present/tourplayer.h"
#include "app/present/tourstage.h"

#include <QSignalSpy>
#include <QtTest>

using namespace ws;

namespace {

class FakeStage : public TourStage
{
public:
    QStringList calls;
    bool busy = false;
    QString openError;
    QString backgroundError;
    double tokenTime = 0.002; // 2 ms a token
    QMap<QString, QString> shownValues{{QStringLiteral("model"), QStringLiteral("M")}};

    bool busyOnOpen = false;
    QString open(const TourStep& step, const QString&) override
    {
        calls << QStringLiteral("open %1").arg(step.model);
        busy = busyOnOpen;
        return openError;
    }
    QString injectDefects(double fraction, quint64 seed) override
    {
        calls << QStringLiteral("defects %1 %2").arg(fraction).arg(seed);
        return {};
    }
    void setLayer(MeshLayer layer, int engineLayer) override
    {
        calls << QStringLiteral("layer %1").arg(QLatin1String(meshLayerId(layer))) +
                     (engineLayer >= 0 ? QStringLiteral(" engine %1").arg(engineLayer) : QString());
    }
    void zoomTo(const QRectF& r) override { calls << QStringLiteral("zoom %1").arg(r.width()); }
    void showComparison(bool show) override { calls << QStringLiteral("compare %1").arg(show); }
    void startRace(double timeScale) override
    {
        calls << QStringLiteral("race");
        raceScale = timeScale > 0 ? timeScale : kDemoScale;
    }
    void showRaceAt(double seconds) override { raceAt = seconds; }
    double raceTimeScale() const override { return raceScale; }
    void showToken(int token, int, double fraction, double) override
    {
        lastToken = token;
        lastFraction = fraction;
    }
    double tokenSeconds() const override { return tokenTime; }
    bool isBusy() const override { return busy; }
    QString lastError() const override { return backgroundError; }
    QMap<QString, QString> values() const override
    {
        ++valuesAsked;
        return shownValues;
    }
    mutable int valuesAsked = 0;

    static constexpr double kDemoScale = 0.125; // the fake race's demo pace: slowed 8x
    double raceAt = -1;
    double raceScale = 1;
    int lastToken = -1;
    double lastFraction = -1;
};

Tour tourOf(const QByteArray& steps)
{
    QString error;
    auto tour = TourFormat::fromJson(R"({"version": 1, "title": "T", "steps": [)" + steps + "]}",
                                     QStringLiteral("t.json"), &error);
    if (!tour)
        qFatal("%s", qPrintable(error));
    return *tour;
}

} // namespace

class TestTourPlayer : public QObject
{
    Q_OBJECT

private slots:
    void stepsDriveTheStageInTourTime()
    {
        FakeStage stage;
        // 2 tokens of 2 ms at 1000 µs per second: 4 s of tour time.
        TourPlayer player(tourOf(R"({"kind": "open", "model": "m"}, {"kind": "layer", "layer": "dataflow",
                                    "engine_layer": 3},
                                    {"kind": "caption", "text": "{model} here, {devices} wafers", "seconds": 2},
                                    {"kind": "play", "tokens": 2, "wafer_us_per_second": 1000},
                                    {"kind": "race", "seconds": 3, "time_scale": 2}, {"kind": "zoom", "fit": true})"),
                          &stage);
        QSignalSpy captions(&player, &TourPlayer::captionChanged);
        QSignalSpy finished(&player, &TourPlayer::finished);
        player.advance(0);
        QCOMPARE(stage.calls, (QStringList{"open m", "layer dataflow engine 3"}));
        QCOMPARE(player.caption(), QStringLiteral("M here, – wafers")); // a value the stage does not have: a dash
        QVERIFY(!captions.isEmpty());
        player.advance(1.5);
        QCOMPARE(player.stepIndex(), 2); // still the caption
        player.advance(1.5);             // 1 s into 4 s of tokens: token 0 at a half
        QCOMPARE(player.stepIndex(), 3);
        QCOMPARE(stage.lastToken, 0);
        QCOMPARE(stage.lastFraction, 0.5);
        player.advance(2.5); // 3.5 s in: token 1 at three quarters
        QCOMPARE(stage.lastToken, 1);
        QCOMPARE(stage.lastFraction, 0.75);
        player.advance(2.0); // 1.5 s into the race at twice the speed
        QCOMPARE(player.stepIndex(), 4);
        QCOMPARE(stage.calls.last(), QStringLiteral("race"));
        QCOMPARE(stage.raceAt, 3.0);
        QVERIFY(finished.isEmpty());
        player.advance(2.0);
        QCOMPARE(stage.raceAt, 6.0); // the end of the race
        QCOMPARE(stage.calls.last(), QStringLiteral("zoom 0"));
        QCOMPARE(finished.size(), 1);
        QVERIFY(player.isFinished());
        QCOMPARE(player.elapsedSeconds(), 9.0); // 2 + 4 + 3
    }

    // A caption's values are filled when it comes and then a few times a second of tour time, not at every frame;
    // a value that changes meanwhile (a remap finished) shows within a quarter of a second, and at the step's end.
    void captionValuesAreAskedAFewTimesASecond()
    {
        FakeStage stage;
        TourPlayer player(tourOf(R"({"kind": "caption", "text": "{model} here", "seconds": 2},
                                    {"kind": "wait", "seconds": 1})"),
                          &stage);
        QSignalSpy captions(&player, &TourPlayer::captionChanged);
        player.advance(0);
        QCOMPARE(player.caption(), QStringLiteral("M here"));
        const int atStart = stage.valuesAsked;
        for (int frame = 0; frame < 60; ++frame) // one second at 60 frames a second
            player.advance(1.0 / 60);
        QVERIFY2(stage.valuesAsked - atStart <= 5, qPrintable(QString::number(stage.valuesAsked - atStart)));
        stage.shownValues[QStringLiteral("model")] = QStringLiteral("N");
        for (int frame = 0; frame < 15; ++frame) // a quarter of a second
            player.advance(1.0 / 60);
        QCOMPARE(captions.last().at(0).toString(), QStringLiteral("N here"));
        stage.shownValues[QStringLiteral("model")] = QStringLiteral("O");
        player.advance(0.76); // past the step's end (2 s): its last frame filled again
        QCOMPARE(player.stepIndex(), 1);
        QCOMPARE(captions.last().at(0).toString(), QStringLiteral("O here"));
    }

    void liveInstantStepsTakeATickEach()
    {
        // Played from its timer, a tour runs an instant step that changes the picture (layer, zoom) and ends the
        // tick there: the next one comes a tick later, not in the same dispatch of the GUI thread. The tick's time
        // is kept, so the tour takes as long as its timed steps. advance() still runs them at once.
        struct TimedStage : FakeStage
        {
            QElapsedTimer clock;
            std::vector<qint64> at; // when each layer or zoom came, ns
            void setLayer(MeshLayer layer, int engineLayer) override
            {
                FakeStage::setLayer(layer, engineLayer);
                at.push_back(clock.nsecsElapsed());
            }
            void zoomTo(const QRectF& r) override
            {
                FakeStage::zoomTo(r);
                at.push_back(clock.nsecsElapsed());
            }
        };
        const QByteArray steps = R"({"kind": "caption", "text": "a", "seconds": 0.05}, {"kind": "layer",
            "layer": "placement"}, {"kind": "zoom", "fit": true}, {"kind": "layer", "layer": "dataflow"},
            {"kind": "caption", "text": "b", "seconds": 0.3})";
        TimedStage stage;
        stage.clock.start();
        TourPlayer player(tourOf(steps), &stage);
        QSignalSpy finished(&player, &TourPlayer::finished);
        QElapsedTimer wall;
        wall.start();
        player.start();
        QVERIFY(finished.wait(5000));
        QCOMPARE(stage.calls, (QStringList{"layer placement", "zoom 0", "layer dataflow"}));
        QCOMPARE(stage.at.size(), size_t(3));
        for (size_t i = 1; i < stage.at.size(); ++i) // a tick is 16 ms; the same dispatch would be microseconds
            QVERIFY2(stage.at[i] - stage.at[i - 1] > 5'000'000,
                     qPrintable(QString::number(stage.at[i] - stage.at[i - 1])));
        QCOMPARE(player.elapsedSeconds(), 0.35);
        QVERIFY(wall.elapsed() >= 340);

        TimedStage atOnce;
        atOnce.clock.start();
        TourPlayer stepped(tourOf(steps), &atOnce);
        stepped.advance(0.06); // the first caption, then the three instant steps in this call
        QCOMPARE(atOnce.calls, (QStringList{"layer placement", "zoom 0", "layer dataflow"}));
    }

    void raceWithoutTimeScaleRunsAtTheRacesDemoPace()
    {
        // No time_scale: the race's own demo pace (the fake's: 1/8), the same the race shows as "slowed 8×".
        FakeStage stage;
        TourPlayer player(tourOf(R"({"kind": "race", "seconds": 4}, {"kind": "wait", "seconds": 1})"), &stage);
        player.advance(0);
        QCOMPARE(stage.calls, QStringList{QStringLiteral("race")});
        QCOMPARE(stage.raceScale, FakeStage::kDemoScale);
        player.advance(2.0);
        QCOMPARE(stage.raceAt, 0.25);
        player.advance(2.5);
        QCOMPARE(stage.raceAt, 0.5); // the end of the race: 4 s of the tour, slowed 8×
    }

    void playsPartOfAToken()
    {
        FakeStage stage; // from 0.2 to 0.6 of one 2 ms token at 100 µs per second: 8 s
        TourPlayer player(
            tourOf(R"({"kind": "play", "tokens": 1, "wafer_us_per_second": 100, "from": 0.2, "to": 0.6})"), &stage);
        player.advance(0);
        player.advance(2);
        QCOMPARE(stage.lastFraction, 0.3);
        player.advance(6);
        QCOMPARE(stage.lastFraction, 0.6);
        QVERIFY(player.isFinished());
    }

    void frameSumsEndStepsExactly()
    {
        // 30 frames of 1/30 s end a 1 s wait: no extra frame from rounding.
        FakeStage stage;
        TourPlayer player(tourOf(R"({"kind": "wait", "seconds": 1}, {"kind": "wait", "seconds": 0.5})"), &stage);
        int frames = 0;
        player.advance(0);
        while (!player.isFinished() && frames < 1000) {
            ++frames;
            player.advance(1.0 / 30);
        }
        QCOMPARE(frames, 45);
    }

    void busyStageStopsTime()
    {
        FakeStage stage;
        TourPlayer player(tourOf(R"({"kind": "wait", "seconds": 1}, {"kind": "open", "model": "m"},
                                    {"kind": "wait", "seconds": 1}, {"kind": "caption", "text": "end", "seconds": 0})"),
                          &stage);
        stage.busyOnOpen = true;
        player.advance(0);
        player.advance(1.4); // the wait ends after 1 s, the open makes the stage busy: 0.4 s are kept
        player.advance(100); // busy: no time passes
        QCOMPARE(player.stepIndex(), 1);
        QCOMPARE(player.elapsedSeconds(), 1.0);
        stage.busy = false;
        player.advance(0.5); // the kept 0.4 s and this 0.5 s: 0.9 s into the second wait
        QCOMPARE(player.stepIndex(), 2);
        QVERIFY(qAbs(player.elapsedSeconds() - 1.9) < 1e-9);
        player.advance(0.1);
        QVERIFY(player.isFinished());
        QCOMPARE(player.caption(), QStringLiteral("end"));
    }

    void pauseNextAndBack()
    {
        FakeStage stage;
        TourPlayer player(
            tourOf(R"({"kind": "layer", "layer": "sram"}, {"kind": "caption", "text": "one", "seconds": 5},
                                    {"kind": "layer", "layer": "kv"}, {"kind": "caption", "text": "two", "seconds": 5},
                                    {"kind": "caption", "text": "three", "seconds": 5})"),
            &stage);
        player.advance(0);
        player.setPaused(true);
        player.advance(10);
        QCOMPARE(player.caption(), QStringLiteral("one"));
        QVERIFY(player.isPaused());
        player.setPaused(false);
        player.next(); // to "two", with the kv layer set on the way
        QCOMPARE(player.caption(), QStringLiteral("two"));
        QCOMPARE(player.stepIndex(), 3);
        QCOMPARE(stage.calls.last(), QStringLiteral("layer kv"));
        QCOMPARE(player.elapsedSeconds(), 0.0); // skipped steps take no time
        player.next();
        QCOMPARE(player.caption(), QStringLiteral("three"));
        player.back();
        QCOMPARE(player.caption(), QStringLiteral("two"));
        player.back();
        QCOMPARE(player.caption(), QStringLiteral("one"));
        QCOMPARE(stage.calls.last(), QStringLiteral("layer sram"));
        player.back(); // nothing before the first: from the start again
        QCOMPARE(player.caption(), QStringLiteral("one"));
        player.next();
        player.next();
        player.next(); // past the last: the end
        QVERIFY(player.isFinished());
        QCOMPARE(player.caption(), QStringLiteral("three"));
        // Home: from the first step again, after the end as in the middle, the steps entered again in order.
        stage.calls.clear();
        player.restart();
        QVERIFY(!player.isFinished());
        QCOMPARE(player.stepIndex(), 1);
        QCOMPARE(player.caption(), QStringLiteral("one"));
        QCOMPARE(stage.calls, QStringList{QStringLiteral("layer sram")});
        QCOMPARE(player.elapsedSeconds(), 0.0);
        player.advance(6);
        QCOMPARE(player.caption(), QStringLiteral("two"));
        player.restart();
        QCOMPARE(player.caption(), QStringLiteral("one"));
    }

    void errorsStopTheTour()
    {
        FakeStage stage;
        stage.openError = QStringLiteral("unknown model 'x'");
        TourPlayer player(tourOf(R"({"kind": "wait", "seconds": 1}, {"kind": "open", "model": "x"})"), &stage);
        QSignalSpy failed(&player, &TourPlayer::failed);
        player.advance(2);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(player.error(), QStringLiteral("t.json: step 2 (open): unknown model 'x'"));
        QVERIFY(player.isFinished());

        FakeStage later; // the placement fails in the background
        TourPlayer second(tourOf(R"({"kind": "open", "model": "m"}, {"kind": "wait", "seconds": 1})"), &later);
        later.busy = true;
        second.advance(0);
        later.busy = false;
        later.backgroundError = QStringLiteral("does not fit");
        second.advance(0);
        QCOMPARE(second.error(), QStringLiteral("does not fit"));

        FakeStage noSchedule;
        noSchedule.tokenTime = 0;
        TourPlayer third(tourOf(R"({"kind": "play", "tokens": 1})"), &noSchedule);
        third.advance(1);
        QCOMPARE(third.error(), QStringLiteral("t.json: step 1 (play): no dataflow schedule to play"));
    }
};

QTEST_GUILESS_MAIN(TestTourPlayer)
#include "tst_tourplayer.moc"
