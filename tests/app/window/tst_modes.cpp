// The window's modes (app/window/modecontroller.h) laid out at a laptop's
// 1366 × 768 and a full-HD 1920 × 1080, in English and Chinese, measured by
// the geometry report `waferscope --geometry-report` writes
// (app/window/geometryreport.h): the heatmap takes at least 60 % of the
// window in Wafer and Present modes and 35 % in Chat mode, the chat's
// conversation at least half the window's height (20 lines at 1920 × 1080),
// every chart shown is at least 180 px tall and no axis title or table
// header is cut. Each mode keeps its own dock layout, Reset Layout resets the
// mode in use, the mode and its layouts outlive the window, the mode keys
// clash with no other shortcut, and `waferscope --mode … --geometry-report`
// writes the report.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/present/presentationmode.h"
#include "app/session/chatcontroller.h"
#include "app/stage/stage.h"
#include "app/window/geometryreport.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "app/window/modecontroller.h"
#include "tests/common/testmodels.h"
#include "views/chat/chatpane.h"
#include "views/mesh/meshview.h"
#include "views/mesh/viewtransform.h"

#include <QAction>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace ws;
using Mode = ModeController::Mode;

Q_DECLARE_METATYPE(ws::ModeController::Mode)
Q_DECLARE_METATYPE(ws::MeshLayer)

class TestModes : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void modeIsLegible_data();
    void modeIsLegible();
    void eachModeKeepsItsLayout();
    void waferModeTurnsAPortraitWafer();
    void modeOutlivesTheWindow();
    void modeKeysClashWithNothing();
    void commandLineWritesTheReport();

private:
    static void settle(int ms = 250);
    static GeometryReport settledReport(const MainWindow& window);
    std::unique_ptr<MainWindow> placedWindow();
    std::unique_ptr<PresetLibrary> m_presets;
    std::unique_ptr<LanguageManager> m_languages;
    std::unique_ptr<MainWindow> m_window; // one placed window for every layout row
};

void TestModes::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("WaferScopeTest"));
    m_presets = std::make_unique<PresetLibrary>(QString());
    QVERIFY(m_presets->loadErrors().isEmpty());
    m_languages = std::make_unique<LanguageManager>();
    QVERIFY(m_languages->setLanguage(QStringLiteral("en")));
    m_window = placedWindow();
    QVERIFY(m_window);
    auto* present = m_window->findChild<PresentationMode*>();
    QVERIFY(present);
    present->setFullScreen(false); // the offscreen screen is 800 × 600: present at the size laid out
    present->setAutoPlay(false);
}

void TestModes::cleanupTestCase()
{
    m_window.reset();
}

void TestModes::init()
{
    QSettings().clear();
}

void TestModes::settle(int ms)
{
    QTest::qWait(ms); // docks rebuilt on a language change and resized by a mode lay out in posted events
}

// The report once two in a row agree: a dock hidden or resized by the mode hands its room on over a few layouts.
GeometryReport TestModes::settledReport(const MainWindow& window)
{
    auto rects = [](const GeometryReport& r) {
        QList<QRect> all{r.heatmap, r.transcript};
        for (const GeometryItem& item : r.charts)
            all << item.rect;
        return all;
    };
    GeometryReport report = window.geometryReport();
    for (int i = 0; i < 30; ++i) {
        settle(100);
        GeometryReport next = window.geometryReport();
        const bool same = rects(next) == rects(report);
        report = std::move(next);
        if (same)
            break;
    }
    return report;
}

std::unique_ptr<MainWindow> TestModes::placedWindow()
{
    auto window = std::make_unique<MainWindow>(*m_presets, *m_languages);
    QSignalSpy finished(window.get(), &MainWindow::placementFinished);
    if (!window->ensurePlacement())
        return nullptr;
    window->show();
    if (!finished.wait(120000) || !finished.last().at(0).toBool())
        return nullptr;
    QCoreApplication::processEvents();
    return window;
}

void TestModes::modeIsLegible_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<Mode>("mode");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<MeshLayer>("layer");
    // SRAM: the layer a scenario opens on; Dataflow: the first run's, whose dock shows with it in the workbench.
    for (const char* language : {"en", "zh_CN"})
        for (MeshLayer layer : {MeshLayer::SramOccupancy, MeshLayer::Dataflow})
            for (Mode mode : ModeController::allModes())
                for (QSize size : {QSize(1366, 768), QSize(1920, 1080)})
                    QTest::addRow("%s %s %s %dx%d", language, meshLayerId(layer),
                                  qPrintable(ModeController::modeId(mode)), size.width(), size.height())
                        << QString::fromLatin1(language) << mode << size << layer;
}

void TestModes::modeIsLegible()
{
    QFETCH(QString, language);
    QFETCH(Mode, mode);
    QFETCH(QSize, size);
    QFETCH(MeshLayer, layer);
    MainWindow& window = *m_window;
    if (m_languages->language() != language) {
        QVERIFY(m_languages->setLanguage(language));
        settle();
    }
    ModeController* modes = window.modes();
    modes->setMode(Mode::Explore);
    window.setLayer(layer);
    window.resize(size);
    settle(50);
    QCOMPARE(window.size(), size);
    modes->setMode(mode);
    modes->resetMode(); // the mode's own layout at this size, whatever an earlier row left
    settle();
    QCOMPARE(modes->mode(), mode);
    QCOMPARE(window.size(), size);
    if (mode != Mode::Explore) // the Dataflow dock is the workbench's
        QVERIFY(!window.dataflowDock()->isVisible());

    const GeometryReport report = settledReport(window);
    qInfo("%s at %dx%d (%s): heatmap %.0f%% of the window (%dx%d), transcript %dx%d (%d lines), %d charts and "
          "tables",
          qPrintable(report.mode), size.width(), size.height(), qPrintable(language), 100 * report.heatmapShare(),
          report.heatmap.width(), report.heatmap.height(), report.transcript.width(), report.transcript.height(),
          report.transcriptLines, int(report.charts.size()));
    QCOMPARE(report.mode, ModeController::modeId(mode));
    QCOMPARE(report.window, QRect(QPoint(0, 0), size));
    QVERIFY(!report.heatmap.isEmpty()); // every mode shows the wafer, if only as a thumbnail
    switch (mode) {
    case Mode::Wafer:
    case Mode::Present:
        QVERIFY2(report.heatmapShare() >= 0.60, qPrintable(QString::number(report.heatmapShare())));
        break;
    case Mode::Chat:
        QVERIFY2(report.heatmapShare() >= 0.35, qPrintable(QString::number(report.heatmapShare())));
        QVERIFY2(report.transcript.height() >= size.height() / 2,
                 qPrintable(QString::number(report.transcript.height())));
        if (size.height() >= 1080)
            QVERIFY2(report.transcriptLines >= 20, qPrintable(QString::number(report.transcriptLines)));
        break;
    case Mode::Compare:
        QVERIFY(report.charts.size() >= 4); // the overview's charts and its table, not one strip of them
        QVERIFY(report.heatmap.width() >= 200);
        break;
    case Mode::Explore:
        break;
    }
    for (const GeometryItem& item : report.charts) {
        if (!item.cutLabels.isEmpty())
            qInfo("  %s: labels cut: %s", qPrintable(item.name),
                  qPrintable(item.cutLabels.join(QStringLiteral(" | "))));
        if (item.kind == QLatin1String("chart"))
            QVERIFY2(item.rect.height() >= 180,
                     qPrintable(QStringLiteral("%1: %2 px tall").arg(item.name).arg(item.rect.height())));
        QVERIFY2(!item.elided(),
                 qPrintable(QStringLiteral("%1 cuts %2").arg(item.name, item.elidedTexts.join(QStringLiteral(" | ")))));
    }
    modes->setMode(Mode::Explore); // leaves presentation mode
    QCOMPARE(modes->mode(), Mode::Explore);
    if (mode == Mode::Present) {
        // The tour leaves the comparison with its own settings (more rows and notes: its overview then needs about
        // 910 px at 984 px wide, more than a laptop's Compare dock has; issue 30, item 2). The next rows measure
        // the window as a user opens it.
        m_window = placedWindow();
        QVERIFY(m_window);
        auto* present = m_window->findChild<PresentationMode*>();
        present->setFullScreen(false);
        present->setAutoPlay(false);
    }
}

void TestModes::eachModeKeepsItsLayout()
{
    const auto window = placedWindow();
    QVERIFY(window);
    window->resize(1366, 768);
    ModeController* modes = window->modes();
    QDockWidget* chat = window->chat()->pane();
    auto* comparison = window->findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    QCOMPARE(modes->mode(), Mode::Explore); // the first layout is the workbench
    QVERIFY(window->inspector()->isVisible());

    modes->action(Mode::Chat)->trigger();
    settle(50);
    QCOMPARE(modes->mode(), Mode::Chat);
    QVERIFY(chat->isVisible() && !window->inspector()->isVisible() && !comparison->isVisible());
    QCOMPARE(window->dockWidgetArea(chat), Qt::RightDockWidgetArea);
    window->addDockWidget(Qt::LeftDockWidgetArea, chat); // the user's own Chat layout

    modes->action(Mode::Compare)->trigger();
    settle(50);
    QVERIFY(comparison->isVisible() && !chat->isVisible());
    QCOMPARE(window->dockWidgetArea(comparison), Qt::LeftDockWidgetArea);

    modes->action(Mode::Wafer)->trigger();
    settle(50);
    for (QDockWidget* dock : window->findChildren<QDockWidget*>())
        QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
    // A clicked core's inspector comes over the heatmap, not beside it.
    modes->showInspector();
    QVERIFY(window->inspector()->isVisible() && window->inspector()->isFloating());

    modes->action(Mode::Chat)->trigger(); // as the user left it
    settle(50);
    QVERIFY(chat->isVisible() && !comparison->isVisible());
    QCOMPARE(window->dockWidgetArea(chat), Qt::LeftDockWidgetArea);
    QVERIFY(!window->inspector()->isVisible());
    window->findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger(); // resets Chat only
    settle(50);
    QCOMPARE(modes->mode(), Mode::Chat);
    QCOMPARE(window->dockWidgetArea(chat), Qt::RightDockWidgetArea);

    modes->action(Mode::Explore)->trigger(); // the workbench as it was
    settle(50);
    QVERIFY(window->inspector()->isVisible() && !window->inspector()->isFloating());
    QVERIFY(chat->isVisible());
}

void TestModes::waferModeTurnsAPortraitWafer()
{
    // The default scenario's WSE-3 mesh is portrait (762 x 1,176 cores); the window's room for it is landscape.
    MainWindow& window = *m_window;
    window.resize(1366, 768);
    ModeController* modes = window.modes();
    const views::MeshView* view = window.stage()->view();
    QVERIFY(view->snapshot());
    QVERIFY(view->snapshot()->meshRows > view->snapshot()->meshCols);
    auto uprightFit = [view] {
        views::ViewTransform upright = view->transform();
        upright.turned = false;
        return upright.fitScale();
    };
    modes->setMode(Mode::Explore);
    settle();
    QVERIFY(!view->transform().turned);

    modes->setMode(Mode::Wafer);
    settle();
    QVERIFY(view->transform().turned);
    // Turned, it is drawn larger than upright in the same room: the point of turning it.
    QVERIFY2(
        view->transform().scale >= 1.1 * uprightFit(),
        qPrintable(QStringLiteral("%1 against %2 px per core upright").arg(view->transform().scale).arg(uprightFit())));

    // Presenting turns it as well; leaving gives Wafer mode its turned wafer back, and the workbench its upright one.
    modes->setMode(Mode::Present);
    QCOMPARE(modes->mode(), Mode::Present);
    modes->setMode(Mode::Wafer);
    settle();
    QCOMPARE(modes->mode(), Mode::Wafer);
    QVERIFY(view->transform().turned);
    modes->setMode(Mode::Explore);
    settle();
    QVERIFY(!view->transform().turned);
    modes->setMode(Mode::Present);
    modes->setMode(Mode::Explore);
    settle();
    QVERIFY(!view->transform().turned);
}

void TestModes::modeOutlivesTheWindow()
{
    {
        MainWindow first(*m_presets, *m_languages);
        first.rememberLayout();
        first.show();
        first.modes()->setMode(Mode::Compare);
        first.modes()->setMode(Mode::Chat);
        first.addDockWidget(Qt::LeftDockWidgetArea, first.chat()->pane());
        QVERIFY(first.close());
    }
    QCOMPARE(QSettings().value(QStringLiteral("window/mode")).toString(), QStringLiteral("chat"));
    MainWindow second(*m_presets, *m_languages);
    second.rememberLayout();
    second.show();
    QCoreApplication::processEvents();
    QCOMPARE(second.modes()->mode(), Mode::Chat);
    QVERIFY(second.modes()->action(Mode::Chat)->isChecked());
    QCOMPARE(second.dockWidgetArea(second.chat()->pane()), Qt::LeftDockWidgetArea);
    auto* comparison = second.findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
    second.modes()->setMode(Mode::Compare); // its layout from the first window
    QVERIFY(comparison->isVisible());
    QCOMPARE(second.dockWidgetArea(comparison), Qt::LeftDockWidgetArea);
}

void TestModes::modeKeysClashWithNothing()
{
    const auto window = std::make_unique<MainWindow>(*m_presets, *m_languages);
    QList<QAction*> modeActions;
    for (Mode mode : ModeController::allModes()) {
        QAction* action = window->modes()->action(mode);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::ALT | (Qt::Key_1 + int(mode))));
        QVERIFY(window->actions().contains(action)); // works while the menu bar is hidden
        QVERIFY(window->modes()->menu()->actions().contains(action));
        QCOMPARE(ModeController::modeFromId(ModeController::modeId(mode)), std::optional<Mode>(mode));
        modeActions << action;
    }
    // No other action of the window (layers Ctrl+1 … Ctrl+5, zoom, Present F11, playback, …) has a mode's key.
    for (QAction* other : window->findChildren<QAction*>()) {
        if (modeActions.contains(other))
            continue;
        for (QAction* mode : modeActions)
            QVERIFY2(!other->shortcuts().contains(mode->shortcut()),
                     qPrintable(QStringLiteral("%1 has %2").arg(other->objectName(), mode->shortcut().toString())));
    }
    const auto* present = window->findChild<PresentationMode*>();
    QVERIFY(present && present->action()->shortcut() == QKeySequence(Qt::Key_F11)); // Present's own key stays
}

void TestModes::commandLineWritesTheReport()
{
    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("geometry.json"));
    QProcess app;
    app.setWorkingDirectory(dir.path());
    app.start(wstest::appBinary(),
              {QStringLiteral("--mode"), QStringLiteral("chat"), QStringLiteral("--geometry-report"), report,
               QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("chat.png"))});
    QVERIFY(app.waitForFinished(180000));
    QCOMPARE(app.exitCode(), 0);
    QFile file(report);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(json.value(QStringLiteral("mode")).toString(), QStringLiteral("chat"));
    for (const char* key : {"window", "heatmap", "transcript", "charts"})
        QVERIFY2(json.contains(QLatin1String(key)), key);
    const QJsonObject window = json.value(QStringLiteral("window")).toObject();
    QCOMPARE(window.value(QStringLiteral("width")).toInt(), 1600); // the default size (offscreen)
    const QJsonObject heatmap = json.value(QStringLiteral("heatmap")).toObject();
    QVERIFY(heatmap.value(QStringLiteral("rect")).toObject().value(QStringLiteral("width")).toInt() > 0);
    QVERIFY(heatmap.value(QStringLiteral("area_share")).toDouble() >= 0.35);
    QVERIFY(json.value(QStringLiteral("transcript")).toObject().value(QStringLiteral("visible")).toBool());
    QVERIFY(json.value(QStringLiteral("charts")).isArray());
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("chat.png"))));
    // An unknown mode: 2 and one line.
    QProcess bad;
    bad.start(wstest::appBinary(), {QStringLiteral("--mode"), QStringLiteral("cinema"), QStringLiteral("--screenshot"),
                                    dir.filePath(QStringLiteral("x.png"))});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("unknown mode 'cinema'"));
}

QTEST_MAIN(TestModes)
#include "tst_modes.moc"
