#include "engine/wafer/redundancy/defecteditor.h"

#include <QTest>

using ws::DefectEditor;
using ws::SpareLayout;

class TestDefectEditor : public QObject
{
    Q_OBJECT
private:
    static SpareLayout layout() { return *SpareLayout::rowShift(40, 20, 10, 1, 0.05, 2, 2); }

private slots:
    void editsRemapAtOnce()
    {
        DefectEditor editor(layout());
        QCOMPARE(editor.remap().summary().deadCores, int64_t(0));
        QVERIFY(editor.setCores({{0, 3}}, true).hasValue());
        QCOMPARE(editor.remap().summary().deadCores, int64_t(1));
        QCOMPARE(editor.remap().summary().sparesUsed, int64_t(1));
        QVERIFY(editor.setCores({{1, 3}}, true).hasValue()); // second dead core in that segment
        QCOMPARE(editor.remap().summary().unrepairableSegments, int64_t(1));
        QCOMPARE(editor.remap().usableLogicalMesh(), (ws::MeshSize{40, 19}));
    }

    void undoRedoRestoresExactMaps()
    {
        DefectEditor editor(layout());
        const ws::DefectMap empty = editor.defects();
        QVERIFY(editor.injectRandom(0.05, 11).hasValue());
        const ws::DefectMap afterRandom = editor.defects();
        QVERIFY(editor.killDie(1, 0).hasValue());
        const ws::DefectMap afterDie = editor.defects();
        const ws::DefectSummary dieSummary = editor.remap().summary();
        const ws::PhysicalRect die = editor.layout().dieRect(1, 0);
        QVERIFY(editor.setCores({{die.x, die.y}, {die.x + 1, die.y + 1}}, false).hasValue()); // revive two
        QCOMPARE(editor.defects().deadCount(), afterDie.deadCount() - 2);
        QCOMPARE(editor.undoKind(), ws::DefectEdit::SetCores);
        QVERIFY(editor.clear().hasValue());
        QCOMPARE(editor.defects().deadCount(), int64_t(0));

        QVERIFY(editor.undo()); // clear
        QVERIFY(editor.undo()); // setCores
        QVERIFY(editor.defects() == afterDie);
        QCOMPARE(editor.remap().summary().unrepairableSegments, dieSummary.unrepairableSegments);
        QCOMPARE(editor.undoKind(), ws::DefectEdit::Die);
        QVERIFY(editor.undo());
        QVERIFY(editor.defects() == afterRandom);
        QVERIFY(editor.undo());
        QVERIFY(editor.defects() == empty);
        QVERIFY(!editor.canUndo());
        QVERIFY(!editor.undo());

        QVERIFY(editor.redo());
        QVERIFY(editor.defects() == afterRandom);
        QVERIFY(editor.redo());
        QVERIFY(editor.defects() == afterDie);
        // A new edit drops the redo history.
        QVERIFY(editor.canRedo());
        QVERIFY(editor.injectPoisson(0.5, 3).hasValue());
        QVERIFY(!editor.canRedo());
    }

    void brushIsOneStep()
    {
        DefectEditor editor(layout());
        QVERIFY(editor.setRect({-2, -2, 5, 4}, true).hasValue()); // clipped to 3 x 2
        QCOMPARE(editor.defects().deadCount(), int64_t(6));
        QVERIFY(editor.undo());
        QCOMPARE(editor.defects().deadCount(), int64_t(0));
        QVERIFY(!editor.canUndo());
    }

    void noOpEditsAreNotRecorded()
    {
        DefectEditor editor(layout());
        QVERIFY(editor.setCores({{5, 5}}, false).hasValue()); // already healthy
        QVERIFY(!editor.canUndo());
        QVERIFY(editor.clear().hasValue());
        QVERIFY(!editor.canUndo());
    }

    void badInputChangesNothing()
    {
        DefectEditor editor(layout());
        QVERIFY(editor.setCores({{1, 1}}, true).hasValue());
        const ws::DefectMap before = editor.defects();
        QVERIFY(!editor.setCores({{2, 2}, {-1, 0}}, true).hasValue());
        QVERIFY(!editor.injectRandom(2.0, 1).hasValue());
        QVERIFY(!editor.injectClustered(0.01, -1, ws::ClusterScope::Die, 1).hasValue());
        QVERIFY(!editor.killDie(9, 9).hasValue());
        QVERIFY(editor.defects() == before);
        QVERIFY(editor.undo());
        QVERIFY(!editor.canUndo());
    }

    void sameSeedSameEdit()
    {
        DefectEditor a(layout());
        DefectEditor b(layout());
        QVERIFY(a.injectClustered(0.3, 1.0, ws::ClusterScope::Die, 5).hasValue());
        QVERIFY(b.injectClustered(0.3, 1.0, ws::ClusterScope::Die, 5).hasValue());
        QVERIFY(a.defects() == b.defects());
    }
};

QTEST_GUILESS_MAIN(TestDefectEditor)
#include "tst_defecteditor.moc"
