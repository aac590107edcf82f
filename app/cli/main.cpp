// waferscope-cli: scripted access to the engine (contract in shared/DESIGN.md).
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"

#include <QCoreApplication>

#include <cstdio>
#include <functional>
#include <map>

namespace {
void printUsage()
{
    std::fputs("usage: waferscope-cli <generate|place|predict|render|record> [options]\n"
               "       waferscope-cli <command> --help\n",
               stderr);
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("waferscope-cli"));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty()) {
        printUsage();
        return ws::cli::kExitBadInput;
    }
    const QString command = args.takeFirst();
    const std::map<QString, std::function<int(const QStringList&)>> commands{
        {QStringLiteral("generate"), ws::cli::runGenerate}, {QStringLiteral("place"), ws::cli::runPlace},
        {QStringLiteral("predict"), ws::cli::runPredict},   {QStringLiteral("render"), ws::cli::runRender},
        {QStringLiteral("record"), ws::cli::runRecord},
    };
    const auto it = commands.find(command);
    if (it == commands.end()) {
        printUsage();
        return ws::cli::fail(QStringLiteral("unknown command '%1'").arg(command));
    }
    return it->second(args);
}
