#include "app/cli/cliutil.h"

#include <QJsonDocument>

#include <cstdio>
#include <cstdlib>

namespace ws::cli {

int fail(const QString& message)
{
    QString line = message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    std::fprintf(stderr, "waferscope-cli: %s\n", line.toUtf8().constData());
    return kExitBadInput;
}

bool parseArgs(QCommandLineParser& parser, const QString& command, const QStringList& args, bool positionals)
{
    QStringList full = args;
    full.prepend(QStringLiteral("waferscope-cli ") + command);
    if (!parser.parse(full)) {
        fail(parser.errorText());
        return false;
    }
    if (parser.optionNames().contains(QStringLiteral("help")) || parser.optionNames().contains(QStringLiteral("h"))) {
        // Every command's --help (the man page is made from these): print it and exit 0, as QCommandLineParser does.
        std::fputs(parser.helpText().toUtf8().constData(), stdout);
        std::exit(kExitOk);
    }
    if (!positionals && !parser.positionalArguments().isEmpty()) {
        fail(QStringLiteral("unexpected argument: %1").arg(parser.positionalArguments().first()));
        return false;
    }
    return true;
}

std::optional<double> doubleOption(const QCommandLineParser& parser, const QString& name, double fallback, double lo,
                                   double hi)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const double v = parser.value(name).toDouble(&ok);
    if (!ok || !(v >= lo && v <= hi)) {
        fail(QStringLiteral("--%1 must be a number from %2 to %3, got '%4'")
                 .arg(name)
                 .arg(lo)
                 .arg(hi)
                 .arg(parser.value(name)));
        return std::nullopt;
    }
    return v;
}

std::optional<long long> intOption(const QCommandLineParser& parser, const QString& name, long long fallback,
                                   long long lo, long long hi)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const long long v = parser.value(name).toLongLong(&ok);
    if (!ok || v < lo || v > hi) {
        fail(QStringLiteral("--%1 must be an integer from %2 to %3, got '%4'")
                 .arg(name)
                 .arg(lo)
                 .arg(hi)
                 .arg(parser.value(name)));
        return std::nullopt;
    }
    return v;
}

void printJson(const QJsonObject& object)
{
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace ws::cli
