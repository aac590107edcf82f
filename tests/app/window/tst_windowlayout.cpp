// The real MainWindow on the offscreen platform fits a laptop: its minimum
// size (minimumSizeHint and the laid-out window) is at most 1366 × 768 with
// the docks of a first run and at most 1920 × 1080 with every dock it has
// shown (a model loaded in the chat), with the status bar, the chat's Send
// button and every shown dock inside the window. Its layout is saved on
// close and restored by the next window; View > Reset Layout returns to the
// default docks. The first run plays the default scenario's dataflow at the
// demo pace and gives way to the user's layer or a loaded model.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/stage/stage.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "app/window/windowlayout.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"
#include "views/mesh/meshview.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest>

#include <memory>

using namespace ws;

class TestWindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void firstRunFitsALaptop();
    void everyDockFitsFullHd();
    void layoutIsRememberedAndReset();
    void docksOfAnAreaShareTabs();
    void firstRunPlaysTheDataflowSlowly();
    void demoFollowsTheTokenAcrossWafers();
    void demoGivesWayToTheUsersLayer_data();
    void demoGivesWayToTheUsersLayer();
    void demoGivesWayToALoadedModel();

private:
    std::unique_ptr<MainWindow> firstRun(); // shown, the default placement done, the demo running
    static void verifyFits(MainWindow& window, QSize screen);
    QAction* action(MainWindow& window, const char* name);
    std::unique_ptr<PresetLibrary> m_presets;
    std::unique_ptr<LanguageManager> m_languages;
};

void TestWindowLayout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test folder
    QCoreApplication::setOrganizationName(QStringLiteral("WaferScopeTest"));
    m_presets = std::make_unique<PresetLibrary>(QString());
    QVERIFY(m_presets->loadErrors().isEmpty());
    m_languages = std::make_unique<LanguageManager>();
    QVERIFY(m_languages->setLanguage(QStringLiteral("en")));
}

void TestWindowLayout::init()
{
    QSettings().clear();
}

QAction* TestWindowLayout::action(MainWindow& window, const char* name)
{
    auto* a = window.findChild<QAction*>(QLatin1String(name));
    if (!a)
        qWarning("no action %s", name);
    return a;
}

std::unique_ptr<MainWindow> TestWindowLayout::firstRun()
{
    auto window = std::make_unique<MainWindow>(*m_presets, *m_languages);
    QSignalSpy finished(window.get(), &MainWindow::placementFinished);
    if (!window->ensurePlacement())
        return nullptr;
    window->startFirstRunDemo();
    window->show();
    if (!finished.wait(120000) || !finished.last().at(0).toBool())
        return nullptr;
    QCoreApplication::processEvents();
    return window;
}

// The window's minimum size fits `screen`; laid out at that size, the status bar, the Send button and every
// shown dock lie inside it with room to be seen.
void TestWindowLayout::verifyFits(MainWindow& window, QSize screen)
{
    QCoreApplication::processEvents();
    const QSize hint = window.minimumSizeHint();
    qInfo("minimumSizeHint %d x %d, minimumSize %d x %d (screen %d x %d)", hint.width(), hint.height(),
          window.minimumSize().width(), window.minimumSize().height(), screen.width(), screen.height());
    QVERIFY2(hint.width() <= screen.width() && hint.height() <= screen.height(),
             qPrintable(QStringLiteral("%1 x %2").arg(hint.width()).arg(hint.height())));
    QVERIFY(window.minimumSize().width() <= screen.width() && window.minimumSize().height() <= screen.height());
    window.resize(screen);
    QCoreApplication::processEvents();
    QCOMPARE(window.size(), screen);
    const QRect inside(QPoint(0, 0), screen);
    auto onScreen = [&](QWidget* w, const char* what) {
        QVERIFY2(w && w->isVisible(), what);
        const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
        QVERIFY2(inside.contains(r), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5")
                                                    .arg(QLatin1String(what))
                                                    .arg(r.x())
                                                    .arg(r.y())
                                                    .arg(r.width())
                                                    .arg(r.height())));
        QVERIFY2(!w->visibleRegion().isEmpty(), what);
    };
    onScreen(window.statusBar(), "status bar");
    QVERIFY(window.statusBar()->height() >= window.statusBar()->minimumSizeHint().height());
    QPushButton* send = nullptr;
    for (QPushButton* b : window.chat()->pane()->findChildren<QPushButton*>())
        if (b->text() == QLatin1String("Send"))
            send = b;
    onScreen(send, "Send button");
    QVERIFY(send->height() >= send->minimumSizeHint().height());
    onScreen(window.stage()->widget(), "heatmap");
    QVERIFY(window.stage()->view()->width() >= 200 && window.stage()->view()->height() >= 150);
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        if (!dock->isVisible() || dock->visibleRegion().isEmpty()) // hidden, or behind another tab
            continue;
        onScreen(dock, qPrintable(dock->objectName()));
        QVERIFY2(dock->widget()->height() >= 40, qPrintable(dock->objectName()));
    }
}

void TestWindowLayout::firstRunFitsALaptop()
{
    const auto window = firstRun();
    QVERIFY(window);
    QVERIFY(window->dataflowDock()->isVisible()); // the first run shows the Dataflow layer with its dock
    verifyFits(*window, QSize(1366, 768));
}

void TestWindowLayout::everyDockFitsFullHd()
{
    const auto window = firstRun();
    QVERIFY(window);
    const QString model = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
    if (QFileInfo::exists(model)) { // a model in the chat: its conversation pane and its wafer dock
        QSignalSpy loaded(window->chat(), &ChatController::modelChanged);
        window->chat()->openModelFile(model);
        QVERIFY(loaded.wait(60000));
    } else if (wstest::runningInCi()) {
        QFAIL(wstest::requiredInCiMessage(wstest::missingModelText(model)).constData());
    }
    const auto docks = window->findChildren<QDockWidget*>();
    QVERIFY(docks.size() >= 6); // inspector, defects, chat, dataflow, comparison, token race, and any added since
    for (QDockWidget* dock : docks)
        dock->show();
    for (QDockWidget* dock : docks)
        QVERIFY2(dock->isVisible(), qPrintable(dock->objectName()));
    verifyFits(*window, QSize(1920, 1080));
}

void TestWindowLayout::layoutIsRememberedAndReset()
{
    QSize saved;
    {
        MainWindow first(*m_presets, *m_languages);
        first.rememberLayout(); // nothing saved yet: the default layout
        first.show();
        QDockWidget* inspector = first.inspector();
        QCOMPARE(first.dockWidgetArea(inspector), Qt::RightDockWidgetArea);
        auto* comparison = first.findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
        QVERIFY(comparison && !comparison->isVisible());
        first.addDockWidget(Qt::LeftDockWidgetArea, inspector);
        comparison->show();
        first.resize(first.minimumSizeHint()); // the smallest it may be: not the default size
        QCoreApplication::processEvents();
        saved = first.size();
        QVERIFY(first.close());
    }
    QVERIFY(QSettings().contains(QStringLiteral("window/state")));
    MainWindow second(*m_presets, *m_languages);
    auto* comparison = second.findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    QCOMPARE(second.dockWidgetArea(second.inspector()), Qt::RightDockWidgetArea);
    second.rememberLayout();
    second.show();
    QCoreApplication::processEvents();
    QCOMPARE(second.dockWidgetArea(second.inspector()), Qt::LeftDockWidgetArea);
    QVERIFY(comparison->isVisible());
    QCOMPARE(second.size(), saved);

    // The default size (1600 × 1000) bounded by the screen, which here is smaller.
    const QSize screen = second.screen()->availableGeometry().size();
    QVERIFY(screen.width() < 1600 || screen.height() < 1000);
    QAction* reset = action(second, "resetLayoutAction");
    QVERIFY(reset);
    QCOMPARE(reset->text(), QStringLiteral("&Reset Layout")); // what a screen reader says (QAction's accessible name)
    QVERIFY(!reset->shortcut().isEmpty());
    reset->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(second.dockWidgetArea(second.inspector()), Qt::RightDockWidgetArea);
    QVERIFY(!comparison->isVisible());
    QVERIFY(second.tabifiedDockWidgets(second.inspector()).contains(static_cast<QDockWidget*>(second.defectsDock())));
    QCOMPARE(second.size(), QSize(1600, 1000).boundedTo(screen).expandedTo(second.minimumSizeHint()));
    QVERIFY(second.size() != saved);
    // A window that does not remember its layout neither reads nor writes one.
    QSettings().clear();
    {
        MainWindow other(*m_presets, *m_languages);
        other.show();
        QVERIFY(other.close());
    }
    QVERIFY(!QSettings().contains(QStringLiteral("window/state")));
}

void TestWindowLayout::docksOfAnAreaShareTabs()
{
    const auto window = firstRun();
    QVERIFY(window);
    QDockWidget* dataflow = window->dataflowDock();
    auto* comparison = window->findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    auto* race = window->findChild<QDockWidget*>(QStringLiteral("tokenRaceDock"));
    QVERIFY(comparison && race);
    QCOMPARE(window->dockWidgetArea(comparison), Qt::BottomDockWidgetArea);
    const auto group = window->tabifiedDockWidgets(dataflow);
    QVERIFY(group.contains(comparison) && group.contains(race));
    QVERIFY(!dataflow->visibleRegion().isEmpty());
    // Shown from the View menu: in front of the Dataflow dock, which stays in its tab.
    comparison->toggleViewAction()->trigger();
    QCoreApplication::processEvents();
    QVERIFY(comparison->isVisible() && !comparison->visibleRegion().isEmpty());
    QVERIFY(dataflow->isVisible() && dataflow->visibleRegion().isEmpty());
    // The chat keeps its own place beside the inspector, never behind a tab, and is not scrolled.
    QVERIFY(window->tabifiedDockWidgets(window->chat()->pane()).isEmpty());
    QVERIFY(!qobject_cast<QAbstractScrollArea*>(window->chat()->pane()->widget()));
    QVERIFY(qobject_cast<QAbstractScrollArea*>(comparison->widget()));
}

void TestWindowLayout::firstRunPlaysTheDataflowSlowly()
{
    const auto window = firstRun();
    QVERIFY(window);
    QVERIFY(window->isFirstRunDemo());
    QCOMPARE(window->stage()->view()->layer(), MeshLayer::Dataflow);
    DataflowController* dataflow = window->dataflowDock()->controller();
    QVERIFY(dataflow->isPlaying());
    const auto schedule = dataflow->schedule();
    QVERIFY(schedule && schedule->seconds() > 0);
    // One token of the default scenario's schedule (about 1.6 ms) every few seconds, at a pace the bar offers:
    // 1 ms of wafer time per second.
    QVERIFY2(schedule->seconds() > 1e-3 && schedule->seconds() < 2e-3,
             qPrintable(QString::number(schedule->seconds())));
    QCOMPARE(dataflow->waferSecondsPerSecond(), 1e-3);
    const double secondsPerToken = schedule->seconds() / dataflow->waferSecondsPerSecond();
    dataflow->seek(0);
    QElapsedTimer clock;
    clock.start();
    const auto framesBefore = window->stage()->view()->frame();
    QTest::qWait(400);
    const double expected = dataflow->totalCycles() * double(clock.elapsed()) / 1000.0 / secondsPerToken;
    QVERIFY2(dataflow->cycle() > 0.5 * expected && dataflow->cycle() < 1.2 * expected,
             qPrintable(QStringLiteral("cycle %1, expected about %2").arg(dataflow->cycle()).arg(expected)));
    QVERIFY(window->stage()->view()->frame() != framesBefore); // the heatmap shows the new frames
}

// The default scenario (Qwen3-32B on two WSE-3) plays layers 32-63 on wafer 2: the heatmap goes there with
// the token, and back to wafer 1 with the next token.
void TestWindowLayout::demoFollowsTheTokenAcrossWafers()
{
    const auto window = firstRun();
    QVERIFY(window);
    DataflowController* dataflow = window->dataflowDock()->controller();
    QVERIFY(dataflow->isPlaying());
    const auto schedule = dataflow->schedule();
    QVERIFY(schedule);
    auto onWafer2 =
        std::find_if(schedule->phases.begin(), schedule->phases.end(), [](const Phase& p) { return p.device == 1; });
    QVERIFY(onWafer2 != schedule->phases.end());
    QCOMPARE(window->stage()->device(), 0);
    dataflow->seek(onWafer2->startCycle + 1);
    QCOMPARE(window->stage()->device(), 0); // a seek is where the user looks: the view stays
    QTRY_COMPARE(window->stage()->device(), 1);
    QCOMPARE(window->stage()->view()->device(), 1);
    QCOMPARE(dataflow->device(), 1);
    // Wafer 2's cores lit (a playing frame's image is made off the GUI thread: it lands a moment later).
    QTRY_VERIFY(window->stage()->view()->frame() && window->stage()->view()->frame()->activity.size() == 2 &&
                !window->stage()->view()->frame()->activity[1].empty());
    dataflow->seek(dataflow->totalCycles() - 1); // the token wraps to layer 0 on wafer 1
    QTRY_COMPARE(window->stage()->device(), 0);
}

void TestWindowLayout::demoGivesWayToTheUsersLayer_data()
{
    QTest::addColumn<QString>("layerAction");
    QTest::addColumn<bool>("playing");
    QTest::newRow("KV cache: paused with its layer") << "layer_kvAction" << false;
    QTest::newRow("Dataflow: keeps playing at the normal pace") << "layer_dataflowAction" << true;
}

void TestWindowLayout::demoGivesWayToTheUsersLayer()
{
    QFETCH(QString, layerAction);
    QFETCH(bool, playing);
    MainWindow plain(*m_presets, *m_languages);
    const double normalPace = plain.dataflowDock()->controller()->waferSecondsPerSecond();
    const auto window = firstRun();
    QVERIFY(window);
    DataflowController* dataflow = window->dataflowDock()->controller();
    QVERIFY(dataflow->waferSecondsPerSecond() != normalPace);
    QAction* pick = action(*window, qPrintable(layerAction));
    QVERIFY(pick);
    QSignalSpy idle(window->chat()->liveWafer(), &LiveWafer::idleShown);
    pick->trigger();
    QVERIFY(!window->isFirstRunDemo());
    QCOMPARE(dataflow->isPlaying(), playing);
    QCOMPARE(dataflow->waferSecondsPerSecond(), normalPace);
    // No model loaded: the scenario stays on the stage, not the chat's idle wafer (whose empty KV cache the KV
    // layer showed at 0-100 % beside the strip's 0-5 % of the scenario).
    QVERIFY(!idle.wait(1000));
    QVERIFY(window->result() && window->stage()->view()->snapshot() == window->result()->snapshot);
}

void TestWindowLayout::demoGivesWayToALoadedModel()
{
    const QString model = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
    WS_REQUIRE_MODEL_FILE(model);
    const auto window = firstRun();
    QVERIFY(window);
    QVERIFY(window->dataflowDock()->controller()->isPlaying());
    QSignalSpy loaded(window->chat(), &ChatController::modelChanged);
    QSignalSpy idle(window->chat()->liveWafer(), &LiveWafer::idleShown);
    window->chat()->openModelFile(model);
    QVERIFY(loaded.wait(60000));
    QVERIFY(!window->isFirstRunDemo());
    QVERIFY(!window->dataflowDock()->controller()->isPlaying());
    // The wafer rests idle for the chat: no region lit by the demo's last frame.
    QVERIFY(idle.count() > 0 || idle.wait(60000));
    const auto frame = window->stage()->view()->frame();
    QVERIFY(frame);
    QVERIFY(frame->activity.empty());
    // A model already loaded: no demo.
    window->startFirstRunDemo();
    QVERIFY(!window->isFirstRunDemo());
}

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
