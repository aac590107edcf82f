// MainWindow on the offscreen platform: pickers filled from the presets with
// the default scenario, unknown preset ids never reach the engine, and the
// language switches live.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "app/scenario/scenarioformat.h"
#include "app/stage/stage.h"
#include "app/window/filemenucontroller.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "views/mesh/meshview.h"

#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ws;

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void defaultScenarioInPickers();
    void unknownIdsKeepValidChoice_data();
    void unknownIdsKeepValidChoice();
    void languageSwitchesLive();
    void defaultScenarioOnTwoWafers();
    void newerRequestDropsOlderPlacement();
    void clickInspectsCore_data();
    void clickInspectsCore();
    void scenarioViewIsRestored();
    void openedScenarioSaysWhatItCouldNotTake();
    void comparisonFollowsTheScenario();

private:
    QString viewMenuTitle(MainWindow& window) const;
    std::unique_ptr<PresetLibrary> m_presets;
};

void TestMainWindow::initTestCase()
{
    m_presets = std::make_unique<PresetLibrary>(QString());
    QVERIFY(m_presets->loadErrors().isEmpty());
}

void TestMainWindow::defaultScenarioInPickers()
{
    LanguageManager languages;
    MainWindow window(*m_presets, languages);
    window.setRequest(MainWindow::defaultRequest());
    const Scenario r = window.request();
    QCOMPARE(r.modelPreset, QStringLiteral("qwen3-32b"));
    QCOMPARE(r.hardwarePreset, QStringLiteral("wse3"));
    QCOMPARE(r.precision, Precision::Bf16);
    QCOMPARE(r.contextTokens, int64_t(8192));
}

void TestMainWindow::unknownIdsKeepValidChoice_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("hardware");
    QTest::newRow("unknown model") << "no-such-model"
                                   << "wse3";
    QTest::newRow("unknown hardware") << "qwen3-32b"
                                      << "no-such-wafer";
}

void TestMainWindow::unknownIdsKeepValidChoice()
{
    QFETCH(QString, model);
    QFETCH(QString, hardware);
    LanguageManager languages;
    MainWindow window(*m_presets, languages);
    window.resize(1200, 800);
    Scenario r = MainWindow::defaultRequest();
    // setRequest ignores ids the pickers do not offer, so go through the presets directly.
    QVERIFY(!m_presets->model(model) || !m_presets->hardware(hardware));
    r.modelPreset = model;
    r.hardwarePreset = hardware;
    window.setRequest(r);
    // The pickers keep a valid choice: unknown ids are not selectable.
    QVERIFY(m_presets->model(window.request().modelPreset));
    QVERIFY(m_presets->hardware(window.request().hardwarePreset));
    (void)window.grab();
}

QString TestMainWindow::viewMenuTitle(MainWindow& window) const
{
    for (QAction* top : window.menuBar()->actions()) // File, Edit, View, Model, Help
        if (top->menu() && top->menu()->objectName() == QLatin1String("viewMenu"))
            return top->text();
    return {};
}

void TestMainWindow::languageSwitchesLive()
{
    LanguageManager languages;
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
    MainWindow window(*m_presets, languages);
    QCOMPARE(viewMenuTitle(window), QStringLiteral("&View"));
    QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
    QCoreApplication::processEvents();
    const QString chinese = viewMenuTitle(window);
    QVERIFY2(chinese != QStringLiteral("&View") && chinese.contains(QChar(0x89c6)), qPrintable(chinese)); // 视
    QCOMPARE(window.inspector()->windowTitle(), QStringLiteral("检查器"));
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
    QCoreApplication::processEvents();
    QCOMPARE(viewMenuTitle(window), QStringLiteral("&View"));
    QCOMPARE(window.inspector()->windowTitle(), QStringLiteral("Inspector"));
    QVERIFY(!languages.setLanguage(QStringLiteral("xx_YY")));
}

void TestMainWindow::defaultScenarioOnTwoWafers()
{
    LanguageManager languages;
    languages.setLanguage(QStringLiteral("en"));
    MainWindow window(*m_presets, languages);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy finished(&window, &MainWindow::placementFinished);
    window.setRequest(MainWindow::defaultRequest());
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(window.lastError()));
    // The default scenario: Qwen3-32B at bf16 needs two WSE-3 wafers
    // (about 65.5 GB of weights against 44 GB of SRAM per wafer).
    QCOMPARE(window.result()->devices, 2);
    QCOMPARE(window.stage()->view()->snapshot()->deviceCount, 2);
    QVERIFY(window.result()->sramUsedBytes > 0);
    QVERIFY(window.result()->sramUsedBytes <= window.result()->sramTotalBytes);
    QVERIFY(window.windowTitle().contains(QStringLiteral("Qwen3-32B")));
}

void TestMainWindow::newerRequestDropsOlderPlacement()
{
    LanguageManager languages;
    languages.setLanguage(QStringLiteral("en"));
    MainWindow window(*m_presets, languages);
    QSignalSpy finished(&window, &MainWindow::placementFinished);
    Scenario older = MainWindow::defaultRequest();
    older.modelPreset = QStringLiteral("llama-3.1-8b");
    window.setRequest(older);
    window.setRequest(MainWindow::defaultRequest()); // before the first placement can arrive
    QVERIFY(window.isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 120000); // both jobs delivered
    QCOMPARE(finished.count(), 1);                      // the older one dropped
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(window.lastError()));
    QCOMPARE(window.result()->model().id, std::string("qwen3-32b"));
}

void TestMainWindow::clickInspectsCore_data()
{
    QTest::addColumn<int>("device");
    QTest::addColumn<QPoint>("core");
    QTest::newRow("centre of wafer 1") << 0 << QPoint(381, 588);
    QTest::newRow("near the top-left of wafer 2") << 1 << QPoint(20, 10);
}

void TestMainWindow::clickInspectsCore()
{
    QFETCH(int, device);
    QFETCH(QPoint, core);
    LanguageManager languages;
    languages.setLanguage(QStringLiteral("en"));
    MainWindow window(*m_presets, languages);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy finished(&window, &MainWindow::placementFinished);
    window.setRequest(MainWindow::defaultRequest());
    QVERIFY(finished.wait(120000));
    window.setDevice(device);
    QTest::mouseClick(window.stage()->widget(), Qt::LeftButton, {}, window.stage()->view()->coreCentre(core).toPoint());
    QCOMPARE(window.inspector()->valueFor(QStringLiteral("Wafer")), QString::number(device + 1));
    QCOMPARE(window.inspector()->valueFor(QStringLiteral("Logical (x, y)")),
             QStringLiteral("(%1, %2)").arg(core.x()).arg(core.y()));
    // A core inside the application rectangle has placement coordinates and a physical position.
    QVERIFY(!window.inspector()->valueFor(QStringLiteral("Placement (x, y)")).isEmpty());
    QVERIFY(!window.inspector()->valueFor(QStringLiteral("Physical (x, y)")).isEmpty());
    QVERIFY(!window.inspector()->valueFor(QStringLiteral("SRAM used")).isEmpty());
}

void TestMainWindow::scenarioViewIsRestored()
{
    LanguageManager languages;
    MainWindow window(*m_presets, languages);
    window.resize(1600, 1000);
    window.show();
    Scenario scenario;
    scenario.modelPreset = QStringLiteral("qwen3-32b");
    scenario.hardwarePreset = QStringLiteral("wse3");
    scenario.precision = Precision::Bf16;
    scenario.contextTokens = 8192;
    scenario.layer = MeshLayer::KvCache;
    scenario.viewDevice = 1;
    scenario.zoom = 4;
    scenario.center = QPointF(300, 500);
    QSignalSpy finished(&window, &MainWindow::placementFinished);
    window.applyScenario(scenario);
    QVERIFY(finished.wait(120000));
    QCOMPARE(window.stage()->view()->layer(), MeshLayer::KvCache);
    QCOMPARE(window.stage()->view()->device(), 1);
    QCOMPARE(window.stage()->view()->zoomFactor(), 4.0);
    QVERIFY(qAbs(window.stage()->view()->centreCore().x() - 300) < 1e-6);
    QVERIFY(qAbs(window.stage()->view()->centreCore().y() - 500) < 1e-6);
    // Opening and showing a scenario does not change what Save would write.
    QVERIFY(window.scenario() == scenario);
}

// A scenario file with values the window cannot take (a context beyond the model's, a draft of another
// vocabulary) opens with each change listed, not silently; hardware that is not a wafer is an error on the heatmap.
void TestMainWindow::openedScenarioSaysWhatItCouldNotTake()
{
    LanguageManager languages;
    MainWindow window(*m_presets, languages);
    window.fileMenu()->setInteractive(false);
    Scenario scenario = MainWindow::defaultRequest();
    scenario.contextTokens = 10'000'000;
    scenario.draftModel = QStringLiteral("llama-3.1-8b");
    const auto model = m_presets->model(scenario.modelPreset);
    QVERIFY(model && model->contextLength > 0 && model->contextLength < scenario.contextTokens);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("too-long.waferscope"));
    QString error;
    QVERIFY2(ScenarioFormat::save(scenario, path, &error), qPrintable(error));

    QSignalSpy adjusted(window.fileMenu(), &FileMenuController::scenarioAdjusted);
    QVERIFY(window.fileMenu()->openFile(path));
    QCOMPARE(adjusted.count(), 1);
    const QStringList lines = adjusted.at(0).at(0).toStringList();
    auto line = [&](const QString& field) {
        for (const QString& l : lines)
            if (l.startsWith(field + QLatin1Char(':')))
                return l;
        return QString();
    };
    // The context falls to the model's own longest, not to a default.
    QCOMPARE(window.request().contextTokens, model->contextLength);
    QVERIFY2(line(QStringLiteral("context_tokens")).contains(QLocale().toString(qlonglong(10'000'000))) &&
                 line(QStringLiteral("context_tokens")).contains(QLocale().toString(qlonglong(model->contextLength))),
             qPrintable(lines.join(QLatin1Char('|'))));
    QVERIFY2(line(QStringLiteral("draft_model")).contains(QStringLiteral("llama-3.1-8b")), qPrintable(lines.join('|')));
    QCOMPARE(lines.size(), 2);
    QVERIFY(!window.fileMenu()->isModified()); // the file is as it was; Save writes what it holds

    // GPU hardware on the wafer view: the heatmap says so (no list of adjustments over the error).
    Scenario gpu = MainWindow::defaultRequest();
    gpu.hardwarePreset = QStringLiteral("h100");
    QVERIFY(m_presets->hardware(gpu.hardwarePreset));
    const QString gpuPath = dir.filePath(QStringLiteral("gpu.waferscope"));
    QVERIFY2(ScenarioFormat::save(gpu, gpuPath, &error), qPrintable(error));
    adjusted.clear();
    QVERIFY(window.fileMenu()->openFile(gpuPath));
    QCOMPARE(adjusted.count(), 0);
    QVERIFY2(window.stage()->error().contains(QStringLiteral("not wafer-scale")), qPrintable(window.stage()->error()));

    // A file the window takes as written opens without a word.
    const QString fine = dir.filePath(QStringLiteral("fine.waferscope"));
    QVERIFY2(ScenarioFormat::save(MainWindow::defaultRequest(), fine, &error), qPrintable(error));
    adjusted.clear();
    QVERIFY(window.fileMenu()->openFile(fine));
    QCOMPARE(adjusted.count(), 0);
    QVERIFY(window.stage()->error().isEmpty());
}

// The GPU, Groq and wafer comparison shows the scenario the window places (it showed llama-3.1-70b on 4 x WSE-3
// whatever the top bar said).
void TestMainWindow::comparisonFollowsTheScenario()
{
    LanguageManager languages;
    MainWindow window(*m_presets, languages);
    auto* compare = window.findChild<ComparisonController*>();
    QVERIFY(compare);
    Scenario scenario = MainWindow::defaultRequest();
    scenario.modelPreset = QStringLiteral("qwen3-8b");
    scenario.contextTokens = 16384;
    QSignalSpy finished(&window, &MainWindow::placementFinished);
    window.applyScenario(scenario);
    QVERIFY(finished.wait(120000));
    QCOMPARE(compare->settings().modelId, scenario.modelPreset);
    QCOMPARE(compare->settings().workload.contextTokens, 16384);
    QVERIFY(compare->snapshot());
    QCOMPARE(compare->snapshot()->modelName, QStringLiteral("Qwen3-8B"));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
