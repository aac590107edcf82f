// DataflowController: stepping lands on the engine schedule's phase
// boundaries, seeking maps fractions to cycles, frames carry the engine's
// activity (compute vs forward, with a fading trail) for the visible device
// only, and playback advances and wraps within the token. (The trail and the
// hops of the frame function itself: tests/engine/wafer/tst_meshframe.cpp.)
// Given a mesh engine run, the timeline is the run's and a frame's cores
// differ within a region (tests/engine/wafer/tst_meshplayback.cpp for the glow).
#include "app/dataflow/dataflowcontroller.h"

#include "engine/wafer/dataflow/activity.h"
#include "tests/common/presetfixture.h"
#include "tests/views/smallschedule.h"

#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace ws;

namespace {
std::shared_ptr<const MeshSnapshot> baseSnapshot()
{
    auto s = std::make_shared<MeshSnapshot>();
    s->meshCols = 80;
    s->meshRows = 40;
    s->deviceCount = 2;
    s->sramFraction.assign(2, std::vector<float>(80 * 40, 0.5f));
    return s;
}
} // namespace

class TestDataflowController : public QObject
{
    Q_OBJECT

private slots:
    void stepsLandOnPhaseStarts_data();
    void stepsLandOnPhaseStarts();
    void stepBackFromMidPhase();
    void seekMapsToCycles_data();
    void seekMapsToCycles();
    void frameMatchesEngineActivity_data();
    void frameMatchesEngineActivity();
    void playAdvancesAndWraps();
    void playFollowsTheTokenAcrossWafers();
    void followingAPrefillNeverFlickers();
    void heldFramesNeverChange();
    void aBatchRendersOnceAtItsEnd();
    void aNewScheduleRefillsThePoolsFrames();
    void noScheduleIsHarmless();
    void executedRunPlaysItsEvents();
};

void TestDataflowController::stepsLandOnPhaseStarts_data()
{
    QTest::addColumn<int>("kv");
    QTest::newRow("shift") << int(KvPlacement::Shift);
    QTest::newRow("concat") << int(KvPlacement::Concat);
}

void TestDataflowController::stepsLandOnPhaseStarts()
{
    QFETCH(int, kv);
    const auto schedule = ws::testing::smallSchedule(KvPlacement(kv));
    std::set<double> starts;
    for (const Phase& p : schedule->phases)
        starts.insert(p.startCycle);
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    c.seek(0);
    std::vector<double> visited;
    for (size_t i = 0; i < starts.size() + 3; ++i) {
        c.stepPhase(+1);
        visited.push_back(c.cycle());
    }
    // Every step is the next distinct phase start, in order, and it stops at the last one.
    auto it = std::next(starts.begin()); // 0 is the first start: the first step goes to the second
    for (size_t i = 0; i + 1 < starts.size(); ++i, ++it)
        QCOMPARE(visited[i], *it);
    QCOMPARE(visited.back(), *starts.rbegin());
    QVERIFY(c.currentPhase() >= 0);
    QCOMPARE(schedule->phases[size_t(c.currentPhase())].startCycle, *starts.rbegin());
}

void TestDataflowController::stepBackFromMidPhase()
{
    const auto schedule = ws::testing::smallSchedule();
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    const Phase& p = schedule->phases[schedule->phases.size() / 2];
    c.seek((p.startCycle + p.endCycle) / 2);
    c.stepPhase(-1);
    QCOMPARE(c.cycle(), p.startCycle); // back to the start of the phase we were in
    c.stepPhase(-1);
    QVERIFY(c.cycle() < p.startCycle);
}

void TestDataflowController::seekMapsToCycles_data()
{
    QTest::addColumn<double>("fraction");
    QTest::addColumn<double>("expected"); // fraction of the token, after clamping
    QTest::newRow("start") << 0.0 << 0.0;
    QTest::newRow("third") << 1.0 / 3 << 1.0 / 3;
    QTest::newRow("end") << 1.0 << 1.0;
    QTest::newRow("past the end clamps") << 1.7 << 1.0;
    QTest::newRow("negative clamps") << -0.2 << 0.0;
}

void TestDataflowController::seekMapsToCycles()
{
    QFETCH(double, fraction);
    QFETCH(double, expected);
    const auto schedule = ws::testing::smallSchedule();
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    QSignalSpy frames(&c, &DataflowController::frameReady);
    c.seekFraction(fraction);
    QCOMPARE(c.cycle(), expected * schedule->totalCycles);
    QCOMPARE(frames.count(), 1);
}

void TestDataflowController::frameMatchesEngineActivity_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<double>("fraction");
    QTest::newRow("wafer 1 early") << 0 << 0.1;
    QTest::newRow("wafer 1 middle") << 0 << 0.3;
    QTest::newRow("wafer 2 late") << 1 << 0.8;
}

void TestDataflowController::frameMatchesEngineActivity()
{
    QFETCH(int, device);
    QFETCH(double, fraction);
    const auto schedule = ws::testing::smallSchedule();
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    c.setDevice(device);
    c.seekFraction(fraction);
    const auto frame = c.currentFrame();
    QVERIFY(frame);
    QCOMPARE(int(frame->activity.size()), 2);
    QVERIFY(frame->activity[size_t(1 - device)].empty()); // only the visible device is computed
    std::vector<CoreActivity> now;
    fillActivity(*schedule, device, 80, 40, c.cycle(), now);
    const auto& glow = frame->activity[size_t(device)];
    QCOMPARE(glow.size(), now.size());
    for (size_t i = 0; i < now.size(); ++i) {
        // The current event is drawn at full strength on its ramp: compute 1, forward 0.5.
        if (now[i] == CoreActivity::Compute)
            QCOMPARE(glow[i], 1.0f);
        else if (now[i] == CoreActivity::Forward)
            QCOMPARE(glow[i], 0.5f);
        else
            QVERIFY(glow[i] != 1.0f && glow[i] != 0.5f); // idle now: at most a fading trail
    }
}

void TestDataflowController::playAdvancesAndWraps()
{
    const auto schedule = ws::testing::smallSchedule();
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    // So fast that a few frames run past the end of the token.
    c.setWaferSecondsPerSecond(schedule->seconds() * 20);
    c.seekFraction(0.95);
    QSignalSpy frames(&c, &DataflowController::frameReady);
    c.play();
    QVERIFY(c.isPlaying());
    QTRY_VERIFY(frames.count() >= 4);
    c.pause();
    QVERIFY(!c.isPlaying());
    QVERIFY(c.cycle() >= 0 && c.cycle() < schedule->totalCycles);
}

void TestDataflowController::playFollowsTheTokenAcrossWafers()
{
    const auto schedule = ws::testing::smallSchedule();
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    c.setDevice(0);
    QObject::connect(&c, &DataflowController::tokenMovedTo, &c, [&c](int device) { c.setDevice(device); });
    QSignalSpy moved(&c, &DataflowController::tokenMovedTo);
    c.seekFraction(0.8);                                   // on wafer 2 (frameMatchesEngineActivity)
    QCOMPARE(moved.count(), 0);                            // a seek shows where the user looks
    c.setWaferSecondsPerSecond(schedule->seconds() * 0.5); // two seconds a token
    c.play();
    QTRY_COMPARE(moved.count(), 1);
    QCOMPARE(moved.at(0).at(0).toInt(), 1);
    QCOMPARE(c.device(), 1);
    QCOMPARE(c.currentFrame()->activity.size(), size_t(2));
    QVERIFY(!c.currentFrame()->activity[1].empty());     // the frame is wafer 2's
    QTRY_VERIFY_WITH_TIMEOUT(moved.count() >= 2, 10000); // the next token starts on wafer 1
    QCOMPARE(moved.at(1).at(0).toInt(), 0);
    c.pause();
}

// A prefill's chunks run on both wafers at once while the pipeline straddles them: a view that follows the token
// moves to wafer 2 once, when no chunk is left on wafer 1, and never back and forth (the earliest-begun phase
// alone went back and forth between the wafers).
void TestDataflowController::followingAPrefillNeverFlickers()
{
    const auto schedule = ws::testing::smallPrefill();
    QVERIFY(schedule->chunks > 1);
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    c.setDevice(0);
    QVector<int> moves;
    bool straddled = false;
    for (int i = 0; i <= 2000; ++i) {
        c.seek(schedule->totalCycles * i / 2000.0);
        std::set<int> running;
        for (size_t p : activePhases(*schedule, c.cycle()))
            running.insert(schedule->phases[p].device);
        straddled = straddled || running.size() > 1;
        if (const int device = c.tokenDevice(c.device()); device >= 0 && device != c.device()) {
            QVERIFY(!running.count(c.device())); // it leaves a wafer only when nothing runs there
            moves << device;
            c.setDevice(device);
        }
    }
    QVERIFY(straddled); // the chunks did run on both wafers at once
    QCOMPARE(moves, QVector<int>{1});
}

void TestDataflowController::heldFramesNeverChange()
{
    const auto schedule = ws::testing::smallSchedule();
    DataflowController c;
    c.setSchedule(schedule, baseSnapshot());
    c.seekFraction(0.1);
    const auto held = c.currentFrame();
    const std::vector<float> before = held->activity[0];
    for (double f : {0.6, 0.3, 0.8, 0.2})
        c.seekFraction(f);
    QVERIFY(c.currentFrame() != held);
    QVERIFY(held->activity[0] == before); // frames are reused only once nobody holds them
}

void TestDataflowController::aBatchRendersOnceAtItsEnd()
{
    const auto shift = ws::testing::smallSchedule(KvPlacement::Shift);
    const auto concat = ws::testing::smallSchedule(KvPlacement::Concat);
    const auto base = baseSnapshot();
    DataflowController c;
    c.setSchedule(shift, base);
    c.seekFraction(0.4);
    const auto before = c.currentFrame();
    QSignalSpy frames(&c, &DataflowController::frameReady);
    {
        const DataflowController::FrameBatch outer(c);
        {
            const DataflowController::FrameBatch inner(c);
            c.setOverlay(MeshLayer::Links);
            c.setOverlay(MeshLayer::Dataflow);
            c.setWaferSecondsPerSecond(2e-4);
        }
        QCOMPARE(frames.count(), 0); // the inner batch's end leaves it to the outer one
        c.setSchedule(concat, base);
        QCOMPARE(frames.count(), 0);
        QVERIFY(c.isFramePending());
    }
    QCOMPARE(frames.count(), 1);
    QVERIFY(!c.isFramePending());
    // The frame is the settings' own: what a controller given them one by one shows.
    DataflowController fresh;
    fresh.setWaferSecondsPerSecond(2e-4);
    fresh.setSchedule(concat, base);
    fresh.seek(c.cycle()); // the first schedule's cycle, kept within the second's token
    QVERIFY(c.currentFrame() != before);
    QCOMPARE(c.currentFrame()->activity, fresh.currentFrame()->activity);
    QCOMPARE(c.currentFrame()->hops.size(), fresh.currentFrame()->hops.size());
    // Nothing changed in a batch: no frame at its end.
    {
        const DataflowController::FrameBatch idle(c);
    }
    QCOMPARE(frames.count(), 1);
}

void TestDataflowController::aNewScheduleRefillsThePoolsFrames()
{
    const auto shift = ws::testing::smallSchedule(KvPlacement::Shift);
    const auto concat = ws::testing::smallSchedule(KvPlacement::Concat);
    const auto base = baseSnapshot();
    DataflowController c;
    c.setSchedule(shift, base);
    // The pool's frames (the one shown is not refilled: two take turns), watched without holding them.
    std::vector<std::weak_ptr<const MeshFrame>> made;
    for (double f : {0.1, 0.5, 0.9})
        made.push_back((c.seekFraction(f), c.currentFrame()));
    // A new schedule of the same placement refills one of them, rewritten all through (activity and hops).
    c.setSchedule(concat, base);
    QVERIFY(std::any_of(made.begin(), made.end(), [&](const auto& w) { return w.lock() == c.currentFrame(); }));
    DataflowController fresh;
    fresh.setSchedule(concat, base);
    fresh.seek(c.cycle());
    QCOMPARE(c.currentFrame()->activity, fresh.currentFrame()->activity);
    QCOMPARE(c.currentFrame()->hops.size(), fresh.currentFrame()->hops.size());
    QCOMPARE(c.currentFrame()->base, base);
    // Another placement's schedule: the same frames, on the new base; none keeps the old one.
    const auto other = baseSnapshot();
    std::weak_ptr<const MeshSnapshot> old = base;
    c.setSchedule(concat, other);
    QVERIFY(std::any_of(made.begin(), made.end(), [&](const auto& w) { return w.lock() == c.currentFrame(); }));
    QCOMPARE(c.currentFrame()->base, other);
    fresh.setSchedule(nullptr, nullptr);
    QCOMPARE(old.use_count(), 1); // only the test's `base` holds the first placement's snapshot
}

void TestDataflowController::noScheduleIsHarmless()
{
    DataflowController c;
    c.setSchedule(nullptr, nullptr);
    c.play();
    QVERIFY(!c.isPlaying());
    c.stepPhase(1);
    c.seekFraction(0.5);
    QCOMPARE(c.cycle(), 0.0);
    QCOMPARE(c.currentPhase(), -1);
}

void TestDataflowController::executedRunPlaysItsEvents()
{
    const wstest::PlacedPreset p = wstest::placePreset(QStringLiteral("llama-3.1-8b"), QStringLiteral("wse3"));
    MeshOptions o;
    o.context = 512;
    o.layer = 0;
    auto run = executeMeshToken(p.placement, p.model, MeshParams::fromHardware(p.hardware.wafer), o);
    QVERIFY(run.hasValue());
    auto playback = std::make_shared<const MeshPlayback>(std::make_shared<const MeshRun>(std::move(*run)));
    auto base = std::make_shared<MeshSnapshot>();
    base->meshCols = p.placement.fabricCols;
    base->meshRows = p.placement.fabricRows;
    base->deviceCount = 1;
    DataflowController c;
    c.setSchedule(playback->sharedSchedule(playback), base, playback);
    QCOMPARE(c.totalCycles(), playback->run().totalCycles);
    QCOMPARE(c.boundaries().size(), playback->schedule().phases.size());
    const Phase* down = nullptr;
    for (const Phase& ph : playback->schedule().phases)
        if (ph.kind == PhaseKind::FfnDown)
            down = &ph;
    QVERIFY(down);
    c.seek(down->computeEndCycle + 0.4 * (down->endCycle - down->computeEndCycle));
    const auto frame = c.currentFrame();
    QVERIFY(frame && frame->activity.size() == 1);
    std::set<float> values;
    for (int y = down->rect.y; y < down->rect.y + down->rect.height; ++y)
        for (int x = down->rect.x; x < down->rect.x + down->rect.width; ++x)
            values.insert(frame->activity[0][size_t(y) * size_t(base->meshCols) + size_t(x)]);
    QVERIFY2(values.size() > 2, qPrintable(QString::number(values.size()))); // the closed forms light it alike
}

QTEST_MAIN(TestDataflowController)
#include "tst_dataflowcontroller.moc"
