// waferscope-cli: scripted access to the engine (contract in shared/DESIGN.md).
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/common/allocator.h"
#include "app/common/buildinfo.h"
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/present/presentationmode.h"
#include "app/window/filemenucontroller.h"
#include "app/window/mainwindow.h"
#include "app/window/theme.h"

#include <QApplication>
#include <QCoreApplication>

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

namespace {
void printUsage()
{
    std::fputs("usage: waferscope-cli "
               "<generate|place|predict|execute|compare|sweep|sweep-merge|optimize|accuracy|render|record> [options]\n"
               "       waferscope-cli <command> --help\n"
               "       waferscope-cli --version\n",
               stderr);
}
// The main window `record --tour` plays the tour in (the window is above the commands: only main knows it).
ws::TourWindow makeTourWindow(const QString& language)
{
    struct Host
    {
        ws::LanguageManager languages;
        ws::PresetLibrary presets;
        std::unique_ptr<ws::MainWindow> window;
    };
    // The window logs what it does (placements) to the default stream, stdout here, which carries the JSON; its
    // errors come back as the tour's error line.
    spdlog::set_level(spdlog::level::off);
    auto host = std::make_shared<Host>();
    host->languages.setLanguage(language);
    host->window = std::make_unique<ws::MainWindow>(host->presets, host->languages);
    host->window->fileMenu()->setInteractive(false);
    return {host, host->window.get(), host->window->findChild<ws::PresentationMode*>()};
}
} // namespace

int main(int argc, char** argv)
{
    ws::keepLargeBuffersMapped(); // frames and images come and go: give them back (app/common/allocator.h)
    // Qt's own messages (e.g. about XDG_RUNTIME_DIR) go to the log, not stderr: stderr carries one error line.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        spdlog::log(type == QtFatalMsg || type == QtCriticalMsg ? spdlog::level::err : spdlog::level::debug, "qt: {}",
                    message.toStdString());
    });
    // render and record draw widgets: they need a QApplication, offscreen when there is no display.
    const bool drawsWidgets = argc > 1 && (std::strcmp(argv[1], "render") == 0 || std::strcmp(argv[1], "record") == 0);
    if (drawsWidgets && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> app =
        drawsWidgets ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    // A recording looks like the window: its dark theme (title card, tour window, captions).
    if (argc > 1 && std::strcmp(argv[1], "record") == 0)
        ws::applyTheme(static_cast<QApplication&>(*app));
    QCoreApplication::setApplicationName(QStringLiteral("waferscope-cli"));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty()) {
        printUsage();
        return ws::cli::kExitBadInput;
    }
    const QString command = args.takeFirst();
    if (command == QLatin1String("--version")) {
        std::printf("waferscope-cli %s\n", ws::BuildInfo::versionText().toUtf8().constData());
        return ws::cli::kExitOk;
    }
    const std::map<QString, std::function<int(const QStringList&)>> commands{
        {QStringLiteral("generate"), ws::cli::runGenerate},
        {QStringLiteral("place"), ws::cli::runPlace},
        {QStringLiteral("predict"), ws::cli::runPredict},
        {QStringLiteral("execute"), ws::cli::runExecute},
        {QStringLiteral("render"), ws::cli::runRender},
        {QStringLiteral("record"), [](const QStringList& a) { return ws::cli::runRecord(a, makeTourWindow); }},
        {QStringLiteral("compare"), ws::cli::runCompare},
        {QStringLiteral("sweep"), ws::cli::runSweep},
        {QStringLiteral("sweep-merge"), ws::cli::runSweepMerge},
        {QStringLiteral("optimize"), ws::cli::runOptimize},
        {QStringLiteral("accuracy"), ws::cli::runAccuracy},
    };
    const auto it = commands.find(command);
    if (it == commands.end()) {
        printUsage();
        return ws::cli::fail(QStringLiteral("unknown command '%1'").arg(command));
    }
    return it->second(args);
}
