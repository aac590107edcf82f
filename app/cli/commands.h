#pragma once
// waferscope-cli subcommands (contract in shared/DESIGN.md). Each takes the
// arguments after the subcommand name and returns the process exit code:
// 0 on success, 2 on bad input with one line on stderr (see CliUtil::fail).

#include <QStringList>

namespace ws::cli {

int runGenerate(const QStringList& args);
int runPlace(const QStringList& args);
int runPredict(const QStringList& args);
int runRender(const QStringList& args);
int runRecord(const QStringList& args);
int runCompare(const QStringList& args);
int runSweep(const QStringList& args);
int runSweepMerge(const QStringList& args);
int runOptimize(const QStringList& args);

} // namespace ws::cli
