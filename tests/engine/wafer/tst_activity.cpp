// Per-core activity for the animation: compute during local GEMVs, moving
// wavefronts during allreduces, forwarding bands during hops.
#include "engine/wafer/dataflow/activity.h"

#include <QTest>

#include <algorithm>

using namespace ws;

namespace {
struct Fixture
{
    ModelConfig model;
    ScheduleRegions layout;
    TokenSchedule schedule;
    Fixture()
    {
        model.id = "toy";
        model.layers = 4;
        model.hiddenSize = 1024;
        model.ffnSize = 4096;
        model.headCount = 8;
        model.kvHeadCount = 2;
        model.headDim = 128;
        model.vocabSize = 4096;
        layout.meshCols = 200;
        layout.meshRows = 100;
        for (int i = 0; i < 4; ++i)
            layout.layers.push_back({0, {(i % 2) * 100, (i / 2) * 50, 100, 50}});
        layout.embedding = layout.layers[0];
        layout.lmHead = layout.layers[3];
        TimingParams p;
        p.macCycles = 1;
        p.allreduceFixedCycles = 50;
        p.routingStageCycles = 10;
        schedule = buildTokenSchedule(model, layout, TimingModel(p), {});
    }
    const Phase& find(PhaseKind kind, int layer) const
    {
        return *std::find_if(schedule.phases.begin(), schedule.phases.end(),
                             [&](const Phase& p) { return p.kind == kind && p.layer == layer; });
    }
};

int64_t count(const std::vector<CoreActivity>& a, CoreActivity v)
{
    return std::count(a.begin(), a.end(), v);
}
} // namespace

class TestActivity : public QObject
{
    Q_OBJECT
private slots:
    void localGemvLightsWholeRegion();
    void allreduceIsAWavefront();
    void hopOnlyForwards();
    void wrapsAroundTheToken();
    void severalRequestsLightSeveralRegions();
    void fractionChannel();
};

void TestActivity::localGemvLightsWholeRegion()
{
    Fixture f;
    const Phase& q = f.find(PhaseKind::QkvGemv, 1);
    std::vector<CoreActivity> a;
    fillActivity(f.schedule, 0, 200, 100, 0.5 * (q.startCycle + q.computeEndCycle), a);
    QCOMPARE(int64_t(a.size()), int64_t(200 * 100));
    QCOMPARE(count(a, CoreActivity::Compute), int64_t(100 * 50));
    QCOMPARE(a[size_t(10 * 200 + 150)], CoreActivity::Compute); // layer 1 is the top-right region
    QCOMPARE(a[size_t(10 * 200 + 50)], CoreActivity::Idle);
}

void TestActivity::allreduceIsAWavefront()
{
    Fixture f;
    const Phase& q = f.find(PhaseKind::QkvGemv, 1);
    std::vector<CoreActivity> a;
    // Early in phase 1, only a few cores per group are active, in whole rows (the lines run along y).
    const double t = q.computeEndCycle + q.reduce.fixedCycles + 1;
    fillActivity(f.schedule, 0, 200, 100, t, a);
    const int64_t active = count(a, CoreActivity::Compute);
    QVERIFY(active > 0);
    QVERIFY(active < 100 * 50);
    QCOMPARE(active % 100, int64_t(0));
    // In the broadcast, forwarding spreads from the root: more cores later than earlier.
    const double b0 = q.computeEndCycle + q.reduce.fixedCycles + q.reduce.phase1Cycles + q.reduce.phase2Cycles + 2;
    fillActivity(f.schedule, 0, 200, 100, b0, a);
    const int64_t early = count(a, CoreActivity::Forward);
    fillActivity(f.schedule, 0, 200, 100, b0 + 10, a);
    QVERIFY(count(a, CoreActivity::Forward) > early);
}

void TestActivity::hopOnlyForwards()
{
    Fixture f;
    const Phase& h = f.find(PhaseKind::LayerHop, 0);
    std::vector<CoreActivity> a;
    fillActivity(f.schedule, 0, 200, 100, 0.5 * (h.startCycle + h.endCycle), a);
    QCOMPARE(count(a, CoreActivity::Compute), int64_t(0));
    QVERIFY(count(a, CoreActivity::Forward) > 0);
}

void TestActivity::wrapsAroundTheToken()
{
    Fixture f;
    std::vector<CoreActivity> a;
    std::vector<CoreActivity> b;
    const double t = 0.3 * f.schedule.totalCycles;
    fillActivity(f.schedule, 0, 200, 100, t, a);
    fillActivity(f.schedule, 0, 200, 100, t + 2 * f.schedule.totalCycles, b);
    QVERIFY(a == b);
}

void TestActivity::severalRequestsLightSeveralRegions()
{
    Fixture f;
    const Phase& q = f.find(PhaseKind::QkvGemv, 0);
    std::vector<CoreActivity> one;
    std::vector<CoreActivity> four;
    const double t = 0.5 * (q.startCycle + q.computeEndCycle);
    fillActivity(f.schedule, 0, 200, 100, t, one, 1);
    fillActivity(f.schedule, 0, 200, 100, t, four, 4);
    QVERIFY(count(four, CoreActivity::Idle) < count(one, CoreActivity::Idle));
}

void TestActivity::fractionChannel()
{
    std::vector<CoreActivity> a{CoreActivity::Idle, CoreActivity::Compute, CoreActivity::Forward};
    std::vector<float> f;
    activityToFraction(a, f);
    QCOMPARE(f, (std::vector<float>{0.0f, 1.0f, 0.5f}));
}

QTEST_GUILESS_MAIN(TestActivity)
#include "tst_activity.moc"
