#pragma once
// Shared helpers for CLI subcommands: option parsing that rejects nonsense
// with exit code 2 and a single line on stderr, and JSON output on stdout.

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ws::cli {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

// Prints "waferscope-cli: <message>" on one line to stderr and returns kExitBadInput.
int fail(const QString& message);

// Parses args (without the program and subcommand names). On error prints one line and returns false.
// Positional arguments are an error unless `positionals`.
bool parseArgs(QCommandLineParser& parser, const QString& command, const QStringList& args, bool positionals = false);

// Typed option readers: nullopt (after printing an error) if the value is not a valid number in [lo, hi].
std::optional<double> doubleOption(const QCommandLineParser& parser, const QString& name, double fallback, double lo,
                                   double hi);
std::optional<long long> intOption(const QCommandLineParser& parser, const QString& name, long long fallback,
                                   long long lo, long long hi);

// Writes a JSON object to stdout, compact, with a trailing newline.
void printJson(const QJsonObject& object);

} // namespace ws::cli
