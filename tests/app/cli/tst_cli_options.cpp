// The commands that take a scenario on the command line (place, predict, sweep, optimize, execute) read it
// from one option table (app/cli/specoptions.h): an option they share is described alike in every --help, and
// without it they assume the same value. Run as real processes.
#include "tests/common/clirunner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

namespace {

// The help of `--name` in `command --help`: its first line and the lines its description wraps onto.
QString optionHelp(const QString& command, const QString& name)
{
    const wstest::CliRun run = wstest::runCli({command, QStringLiteral("--help")});
    if (run.exitCode != 0)
        return QStringLiteral("(%1 --help failed)").arg(command);
    const QStringList lines = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
    const QRegularExpression start(QStringLiteral("^\\s+--%1\\b").arg(QRegularExpression::escape(name)));
    const QRegularExpression nextOption(QStringLiteral("^\\s+-"));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!start.match(lines[i]).hasMatch())
            continue;
        QString help = lines[i].simplified();
        for (qsizetype j = i + 1;
             j < lines.size() && !lines[j].trimmed().isEmpty() && !nextOption.match(lines[j]).hasMatch(); ++j)
            help += QLatin1Char(' ') + lines[j].simplified();
        return help;
    }
    return {};
}

} // namespace

class TestCliOptions : public QObject
{
    Q_OBJECT
private slots:
    void sharedOptionsReadAlike_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QStringList>("commands");
        const QStringList all{"place", "predict", "sweep", "optimize", "execute"};
        const QStringList wafersOnly{"place", "sweep", "optimize", "execute"};
        QTest::newRow("model") << "model" << all;
        QTest::newRow("hardware (wafers)") << "hardware" << wafersOnly;
        QTest::newRow("context") << "context" << all;
        QTest::newRow("precision") << "precision" << QStringList{"place", "predict", "sweep", "optimize"};
        QTest::newRow("batch") << "batch" << QStringList{"predict", "sweep", "optimize"};
        QTest::newRow("defect-rate") << "defect-rate" << QStringList{"place", "predict"};
        QTest::newRow("seed") << "seed" << QStringList{"place", "predict"};
    }
    void sharedOptionsReadAlike()
    {
        QFETCH(QString, option);
        QFETCH(QStringList, commands);
        const QString first = optionHelp(commands.first(), option);
        QVERIFY2(!first.isEmpty(), qPrintable(commands.first() + " has no --" + option));
        for (const QString& command : commands.mid(1))
            QCOMPARE(optionHelp(command, option), first);
    }

    // Without --context, place reserves and predict decodes over the same context, the one the help names.
    void sameDefaults()
    {
        const QStringList scenario{"--model", "llama-3.1-8b", "--hardware", "wse3", "--json"};
        const wstest::CliRun place = wstest::runCli(QStringList{"place"} + scenario);
        QVERIFY2(place.exitCode == 0, place.err.constData());
        const wstest::CliRun predict = wstest::runCli(QStringList{"predict"} + scenario);
        QVERIFY2(predict.exitCode == 0, predict.err.constData());
        const double placed = QJsonDocument::fromJson(place.out).object().value("context").toDouble();
        const double predicted = QJsonDocument::fromJson(predict.out).object().value("context").toDouble();
        QVERIFY(placed > 0);
        QCOMPARE(placed, predicted);
        const QRegularExpression named(QStringLiteral("\\(default (\\d+)\\)"));
        const auto match = named.match(optionHelp(QStringLiteral("place"), QStringLiteral("context")));
        QVERIFY(match.hasMatch());
        QCOMPARE(match.captured(1).toDouble(), placed);
    }

    // An option a command does not take is an unknown option there, one line on stderr.
    void optionsOfOtherCommandsAreRefused()
    {
        const wstest::CliRun run =
            wstest::runCli({"sweep", "--model", "llama-3.1-8b", "--hardware", "wse3", "--kv", "concat"});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(run.err.contains("kv"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliOptions)
#include "tst_cli_options.moc"
