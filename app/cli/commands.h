#pragma once
// waferscope-cli subcommands (contract in shared/DESIGN.md). Each takes the
// arguments after the subcommand name and returns the process exit code:
// 0 on success, 2 on bad input with one line on stderr (see CliUtil::fail).

#include "app/present/tourrecorder.h"

#include <QStringList>

namespace ws::cli {

int runGenerate(const QStringList& args);
int runPlace(const QStringList& args);
int runPredict(const QStringList& args);
int runExecute(const QStringList& args);
int runRender(const QStringList& args);
// `record --tour` records in a main window made by `tourWindow` (the program's main knows the window).
int runRecord(const QStringList& args, const TourWindowFactory& tourWindow = {});
int runCompare(const QStringList& args);
int runSweep(const QStringList& args);
int runSweepMerge(const QStringList& args);
int runOptimize(const QStringList& args);
int runAccuracy(const QStringList& args);

} // namespace ws::cli
