#include "engine/wafer/redundancy/defectlayer.h"

#include <QTest>

using ws::CoreState;

class TestDefectLayer : public QObject
{
    Q_OBJECT
private slots:
    void nominalCellsShowWhatHappened_data()
    {
        QTest::addColumn<bool>("usableGrid");
        QTest::newRow("fabric grid") << false;
        QTest::newRow("usable grid") << true;
    }
    void nominalCellsShowWhatHappened()
    {
        QFETCH(bool, usableGrid);
        ws::WaferSpec spec;
        spec.meshCols = 12;
        spec.meshRows = 6;
        spec.reservedCols = 2; // 1 left, 1 right
        spec.reservedRows = 2; // 1 top, 1 bottom
        spec.segmentPrimaryCores = 6;
        spec.segmentSpareCores = 1;
        spec.coreAreaMm2 = 0.05;
        const ws::SpareLayout layout = *ws::SpareLayout::fromSpec(spec);
        ws::DefectMap defects = ws::DefectMap::forLayout(layout);
        defects.setDead(3, 2, true); // fabric (3, 2): cores 4, 5 of that segment shift
        defects.setDead(8, 4, true); // physical 8 = fabric 7 in segment 1 (starts at physical 7)
        defects.setDead(9, 4, true); // second dead core there: row 4 is dropped
        const auto remap = ws::Remap::run(layout, defects);
        ws::MeshSnapshot snap;
        snap.meshCols = usableGrid ? 10 : 12;
        snap.meshRows = usableGrid ? 4 : 6;
        QVERIFY(ws::fillDefectLayer(snap, 1, *remap).hasValue());
        QCOMPARE(int(snap.coreState.size()), 2);
        QCOMPARE(int(snap.coreState[1].size()), snap.meshCols * snap.meshRows);
        const int ox = usableGrid ? 1 : 0;
        const int oy = usableGrid ? 1 : 0;
        auto at = [&](int fx, int fy) { return snap.coreState[1][size_t((fy - oy) * snap.meshCols + fx - ox)]; };
        QCOMPARE(at(3, 2), CoreState::Dead);
        QCOMPARE(at(2, 2), CoreState::Healthy);
        QCOMPARE(at(4, 2), CoreState::Shifted);
        QCOMPARE(at(5, 2), CoreState::Shifted);
        QCOMPARE(at(6, 2), CoreState::Healthy);
        QCOMPARE(at(7, 4), CoreState::Dead);
        QCOMPARE(at(2, 4), CoreState::SpareIdle); // healthy, but its row left the logical mesh
        if (!usableGrid) {
            QCOMPARE(at(0, 2), CoreState::Reserved);
            QCOMPARE(at(5, 0), CoreState::Reserved);
        }
    }

    // The same fabric as above: segment 0 holds physical cores 0-6 (fabric 0-5 and a spare), segment 1
    // starts at physical 7 (fabric 6 -> physical 7, fabric 7 -> physical 8).
    void cellsMapToTheirNominalCores()
    {
        ws::WaferSpec spec;
        spec.meshCols = 12;
        spec.meshRows = 6;
        spec.reservedCols = 2;
        spec.reservedRows = 2;
        spec.segmentPrimaryCores = 6;
        spec.segmentSpareCores = 1;
        spec.coreAreaMm2 = 0.05;
        const ws::SpareLayout layout = *ws::SpareLayout::fromSpec(spec);
        const auto fabric = ws::CellToCore::of(12, 6, layout);
        QVERIFY(fabric.hasValue());
        QCOMPARE(fabric->physicalX(0), 0);
        QCOMPARE(fabric->physicalX(6), 7);
        QCOMPARE(fabric->physicalX(7), 8);
        QCOMPARE(fabric->physicalY(3), 3);
        const auto usable = ws::CellToCore::of(10, 4, layout); // inside the 1-core reserved border
        QVERIFY(usable.hasValue());
        QCOMPARE(usable->physicalX(0), 1);
        QCOMPARE(usable->physicalX(5), 7);
        QCOMPARE(usable->physicalY(0), 1);
        QCOMPARE(usable->physicalIndex(5, 1), 2 * layout.physicalCols() + 7);
        QVERIFY(!ws::CellToCore::of(11, 6, layout).hasValue());
    }

    void wrongGridIsAnError()
    {
        const ws::SpareLayout layout = *ws::SpareLayout::rowShift(12, 6, 6, 1, 0.05);
        const auto remap = ws::Remap::run(layout, ws::DefectMap::forLayout(layout));
        ws::MeshSnapshot snap;
        snap.meshCols = 5;
        snap.meshRows = 5;
        QVERIFY(!ws::fillDefectLayer(snap, 0, *remap).hasValue());
        QVERIFY(snap.coreState.empty());
    }
};

QTEST_GUILESS_MAIN(TestDefectLayer)
#include "tst_defectlayer.moc"
