#pragma once
// Runs the built waferscope-cli as a real process for the CLI tests. The test
// gets the binary's path from the environment ctest sets (wstest::cliBinary).

#include "tests/common/testmodels.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace wstest {

struct CliRun
{
    int exitCode = -1;   // -1 when the process crashed or timed out
    bool crashed = true; // false once it exited normally
    QByteArray out;
    QByteArray err;
};

// The environment without any display, so the CLI must choose the offscreen platform itself.
inline QProcessEnvironment headlessEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    return env;
}

inline CliRun runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                     int timeoutMs = 240000)
{
    QProcess cli;
    cli.setProcessEnvironment(env);
    cli.start(wstest::cliBinary(), args);
    CliRun r;
    if (!cli.waitForFinished(timeoutMs)) {
        cli.kill();
        cli.waitForFinished();
        return r;
    }
    r.crashed = cli.exitStatus() != QProcess::NormalExit;
    r.exitCode = r.crashed ? -1 : cli.exitCode();
    r.out = cli.readAllStandardOutput();
    r.err = cli.readAllStandardError();
    return r;
}

} // namespace wstest
