#include "engine/session/meshanimator.h"

#include <QTest>

#include <set>

namespace {

// A 6 x 4 mesh, one device, and a token of two local phases: cores
// (0..1, 0..1) compute during cycles [0, 50), cores (3..5, 2..3) during [50, 100).
std::shared_ptr<const ws::MeshSnapshot> baseSnapshot()
{
    auto s = std::make_shared<ws::MeshSnapshot>();
    s->meshCols = 6;
    s->meshRows = 4;
    s->deviceCount = 1;
    s->sramFraction = {std::vector<float>(24, 0.25f)};
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

int activeCores(const ws::MeshSnapshot& s)
{
    int n = 0;
    for (float v : s.activity.at(0))
        n += v > 0 ? 1 : 0;
    return n;
}

} // namespace

class TestMeshAnimator : public QObject
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
        ws::MeshAnimator animator(base, twoPhaseSchedule());
        const auto frame = animator.frame(token);
        QVERIFY(frame);
        QVERIFY(frame != base);
        QCOMPARE(frame->activity.size(), size_t(1));
        QCOMPARE(frame->activity[0].size(), size_t(24));
        QCOMPARE(activeCores(*frame), expectedActive);
        QCOMPARE(frame->sramFraction, base->sramFraction); // the rest of the snapshot is the placement's
        QVERIFY(base->activity.empty());                   // the shared base is never written
    }

    void sweepsThroughTheToken()
    {
        ws::MeshAnimator animator(baseSnapshot(), twoPhaseSchedule());
        std::set<int> tenths;
        for (int i = 0; i < 30; ++i) {
            const double c = animator.sampleCycle(i);
            QVERIFY(c >= 0 && c < 100);
            tenths.insert(int(c / 10));
        }
        QCOMPARE(tenths.size(), size_t(10)); // every tenth of the token is shown within 30 tokens
    }

    void withoutScheduleShowsTheBase()
    {
        const auto base = baseSnapshot();
        ws::MeshAnimator animator(base, nullptr);
        QCOMPARE(animator.frame(3), base);
        ws::MeshAnimator empty(nullptr, twoPhaseSchedule());
        QVERIFY(!empty.frame(0));
    }
};

QTEST_GUILESS_MAIN(TestMeshAnimator)
#include "tst_meshanimator.moc"
