// waferscope: the desktop application.
//   waferscope [--scenario FILE] [--lang zh_CN] [--screenshot FILE.png] [--verbose]
//              [--recover] [--print-scenario FILE] [--dataflow-time FRACTION] [--dataflow-engine LAYER]
//              [--present TOUR.json]
//              [--mode wafer|chat|compare|explore|present] [--geometry-report FILE.json] [--version] [FILE]
// A FILE argument is the same as --scenario FILE (the desktop file opens scenarios so).
// --version prints the version and git revision, with no display needed.
// --screenshot renders the main window (offscreen unless a platform is set),
// saves it as a PNG and exits: 0 on success, 2 with one line on stderr if not.
// --scenario, --recover and --print-scenario belong to the File menu
// controller (app/window/filemenucontroller.h). --dataflow-time shows the Dataflow
// layer at that fraction (0..1) of a token's schedule; --dataflow-engine L shows it as the mesh engine
// executes layer L core by core (app/dataflow/dataflowdock.h). --present plays a tour in
// presentation mode (app/present/presentationmode.h; a bad tour: 2 and one line).
// --mode starts in that mode (app/window/modecontroller.h). --geometry-report writes, once
// the window is shown and its placement done, where the heatmap, the chat transcript and
// every visible chart and table lie and whether any header or axis title is cut, as JSON
// (app/window/geometryreport.h); the window keeps running, or exits after --screenshot.
#include "app/common/allocator.h"
#include "app/common/buildinfo.h"
#include "app/common/jobtracker.h"
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/common/quitsignals.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/export/screenshot.h"
#include "app/present/presentationmode.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/stage/stage.h"
#include "app/window/filemenucontroller.h"
#include "app/window/logging.h"
#include "app/window/mainwindow.h"
#include "app/window/modecontroller.h"
#include "app/window/theme.h"
#include "app/window/windowlayout.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

namespace {

int fail(const QString& message)
{
    std::fprintf(stderr, "waferscope: %s\n", message.toLocal8Bit().constData());
    return 2;
}

// What a screenshot of the window waits for: its placement, then the defect remap that follows it.
std::vector<ws::PendingWork> pendingWork(ws::MainWindow& window)
{
    return {{[&window] { return window.isBusy(); }, QStringLiteral("the placement")},
            {[&window] { return window.defectsDock() && window.defectsDock()->isBusy(); },
             QStringLiteral("the defect remap")}};
}

// Writes the window's geometry report once its pending work is done and it has laid out; false (and a line on
// stderr) when the work times out or the file cannot be written.
bool writeGeometryReport(ws::MainWindow& window, const QString& file)
{
    QString error;
    if (!ws::waitForPendingWork(pendingWork(window), 120000, &error)) {
        fail(error);
        return false;
    }
    // Docks rebuilt or resized by the mode lay out in posted events: let them settle.
    QEventLoop settle;
    QTimer::singleShot(300, &settle, &QEventLoop::quit);
    settle.exec();
    const ws::GeometryReport report = window.geometryReport();
    if (!report.write(file, &error)) {
        fail(error);
        return false;
    }
    spdlog::info("geometry report written: {} (mode {}, heatmap {:.0f}% of the window)",
                 QFileInfo(file).absoluteFilePath().toStdString(), report.mode.toStdString(),
                 100.0 * report.heatmapShare());
    return true;
}

int saveScreenshot(ws::MainWindow& window, const QString& file)
{
    QString error;
    if (!ws::saveScreenshot(&window, file, pendingWork(window), 1.0, &error))
        return fail(error);
    spdlog::info("screenshot saved: {} ({}x{})", QFileInfo(file).absoluteFilePath().toStdString(), window.width(),
                 window.height());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    ws::keepLargeBuffersMapped(); // frames and images come and go: give them back (app/common/allocator.h)
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("waferscope %s\n", ws::BuildInfo::versionText().toUtf8().constData());
            return 0;
        }
    // A screenshot needs no display: render offscreen unless a platform was chosen.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("WaferScope"));
    QApplication::setOrganizationName(QStringLiteral("WaferScope"));
    QApplication::setApplicationVersion(ws::BuildInfo::versionText());
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.waferscope.WaferScope")); // packaging/*.desktop
    // A background job whose work threw: shown over the window, which stays usable.
    ws::JobTracker::setFailureReporter([](const QString& error) {
        QMessageBox::warning(QApplication::activeWindow(), QApplication::translate("main", "Background task failed"),
                             QApplication::translate("main", "A background task failed: %1").arg(error));
    });

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Places a transformer on a wafer-scale engine and shows it."));
    parser.addHelpOption();
    // Handled before the QApplication (no display needed); listed here for --help.
    parser.addOption({QStringLiteral("version"), QStringLiteral("Print the version and git revision, and exit.")});
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .waferscope scenario to open (as --scenario)."),
                                 QStringLiteral("[FILE]"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Render the main window to FILE.png and exit."),
                                              QStringLiteral("FILE"));
    const QCommandLineOption langOption(QStringLiteral("lang"), QStringLiteral("Interface language: en or zh_CN."),
                                        QStringLiteral("CODE"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"), QStringLiteral("Log debug messages."));
    const QCommandLineOption dataflowTimeOption(
        QStringLiteral("dataflow-time"),
        QStringLiteral("Show the Dataflow layer at this fraction (0..1) of a token's schedule."),
        QStringLiteral("FRACTION"));
    const QCommandLineOption dataflowEngineOption(
        QStringLiteral("dataflow-engine"),
        QStringLiteral("Show the Dataflow layer as the mesh engine executes this layer, core by core (or the "
                       "Links or Values layer of that run, when the scenario shows one)."),
        QStringLiteral("LAYER"));
    const QCommandLineOption presentOption(QStringLiteral("present"),
                                           QStringLiteral("Play a tour full screen (presentation mode)."),
                                           QStringLiteral("TOUR.json"));
    const QCommandLineOption modelOption(QStringLiteral("model"),
                                         QStringLiteral("Open a model file (GGUF or llama2.c) in the chat at start."),
                                         QStringLiteral("FILE"));
    const QCommandLineOption waferShowsOption(
        QStringLiteral("wafer-shows"),
        QStringLiteral("What the main wafer plays while the chat answers: scenario (the scenario's model at its "
                       "predicted pace, the default) or loaded (the loaded model itself)."),
        QStringLiteral("WHAT"));
    const QCommandLineOption modeOption(QStringLiteral("mode"),
                                        QStringLiteral("Start in this mode: wafer, chat, compare, explore or present."),
                                        QStringLiteral("NAME"));
    const QCommandLineOption geometryOption(
        QStringLiteral("geometry-report"),
        QStringLiteral("Once the window is shown, write where the heatmap, the chat transcript and every visible "
                       "chart and table lie (and whether a header or axis title is cut) to FILE as JSON."),
        QStringLiteral("FILE"));
    parser.addOptions({screenshotOption, langOption, verboseOption, dataflowTimeOption, dataflowEngineOption,
                       presentOption, modelOption, waferShowsOption, modeOption, geometryOption});
    ws::FileMenuController::addCommandLineOptions(parser);
    if (!parser.parse(QApplication::arguments()))
        return fail(parser.errorText());
    if (const QStringList files = parser.positionalArguments(); !files.isEmpty()) {
        // A file argument means --scenario FILE: parse again with it said so, for everything that reads --scenario.
        if (files.size() > 1 || parser.isSet(QStringLiteral("scenario")))
            return fail(QStringLiteral("give one scenario file, either as FILE or as --scenario FILE"));
        QStringList arguments = QApplication::arguments();
        arguments.removeAt(arguments.lastIndexOf(files.first()));
        if (!parser.parse(arguments << QStringLiteral("--scenario") << files.first()))
            return fail(parser.errorText());
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);

    ws::setupLogging(parser.isSet(verboseOption));
    const bool screenshot = parser.isSet(screenshotOption);
    std::optional<ws::ModeController::Mode> mode;
    if (parser.isSet(modeOption)) {
        mode = ws::ModeController::modeFromId(parser.value(modeOption));
        if (!mode)
            return fail(QStringLiteral("unknown mode '%1' (known: wafer, chat, compare, explore, present)")
                            .arg(parser.value(modeOption)));
    }
    const QString geometryReport = parser.value(geometryOption);
    std::optional<int> engineLayer;
    if (parser.isSet(dataflowEngineOption)) {
        bool ok = false;
        engineLayer = parser.value(dataflowEngineOption).toInt(&ok);
        if (!ok || *engineLayer < 0)
            return fail(QStringLiteral("--dataflow-engine needs a layer number (0 or more), not '%1'")
                            .arg(parser.value(dataflowEngineOption)));
    }

    ws::LanguageManager languages;
    QString language = ws::LanguageManager::systemLanguage();
    if (!screenshot)
        language = QSettings().value(QStringLiteral("language"), language).toString();
    if (parser.isSet(langOption)) {
        language = parser.value(langOption);
        if (!ws::LanguageManager::availableLanguages().contains(language))
            return fail(QStringLiteral("unknown language '%1' (known: %2)")
                            .arg(language, ws::LanguageManager::availableLanguages().join(QStringLiteral(", "))));
    }
    languages.setLanguage(language);
    if (!screenshot)
        QObject::connect(&languages, &ws::LanguageManager::languageChanged,
                         [](const QString& code) { QSettings().setValue(QStringLiteral("language"), code); });
    ws::applyTheme(app);

    const ws::PresetLibrary presets;
    for (const QString& error : presets.loadErrors())
        spdlog::warn("preset skipped: {}", error.toStdString());

    ws::MainWindow window(presets, languages);
    ws::FileMenuController* files = window.fileMenu();
    if (screenshot) {
        // No dialogs and no autosave session: open the scenario (if any), render, exit.
        files->setInteractive(false);
        QObject::connect(files, &ws::FileMenuController::errorOccurred, [](const QString& message) { fail(message); });
        const QString scenario = parser.value(QStringLiteral("scenario"));
        if (!scenario.isEmpty() && !files->openFile(scenario))
            return 2;
        window.ensurePlacement();
        // The offscreen platform's screen (800 × 600) is no real one: render at the window's default size.
        window.resize(window.windowLayout()->defaultSize());
        window.show();
        if (mode) {
            if (auto* present = window.findChild<ws::PresentationMode*>())
                present->setFullScreen(false); // the window's size, not the offscreen screen's
            window.modes()->setMode(*mode);
        }
        if (parser.isSet(dataflowTimeOption) || engineLayer) {
            bool ok = !parser.isSet(dataflowTimeOption);
            const double fraction = ok ? 0.5 : parser.value(dataflowTimeOption).toDouble(&ok);
            if (!ok || !(fraction >= 0 && fraction <= 1))
                return fail(QStringLiteral("--dataflow-time needs a fraction from 0 to 1, not '%1'")
                                .arg(parser.value(dataflowTimeOption)));
            // The defects remap replaces the heatmap's snapshot when it ends: animate on that one.
            if (QString error; !ws::waitForPendingWork(pendingWork(window), 120000, &error))
                return fail(error);
            const ws::Scenario opened = window.scenario();
            // The engine's still layers (Links, Values) when the scenario shows one, else the Dataflow layer.
            window.setLayer(ws::isFrameLayer(window.stage()->layer()) ? window.stage()->layer()
                                                                      : ws::MeshLayer::Dataflow);
            if (engineLayer) {
                window.dataflowDock()->setSource(1, *engineLayer);
                QElapsedTimer waited;
                waited.start();
                while (window.dataflowDock()->isExecuting() && waited.elapsed() < 120000)
                    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
                window.dataflowDock()->controller()->pause();
                // A scenario that names its own zoom keeps it (the engine zooms to the layer's region otherwise).
                if (opened.zoom > 1)
                    window.stage()->setViewState(opened.zoom, opened.center);
            }
            window.dataflowDock()->controller()->seekFraction(fraction);
            if (!window.dataflowDock()->errorText().isEmpty())
                return fail(window.dataflowDock()->errorText());
        }
        if (!geometryReport.isEmpty() && !writeGeometryReport(window, geometryReport))
            return 2;
        return saveScreenshot(window, parser.value(screenshotOption));
    }
    // SIGTERM, SIGINT, SIGHUP: unsaved changes go to the autosave, then a normal exit (app/common/quitsignals.h).
    ws::QuitSignals quitSignals;
    QObject::connect(&quitSignals, &ws::QuitSignals::quitRequested, files,
                     [files](int signalNumber) { files->quitForSignal(ws::QuitSignals::name(signalNumber)); });
    if (!parser.isSet(QStringLiteral("print-scenario"))) {
        // The window first: a question about recovering a crashed session is asked over it, not instead of it.
        window.rememberLayout();
        window.show();
    }
    if (const int exitCode = files->startFromCommandLine(parser); exitCode >= 0)
        return exitCode;
    if (files->quitRequested())
        return 0;
    if (window.ensurePlacement()) // nothing opened: the first run explains itself
        window.startFirstRunDemo();
    if (mode)
        window.modes()->setMode(*mode);
    if (parser.isSet(waferShowsOption)) {
        const QString shows = parser.value(waferShowsOption);
        if (shows != QLatin1String("scenario") && shows != QLatin1String("loaded"))
            return fail(QStringLiteral("--wafer-shows takes scenario or loaded, not '%1'").arg(shows));
        window.chat()->liveWafer()->setShows(shows == QLatin1String("loaded") ? ws::LiveWafer::Shows::LoadedModel
                                                                              : ws::LiveWafer::Shows::ScenarioModel);
    }
    if (engineLayer) {
        window.setLayer(ws::isFrameLayer(window.stage()->layer()) ? window.stage()->layer() : ws::MeshLayer::Dataflow);
        window.dataflowDock()->setSource(1, *engineLayer);
    }
    if (parser.isSet(modelOption))
        window.chat()->openModelFile(parser.value(modelOption));
    if (parser.isSet(presentOption)) {
        QString error;
        if (!window.findChild<ws::PresentationMode*>()->present(parser.value(presentOption), &error))
            return fail(error);
    }
    if (!geometryReport.isEmpty())
        QTimer::singleShot(0, &window, [&window, geometryReport] { writeGeometryReport(window, geometryReport); });
    return app.exec();
}
