// waferscope-cli compare: two scenarios (each with its layout, if any) predicted as `predict --json` predicts
// them (app/scenario/scenarioprediction.h), and the differences B - A of what a layout changes
// (comparePredictions, engine/explore/layoutcompare.h, which the window's compare dock shows too).
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/predictjson.h"
#include "app/common/presetlibrary.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioprediction.h"

#include "engine/explore/layoutcompare.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>

#include <cstdio>

namespace ws::cli {

namespace {
struct Side
{
    ScenarioPrediction predicted;
    QJsonObject json; // as predict --json prints it
};

std::optional<Side> predictFile(const QString& path, const PresetLibrary& library, QString* error)
{
    const auto scenario = ScenarioFormat::load(path, error);
    if (!scenario)
        return std::nullopt;
    QString why;
    auto predicted = predictScenario(*scenario, library, QFileInfo(path).absolutePath(), &why);
    if (!predicted) {
        *error = QStringLiteral("%1: %2").arg(path, why);
        return std::nullopt;
    }
    QJsonArray notes;
    for (const std::string& n : predicted->prediction.notes)
        notes.append(QString::fromStdString(n));
    const ScenarioScene& scene = predicted->scene;
    QJsonObject json =
        predictionJson(scene.model(), scene.hardware(), scene.spec.workload, predicted->prediction, notes);
    return Side{std::move(*predicted), std::move(json)};
}
} // namespace

int runCompare(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Compare two scenarios (layouts): tokens/s per user, TTFT, wafers, SRAM headroom, KV capacity "
                       "and time per token by phase, as B - A."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("A"), QStringLiteral("The first .waferscope scenario."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("The second .waferscope scenario."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (!parseArgs(parser, QStringLiteral("compare"), args, true))
        return kExitBadInput;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return kExitOk;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() != 2)
        return fail(QStringLiteral("compare: give two scenario files, A and B"));
    const PresetLibrary library;
    QString error;
    const auto a = predictFile(files[0], library, &error);
    if (!a)
        return fail(error);
    const auto b = predictFile(files[1], library, &error);
    if (!b)
        return fail(error);
    // The window's compare dock differences its two layouts with the same function.
    const PredictionDelta d = comparePredictions(a->predicted.prediction, b->predicted.prediction);
    QJsonObject delta;
    for (const ComparedQuantity& q : d.quantities)
        delta.insert(QString::fromStdString(q.id), q.delta());
    QJsonObject phaseDelta;
    for (const ComparedQuantity& q : d.phasesMs)
        phaseDelta.insert(QString::fromStdString(q.id), q.delta());
    delta.insert(QStringLiteral("breakdown"), phaseDelta);

    if (!parser.isSet(QStringLiteral("json"))) {
        std::printf("B - A (%s vs %s):\n", qPrintable(files[1]), qPrintable(files[0]));
        for (const ComparedQuantity& q : d.quantities)
            std::printf("  %-28s %14.4f\n", q.id.c_str(), q.delta());
        for (auto it = phaseDelta.begin(); it != phaseDelta.end(); ++it)
            std::printf("  ms per token, %-14s %14.6f\n", qPrintable(it.key()), it.value().toDouble());
        return kExitOk;
    }
    printJson(QJsonObject{{QStringLiteral("a"), a->json},
                          {QStringLiteral("b"), b->json},
                          {QStringLiteral("a_file"), files[0]},
                          {QStringLiteral("b_file"), files[1]},
                          {QStringLiteral("delta"), delta},
                          {QStringLiteral("delta_means"), QStringLiteral("B - A; breakdown in ms per token")}});
    return kExitOk;
}

} // namespace ws::cli
