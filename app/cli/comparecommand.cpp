// waferscope-cli compare: two scenarios (each with its layout, if any) predicted as `predict --json` predicts
// them, and the differences B - A of what a layout changes.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/predictjson.h"
#include "app/common/presetlibrary.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioscene.h"

#include "engine/perf/predictor.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>

#include <cstdio>

namespace ws::cli {

namespace {
// Keys of `predict --json` whose difference compare reports; "breakdown" is compared phase by phase.
const char* const kComparedKeys[] = {"tokens_per_second_per_user", "ttft_ms", "ms_per_token", "devices",
                                     "sram_headroom_bytes", "kv_capacity_tokens", "max_concurrency",
                                     "aggregate_tokens_per_second"};

std::optional<QJsonObject> predictScenario(const QString& path, const PresetLibrary& library, QString* error)
{
    const auto scenario = ScenarioFormat::load(path, error);
    if (!scenario)
        return std::nullopt;
    const auto scene = ScenarioScene::build(*scenario, library, QFileInfo(path).absolutePath(), error);
    if (!scene)
        return std::nullopt;
    PredictOptions options;
    options.devices = scenario->devices;
    options.waferDefectRate = scenario->layout ? 0.0 : scenario->defectRate;
    options.waferDefectSeed = scenario->defectSeed;
    options.waferLayout = scenario->layout ? &*scenario->layout : nullptr;
    const Workload& w = scene->request.workload;
    auto p = predict(scene->model(), scene->hardware(), w, options);
    if (!p) {
        *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(p.error().message()));
        return std::nullopt;
    }
    QJsonArray notes;
    for (const std::string& n : p->notes)
        notes.append(QString::fromStdString(n));
    return predictionJson(scene->model(), scene->hardware(), w, *p, notes);
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
    const auto a = predictScenario(files[0], library, &error);
    if (!a)
        return fail(error);
    const auto b = predictScenario(files[1], library, &error);
    if (!b)
        return fail(error);
    QJsonObject delta;
    for (const char* key : kComparedKeys)
        delta.insert(QLatin1String(key), b->value(QLatin1String(key)).toDouble() - a->value(QLatin1String(key)).toDouble());
    const QJsonObject pa = a->value(QStringLiteral("breakdown")).toObject();
    const QJsonObject pb = b->value(QStringLiteral("breakdown")).toObject();
    QSet<QString> phases;
    for (const QString& k : pa.keys() + pb.keys())
        phases.insert(k);
    QJsonObject phaseDelta;
    for (const QString& k : phases)
        phaseDelta.insert(k, pb.value(k).toDouble() - pa.value(k).toDouble());
    delta.insert(QStringLiteral("breakdown"), phaseDelta);

    if (!parser.isSet(QStringLiteral("json"))) {
        std::printf("B - A (%s vs %s):\n", qPrintable(files[1]), qPrintable(files[0]));
        for (const char* key : kComparedKeys)
            std::printf("  %-28s %14.4f\n", key, delta.value(QLatin1String(key)).toDouble());
        for (auto it = phaseDelta.begin(); it != phaseDelta.end(); ++it)
            std::printf("  ms per token, %-14s %14.6f\n", qPrintable(it.key()), it.value().toDouble());
        return kExitOk;
    }
    printJson(QJsonObject{{QStringLiteral("a"), *a},
                          {QStringLiteral("b"), *b},
                          {QStringLiteral("a_file"), files[0]},
                          {QStringLiteral("b_file"), files[1]},
                          {QStringLiteral("delta"), delta},
                          {QStringLiteral("delta_means"), QStringLiteral("B - A; breakdown in ms per token")}});
    return kExitOk;
}

} // namespace ws::cli
