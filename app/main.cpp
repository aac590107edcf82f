// waferscope: the desktop application.
#include "app/io/filemenucontroller.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMainWindow>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    ws::FileMenuController::addCommandLineOptions(parser);
    parser.process(app);

    QMainWindow window;
    window.resize(1600, 1000);
    auto* files = new ws::FileMenuController(&window);
    files->buildFileMenu();
    if (const int exitCode = files->startFromCommandLine(parser); exitCode >= 0)
        return exitCode;
    window.show();
    return app.exec();
}
