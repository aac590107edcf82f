// The wafer scene (engine/scene/scene.h): one request gives the placement, the
// remaps, the snapshot and the token schedule. Defects are honoured the way
// placeWithDefects honours them (every wafer its own draw, the smallest usable
// mesh), explicit dead cores join the random ones, the Defects layer shows
// them, and the schedule is the one scheduleScene gives for the same scene.
// The prefill (prefillScene) pipelines the prompt through the scene's layer
// regions and lasts the predictor's time to first token.
#include "engine/scene/scene.h"

#include "engine/predict/predictor.h"

#include "engine/wafer/placement/placer.h"
#include "tests/common/presetfixture.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace {

ws::ScenarioSpec request(const char* model, double rate = 0, uint64_t seed = 1)
{
    ws::ScenarioSpec r;
    r.model = wstest::modelPreset(QString::fromLatin1(model));
    r.hardware = wstest::hardwarePreset(QStringLiteral("wse3"));
    r.workload.contextTokens = 4096;
    r.defects.rate = rate;
    r.defects.seed = seed;
    return r;
}

int64_t count(const std::vector<ws::CoreState>& states, ws::CoreState s)
{
    return std::count(states.begin(), states.end(), s);
}

} // namespace

class TestWaferScene : public QObject
{
    Q_OBJECT
private slots:
    void withoutDefectsIsThePlainPlacement()
    {
        const ws::ScenarioSpec r = request("llama-3.1-8b");
        const auto scene = ws::buildWaferScene(r);
        QVERIFY2(scene.hasValue(), scene.hasValue() ? "" : scene.error().message().c_str());
        ws::PlacementOptions o;
        o.contextTokens = 4096;
        const auto plain = ws::placeModel(r.model, r.hardware.wafer, o);
        QVERIFY(plain.hasValue());
        QCOMPARE(scene->placement->deviceCount, plain->deviceCount);
        QCOMPARE(scene->placement->usableCols, plain->usableCols);
        QCOMPARE(scene->placement->usableRows, plain->usableRows);
        QCOMPARE(scene->snapshot->deviceCount, plain->deviceCount);
        QVERIFY(scene->snapshot->coreState.empty() ||
                count(scene->snapshot->coreState.front(), ws::CoreState::Dead) == 0);
        QCOMPARE(scene->hopStretch.max(), 1.0);
        QVERIFY(scene->remap(0));                   // the defect-free remap, for physical coordinates
        QCOMPARE(scene->remap(0), scene->remap(3)); // shared by every device
        QVERIFY(!scene->timing);                    // not asked for
    }

    void defectsAreHonoured_data()
    {
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("explicitCores");
        QTest::newRow("random") << 0.001 << 0;
        QTest::newRow("explicit only") << 0.0 << 3;
        QTest::newRow("random and explicit") << 0.001 << 3;
    }
    void defectsAreHonoured()
    {
        QFETCH(double, rate);
        QFETCH(int, explicitCores);
        ws::ScenarioSpec r = request("llama-3.1-70b", rate, 5);
        // Explicit dead cores on wafer 1, on a row of their own so they cannot coincide with a random one twice.
        for (int i = 0; i < explicitCores; ++i)
            r.defects.cores.push_back({1, {100 + 7 * i, 200}});
        const auto scene = ws::buildWaferScene(r);
        QVERIFY2(scene.hasValue(), scene.hasValue() ? "" : scene.error().message().c_str());
        const auto placed = ws::placeWithDefects(
            r.model, r.hardware.wafer,
            [] {
                ws::PlacementOptions o;
                o.contextTokens = 4096;
                return o;
            }(),
            r.defects);
        QVERIFY(placed.hasValue());
        // The placement the scene shows is placeWithDefects' own.
        QCOMPARE(scene->placement->deviceCount, placed->placement.deviceCount);
        QCOMPARE(scene->placement->usableCols, placed->usableMesh.cols);
        QCOMPARE(scene->placement->usableRows, placed->usableMesh.rows);
        QCOMPARE(scene->defectTotals.deadCores, placed->totals.deadCores);
        QCOMPARE(scene->hopStretch.x, placed->hopStretchX);
        QCOMPARE(scene->hopStretch.y, placed->hopStretchY);
        if (rate > 0) // dead cores the spares cannot absorb cost rows (a few explicit ones are repaired)
            QVERIFY(scene->placement->usableRows < r.hardware.wafer.usableRows() ||
                    scene->placement->usableCols < r.hardware.wafer.usableCols());
        const int devices = scene->placement->deviceCount;
        QCOMPARE(int(scene->remaps.size()), devices);
        QCOMPARE(int(scene->defectsPerDevice.size()), devices);
        // Every wafer's dead cores: the seeded draw (seed + device) plus the explicit ones on that wafer.
        const auto wafer1 = ws::remapDevice(r.hardware.wafer, rate, 5, 1);
        QVERIFY(wafer1.hasValue());
        QCOMPARE(scene->remap(1)->summary().deadCores, wafer1->summary().deadCores + explicitCores);
        QCOMPARE(scene->remap(0)->summary().deadCores,
                 ws::remapDevice(r.hardware.wafer, rate, 5, 0)->summary().deadCores);
        // The Defects layer shows each wafer's remap.
        QCOMPARE(int(scene->snapshot->coreState.size()), devices);
        if (rate > 0)
            QVERIFY(count(scene->snapshot->coreState[0], ws::CoreState::Dead) > 0);
        QVERIFY(count(scene->snapshot->coreState[1], ws::CoreState::Dead) > 0);
    }

    void scheduleIsTheScenesOwn()
    {
        ws::ScenarioSpec r = request("llama-3.1-70b", 0.001, 5);
        const auto scene = ws::buildWaferScene(r, {.withSchedule = true});
        QVERIFY2(scene.hasValue(), scene.hasValue() ? "" : scene.error().message().c_str());
        QVERIFY(scene->timing);
        const ws::TokenSchedule& s = *scene->timing->schedule;
        QVERIFY(!s.phases.empty());
        QVERIFY(s.totalCycles > 0);
        // Over the scene's own regions: every phase sits on the placed mesh of a placed device.
        for (const ws::Phase& p : s.phases) {
            QVERIFY(p.device >= 0 && p.device < scene->placement->deviceCount);
            QVERIFY(p.rect.x + p.rect.width <= scene->snapshot->meshCols);
            QVERIFY(p.rect.y + p.rect.height <= scene->snapshot->meshRows);
        }
        const auto again = ws::scheduleScene(*scene, ws::KvPlacement::Shift);
        QVERIFY(again.hasValue());
        QCOMPARE(again->schedule->totalCycles, s.totalCycles);
        QCOMPARE(again->schedule->phases.size(), s.phases.size());
        const auto concat = ws::scheduleScene(*scene, ws::KvPlacement::Concat);
        QVERIFY(concat.hasValue());
        QVERIFY(concat->schedule->totalCycles != s.totalCycles);
        // sceneSchedule takes the scene's own for its KV placement (the same schedule, not timed again) and times
        // any other.
        QCOMPARE(r.kv, ws::KvPlacement::Shift);
        const auto own = ws::sceneSchedule(*scene, ws::KvPlacement::Shift);
        QVERIFY(own.hasValue());
        QCOMPARE(own->schedule.get(), scene->timing->schedule.get());
        const auto other = ws::sceneSchedule(*scene, ws::KvPlacement::Concat);
        QVERIFY(other.hasValue());
        QCOMPARE(other->schedule->totalCycles, concat->schedule->totalCycles);
        ws::WaferScene plain = *scene;
        plain.timing.reset();
        const auto timed = ws::sceneSchedule(plain, ws::KvPlacement::Shift);
        QVERIFY(timed.hasValue());
        QVERIFY(timed->schedule.get() != scene->timing->schedule.get());
        QCOMPARE(timed->schedule->totalCycles, s.totalCycles);
    }

    void prefillLastsThePredictorsFirstToken_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("prompt");
        QTest::newRow("qwen3-0.6b-512") << "qwen3-0.6b" << 512;
        QTest::newRow("llama-3.1-70b-512") << "llama-3.1-70b" << 512;
        QTest::newRow("llama-3.1-8b-2000") << "llama-3.1-8b" << 2000;
    }

    void prefillLastsThePredictorsFirstToken()
    {
        QFETCH(QString, model);
        QFETCH(int, prompt);
        ws::ScenarioSpec r = request(model.toLatin1().constData());
        r.workload.promptTokens = prompt;
        const auto scene = ws::buildWaferScene(r);
        QVERIFY2(scene.hasValue(), scene.hasValue() ? "" : scene.error().message().c_str());
        const auto prefill = ws::prefillScene(*scene, ws::KvPlacement::Shift);
        QVERIFY2(prefill.hasValue(), prefill.hasValue() ? "" : prefill.error().message().c_str());
        const ws::TokenSchedule& s = *prefill->timing.schedule;
        QVERIFY(s.isPrefill());
        QCOMPARE(s.promptTokens, int64_t(prompt));
        QVERIFY(s.chunks * int64_t(s.chunkTokens) >= prompt);
        // The predictor's time to first token for the same request, not one computed beside it.
        const auto predicted = ws::predict(r);
        QVERIFY2(predicted.hasValue(), predicted.hasValue() ? "" : predicted.error().message().c_str());
        QVERIFY(predicted->ttftSeconds > 0);
        QVERIFY2(std::abs(s.seconds() - predicted->ttftSeconds) < 1e-9 * predicted->ttftSeconds,
                 qPrintable(QStringLiteral("%1 s vs %2 s").arg(s.seconds()).arg(predicted->ttftSeconds)));
        QCOMPARE(prefill->ttft.seconds, s.seconds());
        QCOMPARE(prefill->ttft.range.low, predicted->ttftRange.low);
        // Its cycles are the timing model's pipeline; the clock is stretched to the calibrated pace.
        QCOMPARE(s.totalCycles, prefill->ttft.cycles);
        QCOMPARE(s.clockHz * s.timeStretch, prefill->timing.params.clockHz);
        QVERIFY(!prefill->ttft.source.empty());
        // On the scene's placed regions, every wafer's layers in order: the first chunk leaves layer l before
        // entering layer l + 1.
        std::vector<double> enter(size_t(r.model.layers), -1), leave(size_t(r.model.layers), -1);
        for (const ws::Phase& p : s.phases) {
            QVERIFY(p.device >= 0 && p.device < scene->placement->deviceCount);
            if (p.chunk != 0 || p.layer < 0 || p.kind == ws::PhaseKind::LayerHop || p.kind == ws::PhaseKind::WaferHop)
                continue;
            if (enter[size_t(p.layer)] < 0)
                enter[size_t(p.layer)] = p.startCycle;
            leave[size_t(p.layer)] = std::max(leave[size_t(p.layer)], p.endCycle);
        }
        for (size_t l = 1; l < enter.size(); ++l)
            QVERIFY(enter[l] >= leave[l - 1]);
    }

    void notAWaferIsAnError()
    {
        ws::ScenarioSpec r = request("llama-3.1-8b");
        r.hardware.kind = ws::HardwareKind::Gpu;
        QVERIFY(!ws::buildWaferScene(r).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestWaferScene)
#include "tst_waferscene.moc"
