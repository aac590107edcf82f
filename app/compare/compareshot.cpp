// waferscope-compare-shot: renders the comparison panel and the race to PNG
// files (the README screenshots), with the real presets, predictors and the
// sample token stream. Works on the offscreen platform.
//   waferscope-compare-shot [--model ID] [--users N] [--tab 0|1|2] [--compare FILE.png]
//                           [--race FILE.png] [--race-seconds S] [--scale X] [--lang zh_CN] [--print-data]
//                           [--measurements FILE.json]... [--size WxH]

#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/compare/comparecontroller.h"
#include "app/compare/racesample.h"
#include "app/export/exporter.h"
#include "app/export/screenshot.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/concurrencychart.h"
#include "views/compare/rangebarchart.h"
#include "views/compare/tokenrace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QTabWidget>

#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addHelpOption();
    const QCommandLineOption modelOpt(QStringLiteral("model"), QStringLiteral("model preset"), QStringLiteral("id"),
                                      QStringLiteral("llama-3.1-70b"));
    const QCommandLineOption usersOpt(QStringLiteral("users"), QStringLiteral("concurrency"), QStringLiteral("n"),
                                      QStringLiteral("1"));
    const QCommandLineOption tabOpt(QStringLiteral("tab"), QStringLiteral("panel tab"), QStringLiteral("n"),
                                    QStringLiteral("0"));
    const QCommandLineOption compareOpt(QStringLiteral("compare"), QStringLiteral("panel PNG"), QStringLiteral("file"));
    const QCommandLineOption raceOpt(QStringLiteral("race"), QStringLiteral("race PNG"), QStringLiteral("file"));
    const QCommandLineOption secondsOpt(QStringLiteral("race-seconds"), QStringLiteral("race time shown"),
                                        QStringLiteral("s"), QStringLiteral("2.5"));
    const QCommandLineOption scaleOpt(QStringLiteral("scale"), QStringLiteral("pixel scale"), QStringLiteral("x"),
                                      QStringLiteral("1"));
    const QCommandLineOption langOpt(QStringLiteral("lang"), QStringLiteral("en or zh_CN"), QStringLiteral("code"),
                                     QStringLiteral("en"));
    const QCommandLineOption csvOpt(QStringLiteral("print-data"), QStringLiteral("print every chart's data as CSV"));
    const QCommandLineOption measurementsOpt(QStringLiteral("measurements"),
                                             QStringLiteral("a measurement file to add"), QStringLiteral("file"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QStringLiteral("panel size"), QStringLiteral("WxH"),
                                     QStringLiteral("1600x940"));
    cli.addOptions({modelOpt, usersOpt, tabOpt, compareOpt, raceOpt, secondsOpt, scaleOpt, csvOpt, langOpt,
                    measurementsOpt, sizeOpt});
    cli.process(app);

    ws::LanguageManager languages;
    if (!languages.setLanguage(cli.value(langOpt))) {
        std::fprintf(stderr, "unknown language %s\n", qPrintable(cli.value(langOpt)));
        return 2;
    }
    const ws::PresetLibrary presets(QString{}); // built-in presets only: the same picture on every machine
    ws::views::ComparisonPanel panel;
    ws::views::TokenRace race;
    ws::ComparisonController controller(presets, &panel, &race);
    ws::views::ComparisonSettings settings = ws::ComparisonController::defaultSettings();
    settings.modelId = cli.value(modelOpt);
    settings.workload.concurrency = std::max(1, cli.value(usersOpt).toInt());
    controller.setRaceText(ws::RaceSample::pieces(), ws::RaceSample::source());
    controller.setSettings(settings);
    for (const QString& path : cli.values(measurementsOpt)) {
        QFile f(path);
        const QString error = f.open(QIODevice::ReadOnly) ? controller.addMeasurements(f.readAll(), path)
                                                          : path + QStringLiteral(": ") + f.errorString();
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
    }
    const double scale = cli.value(scaleOpt).toDouble();

    if (cli.isSet(csvOpt)) {
        for (const ws::views::ChartData& d :
             {panel.speedChart()->chartData(), panel.ttftChart()->chartData(), panel.energyChart()->chartData(),
              panel.concurrencyChart()->chartData(), panel.meaningData()}) {
            ws::DataTable t;
            t.name = d.name;
            t.columns = d.columns;
            t.rows = d.rows;
            std::printf("# %s\n%s\n", qPrintable(d.name), ws::Exporter::toCsv(t).constData());
        }
    }
    int status = 0;
    auto save = [&](QWidget* w, const QString& path) {
        QString error;
        if (!ws::saveScreenshot(w, path, {}, scale, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            status = 2;
        }
    };
    if (cli.isSet(compareOpt)) {
        const QStringList size = cli.value(sizeOpt).split(QLatin1Char('x'));
        panel.resize(size.value(0).toInt() > 0 ? size.value(0).toInt() : 1600,
                     size.value(1).toInt() > 0 ? size.value(1).toInt() : 940);
        panel.tabs()->setCurrentIndex(cli.value(tabOpt).toInt());
        save(&panel, cli.value(compareOpt));
    }
    if (cli.isSet(raceOpt)) {
        race.setExternalClock(true); // the picture shows the moment asked for, not a running race
        race.resize(1500, 620);
        race.show();
        QApplication::processEvents();
        race.advanceTo(cli.value(secondsOpt).toDouble());
        save(&race, cli.value(raceOpt));
    }
    return status;
}
