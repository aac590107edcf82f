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

namespace {

// --name as a number in [lo, hi] (`kind` names it in the error), or `fallback` when not given.
template <typename T, typename Parse>
std::optional<T> numberOption(const QCommandLineParser& parser, const QString& name, T fallback, T lo, T hi,
                              const char* kind, Parse parse)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const T v = parse(parser.value(name), &ok);
    if (!ok || !(v >= lo && v <= hi)) {
        fail(QStringLiteral("--%1 must be %2 from %3 to %4, got '%5'")
                 .arg(name, QLatin1String(kind))
                 .arg(lo)
                 .arg(hi)
                 .arg(parser.value(name)));
        return std::nullopt;
    }
    return v;
}

} // namespace

std::optional<double> doubleOption(const QCommandLineParser& parser, const QString& name, double fallback, double lo,
                                   double hi)
{
    return numberOption(parser, name, fallback, lo, hi, "a number",
                        [](const QString& text, bool* ok) { return text.toDouble(ok); });
}

std::optional<long long> intOption(const QCommandLineParser& parser, const QString& name, long long fallback,
                                   long long lo, long long hi)
{
    return numberOption(parser, name, fallback, lo, hi, "an integer",
                        [](const QString& text, bool* ok) { return text.toLongLong(ok); });
}

void printJson(const QJsonObject& object)
{
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace ws::cli
