// The heatmap snapshot after a hand edit, patched from the one before (updateMeshSnapshot: only the edited
// regions' cores recomputed), equals the snapshot built afresh, for every kind of edit and device range; and the
// per-core overflow it carries equals each core's bytes over SRAM counted by the placement itself.
#include "engine/wafer/placement/layoutedit.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"

#include "tests/engine/wafer/tinyfixtures.h"

#include <QTest>

#include <functional>

namespace {
using wstest::tinyHardware;

using EditFn = std::function<ws::Expected<ws::Layout>(const ws::Layout&)>;

ws::Layout baseLayout(const ws::ModelConfig& m, const ws::HardwareSpec& h)
{
    ws::PlacementOptions o;
    o.contextTokens = 32;
    auto p = ws::placeModel(m, h.wafer, o);
    if (!p)
        qFatal("%s", p.error().message().c_str());
    return ws::layoutOf(*p, m.id, h.id);
}

// Bytes over SRAM of every core, from the placement's own per-core sum (Placement::coreBytes).
void verifyOverflow(const ws::MeshSnapshot& s, const ws::Placement& p, int first)
{
    for (int k = 0; k < s.deviceCount; ++k) {
        bool any = false;
        for (int y = 0; y < p.usableRows; ++y)
            for (int x = 0; x < p.usableCols; ++x) {
                const int64_t over = ws::coreOverflowBytes(p, first + k, x, y);
                any = any || over > 0;
                const size_t f = size_t(y + p.originY) * size_t(s.meshCols) + size_t(x + p.originX);
                const int64_t shown = s.overflowBytes[size_t(k)].empty() ? 0 : s.overflowBytes[size_t(k)][f];
                QCOMPARE(shown, over);
            }
        QCOMPARE(s.overflowBytes[size_t(k)].empty(), !any);
    }
}
} // namespace

Q_DECLARE_METATYPE(EditFn)

class TestMeshSnapshotUpdate : public QObject
{
    Q_OBJECT

private slots:
    void updateEqualsRebuild_data()
    {
        QTest::addColumn<bool>("moe");
        QTest::addColumn<EditFn>("edit");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("count");
        const EditFn swapAcross = [](const ws::Layout& l) { return ws::swapLayers(l, 0, 11); };
        const EditFn swapNear = [](const ws::Layout& l) { return ws::swapLayers(l, 1, 2); };
        const EditFn shrink = [](const ws::Layout& l) {
            return ws::resizeRegion(l, 3, ws::RegionEdge::Right, 1 - l.layers[3].rect.width);
        };
        const EditFn crush = [](const ws::Layout& l) { // one core: over its SRAM
            auto narrow = ws::resizeRegion(l, 3, ws::RegionEdge::Right, 1 - l.layers[3].rect.width);
            return narrow ? ws::resizeRegion(*narrow, 3, ws::RegionEdge::Bottom, 1 - l.layers[3].rect.height) : narrow;
        };
        const EditFn move = [](const ws::Layout& l) { // one column narrower, then moved back onto its old left edge
            auto narrow = ws::resizeRegion(l, 2, ws::RegionEdge::Left, 1);
            return narrow ? ws::moveRegion(*narrow, 2, l.layers[2].device, l.layers[2].rect.x, l.layers[2].rect.y)
                          : narrow;
        };
        const EditFn head = [](const ws::Layout& l) { return ws::moveTable(l, ws::LayoutTable::LmHead, {0, 7}); };
        const EditFn unchanged = [](const ws::Layout& l) { return ws::Expected<ws::Layout>(l); };
        for (bool moe : {false, true}) {
            const char* m = moe ? "moe" : "dense";
            QTest::addRow("%s: swap across wafers", m) << moe << swapAcross << 0 << -1;
            QTest::addRow("%s: swap neighbours", m) << moe << swapNear << 0 << -1;
            QTest::addRow("%s: swap neighbours, wafer 1 only", m) << moe << swapNear << 0 << 1;
            QTest::addRow("%s: swap neighbours, wafer 2 only", m) << moe << swapNear << 1 << 1;
            QTest::addRow("%s: shrink a region", m) << moe << shrink << 0 << -1;
            QTest::addRow("%s: crush a region to one core", m) << moe << crush << 0 << -1;
            QTest::addRow("%s: crush, wafer 1 only", m) << moe << crush << 0 << 1;
            QTest::addRow("%s: crush, wafer 2 onwards", m) << moe << crush << 1 << -1;
            QTest::addRow("%s: move a region", m) << moe << move << 0 << -1;
            QTest::addRow("%s: LM head elsewhere", m) << moe << head << 0 << -1;
            QTest::addRow("%s: no change", m) << moe << unchanged << 0 << -1;
        }
    }
    void updateEqualsRebuild()
    {
        QFETCH(bool, moe);
        QFETCH(EditFn, edit);
        QFETCH(int, first);
        QFETCH(int, count);
        const ws::ModelConfig m = wstest::tinyModel(moe);
        const ws::HardwareSpec h = tinyHardware();
        const ws::Layout base = baseLayout(m, h);
        QVERIFY(base.deviceCount >= 2); // edits across wafers and device ranges are exercised
        QVERIFY(base.layers[0].device != base.layers[11].device);
        auto before = ws::applyLayout(m, h, base);
        QVERIFY2(before, before ? "" : before.error().message().c_str());
        const ws::MeshSnapshot old = ws::buildMeshSnapshot(*before->placement, first, count);
        auto edited = edit(base);
        QVERIFY2(edited, edited ? "" : edited.error().message().c_str());
        auto after = ws::applyLayout(m, h, *edited);
        QVERIFY2(after, after ? "" : after.error().message().c_str());
        const ws::MeshSnapshot rebuilt = ws::buildMeshSnapshot(*after->placement, first, count);
        const ws::MeshSnapshot patched =
            ws::updateMeshSnapshot(old, *before->placement, *after->placement, first, count);
        QCOMPARE(patched.deviceCount, rebuilt.deviceCount);
        QCOMPARE(patched.owners, rebuilt.owners);
        QCOMPARE(patched.regions, rebuilt.regions);
        QVERIFY(patched.sramFraction == rebuilt.sramFraction);
        QVERIFY(patched.kvFraction == rebuilt.kvFraction);
        QVERIFY(patched.owner == rebuilt.owner);
        QVERIFY(patched.coreState == rebuilt.coreState);
        QVERIFY(patched.overflowBytes == rebuilt.overflowBytes);
        QVERIFY(patched == rebuilt);
        // Into the buffers of a snapshot no longer shown (another edit's, another device range): the same.
        ws::MeshSnapshot into = ws::buildMeshSnapshot(*before->placement, 1, 1);
        ws::updateMeshSnapshotInto(into, old, *before->placement, *after->placement, first, count);
        QVERIFY(into == rebuilt);
        verifyOverflow(patched, *after->placement, std::max(0, first));
        // Over all wafers the edit changed what the heatmap shows (except "no change"): the patch did some work.
        if (first == 0 && count < 0)
            QCOMPARE(rebuilt == old, *edited == base);
    }

    void otherLayersFallBackToARebuild()
    {
        const ws::HardwareSpec h = tinyHardware();
        auto dense = ws::applyLayout(wstest::tinyModel(false), h, baseLayout(wstest::tinyModel(false), h));
        ws::ModelConfig shorter = wstest::tinyModel(false);
        shorter.layers = 10;
        auto fewer = ws::applyLayout(shorter, h, baseLayout(shorter, h));
        QVERIFY(dense && fewer);
        const ws::MeshSnapshot old = ws::buildMeshSnapshot(*dense->placement);
        QVERIFY(ws::updateMeshSnapshot(old, *dense->placement, *fewer->placement) ==
                ws::buildMeshSnapshot(*fewer->placement));
        // A previous snapshot of another device range is not patched either.
        const ws::MeshSnapshot one = ws::buildMeshSnapshot(*dense->placement, 0, 1);
        QVERIFY(ws::updateMeshSnapshot(one, *dense->placement, *dense->placement) ==
                ws::buildMeshSnapshot(*dense->placement));
    }
};

QTEST_GUILESS_MAIN(TestMeshSnapshotUpdate)
#include "tst_meshsnapshotupdate.moc"
