#include "engine/wafer/redundancy/remap.h"

#include <QTest>

#include <set>

using ws::CoreState;
using ws::DefectMap;
using ws::Remap;
using ws::SpareLayout;

Q_DECLARE_METATYPE(ws::SpareScheme)

namespace {

ws::WaferSpec smallSpec()
{
    ws::WaferSpec w;
    w.meshCols = 64;
    w.meshRows = 40;
    w.reservedCols = 7; // 4 left, 3 right
    w.reservedRows = 2; // 1 top, 1 bottom
    w.diesX = 4;
    w.diesY = 2;
    w.segmentPrimaryCores = 16;
    w.segmentSpareCores = 1;
    w.coreAreaMm2 = 0.05;
    return w;
}

SpareLayout layoutFor(ws::SpareScheme scheme)
{
    const ws::WaferSpec spec = smallSpec();
    auto l = scheme == ws::SpareScheme::RowShift ? SpareLayout::fromSpec(spec)
                                                 : SpareLayout::dieRowColumnFromSpec(spec, ws::DieSpares{1, 1});
    return *l;
}

// A tiny fabric with no reserved border and no die structure: hand-checkable.
SpareLayout tiny(int cols, int rows, int n, int s)
{
    return *SpareLayout::rowShift(cols, rows, n, s, 0.05);
}

} // namespace

class TestRemap : public QObject
{
    Q_OBJECT
private slots:
    void oneToOneOntoHealthyCores_data()
    {
        QTest::addColumn<ws::SpareScheme>("scheme");
        QTest::addColumn<double>("rate");
        for (double rate : {0.0, 0.002, 0.01, 0.05, 0.2, 0.5}) {
            QTest::addRow("row shift, %g dead", rate) << ws::SpareScheme::RowShift << rate;
            QTest::addRow("die rows+cols, %g dead", rate) << ws::SpareScheme::DieRowColumn << rate;
        }
    }
    void oneToOneOntoHealthyCores()
    {
        QFETCH(ws::SpareScheme, scheme);
        QFETCH(double, rate);
        const SpareLayout layout = layoutFor(scheme);
        for (uint64_t seed : {1u, 2u, 3u}) {
            const DefectMap defects = *DefectMap::random(layout, rate, seed);
            const auto remap = Remap::run(layout, defects);
            QVERIFY(remap.hasValue());
            std::set<int32_t> hosts;
            for (int y = 0; y < remap->fabricRows(); ++y) {
                for (int x = 0; x < remap->fabricCols(); ++x) {
                    const int32_t p = remap->physicalOfFabric(x, y);
                    QVERIFY(p >= 0 && p < layout.physicalCoreCount());
                    QVERIFY2(!defects.isDead(p), "a logical core sits on a dead core");
                    QVERIFY2(hosts.insert(p).second, "two logical cores share a physical core");
                    QVERIFY(remap->state(p) != CoreState::Dead && remap->state(p) != CoreState::SpareIdle);
                    // Displacement recorded per core leads back to the nominal position.
                    const int px = p % layout.physicalCols() - remap->displacementX(p);
                    QCOMPARE(px, layout.nominalPhysicalX(x));
                }
            }
            QCOMPARE(int64_t(hosts.size()), int64_t(remap->fabricCols()) * remap->fabricRows());
            // Every core the map does not use is dead or idle.
            int64_t idle = 0;
            int64_t dead = 0;
            for (int64_t p = 0; p < layout.physicalCoreCount(); ++p) {
                idle += remap->state(int32_t(p)) == CoreState::SpareIdle ? 1 : 0;
                dead += remap->state(int32_t(p)) == CoreState::Dead ? 1 : 0;
            }
            QCOMPARE(dead, defects.deadCount());
            QCOMPARE(idle + dead + int64_t(hosts.size()), layout.physicalCoreCount());
            // The four reported numbers are consistent whatever the rate.
            const ws::DefectSummary& s = remap->summary();
            QCOMPARE(s.deadCores, int64_t(std::llround(rate * double(layout.physicalCoreCount()))));
            QCOMPARE(s.usableCores, remap->usableLogicalMesh().cores());
            QCOMPARE(s.capacityLostCores, s.nominalUsableCores - s.usableCores);
            QVERIFY(s.capacityLostCores >= 0);
            QCOMPARE(s.droppedRows, layout.fabricRows() - remap->fabricRows());
            if (rate >= 0.2)
                QVERIFY2(s.capacityLostCores > 0, "heavy damage must cost capacity");
        }
    }

    void noDefectsGivesThePresetMesh_data()
    {
        QTest::addColumn<ws::SpareScheme>("scheme");
        QTest::newRow("row shift") << ws::SpareScheme::RowShift;
        QTest::newRow("die rows+cols") << ws::SpareScheme::DieRowColumn;
    }
    void noDefectsGivesThePresetMesh()
    {
        QFETCH(ws::SpareScheme, scheme);
        const ws::WaferSpec spec = smallSpec();
        const SpareLayout layout = layoutFor(scheme);
        const auto remap = Remap::run(layout, DefectMap::forLayout(layout));
        QVERIFY(remap.hasValue());
        const ws::MeshSize usable{spec.meshCols - spec.reservedCols, spec.meshRows - spec.reservedRows};
        QCOMPARE(remap->usableLogicalMesh(), usable);
        QCOMPARE(remap->fabricCols(), spec.meshCols);
        QCOMPARE(remap->fabricRows(), spec.meshRows);
        const ws::DefectSummary& s = remap->summary();
        QCOMPARE(s.deadCores, int64_t(0));
        QCOMPARE(s.sparesUsed, int64_t(0));
        QCOMPARE(s.unrepairableSegments, int64_t(0));
        QCOMPARE(s.shiftedCores, int64_t(0));
        QCOMPARE(s.usableCores, usable.cores());
        QCOMPARE(s.capacityLostCores, int64_t(0));
        const ws::HopStretch h = remap->hopStretch({0, 0, usable.cols, usable.rows}, ws::MeshAxis::X);
        QCOMPARE(h.maxStretch, 1.0);
        QCOMPARE(h.extraHops, int64_t(0));
        QCOMPARE(remap->hopStretch({0, 0, usable.cols, usable.rows}, ws::MeshAxis::Y).maxStretch, 1.0);
        // The border is reserved, the inside healthy.
        QCOMPARE(remap->state(remap->physicalOfFabric(0, 5)), CoreState::Reserved);
        QCOMPARE(remap->state(remap->physicalOfFabric(10, 0)), CoreState::Reserved);
        QCOMPARE(remap->state(remap->physicalOfUsable(0, 0)), CoreState::Healthy);
    }

    void deadCoreShiftsItsRowIntoTheSpare()
    {
        // 2 segments of 4 + 1 per row: physical columns 0..4 | 5..9.
        const SpareLayout layout = tiny(8, 3, 4, 1);
        QCOMPARE(layout.physicalCols(), 10);
        DefectMap defects = DefectMap::forLayout(layout);
        defects.setDead(1, 1, true); // second core of row 1, segment 0
        const auto remap = Remap::run(layout, defects);
        QVERIFY(remap.hasValue());
        const int32_t row = 1 * 10;
        QCOMPARE(remap->physicalOfFabric(0, 1), row + 0);
        QCOMPARE(remap->physicalOfFabric(1, 1), row + 2); // skips the dead core
        QCOMPARE(remap->physicalOfFabric(3, 1), row + 4); // the spare
        QCOMPARE(remap->physicalOfFabric(4, 1), row + 5); // next segment unaffected
        QCOMPARE(remap->state(row + 1), CoreState::Dead);
        QCOMPARE(remap->state(row + 2), CoreState::Shifted);
        QCOMPARE(remap->state(row + 4), CoreState::SpareUsed);
        QCOMPARE(remap->state(row + 9), CoreState::SpareIdle);
        QCOMPARE(remap->displacementX(row + 3), 1);
        const ws::DefectSummary& s = remap->summary();
        QCOMPARE(s.deadCores, int64_t(1));
        QCOMPARE(s.sparesUsed, int64_t(1));
        QCOMPARE(s.shiftedCores, int64_t(3));
        QCOMPARE(s.unrepairableSegments, int64_t(0));
        QCOMPARE(s.usableCores, int64_t(8 * 3));

        // Option B cost: the row-1 link over the dead core costs 1 + 1 skipped; vertical links
        // from row 0 to row 1 in logical columns 1..3 are diagonal (delta 1) and cost 2.
        QCOMPARE(remap->linkHops(0, 1, ws::MeshAxis::X), 2);
        QCOMPARE(remap->linkHops(3, 1, ws::MeshAxis::X), 1); // the spare's idle neighbour is bypassed free
        QCOMPARE(remap->linkHops(1, 0, ws::MeshAxis::Y), 2);
        QCOMPARE(remap->linkHops(0, 0, ws::MeshAxis::Y), 1);
        QCOMPARE(remap->linkHops(7, 0, ws::MeshAxis::X), 0); // no link past the edge
        QCOMPARE(remap->linkHops(0, 2, ws::MeshAxis::Y), 0);
        QCOMPARE(remap->linkHops(-1, 0, ws::MeshAxis::X), 0);
        const ws::HopStretch rows = remap->hopStretch({0, 0, 8, 3}, ws::MeshAxis::X);
        QCOMPARE(rows.worstLine, 1);
        QCOMPARE(rows.maxStretch, 8.0 / 7.0);
        QCOMPARE(rows.extraHops, int64_t(1));
        const ws::HopStretch cols = remap->hopStretch({0, 0, 8, 3}, ws::MeshAxis::Y);
        QCOMPARE(cols.maxStretch, (2.0 + 2.0) / 2.0); // columns 1..3: both links diagonal
        QCOMPARE(cols.extraHops, int64_t(6));
        // A region that avoids the shifted cores pays nothing.
        QCOMPARE(remap->hopStretch({4, 0, 4, 3}, ws::MeshAxis::Y).maxStretch, 1.0);
    }

    void tooManyDeadMakesTheSegmentUnrepairable_data()
    {
        QTest::addColumn<int>("spares");
        QTest::addColumn<int>("dead");
        QTest::addColumn<bool>("repairable");
        QTest::newRow("1 spare, 1 dead") << 1 << 1 << true;
        QTest::newRow("1 spare, 2 dead") << 1 << 2 << false;
        QTest::newRow("2 spares, 2 dead") << 2 << 2 << true;
        QTest::newRow("2 spares, 3 dead") << 2 << 3 << false;
        QTest::newRow("no spares, 1 dead") << 0 << 1 << false;
        QTest::newRow("1 spare, dead primary and dead spare") << 1 << 2 << false;
    }
    void tooManyDeadMakesTheSegmentUnrepairable()
    {
        QFETCH(int, spares);
        QFETCH(int, dead);
        QFETCH(bool, repairable);
        const SpareLayout layout = tiny(12, 5, 6, spares);
        DefectMap defects = DefectMap::forLayout(layout);
        // Dead cores at the right end of segment 1 of row 2 (including its spares), so shifts stay small.
        const int segmentEnd = 2 * (6 + spares);
        for (int i = 0; i < dead; ++i)
            defects.setDead(segmentEnd - 1 - i, 2, true);
        const auto remap = Remap::run(layout, defects);
        QVERIFY(remap.hasValue());
        const ws::DefectSummary& s = remap->summary();
        QCOMPARE(s.unrepairableSegments, int64_t(repairable ? 0 : 1));
        QCOMPARE(s.droppedRows, repairable ? 0 : 1);
        QCOMPARE(remap->usableLogicalMesh(), (ws::MeshSize{12, repairable ? 5 : 4}));
        QCOMPARE(s.capacityLostCores, int64_t(repairable ? 0 : 12));
        if (!repairable) {
            QCOMPARE(int(remap->unrepairableRects().size()), 1);
            QCOMPARE(remap->unrepairableRects()[0].x, 6 + spares);
            QCOMPARE(remap->unrepairableRects()[0].y, 2);
            QCOMPARE(remap->droppedFabricRows(), std::vector<int>{2});
            // Logical row 2 is now physical row 3.
            QCOMPARE(remap->physicalOfFabric(0, 2), 3 * layout.physicalCols());
            // Vertical links over the dropped row pass one core: 2 hops.
            QCOMPARE(remap->linkHops(0, 1, ws::MeshAxis::Y), 2);
        }
    }

    void neighboursFollowAShiftOfTwo()
    {
        // 2 spares per segment: two dead cores at the start of row 1 shift it by 2; rows 0 and 2
        // step over a healthy core (spend one spare) so every vertical link stays diagonal.
        const SpareLayout layout = tiny(6, 3, 6, 2);
        DefectMap defects = DefectMap::forLayout(layout);
        defects.setDead(0, 1, true);
        defects.setDead(1, 1, true);
        const auto remap = Remap::run(layout, defects);
        QVERIFY(remap.hasValue());
        QCOMPARE(remap->summary().displacementConflicts, 0);
        QCOMPARE(remap->usableLogicalMesh(), (ws::MeshSize{6, 3}));
        QCOMPARE(remap->physicalOfFabric(0, 1), 8 + 2);
        QCOMPARE(remap->physicalOfFabric(0, 0), 1);
        QCOMPARE(remap->physicalOfFabric(0, 2), 16 + 1);
        QCOMPARE(remap->state(0), CoreState::SpareIdle); // stepped over
        QCOMPARE(remap->linkHops(3, 0, ws::MeshAxis::Y), 2);
        for (int x = 0; x < 6; ++x)
            for (int y = 0; y < 2; ++y)
                QVERIFY(std::abs(remap->displacementX(remap->physicalOfFabric(x, y)) -
                                 remap->displacementX(remap->physicalOfFabric(x, y + 1))) <= 1);
    }

    void verticalDisplacementAboveOneDropsTheRow()
    {
        // As above, but row 0's spares are dead: it cannot follow, so it leaves the logical mesh.
        const SpareLayout layout = tiny(6, 3, 6, 2);
        DefectMap defects = DefectMap::forLayout(layout);
        defects.setDead(0, 1, true);
        defects.setDead(1, 1, true);
        defects.setDead(6, 0, true);
        defects.setDead(7, 0, true);
        const auto remap = Remap::run(layout, defects);
        QVERIFY(remap.hasValue());
        QCOMPARE(remap->summary().unrepairableSegments, int64_t(0));
        QCOMPARE(remap->summary().displacementConflicts, 1);
        QCOMPARE(remap->droppedFabricRows(), std::vector<int>{0});
        QCOMPARE(remap->usableLogicalMesh(), (ws::MeshSize{6, 2}));
        QCOMPARE(remap->summary().capacityLostCores, int64_t(6));
    }

    void dieSchemeRetiresLines()
    {
        // One die of 6x4 logical cores with 1 spare row and 1 spare column.
        const SpareLayout layout = *SpareLayout::dieRowColumn(6, 4, 1, 1, ws::DieSpares{1, 1}, 0.05);
        QCOMPARE(layout.physicalCols(), 7);
        QCOMPARE(layout.physicalRows(), 5);
        DefectMap defects = DefectMap::forLayout(layout);
        defects.setDead(2, 1, true);
        defects.setDead(2, 3, true); // column 2 twice: retire column 2
        defects.setDead(5, 0, true); // then row 0
        auto remap = Remap::run(layout, defects);
        QCOMPARE(remap->summary().unrepairableSegments, int64_t(0));
        QCOMPARE(remap->physicalOfFabric(0, 0), 1 * 7 + 0); // row 0 retired
        QCOMPARE(remap->physicalOfFabric(2, 0), 1 * 7 + 3); // column 2 retired
        QCOMPARE(remap->summary().capacityLostCores, int64_t(0));
        // A third line of defects cannot be covered: the die (and its band) is lost.
        defects.setDead(4, 4, true);
        defects.setDead(6, 2, true);
        remap = Remap::run(layout, defects);
        QCOMPARE(remap->summary().unrepairableSegments, int64_t(1));
        QCOMPARE(remap->usableLogicalMesh(), ws::MeshSize{});
        QCOMPARE(remap->summary().usableCores, int64_t(0));
        QCOMPARE(remap->summary().capacityLostCores, int64_t(24));
    }

    void mismatchedMapIsAnError()
    {
        const SpareLayout layout = tiny(8, 3, 4, 1);
        const auto remap = Remap::run(layout, DefectMap(3, 3));
        QVERIFY(!remap.hasValue());
        QCOMPARE(remap.error().code, ws::ErrorCode::InvalidArgument);
    }

    void spareFractionChoosesTheSegments_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("spares");
        QTest::addColumn<int>("primary");
        QTest::newRow("1 % with 1 spare") << 0.0099 << 1 << 100;
        QTest::newRow("2 % with 2 spares") << 0.0196 << 2 << 100;
        QTest::newRow("none") << 0.0 << 1 << 762;
        QTest::newRow("more than a row") << 0.001 << 1 << 762; // clamped to one segment per row
    }
    void spareFractionChoosesTheSegments()
    {
        QFETCH(double, fraction);
        QFETCH(int, spares);
        QFETCH(int, primary);
        ws::WaferSpec spec = smallSpec();
        spec.meshCols = 762;
        const auto l = SpareLayout::rowShiftForSpareFraction(spec, fraction, spares);
        QVERIFY(l.hasValue());
        QCOMPARE(l->segmentPrimaryCores(), primary);
        QCOMPARE(l->segmentSpareCores(), fraction == 0 ? 0 : spares);
        QVERIFY(!SpareLayout::rowShiftForSpareFraction(smallSpec(), 0.6).hasValue());
        QVERIFY(!SpareLayout::rowShiftForSpareFraction(smallSpec(), -0.1).hasValue());
    }

    void badLayoutsAreRejected()
    {
        QVERIFY(!SpareLayout::rowShift(0, 10, 4, 1, 0.05).hasValue());
        QVERIFY(!SpareLayout::rowShift(10, 10, 0, 1, 0.05).hasValue());
        QVERIFY(!SpareLayout::rowShift(10, 10, 4, -1, 0.05).hasValue());
        QVERIFY(!SpareLayout::rowShift(10, 10, 4, 1, -1.0).hasValue());
        ws::WaferSpec spec = smallSpec();
        spec.reservedCols = spec.meshCols;
        QVERIFY(!SpareLayout::fromSpec(spec).hasValue());
        spec = smallSpec();
        spec.segmentPrimaryCores = 0; // no segments: one per row, no spares
        const auto noSpares = SpareLayout::fromSpec(spec);
        QVERIFY(noSpares.hasValue());
        QCOMPARE(noSpares->physicalCols(), spec.meshCols);
    }
};

QTEST_GUILESS_MAIN(TestRemap)
#include "tst_remap.moc"
