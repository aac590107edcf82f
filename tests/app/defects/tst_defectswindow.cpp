// One answer to "what do a scenario's defects do": the real window, opened on a scenario with defects and then
// edited with the Defects dock's brush, shows the same mesh snapshot as `waferscope-cli render` builds for the
// scenario the window would save (ScenarioScene::build, render's own call), and the saved file reads back to it.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/defects/defectsdock.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioscene.h"
#include "app/stage/stage.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "views/mesh/meshview.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest>

#include <algorithm>

using namespace ws;

namespace {

int64_t deadOn(const MeshSnapshot& s, int device)
{
    if (device >= int(s.coreState.size()))
        return 0;
    const auto& states = s.coreState[size_t(device)];
    return std::count(states.begin(), states.end(), CoreState::Dead);
}

} // namespace

class TestDefectsWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PresetLibrary> m_presets;

    // The snapshot `render` draws for `scenario`, compared field by field with the window's.
    void compareWithRender(const Scenario& scenario, const MeshSnapshot& window)
    {
        QString error;
        const auto render = ScenarioScene::build(scenario, *m_presets, {}, &error);
        QVERIFY2(render, qPrintable(error));
        const MeshSnapshot& cli = *render->snapshot;
        QCOMPARE(window.deviceCount, cli.deviceCount);
        QCOMPARE(window.meshCols, cli.meshCols);
        QCOMPARE(window.meshRows, cli.meshRows);
        QVERIFY(window.owner == cli.owner);
        QVERIFY(window.sramFraction == cli.sramFraction);
        QVERIFY(window.coreState == cli.coreState);
    }

    void waitIdle(MainWindow& window)
    {
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() && !window.defectsDock()->isBusy(), 180000);
        QTest::qWait(50); // queued results land
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() && !window.defectsDock()->isBusy(), 180000);
    }

private slots:
    void initTestCase()
    {
        m_presets = std::make_unique<PresetLibrary>(QString());
        QVERIFY(m_presets->loadErrors().isEmpty());
    }

    void windowAndRenderShowTheSameDefects()
    {
        LanguageManager languages;
        MainWindow window(*m_presets, languages);
        window.resize(1366, 768);
        window.show();
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("qwen3-8b");
        scenario.hardwarePreset = QStringLiteral("wse3");
        scenario.contextTokens = 4096;
        scenario.defects.rate = 0.002;
        scenario.defects.seed = 7;
        scenario.defects.cores = {{0, 100, 120}};
        scenario.layer = MeshLayer::Defects;
        QSignalSpy finished(&window, &MainWindow::placementFinished);
        window.applyScenario(scenario);
        QVERIFY(finished.wait(180000));
        waitIdle(window);

        // Opened: the stage shows the model placed around the scenario's dead cores, as render does.
        auto shown = window.stage()->view()->snapshot();
        QVERIFY(shown);
        QVERIFY(deadOn(*shown, 0) > 0);
        QVERIFY(window.scenario() == scenario);
        compareWithRender(window.scenario(), *shown);
        const auto before = window.stage()->result();
        QVERIFY(before && before->scene);
        const int64_t usableBefore =
            int64_t(before->scene->placement->usableCols) * before->scene->placement->usableRows;

        // Edited: a brushed block of dead cores on wafer 1 becomes the scenario's and is placed around.
        QSignalSpy resultChanged(window.stage(), &Stage::resultChanged);
        QVERIFY(window.defectsDock()->controller()->setMeshRect(QRect(300, 200, 40, 30), true).hasValue());
        QVERIFY(resultChanged.wait(180000));
        waitIdle(window);
        const Scenario edited = window.scenario();
        QCOMPARE(edited.defects.exactDevices, std::vector<int>{0});
        QVERIFY(edited.defects.cores.size() > scenario.defects.cores.size() + 1000); // the draw and the block
        shown = window.stage()->view()->snapshot();
        QVERIFY(shown);
        QVERIFY(deadOn(*shown, 0) >= 1200);
        compareWithRender(edited, *shown);
        const auto after = window.stage()->result();
        QVERIFY(after && after->scene && after->scene != before->scene);
        QVERIFY(int64_t(after->scene->placement->usableCols) * after->scene->placement->usableRows <= usableBefore);
        // The dock's numbers describe the scene on stage.
        const auto outcome = window.defectsDock()->controller()->outcome();
        QVERIFY(outcome && outcome->scene == after->scene);
        QVERIFY(outcome->secondsPerTokenAfter >= outcome->secondsPerTokenBefore * (1 - 1e-12));

        // Saved and read back (as `render scenario.waferscope` reads it): the same snapshot.
        QString error;
        const auto reread = ScenarioFormat::fromJson(ScenarioFormat::toJson(edited), QStringLiteral("edited"), &error);
        QVERIFY2(reread, qPrintable(error));
        QVERIFY(*reread == edited);
        compareWithRender(*reread, *shown);

        // Undo in the dock: the scenario's defects return to the opened ones' map on wafer 1.
        QVERIFY(window.defectsDock()->controller()->undo());
        QVERIFY(resultChanged.wait(180000));
        waitIdle(window);
        shown = window.stage()->view()->snapshot();
        QCOMPARE(deadOn(*shown, 0), deadOn(*before->snapshot, 0));
        compareWithRender(window.scenario(), *shown);

        // Half the cores dead: no placement fits. The status bar says so, the stage keeps the last scene.
        const auto kept = window.stage()->result();
        QVERIFY(window.defectsDock()->controller()->injectRandom(0.5, 3).hasValue());
        waitIdle(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().startsWith(QStringLiteral("Defects: ")), 180000);
        QVERIFY(!window.defectsDock()->controller()->outcome()->error.empty());
        QCOMPARE(window.stage()->result(), kept);
        // ... and so do a banner across the heatmap and the inspector's first row.
        QCOMPARE(window.stage()->view()->banner(), window.statusBar()->currentMessage());
        const QString reason = QString::fromStdString(window.defectsDock()->controller()->outcome()->error);
        QCOMPARE(window.findChild<InspectorDock*>()->valueFor(QStringLiteral("Defects")), reason);
        QVERIFY(window.defectsDock()->controller()->undo());
        waitIdle(window);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().isEmpty(), 180000);
        QVERIFY(window.stage()->view()->banner().isEmpty());
        QVERIFY(window.findChild<InspectorDock*>()->valueFor(QStringLiteral("Defects")).isNull());
    }
};

QTEST_MAIN(TestDefectsWindow)
#include "tst_defectswindow.moc"
