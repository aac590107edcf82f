// The Layout dock and hand edits through LayoutEditController: every accepted edit keeps each weight element on
// exactly one core and shows a snapshot equal to one built afresh; a refused edit changes nothing and pushes
// nothing; undo places the exact previous layout (byte-identical JSON export) and redo the edited one; a dock
// change re-places off the GUI thread and is undone the same way. The dock times the layout shown with the mesh
// engine on request.
#include "app/common/presetlibrary.h"
#include "app/explore/layoutdock.h"
#include "app/explore/layouteditcontroller.h"
#include "app/stage/stage.h"
#include "engine/wafer/mesh/meshshapes.h"
#include "engine/wafer/placement/layoutjson.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "views/mesh/mesheditor.h"
#include "views/mesh/meshview.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QMainWindow>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include <functional>

using namespace ws;

namespace {
using Edit = std::function<bool(LayoutEditController&, const Layout&)>;
// A placement job takes well under a second here, 6 to 10 s under ThreadSanitizer (the tsan preset).
constexpr int kJobMs = 60000;
} // namespace

Q_DECLARE_METATYPE(Edit)

class TestLayoutEdit : public QObject
{
    Q_OBJECT

    std::shared_ptr<const PlacementResult> m_placed;

    // A window with a heatmap and the controller, on the placement of llama-3.1-8b on WSE-3.
    struct Rig
    {
        QMainWindow window;
        Stage stage{&window, &window};
        const views::MeshView* view = stage.view();
        LayoutEditController edits{&stage, &window};
    };

    static std::string json(const LayoutEditController& c) { return layoutToJson(c.state()->choice.layout); }

private slots:
    void initTestCase()
    {
        const PresetLibrary presets{QString()};
        auto hw = presets.hardware(QStringLiteral("wse3"));
        auto model = presets.model(QStringLiteral("llama-3.1-8b"));
        QVERIFY(hw && model);
        ScenarioSpec spec;
        spec.hardware = *hw;
        spec.model = *model;
        spec.workload.contextTokens = 8192;
        auto placed = computePlacement(spec);
        QVERIFY2(placed, placed ? "" : placed.error().message().c_str());
        m_placed = std::make_shared<const PlacementResult>(std::move(*placed));
    }

    void edits_data()
    {
        QTest::addColumn<Edit>("edit");
        QTest::addColumn<QString>("refusal"); // empty: accepted
        QTest::addColumn<bool>("overCapacity");
        QTest::newRow("swap layers 3 and 20")
            << Edit([](auto& c, auto&) { return c.swapLayers(3, 20); }) << "" << false;
        QTest::newRow("shrink layer 5 from the right")
            << Edit([](auto& c, auto&) { return c.resizeLayer(5, views::MeshEditor::Right, -2); }) << "" << false;
        QTest::newRow("crush layer 5 to one column") << Edit([](auto& c, const Layout& l) {
            return c.resizeLayer(5, views::MeshEditor::Right, 1 - l.layers[5].rect.width);
        }) << "" << true;
        QTest::newRow("LM head onto layer 7 alone")
            << Edit([](auto& c, auto&) { return c.moveTable(views::MeshEditor::LmHead, 7); }) << "" << true;
        QTest::newRow("grow layer 0 into layer 1")
            << Edit([](auto& c, auto&) { return c.resizeLayer(0, views::MeshEditor::Right, 3); })
            << "overlap on wafer 1" << false; // the wafers as the window numbers them
        QTest::newRow("move layer 0 off the mesh")
            << Edit([](auto& c, auto&) { return c.moveLayer(0, -5000, 0); }) << "leaves the" << false;
        QTest::newRow("swap a layer with itself")
            << Edit([](auto& c, auto&) { return c.swapLayers(4, 4); }) << "itself" << false;
    }
    void edits()
    {
        QFETCH(Edit, edit);
        QFETCH(QString, refusal);
        QFETCH(bool, overCapacity);
        Rig rig;
        LayoutEditController& c = rig.edits;
        c.adopt(m_placed);
        QTRY_VERIFY_WITH_TIMEOUT(c.state(), kJobMs);
        QVERIFY(c.state()->overCapacity.empty());
        const std::string before = json(c);
        QSignalSpy refused(&c, &LayoutEditController::refused);
        const bool accepted = edit(c, c.state()->choice.layout);
        if (!refusal.isEmpty()) {
            QVERIFY(!accepted);
            QCOMPARE(refused.count(), 1);
            QVERIFY2(refused.at(0).at(0).toString().contains(refusal), qPrintable(refused.at(0).at(0).toString()));
            QCOMPARE(c.undoStack()->count(), 0);
            QCOMPARE(json(c), before);
            return;
        }
        QVERIFY(accepted);
        QCOMPARE(c.undoStack()->count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QCOMPARE(refused.count(), 0);
        const std::string after = json(c);
        QVERIFY(after != before);
        const ExploreState& s = *c.state();
        QVERIFY2(conservationError(s.placement(), m_placed->model()).empty(),
                 conservationError(s.placement(), m_placed->model()).c_str());
        QCOMPARE(!s.overCapacity.empty(), overCapacity);
        QVERIFY(*s.result->snapshot == buildMeshSnapshot(s.placement())); // the patched snapshot is the whole one
        QCOMPARE(s.predicted, !overCapacity); // the predictor refuses a layout over SRAM, and says why
        QCOMPARE(s.predictionError.empty(), !overCapacity);
        if (overCapacity) // the one wafer, numbered as the window numbers it
            QVERIFY2(s.predictionError.find("(wafer 1)") != std::string::npos, s.predictionError.c_str());
        QVERIFY(rig.view->snapshot() == nullptr); // the controller shows nothing itself: the window does

        c.undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QCOMPARE(json(c), before);
        QVERIFY(c.state()->overCapacity.empty());
        QVERIFY(*c.state()->result->snapshot == *m_placed->snapshot);
        c.undoStack()->redo();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QCOMPARE(json(c), after);
    }

    // "Time with the mesh engine" on the layout shown: the engine's sum over the layers (one run per region shape)
    // in µs at the preset's clock, beside the closed forms; a new layout clears it (it was the old one's).
    void engineTimesTheLayoutShown()
    {
        const PresetLibrary presets{QString()};
        ScenarioSpec spec;
        spec.hardware = *presets.hardware(QStringLiteral("wse3"));
        spec.model = *presets.model(QStringLiteral("qwen3-0.6b"));
        spec.workload.contextTokens = 2048;
        spec.fitSubMesh = true; // a small mesh: seconds under the sanitizers
        auto placed = computePlacement(spec);
        QVERIFY2(placed, placed ? "" : placed.error().message().c_str());
        const auto result = std::make_shared<const PlacementResult>(std::move(*placed));
        Rig rig;
        rig.edits.adopt(result);
        QTRY_VERIFY_WITH_TIMEOUT(rig.edits.state(), kJobMs);
        LayoutDock* dock = rig.edits.dock();
        dock->timeWithEngine();
        QVERIFY(dock->isTiming());
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isTiming(), 10 * kJobMs);
        const Placement& placement = *rig.edits.state()->result->scene->placement;
        auto timed =
            timeLayersByShape(placement, result->model(), MeshParams::fromHardware(result->hardware().wafer), 2048);
        QVERIFY(timed);
        const QLocale locale;
        const QString us = locale.toString(1e6 * timed->engineCycles / timed->clockHz, 'f', 1);
        const QString text = dock->engineText();
        QVERIFY2(text.contains(QStringLiteral("the %1 layers take %2 µs").arg(result->model().layers).arg(us)),
                 qPrintable(text));
        QVERIFY2(text.contains(locale.toString(1e6 * timed->closedFormCycles / timed->clockHz, 'f', 1)),
                 qPrintable(text));
        rig.edits.adopt(m_placed); // another layout: the timing shown was the old one's
        QTRY_VERIFY_WITH_TIMEOUT(rig.edits.state() && rig.edits.state()->result == m_placed, kJobMs);
        QVERIFY(dock->engineText().isEmpty());
    }

    void aSavedLayoutIsPlacedAgain()
    {
        Rig first;
        first.edits.adopt(m_placed);
        QTRY_VERIFY_WITH_TIMEOUT(first.edits.state(), kJobMs);
        QVERIFY(first.edits.swapLayers(2, 9));
        QTRY_VERIFY_WITH_TIMEOUT(!first.edits.isBusy(), kJobMs);
        const Layout saved = first.edits.state()->choice.layout;
        Rig reopened; // a scenario with that layout opened: the placer's placement, then the saved layout
        QSignalSpy changed(&reopened.edits, &LayoutEditController::stateChanged);
        reopened.edits.adopt(m_placed, saved);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kJobMs);
        QTRY_VERIFY_WITH_TIMEOUT(!reopened.edits.isBusy(), kJobMs);
        QCOMPARE(json(reopened.edits), layoutToJson(saved));
        QCOMPARE(reopened.edits.undoStack()->count(), 0);
    }

    void dockChangesAreUndoneToo()
    {
        Rig rig;
        LayoutEditController& c = rig.edits;
        c.adopt(m_placed);
        QTRY_VERIFY_WITH_TIMEOUT(c.state(), kJobMs);
        const std::string before = json(c);
        auto* fill = c.dock()->findChild<QDoubleSpinBox*>(QStringLiteral("layoutFill"));
        QVERIFY(fill);
        QCOMPARE(fill->value(), c.state()->choice.layout.weightFill);
        fill->setValue(0.6);
        emit fill->editingFinished();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QTRY_COMPARE_WITH_TIMEOUT(c.undoStack()->count(), 1, kJobMs);
        QCOMPARE(c.state()->choice.layout.weightFill, 0.6);
        QVERIFY(json(c) != before);
        QVERIFY(conservationError(c.state()->placement(), m_placed->model()).empty());
        c.undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QCOMPARE(json(c), before);
        QCOMPARE(fill->value(), c.state()->choice.layout.weightFill);
        // A dense model has no experts to lay out.
        auto* experts = c.dock()->findChild<QComboBox*>(QStringLiteral("layoutExperts"));
        QVERIFY(experts);
        QVERIFY(!experts->isEnabled());
    }

    // A mixture-of-experts model: the dock's Experts choice re-places the layout with its experts cut across each
    // layer's cores, which the saved layout records and the prediction times faster; undo brings the blocks back.
    void expertLayoutIsADockChoice()
    {
        const PresetLibrary presets{QString()};
        ScenarioSpec spec;
        spec.hardware = *presets.hardware(QStringLiteral("wse3"));
        spec.model = *presets.model(QStringLiteral("gpt-oss-20b"));
        spec.workload.precision = spec.model.nativePrecision;
        auto placed = computePlacement(spec);
        QVERIFY2(placed, placed ? "" : placed.error().message().c_str());
        Rig rig;
        LayoutEditController& c = rig.edits;
        c.adopt(std::make_shared<const PlacementResult>(std::move(*placed)));
        QTRY_VERIFY_WITH_TIMEOUT(c.state(), kJobMs);
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        auto* experts = c.dock()->findChild<QComboBox*>(QStringLiteral("layoutExperts"));
        QVERIFY(experts);
        QVERIFY(experts->isEnabled());
        QCOMPARE(ExpertLayout(experts->currentData().toInt()), ExpertLayout::Blocks);
        QVERIFY2(c.state()->predicted, c.state()->predictionError.c_str());
        const double blocksMs = c.state()->prediction.secondsPerToken;
        experts->setCurrentIndex(experts->findData(int(ExpertLayout::Sliced)));
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QTRY_COMPARE_WITH_TIMEOUT(c.undoStack()->count(), 1, kJobMs);
        QCOMPARE(c.state()->choice.layout.experts, ExpertLayout::Sliced);
        QCOMPARE(c.state()->placement().experts, ExpertLayout::Sliced);
        QVERIFY(json(c).find("\"experts\": \"sliced\"") != std::string::npos);
        QVERIFY2(c.state()->predicted, c.state()->predictionError.c_str());
        QVERIFY(c.state()->prediction.secondsPerToken < blocksMs);
        c.undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), kJobMs);
        QCOMPARE(c.state()->choice.layout.experts, ExpertLayout::Blocks);
        QCOMPARE(ExpertLayout(experts->currentData().toInt()), ExpertLayout::Blocks);
    }
};

QTEST_MAIN(TestLayoutEdit)
#include "tst_layoutedit.moc"
