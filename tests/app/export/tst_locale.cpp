// Locale independence: what WaferScope writes for other programs (waferscope-cli's JSON and CSV, a saved
// scenario, the CSV and JSON exports of the scenario's tables and of the comparison's charts) is byte for
// byte what the C locale gives, under de_DE.UTF-8, fr_FR.UTF-8 (decimal comma) and tr_TR.UTF-8 (decimal
// comma, and toupper('i') / tolower('I') leave the letter as it is). Every run is a process started with
// LC_ALL and LANG set, as a user's session starts the programs: QCoreApplication then calls
// setlocale(LC_ALL, ""), so printf, strtod and std::to_string follow the locale, and QLocale::system() is the
// locale's. The scenario and the exports come from this binary started again (WS_LOCALE_CHILD_OUT names the
// folder it writes to) doing what the app does: it first records the locale it runs in (so a locale that did
// not take cannot pass), then chooses the interface language from the system locale as the app's main does,
// which sets QLocale's default to that language's (en_US here: the views' numbers follow the language).
// A locale that is not installed fails the test in CI (install-deps.sh generates the three) and skips it
// elsewhere.
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "app/export/exporter.h"
#include "app/export/exportstamp.h"
#include "app/export/scenariotables.h"
#include "app/scenario/scenarioformat.h"
#include "tests/common/clirunner.h"
#include "tests/common/scenariofiles.h"
#include "tests/common/testskips.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/concurrencychart.h"
#include "views/compare/costchart.h"
#include "views/compare/rangebarchart.h"
#include "views/compare/rooflinechart.h"

#include <QApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <clocale>
#include <cstdio>
#include <memory>
#include <vector>

#include <locale.h>

namespace {

const char* const kLocales[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "tr_TR.UTF-8"};

bool localeInstalled(const QString& name)
{
    const locale_t l = ::newlocale(LC_ALL_MASK, name.toLatin1().constData(), locale_t(nullptr));
    if (!l)
        return false;
    ::freelocale(l);
    return true;
}

#define WS_REQUIRE_LOCALE(locale)                                                                                      \
    WS_REQUIRE(localeInstalled(locale),                                                                                \
               QStringLiteral("the %1 locale is not installed (install-deps.sh generates it)").arg(locale))

// Where `actual` first differs from `expected`, with the text around it; empty when they are the same.
QString firstDifference(const QByteArray& actual, const QByteArray& expected)
{
    if (actual == expected)
        return {};
    qsizetype at = 0;
    while (at < actual.size() && at < expected.size() && actual[at] == expected[at])
        ++at;
    const qsizetype from = std::max<qsizetype>(0, at - 60);
    return QStringLiteral("differs from the C locale's at byte %1:\n  here: ...%2...\n  C:    ...%3...")
        .arg(at)
        .arg(QString::fromUtf8(actual.mid(from, 120)), QString::fromUtf8(expected.mid(from, 120)));
}

// The child: what the app writes, from the scenario files named in `scenarioPaths` (separated by '|'), into
// `out`: each scenario saved again (<name>.waferscope) and its tables exported (<name>-<table>.csv, .json),
// and the comparison's charts for the first one's model exported (chart_<name>.csv, .json).
int writeOutputs(const QString& out, const QString& scenarioPaths)
{
    const auto fail = [](const QString& what) {
        std::fprintf(stderr, "%s\n", qPrintable(what));
        return 1;
    };
    QString error;
    {
        QFile info(QDir(out).filePath(QStringLiteral("locale.txt")));
        if (!info.open(QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write locale.txt"));
        info.write(QByteArray("decimal_point ") + std::localeconv()->decimal_point + "\nqlocale " +
                   QLocale::system().name().toUtf8() + "\n");
    }
    // As the app's main: the interface language follows the system locale (English unless Chinese), and
    // QLocale's default (the views' digit grouping and decimal point) follows the language.
    ws::LanguageManager languages;
    languages.setLanguage(ws::LanguageManager::systemLanguage());
    const ws::PresetLibrary presets(QString{});
    using MakeTable = std::optional<ws::DataTable> (*)(const ws::Scenario&, const ws::PresetLibrary&, QString*);
    const std::pair<const char*, MakeTable> tables[] = {{"prediction", &ws::ScenarioTables::prediction},
                                                        {"breakdown", &ws::ScenarioTables::breakdown},
                                                        {"schedule", &ws::ScenarioTables::schedule}};
    std::optional<ws::Scenario> first;
    for (const QString& scenarioPath : scenarioPaths.split(QLatin1Char('|'))) {
        const QString base = QFileInfo(scenarioPath).completeBaseName();
        const auto scenario = ws::ScenarioFormat::load(scenarioPath, &error);
        if (!scenario)
            return fail(error);
        if (!first)
            first = scenario;
        if (!ws::ScenarioFormat::save(*scenario, QDir(out).filePath(base + QStringLiteral(".waferscope")), &error))
            return fail(error);
        // The scenario's tables, as File > Export writes them.
        const ws::ExportStamp stamp = ws::ExportStamp::forScenario(ws::ScenarioFormat::toJson(*scenario));
        for (const auto& [name, make] : tables) {
            const auto table = make(*scenario, presets, &error);
            if (!table)
                return fail(QStringLiteral("%1 %2: %3").arg(base, QLatin1String(name), error));
            for (const char* suffix : {".csv", ".json"}) {
                const QString file = base + QLatin1Char('-') + QLatin1String(name) + QLatin1String(suffix);
                if (!ws::Exporter::saveTable(*table, QDir(out).filePath(file), &error, stamp))
                    return fail(error);
            }
        }
    }

    // The comparison's charts, as their Export buttons write them.
    ws::views::ComparisonPanel panel;
    ws::ComparisonController comparison(presets, &panel);
    ws::views::ComparisonSettings settings = ws::ComparisonController::defaultSettings();
    settings.modelId = first->modelPreset;
    settings.workload.concurrency = first->batch;
    comparison.setSettings(settings);
    const std::pair<const char*, ws::views::ChartData> charts[] = {
        {"chart_speed", panel.speedChart()->chartData()},
        {"chart_ttft", panel.ttftChart()->chartData()},
        {"chart_energy", panel.energyChart()->chartData()},
        {"chart_concurrency", panel.concurrencyChart()->chartData()},
        {"chart_cost", panel.costChart()->chartData()},
        {"chart_roofline", panel.rooflineChart()->chartData()},
        {"chart_meaning", panel.meaningData()},
        {"chart_inputs", panel.inputData()}};
    for (const auto& [name, data] : charts) {
        if (data.rows.isEmpty())
            return fail(QStringLiteral("%1: no rows").arg(QLatin1String(name)));
        for (const char* suffix : {".csv", ".json"})
            if (!comparison.exportTo(&panel, data, QLatin1String(name),
                                     QDir(out).filePath(QLatin1String(name) + QLatin1String(suffix)), 1.0, &error))
                return fail(error);
    }
    return 0;
}

// A process started under a locale (LC_ALL and LANG), with what it wrote once it finished.
struct Run
{
    QString locale;
    std::unique_ptr<QProcess> process;
    bool ok = false; // exited normally, with 0
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run start(const QString& locale, const QString& program, const QStringList& args,
          QProcessEnvironment env = QProcessEnvironment::systemEnvironment())
{
    env.insert(QStringLiteral("LC_ALL"), locale);
    env.insert(QStringLiteral("LANG"), locale);
    Run r;
    r.locale = locale;
    r.process = std::make_unique<QProcess>();
    r.process->setProcessEnvironment(env);
    r.process->start(program, args);
    return r;
}

// Waits for every run (they run at once).
void finish(std::vector<Run>& runs)
{
    for (Run& r : runs) {
        if (!r.process->waitForFinished(240000)) {
            r.process->kill();
            r.process->waitForFinished();
            r.err = "timed out";
            continue;
        }
        r.exitCode = r.process->exitStatus() == QProcess::NormalExit ? r.process->exitCode() : -1;
        r.ok = r.exitCode == 0;
        r.out = r.process->readAllStandardOutput();
        r.err = r.process->readAllStandardError();
    }
}

// This binary again, under `locale`, writing into `out` what the app writes from the scenarios (separated by
// '|').
Run startChild(const QString& locale, const QString& out, const QString& scenarios)
{
    QDir().mkpath(out);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("WS_LOCALE_CHILD_OUT"), out);
    env.insert(QStringLiteral("WS_LOCALE_CHILD_SCENARIO"), scenarios);
    return start(locale, QCoreApplication::applicationFilePath(), {}, env);
}

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files, QDir::Name);
}

} // namespace

class TestLocale : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_scenario; // with a layout, a view and a prompt with Turkish letters
    QString m_plain;    // a preset on defective wafers (a layout cannot be placed around defects)

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // waferscope-cli under `locale`, its placeholders replaced (@OUT@: `out`, a folder of this run's own).
    Run startCli(const QString& locale, QStringList args, const QString& out)
    {
        QDir().mkpath(out);
        args.replaceInStrings(QStringLiteral("@OUT@"), out);
        args.replaceInStrings(QStringLiteral("@SCENARIO@"), m_scenario);
        args.replaceInStrings(QStringLiteral("@PLAIN@"), m_plain);
        args.replaceInStrings(QStringLiteral("@LAYOUT@"), path(QStringLiteral("layout.json")));
        return start(locale, wstest::cliBinary(), args, wstest::headlessEnvironment());
    }

    // The C locale's run first, then one under each locale of kLocales.
    std::vector<Run> cliEverywhere(const QStringList& args, const QString& name)
    {
        std::vector<Run> runs;
        runs.push_back(startCli(QStringLiteral("C"), args, path(name + QStringLiteral("-C"))));
        for (const char* locale : kLocales)
            runs.push_back(startCli(QString::fromLatin1(locale), args, path(name + QLatin1Char('-') + locale)));
        finish(runs);
        return runs;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(!wstest::cliBinary().isEmpty(), "WAFERSCOPE_CLI_BINARY is not set (run through ctest)");
        // A layout as `place --layout-out` writes it, in the C locale.
        std::vector<Run> placed;
        placed.push_back(startCli(QStringLiteral("C"),
                                  {"place", "--model", "llama-3.1-8b", "--hardware", "wse3", "--weight-fill", "0.75",
                                   "--layout-out", "@LAYOUT@", "--json"},
                                  path(QStringLiteral("layout"))));
        finish(placed);
        QVERIFY2(placed[0].ok, placed[0].err.constData());
        QJsonObject root = QJsonDocument::fromJson(wstest::scenarioFile(QStringLiteral("llama-3.1-8b"),
                                                                        wstest::readAll(path("layout.json"))))
                               .object();
        QVERIFY(root.contains(QStringLiteral("layout")));
        root.insert(QStringLiteral("workload"),
                    QJsonObject{{"context_tokens", 4096},
                                {"batch", 3},
                                {"prompt_tokens", 640},
                                {"output_tokens", 320},
                                {"prompt", QStringLiteral("Işık İstanbul'da: iki ILIK çay, 0.5 l")}});
        root.insert(QStringLiteral("view"),
                    QJsonObject{{"layer", "kv"}, {"zoom", 1.75}, {"center", QJsonArray{12.5, -3.25}}});
        m_scenario = path(QStringLiteral("scenario.waferscope"));
        wstest::writeAll(m_scenario, QJsonDocument(root).toJson());
        m_plain = path(QStringLiteral("plain.waferscope"));
        QJsonObject plain = QJsonDocument::fromJson(wstest::scenarioFile(QStringLiteral("llama-3.1-70b"), {})).object();
        plain.insert(QStringLiteral("defects"), QJsonObject{{"rate", 0.0125}, {"seed", 7}});
        plain.insert(QStringLiteral("view"), QJsonObject{{"layer", "defects"}, {"zoom", 0.8}});
        wstest::writeAll(m_plain, QJsonDocument(plain).toJson());
    }

    // JSON and CSV of every command that writes them: exit code, stdout and stderr byte for byte, and a file
    // the command writes.
    void cliWritesTheSameBytes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("written"); // a file the command writes (under @OUT@), or empty
        const auto row = [](const char* name, const QStringList& args) {
            QTest::newRow(name) << args
                                << (args.contains(QStringLiteral("@OUT@/layout.json")) ? QStringLiteral("layout.json")
                                                                                       : QString());
        };
        row("predict wse3", {"predict", "--model", "llama-3.1-70b", "--hardware", "wse3", "--json"});
        row("predict h100", {"predict", "--model", "llama-3.1-70b", "--hardware", "h100", "--json"});
        row("predict groq-lpu", {"predict", "--model", "llama-3.1-70b", "--hardware", "groq-lpu", "--json"});
        row("predict speculative wse3",
            {"predict", "--model", "llama-3.1-70b", "--hardware", "wse3", "--speculative", "--json"});
        row("predict speculative h100, decimals in",
            {"predict", "--model", "llama-3.1-70b", "--hardware", "h100", "--speculative-tokens", "4", "--acceptance",
             "0.65", "--draft-cost", "0.15", "--json"});
        row("predict defects and precision INT8", {"predict", "--model", "llama-3.1-8b", "--hardware", "wse3",
                                                   "--defect-rate", "0.0125", "--precision", "INT8", "--json"});
        row("predict layout",
            {"predict", "--model", "llama-3.1-8b", "--hardware", "wse3", "--layout", "@LAYOUT@", "--json"});
        row("predict profiles", {"predict", "--profiles"});
        row("place", {"place", "--model", "llama-3.1-8b", "--hardware", "wse3", "--weight-fill", "0.75", "--layout-out",
                      "@OUT@/layout.json", "--json"});
        row("place, fill too low",
            {"place", "--model", "llama-3.1-70b", "--hardware", "wse3", "--weight-fill", "0.05", "--json"});
        row("sweep csv", {"sweep", "--model", "llama-3.1-8b", "--hardware", "wse3", "--param", "fill=0.55,0.7",
                          "--param", "context=2048,8192", "--csv"});
        row("sweep json",
            {"sweep", "--model", "llama-3.1-8b", "--hardware", "wse3", "--param", "fill=0.5:0.8:0.15", "--json"});
        row("execute", {"execute", "--model", "llama-3.1-8b", "--hardware", "wse3", "--layer", "0", "--json"});
        row("compare", {"compare", "@PLAIN@", "@SCENARIO@", "--json"});
    }
    void cliWritesTheSameBytes()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, written);
        for (const char* locale : kLocales)
            WS_REQUIRE_LOCALE(QString::fromLatin1(locale));
        const std::vector<Run> runs =
            cliEverywhere(args, QStringLiteral("cli-") + QString::fromLatin1(QTest::currentDataTag()));
        const Run& c = runs.front();
        QVERIFY2(c.exitCode >= 0, c.err.constData());
        QVERIFY2(!c.out.isEmpty() || !c.err.isEmpty(), "no output in the C locale");
        for (size_t i = 1; i < runs.size(); ++i) {
            const Run& r = runs[i];
            QVERIFY2(r.exitCode == c.exitCode,
                     qPrintable(QStringLiteral("%1: exit %2, %3 in C").arg(r.locale).arg(r.exitCode).arg(c.exitCode)));
            QString difference = firstDifference(r.out, c.out);
            QVERIFY2(difference.isEmpty(), qPrintable(r.locale + QStringLiteral(": stdout ") + difference));
            difference = firstDifference(r.err, c.err);
            QVERIFY2(difference.isEmpty(), qPrintable(r.locale + QStringLiteral(": stderr ") + difference));
        }
        if (!written.isEmpty()) {
            const QString tag = QStringLiteral("cli-") + QString::fromLatin1(QTest::currentDataTag());
            const QByteArray expected = wstest::readAll(QDir(path(tag + QStringLiteral("-C"))).filePath(written));
            QVERIFY(!expected.isEmpty());
            for (const char* locale : kLocales) {
                const QString difference = firstDifference(
                    wstest::readAll(QDir(path(tag + QLatin1Char('-') + locale)).filePath(written)), expected);
                QVERIFY2(difference.isEmpty(),
                         qPrintable(QStringLiteral("%1: %2 %3").arg(QLatin1String(locale), written, difference)));
            }
        }
    }

    // The locale reaches the CLI: its plain text (for people) has the locale's decimal comma.
    void cliRunsInTheLocale()
    {
        for (const char* locale : kLocales)
            WS_REQUIRE_LOCALE(QString::fromLatin1(locale));
        const std::vector<Run> runs =
            cliEverywhere({"place", "--model", "llama-3.1-8b", "--hardware", "wse3"}, QStringLiteral("plain"));
        const QRegularExpression point(QStringLiteral("SRAM used: [0-9]+\\.[0-9]+ of [0-9]+\\.[0-9]+ GB"));
        const QRegularExpression comma(QStringLiteral("SRAM used: [0-9]+,[0-9]+ of [0-9]+,[0-9]+ GB"));
        QVERIFY2(runs.front().ok && point.match(QString::fromUtf8(runs.front().out)).hasMatch(),
                 runs.front().out.constData());
        for (size_t i = 1; i < runs.size(); ++i)
            QVERIFY2(runs[i].ok && comma.match(QString::fromUtf8(runs[i].out)).hasMatch(),
                     qPrintable(runs[i].locale + QStringLiteral(": ") + QString::fromUtf8(runs[i].out)));
    }

    // Both scenarios saved again, their tables and the comparison's charts as CSV and JSON.
    void savesAndExportsTheSameBytes()
    {
        for (const char* locale : kLocales)
            WS_REQUIRE_LOCALE(QString::fromLatin1(locale));
        const QString scenarios = m_scenario + QLatin1Char('|') + m_plain;
        std::vector<Run> runs;
        runs.push_back(startChild(QStringLiteral("C"), path(QStringLiteral("files-C")), scenarios));
        for (const char* locale : kLocales)
            runs.push_back(startChild(QString::fromLatin1(locale), path(QStringLiteral("files-") + locale), scenarios));
        finish(runs);
        for (const Run& r : runs)
            QVERIFY2(r.ok, qPrintable(r.locale + QStringLiteral(": ") + QString::fromLocal8Bit(r.err)));
        const QString inC = path(QStringLiteral("files-C"));
        QCOMPARE(wstest::readAll(QDir(inC).filePath(QStringLiteral("locale.txt"))),
                 QByteArray("decimal_point .\nqlocale C\n"));
        const QStringList files = filesIn(inC);
        QCOMPARE(files.size(), 1 + 2 * (1 + 3 * 2) + 8 * 2); // locale.txt, 2 scenarios with 3 tables each, 8 charts
        for (const char* locale : kLocales) {
            const QString here = path(QStringLiteral("files-") + locale);
            QCOMPARE(wstest::readAll(QDir(here).filePath(QStringLiteral("locale.txt"))),
                     QByteArray("decimal_point ,\nqlocale ") + QByteArray(locale).left(5) + "\n");
            QCOMPARE(filesIn(here), files);
            for (const QString& name : files) {
                if (name == QLatin1String("locale.txt"))
                    continue;
                const QByteArray expected = wstest::readAll(QDir(inC).filePath(name));
                QVERIFY2(!expected.isEmpty(), qPrintable(name));
                const QString difference = firstDifference(wstest::readAll(QDir(here).filePath(name)), expected);
                QVERIFY2(difference.isEmpty(),
                         qPrintable(QStringLiteral("%1: %2 %3").arg(QLatin1String(locale), name, difference)));
            }
        }
    }

    // A scenario saved under German opens in the C locale and saves again byte for byte, the file the C locale
    // saves.
    void germanSaveOpensInC()
    {
        const QString german = QString::fromLatin1(kLocales[0]);
        WS_REQUIRE_LOCALE(german);
        std::vector<Run> saved;
        saved.push_back(startChild(german, path(QStringLiteral("save-de")), m_scenario));
        saved.push_back(startChild(QStringLiteral("C"), path(QStringLiteral("save-C")), m_scenario));
        finish(saved);
        for (const Run& r : saved)
            QVERIFY2(r.ok, qPrintable(r.locale + QStringLiteral(": ") + QString::fromLocal8Bit(r.err)));
        const QString germanFile =
            QDir(path(QStringLiteral("save-de"))).filePath(QStringLiteral("scenario.waferscope"));
        const QByteArray germanBytes = wstest::readAll(germanFile);
        QVERIFY(germanBytes.contains("\"zoom\": 1.75"));
        QCOMPARE(wstest::readAll(QDir(path(QStringLiteral("save-C"))).filePath(QStringLiteral("scenario.waferscope"))),
                 germanBytes);
        std::vector<Run> reopened;
        reopened.push_back(startChild(QStringLiteral("C"), path(QStringLiteral("reopen-C")), germanFile));
        finish(reopened);
        QVERIFY2(reopened[0].ok, reopened[0].err.constData());
        QCOMPARE(
            wstest::readAll(QDir(path(QStringLiteral("reopen-C"))).filePath(QStringLiteral("scenario.waferscope"))),
            germanBytes);
    }
};

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet("WS_LOCALE_CHILD_OUT")) {
        QApplication app(argc, argv); // setlocale(LC_ALL, ""), as the app's own QApplication does
        return writeOutputs(qEnvironmentVariable("WS_LOCALE_CHILD_OUT"),
                            qEnvironmentVariable("WS_LOCALE_CHILD_SCENARIO"));
    }
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true); // as QTEST_MAIN
    TestLocale test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_locale.moc"
