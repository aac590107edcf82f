// The frame function (engine/wafer/dataflow/meshframe.h) as the live session,
// the recordings and the Dataflow dock use it: a frame shares its base
// snapshot and carries only the activity of the moment; the live session's
// golden-ratio cycle choice sweeps through the token; without a trail a
// frame's activity is the engine's activity as numbers (compute 1,
// forward 0.5, idle 0). (Merged from the live session's MeshAnimator test.)
#include "engine/wafer/dataflow/activity.h"
#include "engine/wafer/dataflow/meshframe.h"
#include "tests/views/smallschedule.h"

#include <QTest>

#include <set>

using namespace ws;

namespace {

// A 6 x 4 mesh, one device, and a token of two local phases: cores
// (0..1, 0..1) compute during cycles [0, 50), cores (3..5, 2..3) during [50, 100).
std::shared_ptr<const ws::MeshSnapshot> baseSnapshot(int devices = 1)
{
    auto s = std::make_shared<ws::MeshSnapshot>();
    s->meshCols = 6;
    s->meshRows = 4;
    s->deviceCount = devices;
    s->sramFraction.assign(size_t(devices), std::vector<float>(24, 0.25f));
    return s;
}

std::shared_ptr<const ws::TokenSchedule> twoPhaseSchedule()
{
    auto schedule = std::make_shared<ws::TokenSchedule>();
    ws::Phase a;
    a.kind = ws::PhaseKind::AttnNorm;
    a.rect = {0, 0, 2, 2};
    a.startCycle = 0;
    a.computeEndCycle = 50;
    a.endCycle = 50;
    ws::Phase b = a;
    b.rect = {3, 2, 3, 2};
    b.startCycle = 50;
    b.computeEndCycle = 100;
    b.endCycle = 100;
    schedule->phases = {a, b};
    schedule->totalCycles = 100;
    return schedule;
}

int activeCores(const ws::MeshFrame& s)
{
    int n = 0;
    for (float v : s.activity.at(0))
        n += v > 0 ? 1 : 0;
    return n;
}

// The live session's frame for token `index`: every device, no trail, no hops.
std::shared_ptr<const ws::MeshFrame> tokenFrame(std::shared_ptr<const ws::MeshSnapshot> base,
                                                const std::shared_ptr<const ws::TokenSchedule>& schedule, int index)
{
    ws::DataflowFrameOptions o;
    o.device = ws::DataflowFrameOptions::allDevices;
    o.hops = false;
    o.cycle = schedule ? ws::goldenRatioCycle(*schedule, index) : 0;
    return ws::dataflowFrame(std::move(base), schedule.get(), o);
}

} // namespace

class TestMeshFrame : public QObject
{
    Q_OBJECT
private slots:
    void framesFollowTheSchedule_data()
    {
        QTest::addColumn<int>("token");
        QTest::addColumn<int>("expectedActive");
        // token 0 -> cycle 0 (first phase, 4 cores); token 1 -> cycle 61.8 (second phase, 6 cores);
        // token 2 -> cycle 23.6 (first phase).
        QTest::newRow("token 0") << 0 << 4;
        QTest::newRow("token 1") << 1 << 6;
        QTest::newRow("token 2") << 2 << 4;
    }
    void framesFollowTheSchedule()
    {
        QFETCH(int, token);
        QFETCH(int, expectedActive);
        const auto base = baseSnapshot();
        const auto frame = tokenFrame(base, twoPhaseSchedule(), token);
        QVERIFY(frame);
        QCOMPARE(frame->activity.size(), size_t(1));
        QCOMPARE(frame->activity[0].size(), size_t(24));
        QCOMPARE(activeCores(*frame), expectedActive);
        QCOMPARE(frame->base, base); // the rest of the frame is the placement's snapshot, shared, not copied
        QVERIFY(frame->hops.empty());
    }

    void sweepsThroughTheToken()
    {
        const auto schedule = twoPhaseSchedule();
        std::set<int> tenths;
        for (int i = 0; i < 30; ++i) {
            const double c = ws::goldenRatioCycle(*schedule, i);
            QVERIFY(c >= 0 && c < 100);
            tenths.insert(int(c / 10));
        }
        QCOMPARE(tenths.size(), size_t(10)); // every tenth of the token is shown within 30 tokens
    }

    void withoutScheduleShowsTheBase()
    {
        const auto base = baseSnapshot();
        const auto frame = tokenFrame(base, nullptr, 3);
        QVERIFY(frame);
        QCOMPARE(frame->base, base);
        QVERIFY(frame->activity.empty());
        QVERIFY(!tokenFrame(nullptr, twoPhaseSchedule(), 0));
    }

    // Without a trail, a frame holds the engine's activity as numbers (what the recordings always drew).
    void withoutTrailIsTheEngineActivity_data()
    {
        QTest::addColumn<double>("cycle");
        QTest::newRow("first phase") << 10.0;
        QTest::newRow("second phase") << 75.0;
        QTest::newRow("wraps") << 110.0;
    }
    void withoutTrailIsTheEngineActivity()
    {
        QFETCH(double, cycle);
        auto twoWafers = std::make_shared<ws::TokenSchedule>(*twoPhaseSchedule());
        twoWafers->phases[1].device = 1; // the second phase runs on the second wafer
        const std::shared_ptr<const ws::TokenSchedule> schedule = twoWafers;
        const auto base = baseSnapshot(2);
        ws::DataflowFrameOptions o;
        o.device = 1;
        o.cycle = cycle;
        const auto one = ws::dataflowFrame(base, schedule.get(), o);
        QCOMPARE(one->activity.size(), size_t(2));
        QVERIFY(one->activity[0].empty()); // only the chosen device is computed
        std::vector<ws::CoreActivity> cores;
        std::vector<float> expected;
        ws::fillActivity(*schedule, 1, 6, 4, cycle, cores);
        ws::activityToFraction(cores, expected);
        QCOMPARE(one->activity[1], expected);
        // Every device: each one as if it were chosen alone.
        o.device = ws::DataflowFrameOptions::allDevices;
        const auto all = ws::dataflowFrame(base, schedule.get(), o);
        QCOMPARE(all->activity.size(), size_t(2));
        QCOMPARE(all->activity[1], expected);
        ws::fillActivity(*schedule, 0, 6, 4, cycle, cores);
        ws::activityToFraction(cores, expected);
        QCOMPARE(all->activity[0], expected);
    }

    // The Dataflow dock's frames (moved from tst_dataflowcontroller with the frame function).
    void trailFadesButKeepsKind()
    {
        const auto schedule = ws::testing::smallSchedule();
        // A moment when device 0 has idle cores that were busy a little earlier.
        const double trail = schedule->totalCycles / 50;
        std::vector<float> glow;
        std::vector<CoreActivity> now;
        std::vector<CoreActivity> before;
        bool checked = false;
        for (int step = 1; step < 50 && !checked; ++step) {
            const double t = schedule->totalCycles * step / 50;
            DataflowFrameOptions o;
            o.cycle = t;
            o.trailCycles = trail;
            fillDataflowGlow(*schedule, 80, 40, o, glow);
            fillActivity(*schedule, 0, 80, 40, t, now);
            fillActivity(*schedule, 0, 80, 40, t - trail, before);
            for (size_t i = 0; i < glow.size(); ++i) {
                if (now[i] != CoreActivity::Idle || before[i] == CoreActivity::Idle)
                    continue;
                // Busy at the oldest sample only (unless a middle sample saw it): dimmer than now, same ramp.
                QVERIFY(glow[i] > 0);
                if (before[i] == CoreActivity::Compute && glow[i] > 0.5f)
                    QVERIFY(glow[i] < 1.0f);
                if (before[i] == CoreActivity::Forward && glow[i] <= 0.5f)
                    QVERIFY(glow[i] < 0.5f);
                checked = true;
            }
        }
        QVERIFY(checked);
    }

    // The glow scans only the rectangle each sample painted (paintActivity's box) and keeps its scratch wafer
    // between calls: it must equal the samples of the whole wafer, newest over oldest, for every device and
    // moment, also when calls alternate between meshes of different sizes.
    void glowEqualsTheWholeWaferSamples()
    {
        const auto schedule = ws::testing::smallSchedule();
        const std::pair<int, int> meshes[] = {{80, 40}, {64, 50}};
        std::vector<float> glow;
        std::vector<CoreActivity> sample;
        int lit = 0;
        for (int step = 0; step < 120; ++step) {
            const auto [cols, rows] = meshes[step % 2];
            DataflowFrameOptions o;
            o.device = (step / 2) % 2;
            o.cycle = schedule->totalCycles * step / 120;
            o.trailCycles = step % 3 == 0 ? 0 : schedule->totalCycles / 40;
            fillDataflowGlow(*schedule, cols, rows, o, glow);
            std::vector<float> expected(size_t(cols) * size_t(rows), 0.0f);
            const int samples = o.trailCycles > 0 ? DataflowFrameOptions::trailSamples : 1;
            for (int k = samples - 1; k >= 0; --k) {
                fillActivity(*schedule, o.device, cols, rows,
                             o.cycle - (samples > 1 ? o.trailCycles * k / (samples - 1) : 0.0), sample);
                const auto w = float(trailWeight(k));
                for (size_t i = 0; i < sample.size(); ++i)
                    if (sample[i] != CoreActivity::Idle)
                        expected[i] = sample[i] == CoreActivity::Compute ? 0.5f + 0.5f * w : 0.5f * w;
            }
            QCOMPARE(glow.size(), expected.size());
            for (size_t i = 0; i < glow.size(); ++i) {
                if (glow[i] != expected[i])
                    QFAIL(qPrintable(QStringLiteral("step %1, core %2: %3, expected %4")
                                         .arg(step)
                                         .arg(i)
                                         .arg(glow[i])
                                         .arg(expected[i])));
                lit += glow[i] > 0 ? 1 : 0;
            }
        }
        QVERIFY(lit > 1000); // the moments light real regions, not an idle wafer
    }

    // paintActivity's rectangle holds every core it painted and is no larger than the phases' own rectangles.
    void paintedBoxHoldsThePaintedCores()
    {
        const auto schedule = ws::testing::smallSchedule();
        int boxes = 0;
        for (int step = 0; step < 60; ++step) {
            const double t = schedule->totalCycles * step / 60;
            std::vector<CoreActivity> out(80 * 40, CoreActivity::Idle);
            const CoreRect box = paintActivity(*schedule, 0, 80, 40, t, out);
            boxes += box.cores() > 0 ? 1 : 0;
            for (int y = 0; y < 40; ++y)
                for (int x = 0; x < 80; ++x)
                    if (out[size_t(y) * 80 + size_t(x)] != CoreActivity::Idle)
                        QVERIFY2(box.contains(x, y),
                                 qPrintable(QStringLiteral("step %1 (%2, %3)").arg(step).arg(x).arg(y)));
        }
        QVERIFY2(boxes > 20,
                 qPrintable(QString::number(boxes))); // device 0 holds the first layers: busy part of the token
    }

    void hopsDrawnDuringHops()
    {
        const auto schedule = ws::testing::smallSchedule();
        bool sawWaferHop = false;
        for (const Phase& p : schedule->phases) {
            if (p.kind != PhaseKind::WaferHop && p.kind != PhaseKind::LayerHop)
                continue;
            const double mid = (p.startCycle + p.endCycle) / 2;
            const auto hops = activeHops(*schedule, mid);
            QCOMPARE(int(hops.size()), 1);
            QCOMPARE(hops[0].toDevice, p.toDevice);
            QCOMPARE(hops[0].toX, centreX(p.toRect));
            QVERIFY(hops[0].progress > 0.4 && hops[0].progress < 0.6);
            sawWaferHop |= hops[0].fromDevice != hops[0].toDevice;
        }
        QVERIFY(sawWaferHop); // the small layout puts layers 2 and 3 on the second wafer
    }
};

QTEST_GUILESS_MAIN(TestMeshFrame)
#include "tst_meshframe.moc"
